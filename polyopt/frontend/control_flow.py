"""Control flow of a region: blocks, declarations, loops and their bounds, data-dependent ``if`` guards."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import TypeVar

from pycparser import c_ast

from polyopt.diagnostics import UnsupportedRegion
from polyopt.frontend.affine_expressions import const_value, int_literal
from polyopt.frontend.declarations import declarator_type
from polyopt.frontend.extract_state import Context, ExtractorState, node_location
from polyopt.frontend.locals import declaration_problem, type_spelling
from polyopt.frontend.scop import (
    Access,
    Affine,
    BinOp,
    Compare,
    Condition,
    Divisible,
    Local,
    Loop,
    LoopExit,
    Node,
    Not,
    Var,
    affine_names,
)

_T = TypeVar("_T")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def base_name(node: c_ast.Node) -> str:
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else ""


class ControlFlow(ExtractorState):
    """Reading blocks, declarations, loops and ``if`` statements into the loop tree."""

    def block(self, nodes: list[c_ast.Node], ctx: Context) -> tuple[Node, ...]:
        result: list[Node] = []
        for node in nodes:
            if isinstance(node, c_ast.Decl):
                ctx, declared = self.declaration(node, ctx)
                result.extend(declared)
            else:
                result.extend(self.node(node, ctx))
        return tuple(result)

    def declaration(self, decl: c_ast.Decl, ctx: Context) -> tuple[Context, tuple[Node, ...]]:
        """A scalar declared in the region (``polyopt.frontend.locals``): the context where it is in
        scope, and the statement of its initializer."""
        problem = declaration_problem(decl)
        if problem is not None:
            raise self.fail(problem, decl)
        name = decl.name
        if name in self.clashing:
            number = 1
            while f"{name}_{number}" in self.taken:
                number += 1
            name = f"{name}_{number}"
        self.taken.add(name)
        self.declared.add(decl.name)
        self.locals.append(Local(name, type_spelling(decl), ctx.iterators))
        self.local_types[name] = declarator_type(decl.type, self.declarations)
        inner = replace(ctx, names={**ctx.names, decl.name: name})
        if decl.init is None:
            return inner, ()
        assignment = c_ast.Assignment("=", c_ast.ID(decl.name, decl.coord), decl.init, decl.coord)
        return inner, (self.statement(assignment, inner),)

    def node(self, node: c_ast.Node, ctx: Context) -> tuple[Node, ...]:
        if isinstance(node, c_ast.Compound):
            return self.block(node.block_items or [], ctx)
        if isinstance(node, c_ast.EmptyStatement):
            return ()
        if isinstance(node, c_ast.For):
            loop = self.loop(node, ctx)
            return (loop,) if loop.body else ()
        if isinstance(node, c_ast.If):
            cond = self.attempt(lambda: self.condition(node.cond, ctx), node.cond)
            if cond is None:
                return self.guarded(node, ctx)
            then = self.node(node.iftrue, replace(ctx, constraints=ctx.constraints + (cond,)))
            if node.iffalse is None:
                return then
            other = self.node(node.iffalse, replace(ctx, constraints=ctx.constraints + (Not(cond),)))
            return then + other
        if isinstance(node, (c_ast.Assignment, c_ast.UnaryOp)):
            return (self.statement(node, ctx),)
        if isinstance(node, c_ast.FuncCall):
            return (self.call(node, ctx),)
        reasons = {
            c_ast.Decl: "declaration inside the region",
            c_ast.DeclList: "declaration inside the region",
            c_ast.While: "'while' loop (not a static control loop)",
            c_ast.DoWhile: "'do' loop (not a static control loop)",
            c_ast.Break: "'break' changes control flow",
            c_ast.Continue: "'continue' changes control flow",
            c_ast.Goto: "'goto' changes control flow",
            c_ast.Label: "label inside the region",
            c_ast.Return: "'return' changes control flow",
            c_ast.Switch: "'switch' statement",
            c_ast.Pragma: "'#pragma' inside the region",
            c_ast.Typedef: "'typedef' inside the region",
        }
        reason = reasons.get(type(node), f"unsupported statement ({type(node).__name__})")
        raise self.fail(reason, node)

    def loop(self, node: c_ast.For, ctx: Context) -> Loop:
        iterator, lower = self.loop_init(node, ctx)
        if iterator in ctx.iterators:
            raise self.fail(f"loop reuses the iterator '{iterator}' of an enclosing loop", node)
        step = self.loop_step(node, iterator)
        inner = replace(ctx, iterators=ctx.iterators + (iterator,))
        bounds = self.loop_bounds(node, iterator, step, inner)
        var = Var(iterator)
        first = Compare(">=" if step > 0 else "<=", var, lower)
        constraints: tuple[Condition, ...] = (first,) + bounds
        if abs(step) != 1:
            distance = BinOp("-", var, lower) if step > 0 else BinOp("-", lower, var)
            constraints += (Divisible(distance, abs(step)),)
        self.all_iterators.add(iterator)
        direction = 1 if step > 0 else -1
        if not isinstance(node.init, c_ast.DeclList):
            self.check_accesses_before(iterator, ctx, node)
        start, self.rank = self.rank, self.rank + 1
        loops = ctx.loops + ((start, iterator, direction),)
        body = self.node(node.stmt, replace(inner, constraints=ctx.constraints + constraints, loops=loops))
        end, self.rank = self.rank, self.rank + 1
        if not isinstance(node.init, c_ast.DeclList) and iterator not in ctx.names:
            self.exits.append(LoopExit(iterator, ctx.loops, end, ctx.constraints, lower, step, bounds))
        declares = isinstance(node.init, c_ast.DeclList)
        declared = declarator_type(node.init.decls[0].type, self.declarations) if declares else None
        ctype = declared.name if declared is not None else ""
        location = node_location(node, self.fallback)
        return Loop(iterator, direction, body, location, declares, ctype, canonical=len(bounds) == 1)

    def check_accesses_before(self, iterator: str, ctx: Context, node: c_ast.For) -> None:
        """A statement may use the variable ``iterator`` before the loops over it, but not inside a loop
        around one of them: its later instances would see what the loop left, which is not modelled."""
        if ctx.loops and ctx.loops[0][0] in self.used_under.get(iterator, set()):
            raise self.fail(f"'{iterator}' is used by a statement and is the iterator of a later loop", node)

    def loop_init(self, node: c_ast.For, ctx: Context) -> tuple[str, Affine]:
        init = node.init
        if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init is not None:
            decl = init.decls[0]
            return decl.name, self.affine(decl.init, ctx)
        if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
            return init.lvalue.name, self.affine(init.rvalue, ctx)
        raise self.fail("loop initialisation is not 'iterator = affine expression'", init or node)

    def loop_step(self, node: c_ast.For, iterator: str) -> int:
        step = node.next
        if isinstance(step, c_ast.UnaryOp) and base_name(step.expr) == iterator and isinstance(step.expr, c_ast.ID):
            if step.op in ("++", "p++"):
                return 1
            if step.op in ("--", "p--"):
                return -1
        if isinstance(step, c_ast.Assignment) and isinstance(step.lvalue, c_ast.ID) and step.lvalue.name == iterator:
            amount = self.step_amount(step)
            if amount:
                return amount
        raise self.fail(f"loop step is not '{iterator}++', '{iterator}--' or '{iterator} += constant'", step or node)

    def step_amount(self, step: c_ast.Assignment) -> int:
        rvalue = step.rvalue
        if step.op in ("+=", "-=") and isinstance(rvalue, c_ast.ID) and rvalue.name in self.constants:
            value = self.constants[rvalue.name] if rvalue.name not in self.written else 0
            return value if step.op == "+=" else -value
        if step.op in ("+=", "-=") and isinstance(rvalue, c_ast.Constant):
            value = int_literal(rvalue.value) or 0
            return value if step.op == "+=" else -value
        if step.op in ("+=", "-=") and self.constant_expression(rvalue, Context()):  # a macro's expansion: 5 + 1
            value = const_value(self.affine(rvalue, Context(numeric=True))) or 0
            return value if step.op == "+=" else -value
        if (
            step.op == "="
            and isinstance(rvalue, c_ast.BinaryOp)
            and rvalue.op in ("+", "-")
            and isinstance(rvalue.left, c_ast.ID)
            and rvalue.left.name == step.lvalue.name
            and isinstance(rvalue.right, c_ast.Constant)
        ):
            value = int_literal(rvalue.right.value) or 0
            return value if rvalue.op == "+" else -value
        return 0

    def loop_bounds(self, node: c_ast.For, iterator: str, step: int, ctx: Context) -> tuple[Condition, ...]:
        if node.cond is None:
            raise self.fail("loop without a condition", node)
        parts = _conjuncts(node.cond)
        bounds: list[Condition] = []
        for part in parts:
            if not (isinstance(part, c_ast.BinaryOp) and part.op in ("<", "<=", ">", ">=")):
                raise self.fail("loop condition is not a comparison of the iterator with a bound", part)
            op, other = part.op, part.right
            if not (isinstance(part.left, c_ast.ID) and part.left.name == iterator):
                if isinstance(part.right, c_ast.ID) and part.right.name == iterator:
                    op, other = _FLIP[part.op], part.left
                else:
                    raise self.fail(f"loop condition does not compare '{iterator}' with a bound", part)
            if (op in ("<", "<=")) != (step > 0):
                raise self.fail("loop condition and step go in opposite directions", part)
            bound = self.affine(other, ctx)
            if iterator in affine_names(bound):
                raise self.fail(f"loop bound depends on its own iterator '{iterator}'", part)
            bounds.append(Compare(op, Var(iterator), bound))
        return tuple(bounds)

    # -- data-dependent conditions --------------------------------------------
    def attempt(self, extract: Callable[[], _T], node: c_ast.Node | None) -> _T | None:
        """``extract()`` (an affine reading of ``node``), or None when it fails and ``node`` is None or
        data-dependent: it reads an array or a variable that the region writes or declares (the parameters that
        ``extract`` met are then forgotten)."""
        parameters = dict(self.parameters)
        try:
            return extract()
        except UnsupportedRegion:
            if node is not None and not _reads_data(node, (self.written | self.declared) - self.all_iterators):
                raise
            self.parameters = parameters
            return None

    def guarded(self, node: c_ast.If, ctx: Context) -> tuple[Node, ...]:
        """The statements of an ``if`` whose condition is data-dependent, each guarded by it.  Each
        statement evaluates the condition again, so the statements it guards must not write what
        it reads, unless it guards one statement and has no ``else``."""
        reads: list[Access] = []
        writes: list[Access] = []
        self.collect(node.cond, ctx, reads, writes)
        if writes:
            raise self.fail(f"a data-dependent condition writes '{writes[0].array}'", node.cond)
        parts = [self.attempt(lambda p=part: self.condition(p, ctx), None) for part in _conjuncts(node.cond)]
        affine = tuple(part for part in parts if part is not None)
        guard_reads = ctx.guard_reads + tuple(reads)
        then_ctx = replace(ctx, constraints=ctx.constraints + affine, guards=ctx.guards + (node.cond,))
        first = len(self.statements)
        nodes = self.node(node.iftrue, replace(then_ctx, guard_reads=guard_reads))
        if node.iffalse is not None:
            negated = c_ast.UnaryOp("!", node.cond, node.cond.coord)
            other_ctx = replace(ctx, guards=ctx.guards + (negated,), guard_reads=guard_reads)
            nodes += self.node(node.iffalse, other_ctx)
        single = node.iffalse is None and isinstance(_unwrapped(node.iftrue), (c_ast.Assignment, c_ast.UnaryOp))
        read = {access.array for access in reads}
        for statement in self.statements[first:]:
            overlap = sorted(read & {access.array for access in statement.writes})
            if overlap and not single:
                message = f"the data-dependent condition reads '{overlap[0]}', which a statement it guards writes"
                raise self.fail(message, node.cond)
        return nodes


def _conjuncts(node: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(node, c_ast.BinaryOp) and node.op == "&&":
        return _conjuncts(node.left) + _conjuncts(node.right)
    return [node]


def _reads_data(node: c_ast.Node, written: set[str]) -> bool:
    """Whether the expression ``node`` reads an array element or a variable of ``written``."""
    if isinstance(node, c_ast.ArrayRef) or isinstance(node, c_ast.ID) and node.name in written:
        return True
    if isinstance(node, c_ast.FuncCall):
        return node.args is not None and _reads_data(node.args, written)
    return any(_reads_data(child, written) for _, child in node.children())


def _unwrapped(node: c_ast.Node) -> c_ast.Node:
    """The statement inside blocks of one statement (``{ { s; } }`` is ``s``)."""
    while isinstance(node, c_ast.Compound) and len(node.block_items or []) == 1:
        node = node.block_items[0]
    return node
