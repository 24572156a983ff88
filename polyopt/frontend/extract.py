"""Turn a parsed region into a ``Scop``: statements, domains, accesses, loop tree.

Public: ``check_parameter_macros``, ``extract_scop``, ``region_identifiers``.  Anything outside the
polyhedral model raises ``UnsupportedRegion`` with the reason and the position of the construct.

Calls inside statements are assumed to be pure functions or macros (as
PolyBench's ``SCALAR_VAL``, ``SQRT_FUN`` and ``max_score`` are), except the
C library functions known to have side effects; a call used as a statement
is summarized from its callee's body (``polyopt.frontend.calls``) or rejected.
In loop bounds, conditions and subscripts, ``min``/``max``
(any case) and ``floord``/``ceild`` calls are read with their usual meaning.

Data-dependent statements: a subscript that is not affine and reads an array or a variable the region
writes is an ``Unknown`` index (a write through it is a may-write); an ``if`` whose condition does is a guard
printed around each statement it encloses, which reads what the condition reads and whose writes
are may-writes.  A data-dependent loop bound is rejected.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TypeVar

from pycparser import c_ast

from polyopt.diagnostics import Location, UnsupportedRegion
from polyopt.frontend.calls import Callee, find_callee
from polyopt.frontend.declarations import INTEGER, CType, Declarations, declarator_type
from polyopt.frontend.locals import (
    clashing_declarations,
    declaration_problem,
    member_name,
    members_overlap,
    renamed,
    type_spelling,
)
from polyopt.frontend.scop import (
    Access,
    Affine,
    BinOp,
    Compare,
    Condition,
    Const,
    Divisible,
    Local,
    Logic,
    Loop,
    LoopExit,
    Neg,
    Node,
    Not,
    Scop,
    Select,
    Statement,
    StmtRef,
    Subscript,
    Unknown,
    Var,
    affine_names,
)

_SIDE_EFFECT_CALLS = {
    "printf",
    "fprintf",
    "sprintf",
    "snprintf",
    "puts",
    "putchar",
    "fputs",
    "scanf",
    "fscanf",
    "sscanf",
    "getchar",
    "fgets",
    "fread",
    "fwrite",
    "malloc",
    "calloc",
    "realloc",
    "free",
    "exit",
    "abort",
    "rand",
    "srand",
    "memcpy",
    "memmove",
    "memset",
    "strcpy",
    "strcat",
    "assert",
    "time",
    "clock",
}
_T = TypeVar("_T")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # the generated loop iterators are 'int'
_AFFINE_CALLS = {"min": "min", "max": "max", "MIN": "min", "MAX": "max", "floord": "floord", "ceild": "ceild"}
_COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _location(node: c_ast.Node, fallback: Location) -> Location:
    coord = getattr(node, "coord", None)
    if coord is None or not getattr(coord, "line", 0):
        return fallback
    return Location(fallback.file, coord.line, coord.column or 0)


def _int_literal(text: str) -> int | None:
    body = text.rstrip("uUlL")
    try:
        if body.lower().startswith("0x"):
            return int(body, 16)
        if len(body) > 1 and body.startswith("0") and body.isdigit():
            return int(body, 8)
        return int(body)
    except ValueError:
        return None


def _const_value(expr: Affine) -> int | None:
    """The value of a constant affine tree, or None."""
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Neg):
        inner = _const_value(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, BinOp) and expr.op in ("+", "-", "*"):
        left, right = _const_value(expr.left), _const_value(expr.right)
        if left is None or right is None:
            return None
        return {"+": left + right, "-": left - right, "*": left * right}[expr.op]
    return None


def _written_names(region: c_ast.Node) -> set[str]:
    """Base names of every lvalue in the region (assignments and ++/--)."""
    names: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_Assignment(self, node: c_ast.Assignment) -> None:
            names.add(_base_name(node.lvalue))
            self.generic_visit(node)

        def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
            if node.op in ("++", "--", "p++", "p--"):
                names.add(_base_name(node.expr))
            self.generic_visit(node)

    Visitor().visit(region)
    names.discard("")
    return names


def _base_name(node: c_ast.Node) -> str:
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else ""


@dataclass
class _Context:
    """What encloses the node being extracted (immutable use: copied on descent): the iterators,
    the conditions, ``(rank, iterator, direction)`` of each enclosing loop, the data-dependent
    ``if`` conditions (outermost first) with what they read, and the model names of the region's
    declarations in scope."""

    iterators: tuple[str, ...] = ()
    constraints: tuple[Condition, ...] = ()
    loops: tuple[tuple[int, str, int], ...] = ()
    guards: tuple[c_ast.Node, ...] = ()
    guard_reads: tuple[Access, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)  # a declaration of the region in scope -> model name
    numeric: bool = False  # named constants give their values (where the model needs a number)


@dataclass
class _Extractor:
    fallback: Location
    written: set[str]
    file_text: str = ""
    constants: Mapping[str, int] = field(default_factory=dict)
    declarations: Declarations = field(default_factory=Declarations)
    clashing: frozenset[str] = frozenset()  # declared names that need another name in the model
    taken: set[str] = field(default_factory=set)  # names a renamed declaration must avoid
    locals: list[Local] = field(default_factory=list)
    declared: set[str] = field(default_factory=set)  # the names the region declares, as written
    local_types: dict[str, CType] = field(default_factory=dict)
    members: dict[str, str] = field(default_factory=dict)  # a member's spelling (``p->f``) -> its model name
    whole: dict[str, c_ast.Node] = field(default_factory=dict)  # names accessed whole -> a use
    statements: list[Statement] = field(default_factory=list)
    parameters: dict[str, None] = field(default_factory=dict)
    all_iterators: set[str] = field(default_factory=set)
    array_ranks: dict[str, int] = field(default_factory=dict)
    exits: list[LoopExit] = field(default_factory=list)
    rank: int = 0
    used_under: dict[str, set[int]] = field(default_factory=dict)  # name -> ranks of outermost loops of its uses

    def fail(self, message: str, node: c_ast.Node) -> UnsupportedRegion:
        return UnsupportedRegion(message, _location(node, self.fallback))

    # -- affine expressions -------------------------------------------------
    def affine(self, node: c_ast.Node, ctx: _Context) -> Affine:
        if isinstance(node, c_ast.Constant):
            value = _int_literal(node.value) if node.type in ("int", "long", "unsigned int") else None
            if value is None:
                raise self.fail(f"non-integer constant '{node.value}' in an affine expression", node)
            if not INT_MIN <= value <= INT_MAX:
                raise self.fail(f"constant '{node.value}' does not fit in 'int', the type of the generated loops", node)
            return Const(value)
        if isinstance(node, c_ast.ID):
            if ctx.numeric and self.is_named_constant(node, ctx):
                return self.named_constant(node)
            return self.variable(node, ctx)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
            operand = self.affine(node.expr, ctx)
            return Neg(operand) if node.op == "-" else operand
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*", "/", "%"):
            return self.affine_binary(node, ctx)
        if isinstance(node, c_ast.TernaryOp):
            return Select(self.condition(node.cond, ctx), self.affine(node.iftrue, ctx), self.affine(node.iffalse, ctx))
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
            op = _AFFINE_CALLS.get(node.name.name)
            args = node.args.exprs if node.args is not None else []
            if op is not None and len(args) == 2:
                divisor = replace(ctx, numeric=True) if op in ("floord", "ceild") else ctx
                left, right = self.affine(args[0], ctx), self.affine(args[1], divisor)
                if op in ("floord", "ceild"):
                    self.positive_constant(right, node)
                return BinOp(op, left, right)
            raise self.fail(f"call to '{node.name.name}' in an affine expression", node)
        if isinstance(node, c_ast.ArrayRef):
            raise self.fail("array access in a loop bound (a data-dependent loop)", node)
        if isinstance(node, c_ast.StructRef):
            raise self.fail("structure member in a loop bound, condition or subscript", node)
        raise self.fail(f"non-affine expression ({type(node).__name__})", node)

    def affine_binary(self, node: c_ast.BinaryOp, ctx: _Context) -> Affine:
        left = self.affine(node.left, self.where_numeric(node, node.left, ctx))
        right = self.affine(node.right, self.where_numeric(node, node.right, ctx))
        if node.op == "*":
            if _const_value(left) is None and _const_value(right) is None:
                raise self.fail("product of two variables is not affine", node)
        elif node.op in ("/", "%"):
            self.positive_constant(right, node)
        return BinOp(node.op, left, right)

    def positive_constant(self, expr: Affine, node: c_ast.Node) -> None:
        value = _const_value(expr)
        if value is None or value <= 0:
            raise self.fail("division by a non-constant or non-positive value is not affine", node)

    def where_numeric(self, node: c_ast.BinaryOp, operand: c_ast.Node, ctx: _Context) -> _Context:
        """The context of ``operand`` of ``node``: named constants give their values in a divisor and in a
        factor of a product made of named constants and literals only."""
        divisor = node.op in ("/", "%") and operand is node.right
        factor = node.op == "*" and self.constant_expression(operand, ctx)
        return replace(ctx, numeric=True) if divisor or factor else ctx

    def is_named_constant(self, node: c_ast.ID, ctx: _Context) -> bool:
        """Whether ``node`` names an integer constant (``polyopt.frontend.constants``), not a variable of the region."""
        name = node.name
        return (
            name in self.constants and name not in self.written and name not in self.all_iterators | set(ctx.iterators)
        )

    def named_constant(self, node: c_ast.ID) -> Const:
        value = self.constants[node.name]
        if not INT_MIN <= value <= INT_MAX:
            reason = f"constant '{node.name}' = {value} does not fit in 'int'"
            raise self.fail(f"{reason}, the type of the generated loops", node)
        return Const(value)

    def constant_expression(self, node: c_ast.Node, ctx: _Context) -> bool:
        """Whether ``node`` is built of integer literals and named constants only."""
        if isinstance(node, c_ast.ID):
            return self.is_named_constant(node, ctx)
        if isinstance(node, c_ast.Constant):
            return True
        if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
            return self.constant_expression(node.expr, ctx)
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*", "/", "%"):
            return self.constant_expression(node.left, ctx) and self.constant_expression(node.right, ctx)
        return False

    def variable(self, node: c_ast.ID, ctx: _Context) -> Var:
        name = node.name
        if name in ctx.iterators:
            return Var(name)
        if name in self.all_iterators:
            raise self.fail(f"iterator '{name}' is used outside its loop", node)
        if name in ctx.names:
            raise self.fail(f"'{name}' is declared in the region, so this expression is data-dependent", node)
        if name in self.written:
            raise self.fail(f"'{name}' is written in the region, so this expression is data-dependent", node)
        self.parameters.setdefault(name)
        return Var(name)

    def condition(self, node: c_ast.Node, ctx: _Context) -> Condition:
        if isinstance(node, c_ast.BinaryOp) and node.op in _COMPARISONS:
            return Compare(node.op, self.affine(node.left, ctx), self.affine(node.right, ctx))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            op = "and" if node.op == "&&" else "or"
            return Logic(op, self.condition(node.left, ctx), self.condition(node.right, ctx))
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            return Not(self.condition(node.expr, ctx))
        return Compare("!=", self.affine(node, ctx), Const(0))

    # -- control flow -------------------------------------------------------
    def block(self, nodes: list[c_ast.Node], ctx: _Context) -> tuple[Node, ...]:
        result: list[Node] = []
        for node in nodes:
            if isinstance(node, c_ast.Decl):
                ctx, declared = self.declaration(node, ctx)
                result.extend(declared)
            else:
                result.extend(self.node(node, ctx))
        return tuple(result)

    def declaration(self, decl: c_ast.Decl, ctx: _Context) -> tuple[_Context, tuple[Node, ...]]:
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

    def node(self, node: c_ast.Node, ctx: _Context) -> tuple[Node, ...]:
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

    def loop(self, node: c_ast.For, ctx: _Context) -> Loop:
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
        return Loop(iterator, direction, body)

    def check_accesses_before(self, iterator: str, ctx: _Context, node: c_ast.For) -> None:
        """A statement may use the variable ``iterator`` before the loops over it, but not inside a loop
        around one of them: its later instances would see what the loop left, which is not modelled."""
        if ctx.loops and ctx.loops[0][0] in self.used_under.get(iterator, set()):
            raise self.fail(f"'{iterator}' is used by a statement and is the iterator of a later loop", node)

    def loop_init(self, node: c_ast.For, ctx: _Context) -> tuple[str, Affine]:
        init = node.init
        if isinstance(init, c_ast.DeclList) and len(init.decls) == 1 and init.decls[0].init is not None:
            decl = init.decls[0]
            return decl.name, self.affine(decl.init, ctx)
        if isinstance(init, c_ast.Assignment) and init.op == "=" and isinstance(init.lvalue, c_ast.ID):
            return init.lvalue.name, self.affine(init.rvalue, ctx)
        raise self.fail("loop initialisation is not 'iterator = affine expression'", init or node)

    def loop_step(self, node: c_ast.For, iterator: str) -> int:
        step = node.next
        if isinstance(step, c_ast.UnaryOp) and _base_name(step.expr) == iterator and isinstance(step.expr, c_ast.ID):
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
            value = _int_literal(rvalue.value) or 0
            return value if step.op == "+=" else -value
        if (
            step.op == "="
            and isinstance(rvalue, c_ast.BinaryOp)
            and rvalue.op in ("+", "-")
            and isinstance(rvalue.left, c_ast.ID)
            and rvalue.left.name == step.lvalue.name
            and isinstance(rvalue.right, c_ast.Constant)
        ):
            value = _int_literal(rvalue.right.value) or 0
            return value if rvalue.op == "+" else -value
        return 0

    def loop_bounds(self, node: c_ast.For, iterator: str, step: int, ctx: _Context) -> tuple[Condition, ...]:
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

    def guarded(self, node: c_ast.If, ctx: _Context) -> tuple[Node, ...]:
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

    # -- calls ----------------------------------------------------------------
    def call(self, node: c_ast.FuncCall, ctx: _Context) -> StmtRef:
        """A call statement, with the accesses of its callee's summary (``polyopt.frontend.calls``)."""
        name = _call_name(node)
        callee: Callee | str = "it is not a named function"
        if isinstance(node.name, c_ast.ID):
            callee = find_callee(self.file_text, name, self.fallback.file)
        arguments = node.args.exprs if node.args is not None else []
        if isinstance(callee, Callee) and len(arguments) != len(callee.parameters):
            callee = f"it is given {len(arguments)} arguments for {len(callee.parameters)} parameters"
        if isinstance(callee, str):
            raise self.fail(f"call to '{name}' as a statement may have side effects: {callee}", node)
        reads: list[Access] = []
        writes: list[Access] = []
        for argument, (parameter, is_array) in zip(arguments, callee.parameters, strict=True):
            if not is_array:
                self.collect(argument, ctx, reads, writes)
            elif not _is_reference(argument):
                reason = f"its argument for '{parameter}' is not an array or a row of one"
                raise self.fail(f"call to '{name}' as a statement may have side effects: {reason}", argument)
        for writing, touched in ((False, callee.reads), (True, callee.writes)):
            for expression in touched:
                access = self.access(callee.at_call(expression, arguments), ctx, reads, writes, writing)
                (writes if writing else reads).append(access)
        return self.add_statement(node, ctx, reads, writes, f"call to '{name}'")

    # -- statements ---------------------------------------------------------
    def statement(self, node: c_ast.Node, ctx: _Context) -> StmtRef:
        reads: list[Access] = []
        writes: list[Access] = []
        self.collect(node, ctx, reads, writes)
        return self.add_statement(node, ctx, reads, writes, "")

    def add_statement(
        self, node: c_ast.Node, ctx: _Context, reads: list[Access], writes: list[Access], opaque: str
    ) -> StmtRef:
        """Record the statement ``node`` with its accesses, under the guards of ``ctx``."""
        reads = list(ctx.guard_reads) + reads
        if ctx.guards:
            writes = [replace(access, may=True) for access in writes]
        if not opaque and (ctx.guards or any(Unknown() in access.subscripts for access in reads + writes)):
            opaque = "data-dependent"
        for access in reads + writes:
            if ctx.loops:
                self.used_under.setdefault(access.array, set()).add(ctx.loops[0][0])
        body = self.with_model_names(node, ctx)
        for guard in reversed(ctx.guards):
            body = c_ast.If(guard, body, None, guard.coord)
        name = f"S{len(self.statements)}"
        self.statements.append(
            Statement(
                name=name,
                iterators=ctx.iterators,
                constraints=ctx.constraints,
                reads=tuple(dict.fromkeys(reads)),
                writes=tuple(dict.fromkeys(writes)),
                body=body,
                location=_location(node, self.fallback),
                opaque=opaque,
            )
        )
        return StmtRef(name)

    def with_model_names(self, node: c_ast.Node, ctx: _Context) -> c_ast.Node:
        """``node`` with each declaration of the region in scope spelled by its model name."""
        names = {name: c_ast.ID(model) for name, model in ctx.names.items() if name != model}
        return renamed(node, names) if names.keys() - set(ctx.iterators) else node

    def collect(self, node: c_ast.Node, ctx: _Context, reads: list[Access], writes: list[Access]) -> None:
        """Gather the accesses of an expression into ``reads`` and ``writes``."""
        if isinstance(node, c_ast.Assignment):
            target = self.access(node.lvalue, ctx, reads, writes, writing=True)
            writes.append(target)
            if node.op != "=":
                reads.append(replace(target, may=False))
            self.collect(node.rvalue, ctx, reads, writes)
        elif isinstance(node, c_ast.UnaryOp):
            self.collect_unary(node, ctx, reads, writes)
        elif isinstance(node, (c_ast.ArrayRef, c_ast.ID, c_ast.StructRef)):
            access = self.access(node, ctx, reads, writes)
            if access.array not in ctx.iterators:
                reads.append(access)
        elif isinstance(node, c_ast.FuncCall):
            name = _call_name(node)
            if name in _SIDE_EFFECT_CALLS or not isinstance(node.name, c_ast.ID):
                raise self.fail(f"call to '{name}' may have side effects", node)
            for arg in node.args.exprs if node.args is not None else []:
                self.collect(arg, ctx, reads, writes)
        elif isinstance(node, (c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast, c_ast.ExprList)):
            for _, child in node.children():
                self.collect(child, ctx, reads, writes)
        elif not isinstance(node, (c_ast.Constant, c_ast.Typename)):
            raise self.fail(f"unsupported expression ({type(node).__name__})", node)

    def collect_unary(self, node: c_ast.UnaryOp, ctx: _Context, reads: list[Access], writes: list[Access]) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            target = self.access(node.expr, ctx, reads, writes, writing=True)
            reads.append(replace(target, may=False))
            writes.append(target)
        elif node.op in ("&", "*"):
            raise self.fail(f"pointer operation '{node.op}' is not supported", node)
        elif node.op != "sizeof":
            self.collect(node.expr, ctx, reads, writes)

    def access(
        self, node: c_ast.Node, ctx: _Context, reads: list[Access], writes: list[Access], writing: bool = False
    ) -> Access:
        """The reference ``node``; what a data-dependent subscript of it reads goes to ``reads``
        (and ``writes``), and a write through such a subscript is a may-write."""
        subscripts: list[Subscript] = []
        while isinstance(node, c_ast.ArrayRef):
            subscripts.append(self.subscript(node.subscript, ctx, reads, writes))
            node = node.name
        if isinstance(node, c_ast.StructRef):
            return self.member(node, subscripts, ctx, reads, writes, writing)
        if not isinstance(node, c_ast.ID):
            raise self.fail("access through a pointer expression is not supported", node)
        self.whole.setdefault(node.name, node)
        name = node.name
        if name in ctx.iterators:
            if subscripts or writing:
                raise self.fail(f"iterator '{name}' is written or subscripted in a statement", node)
            return Access(name, ())
        if name in self.all_iterators:
            raise self.fail(f"iterator '{name}' is used outside its loop", node)
        name = ctx.names.get(name, name)
        rank = self.array_ranks.setdefault(name, len(subscripts))
        if rank != len(subscripts):
            raise self.fail(f"'{name}' is accessed with {len(subscripts)} subscripts and with {rank}", node)
        return Access(name, tuple(reversed(subscripts)), writing and Unknown() in subscripts)

    def subscript(self, node: c_ast.Node, ctx: _Context, reads: list[Access], writes: list[Access]) -> Subscript:
        """``node`` as an affine subscript, else (data-dependent) ``Unknown`` with its accesses collected."""
        affine = self.attempt(lambda: self.affine(node, ctx), node)
        if affine is not None:
            return affine
        self.collect(node, ctx, reads, writes)
        return Unknown()

    def member(
        self,
        node: c_ast.StructRef,
        subscripts: list[Subscript],
        ctx: _Context,
        reads: list[Access],
        writes: list[Access],
        writing: bool,
    ) -> Access:
        """An access to a structure member (``s.f``, ``s.f[i]``, ``a[i].f``, ``p->f[i]``): one array per
        member, indexed by all the subscripts on the way, named by ``polyopt.frontend.locals.member_name``."""
        path: list[str] = []
        while isinstance(node, (c_ast.StructRef, c_ast.ArrayRef)):
            if isinstance(node, c_ast.StructRef):
                path.append(f"{node.type}{node.field.name}")
            else:
                path.append("[]")
                subscripts.append(self.subscript(node.subscript, ctx, reads, writes))
            node = node.name
        if not isinstance(node, c_ast.ID):
            raise self.fail("access through a pointer expression is not supported", node)
        base = node.name
        if base in ctx.iterators or base in self.all_iterators or base in ctx.names:
            raise self.fail(f"member of '{base}', which is not a structure of the region's caller", node)
        if base in self.written:
            raise self.fail(f"'{base}' is written in the region, so its members are not distinct arrays", node)
        spelling = base + "".join(reversed(path))
        name = self.members.get(spelling)
        if name is None:
            for other in self.members:
                if members_overlap(spelling, other):
                    raise self.fail(f"'{spelling}' and '{other}' may overlap: they would be two arrays", node)
            name = member_name(spelling, self.taken)
            self.taken.add(name)
            self.members[spelling] = name
        rank = self.array_ranks.setdefault(name, len(subscripts))
        if rank != len(subscripts):
            raise self.fail(f"'{spelling}' is accessed with {len(subscripts)} subscripts and with {rank}", node)
        return Access(name, tuple(reversed(subscripts)), writing and Unknown() in subscripts)

    def check_members(self) -> None:
        """A structure accessed whole and through its members would be two arrays for one object."""
        for spelling in self.members:
            base = re.match(r"\w+", spelling)[0]
            if base in self.whole:
                raise self.fail(f"'{base}' is used whole and through its member '{spelling}'", self.whole[base])


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


def _is_reference(node: c_ast.Node) -> bool:
    """Whether ``node`` is a name or an element of one (``A``, ``A[i]``)."""
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return isinstance(node, c_ast.ID)


def _call_name(node: c_ast.FuncCall) -> str:
    return node.name.name if isinstance(node.name, c_ast.ID) else "<expression>"


def region_identifiers(region: c_ast.Node) -> frozenset[str]:
    """Every name that ``region`` mentions or declares."""
    names: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_ID(self, node: c_ast.ID) -> None:
            names.add(node.name)

        def visit_Decl(self, node: c_ast.Decl) -> None:
            if node.name:
                names.add(node.name)
            self.generic_visit(node)

    Visitor().visit(region)
    return frozenset(names)


def extract_scop(
    region: c_ast.Compound,
    location: Location,
    declarations: Declarations | None = None,
    file_text: str = "",
    constants: Mapping[str, int] | None = None,
) -> Scop:
    """Build the region's ``Scop`` with the ``declarations`` visible at it (calls are summarized from
    the functions of ``file_text``) and the named integer ``constants`` (used by value where a number
    is needed: a divisor, a factor, a step); raise ``UnsupportedRegion`` when it is not affine."""
    written = _written_names(region)
    declarations = declarations or Declarations()
    identifiers = region_identifiers(region)
    extractor = _Extractor(
        fallback=location,
        written=written,
        file_text=file_text,
        constants=constants or {},
        declarations=declarations,
        clashing=clashing_declarations(region),
        taken=set(identifiers),
    )
    tree = extractor.block(region.block_items or [], _Context())
    extractor.check_members()
    if not extractor.statements:
        raise UnsupportedRegion("the region contains no statements", location)
    for name in extractor.parameters:
        if name in extractor.all_iterators:
            raise UnsupportedRegion(f"iterator '{name}' is used outside its loop", location)
    for statement in extractor.statements:
        for access in statement.writes:
            if access.array in extractor.parameters:
                message = f"'{access.array}' is written by {statement.opaque} and read in an affine expression"
                raise UnsupportedRegion(message, statement.location)
    return Scop(
        statements=tuple(extractor.statements),
        tree=tree,
        parameters=tuple(extractor.parameters),
        identifiers=identifiers | extractor.taken,
        location=location,
        declarations=declarations.with_objects(
            {**extractor.local_types, **{name: CType(INTEGER) for name in extractor.all_iterators}}
        ),
        exits=tuple(extractor.exits),
        locals=tuple(extractor.locals),
        members={name: spelling for spelling, name in extractor.members.items()},
    )


_DEFINE_NUMBER = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)[ \t]+\(?[ \t]*([-+]?\w+)[ \t]*\)?[ \t]*$", re.M)


def check_parameter_macros(scop: Scop, file_text: str) -> None:
    """Raise ``UnsupportedRegion`` when a parameter is a macro that this file defines as an
    integer outside ``int`` (the generated iterators' type).  A macro defined elsewhere (a
    header, ``-D``) cannot be seen and is not checked."""
    for match in _DEFINE_NUMBER.finditer(file_text):
        name, literal = match[1], match[2]
        value = _int_literal(literal.lstrip("+-"))
        if name in scop.parameters and value is not None and not INT_MIN <= value <= INT_MAX:
            reason = f"parameter '{name}' is defined as {literal}, which does not fit in 'int'"
            raise UnsupportedRegion(f"{reason}, the type of the generated loops", scop.location)
