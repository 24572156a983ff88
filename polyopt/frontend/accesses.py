"""Statements of a region and their accesses: assignments, calls, array elements and structure members."""

from __future__ import annotations

import re
from dataclasses import replace

from pycparser import c_ast

from polyopt.frontend.calls import Callee, find_callee, unknown_builtin
from polyopt.frontend.extract_state import Context, ExtractorState, node_location
from polyopt.frontend.locals import member_name, members_overlap, renamed
from polyopt.frontend.scop import Access, Statement, StmtRef, Subscript, Unknown

SIDE_EFFECT_CALLS = {
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


class Accesses(ExtractorState):
    """Reading statements and calls into ``Statement`` records with their accesses."""

    # -- calls ----------------------------------------------------------------
    def call(self, node: c_ast.FuncCall, ctx: Context) -> StmtRef:
        """A call statement, with the accesses of its callee's summary (``polyopt.frontend.calls``)."""
        name = _call_name(node)
        if unknown_builtin(name):
            raise self.fail(f"call to GCC builtin '{name}', which is not a pure math function", node)
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
    def statement(self, node: c_ast.Node, ctx: Context) -> StmtRef:
        reads: list[Access] = []
        writes: list[Access] = []
        self.collect(node, ctx, reads, writes)
        return self.add_statement(node, ctx, reads, writes, "")

    def add_statement(
        self, node: c_ast.Node, ctx: Context, reads: list[Access], writes: list[Access], opaque: str
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
                location=node_location(node, self.fallback),
                opaque=opaque,
            )
        )
        return StmtRef(name)

    def with_model_names(self, node: c_ast.Node, ctx: Context) -> c_ast.Node:
        """``node`` with each declaration of the region in scope spelled by its model name."""
        names = {name: c_ast.ID(model) for name, model in ctx.names.items() if name != model}
        return renamed(node, names) if names.keys() - set(ctx.iterators) else node

    def collect(self, node: c_ast.Node, ctx: Context, reads: list[Access], writes: list[Access]) -> None:
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
            if name in SIDE_EFFECT_CALLS or not isinstance(node.name, c_ast.ID):
                raise self.fail(f"call to '{name}' may have side effects", node)
            if unknown_builtin(name):
                raise self.fail(f"call to GCC builtin '{name}', which is not a pure math function", node)
            for arg in node.args.exprs if node.args is not None else []:
                self.collect(arg, ctx, reads, writes)
        elif isinstance(node, (c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast, c_ast.ExprList)):
            for _, child in node.children():
                self.collect(child, ctx, reads, writes)
        elif not isinstance(node, (c_ast.Constant, c_ast.Typename)):
            raise self.fail(f"unsupported expression ({type(node).__name__})", node)

    def collect_unary(self, node: c_ast.UnaryOp, ctx: Context, reads: list[Access], writes: list[Access]) -> None:
        if node.op in ("++", "--", "p++", "p--"):
            target = self.access(node.expr, ctx, reads, writes, writing=True)
            reads.append(replace(target, may=False))
            writes.append(target)
        elif node.op in ("&", "*"):
            raise self.fail(f"pointer operation '{node.op}' is not supported", node)
        elif node.op != "sizeof":
            self.collect(node.expr, ctx, reads, writes)

    def access(
        self, node: c_ast.Node, ctx: Context, reads: list[Access], writes: list[Access], writing: bool = False
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

    def subscript(self, node: c_ast.Node, ctx: Context, reads: list[Access], writes: list[Access]) -> Subscript:
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
        ctx: Context,
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


def _is_reference(node: c_ast.Node) -> bool:
    """Whether ``node`` is a name or an element of one (``A``, ``A[i]``)."""
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return isinstance(node, c_ast.ID)


def _call_name(node: c_ast.FuncCall) -> str:
    return node.name.name if isinstance(node.name, c_ast.ID) else "<expression>"
