"""Generate code for a schedule with isl's AST builder and convert it to our C AST.

Public: ``Generated``, ``Storage``, ``generate``, ``SECTION_LIMIT``,
``print_parametric``.  Parallel (simd) marks
in the schedule tree (see ``polyopt.marks``) become ``#pragma omp parallel for``
(``#pragma omp simd``) on the loops of the member they annotate, with their
reduction clauses:

- a scalar is named in the clause;
- an array element updated in every iteration is kept in a local around
  the loop (``__typeof__(x[i]) r = x[i]; ... x[i] = r;``, only when the loop
  runs at least once), which gcc vectorizes and a section would not be;
- a 1-D array section is privatized by OpenMP on each thread's stack, so the
  loop runs in parallel only when the section has at most ``SECTION_LIMIT``
  elements, and sequentially otherwise.

A contracted array is printed as its scalar, which is private to every
marked loop that uses it.

A parallel loop starts threads only when its statements run at least
``Storage.parallel_work`` instances in all (the machine's ``parallel_work``) (``if(...)``, evaluated at run time
from the box around each statement's domain): starting a team costs more
than a small loop gains (measured on this project's 2-core VM: 5 to 10 ms for
the first parallel region of a process, and as much again when an idle core
has to wake up).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

import islpy as isl

from polyopt.analysis.reductions import Reduction
from polyopt.emit.body import print_expression, print_statement
from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt
from polyopt.frontend.scop import Scop
from polyopt.machine import PARALLEL_WORK
from polyopt.marks import ELEMENT, PARALLEL_MARK, SECTION, SIMD_MARK, LoopMark, ReductionClause

_PRAGMAS = {PARALLEL_MARK: "omp parallel for", SIMD_MARK: "omp simd"}

_OP = isl.ast_expr_op_type
_INFIX = {
    _OP.and_: ("&&", 5),
    _OP.and_then: ("&&", 5),
    _OP.or_: ("||", 4),
    _OP.or_else: ("||", 4),
    _OP.eq: ("==", 9),
    _OP.le: ("<=", 10),
    _OP.lt: ("<", 10),
    _OP.ge: (">=", 10),
    _OP.gt: (">", 10),
    _OP.add: ("+", 12),
    _OP.sub: ("-", 12),
    _OP.mul: ("*", 13),
    _OP.div: ("/", 13),
    _OP.pdiv_q: ("/", 13),
    _OP.pdiv_r: ("%", 13),
    _OP.zdiv_r: ("%", 13),
}
_HELPER_CALLS = {_OP.min: "polyopt_min", _OP.max: "polyopt_max", _OP.fdiv_q: "polyopt_floord"}
_ATOM = 16
SECTION_LIMIT = 16384  # elements: 128 KiB of doubles on each thread's stack


@dataclass(frozen=True)
class Generated:
    """Generated loop code and the helper macros it calls."""

    code: tuple[CNode, ...]
    helpers: frozenset[str]


@dataclass(frozen=True)
class Storage:
    """Where values live: ``reductions`` of the region, the bounds (first element, length) of
    each 1-D array reduced as a section, and the scalar of each contracted array."""

    reductions: tuple[Reduction, ...] = ()
    sections: dict[str, tuple[isl.PwAff, isl.PwAff]] = field(default_factory=dict)
    scalars: dict[str, str] = field(default_factory=dict)
    extents: dict[str, tuple[isl.PwAff, ...]] = field(default_factory=dict)
    parallel_work: int = PARALLEL_WORK


@dataclass
class _Locals:
    """Array elements kept in locals during one marked loop: element (or the enclosing
    loop's local for it) -> this loop's local."""

    arrays: frozenset[str]
    sources: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)


class _Printer:
    """Prints isl AST expressions and nodes; records the helpers used."""

    def __init__(self, scop: Scop, prefix: str, storage: Storage) -> None:
        self.scop = scop
        self.prefix = prefix
        self.reductions = {r.statement: r for r in storage.reductions}
        self.scalars = storage.scalars
        self.parallel_work = storage.parallel_work
        self.sections: dict[str, tuple[str, str]] = {}
        self.extents: dict[str, tuple[str, ...]] = {}
        self.helpers: set[str] = set()
        self.locals: list[_Locals] = []
        self.printed: list[set[str]] = []
        self.count = 0

    def expr(self, expr: isl.AstExpr) -> str:
        return self._expr(expr)[0]

    def _expr(self, expr: isl.AstExpr) -> tuple[str, int]:
        kind = expr.get_type()
        if kind == isl.ast_expr_type.int:
            value = expr.get_val().to_python()
            return str(value), (_ATOM if value >= 0 else 14)
        if kind == isl.ast_expr_type.id:
            return expr.get_id().get_name(), _ATOM
        op = expr.get_op_type()
        args = [expr.get_op_arg(i) for i in range(expr.get_op_n_arg())]
        if op in _INFIX:
            symbol, prec = _INFIX[op]
            left = self._operand(args[0], prec, strict=False)
            right = self._operand(args[1], prec, strict=True)
            return f"{left} {symbol} {right}", prec
        if op == _OP.minus:
            return f"-{self._operand(args[0], 14, strict=True)}", 14
        if op in (_OP.cond, _OP.select):
            parts = [
                self._operand(args[0], 4, strict=True),
                self._operand(args[1], 3, strict=False),
                self._operand(args[2], 3, strict=False),
            ]
            return f"{parts[0]} ? {parts[1]} : {parts[2]}", 3
        if op in _HELPER_CALLS:
            name = _HELPER_CALLS[op]
            self.helpers.add(name)
            text = self.expr(args[-1])
            for arg in reversed(args[:-1]):
                text = f"{name}({self.expr(arg)}, {text})"
            return text, _ATOM
        if op == _OP.call:
            return f"{self.expr(args[0])}({', '.join(self.expr(a) for a in args[1:])})", _ATOM
        raise ValueError(f"unexpected isl AST operation {op}")

    def _operand(self, expr: isl.AstExpr, prec: int, strict: bool) -> str:
        text, own = self._expr(expr)
        return f"({text})" if own < prec or (strict and own == prec) else text

    def nodes(self, node: isl.AstNode) -> tuple[CNode, ...]:
        kind = node.get_type()
        if kind == isl.ast_node_type.block:
            children = node.block_get_children()
            return tuple(c for i in range(children.n_ast_node()) for c in self.nodes(children.get_at(i)))
        if kind == isl.ast_node_type.for_:
            return (self._for(node),)
        if kind == isl.ast_node_type.if_:
            other = self.nodes(node.if_get_else_node()) if node.if_has_else_node() else ()
            return (CIf(self.expr(node.if_get_cond()), self.nodes(node.if_get_then_node()), other),)
        if kind == isl.ast_node_type.user:
            return (self._user(node.user_get_expr()),)
        if kind == isl.ast_node_type.mark:
            return self._marked(LoopMark.parse(node.mark_get_id().get_name()), node.mark_get_node())
        raise ValueError(f"unexpected isl AST node {kind}")

    def _marked(self, mark: LoopMark, node: isl.AstNode) -> tuple[CNode, ...]:
        pragma = _PRAGMAS.get(mark.kind)
        if pragma is None or mark.depth is None:
            return self.nodes(node)
        iterator = f"{self.prefix}{mark.depth}"
        scope = _Locals(frozenset(c.array for c in mark.reductions if c.mode == ELEMENT))
        self.locals.append(scope)
        self.printed.append(set())
        try:
            inner = self.nodes(node)
        finally:
            self.locals.pop()
            statements = self.printed.pop()
        if any(re.search(rf"\b{iterator}\b", element) for element in scope.sources.values()):
            return self.nodes(node)  # the element varies along the loop after all: keep it sequential
        clauses = tuple(self._clause(clause, scope) for clause in mark.reductions) + self._private(statements)
        if mark.kind == PARALLEL_MARK:
            clauses += ("schedule(static, 1)",) * mark.cyclic + self._enough_work(statements)
        return _apply_pragma(inner, _LoopDecision(pragma, iterator, clauses, scope, self._section_limits(mark)))

    def _clause(self, clause: ReductionClause, scope: _Locals) -> str:
        if clause.mode == ELEMENT:
            names = [name for element, name in scope.names.items() if element.startswith(f"{clause.array}[")]
            return f"reduction({clause.op}:{', '.join(names)})" if names else ""
        if clause.mode == SECTION:
            low, length = self.sections[clause.array]
            return f"reduction({clause.op}:{clause.array}[{low}:{length}])"
        return f"reduction({clause.op}:{clause.array})"

    def _enough_work(self, statements: set[str]) -> tuple[str, ...]:
        """``if(...)``: run in parallel only for at least ``parallel_work`` statement instances."""
        if not statements <= set(self.extents):
            return ()
        terms = [" * ".join(f"(long)({e})" for e in self.extents[name]) for name in sorted(statements)]
        terms = [term for term in terms if term]
        return (f"if({' + '.join(terms)} >= {self.parallel_work}L)",) if terms else ()

    def _private(self, statements: set[str]) -> tuple[str, ...]:
        """``private(...)`` of the contracted scalars that ``statements`` use."""
        used = {
            self.scalars[access.array]
            for name in statements
            for access in self.scop.statement(name).reads + self.scop.statement(name).writes
            if access.array in self.scalars
        }
        return (f"private({', '.join(sorted(used))})",) if used else ()

    def _section_limits(self, mark: LoopMark) -> tuple[str, ...]:
        return tuple(f"{self.sections[c.array][1]} <= {SECTION_LIMIT}" for c in mark.reductions if c.mode == SECTION)

    def _for(self, node: isl.AstNode) -> CNode:
        iterator = self.expr(node.for_get_iterator())
        init = self.expr(node.for_get_init())
        body = self.nodes(node.for_get_body())
        if node.for_is_degenerate():
            return CBlock((CDecl(f"const int {iterator} = {init};"),) + body)
        cond = node.for_get_cond()
        return CFor(
            iterator,
            init,
            self.expr(cond),
            self.expr(node.for_get_inc()),
            body,
            bound=self._hoistable_bound(cond, iterator),
        )

    def _hoistable_bound(self, cond: isl.AstExpr, iterator: str) -> tuple[str, str] | None:
        """``(operator, bound)`` when ``cond`` is ``iterator <= f(...)`` with a non-trivial ``f``."""
        if cond.get_type() != isl.ast_expr_type.op or cond.get_op_type() not in (_OP.le, _OP.lt):
            return None
        left, right = cond.get_op_arg(0), cond.get_op_arg(1)
        if self.expr(left) != iterator or right.get_type() != isl.ast_expr_type.op:
            return None
        return ("<=" if cond.get_op_type() == _OP.le else "<"), self.expr(right)

    def _user(self, call: isl.AstExpr) -> CStmt:
        name = call.get_op_arg(0).get_id().get_name()
        statement = self.scop.statement(name)
        values = [self.expr(call.get_op_arg(i + 1)) for i in range(len(statement.iterators))]
        substitution = dict(zip(statement.iterators, values, strict=False))
        for printed in self.printed:
            printed.add(name)
        elements = self._kept_elements(name, substitution)
        return CStmt(print_statement(statement.body, substitution, elements, self.scalars))

    def _kept_elements(self, name: str, substitution: dict[str, str]) -> dict[str, str]:
        """The reduced element of statement ``name`` -> its local, when a marked loop keeps it in one."""
        reduction = self.reductions.get(name)
        scopes = [scope for scope in self.locals if reduction and reduction.array in scope.arrays]
        if not scopes:
            return {}
        element = print_expression(self.scop.statement(name).body.lvalue, substitution)
        source = element
        for scope in scopes:
            if element not in scope.names:
                scope.sources[element] = source
                scope.names[element] = f"{self.prefix}{self.count}_red"
                self.count += 1
            source = scope.names[element]
        return {element: source}


@dataclass(frozen=True)
class _LoopDecision:
    """What a mark does to the loops over ``iterator``."""

    pragma: str
    iterator: str
    clauses: tuple[str, ...]
    scope: _Locals
    limits: tuple[str, ...]


def _apply_pragma(nodes: tuple[CNode, ...], decision: _LoopDecision) -> tuple[CNode, ...]:
    """Put the decision's pragma on the loops over its iterator (the marked member) in ``nodes``,
    looking through guards and blocks but never into another loop."""
    result: list[CNode] = []
    for node in nodes:
        if isinstance(node, CFor) and node.iterator == decision.iterator:
            node = _decided_loop(node, decision)
        elif isinstance(node, CIf):
            then, other = _apply_pragma(node.then, decision), _apply_pragma(node.other, decision)
            node = replace(node, then=then, other=other)
        elif isinstance(node, CBlock):
            node = replace(node, body=_apply_pragma(node.body, decision))
        result.append(node)
    return tuple(result)


def _decided_loop(loop: CFor, decision: _LoopDecision) -> CNode:
    """The loop with the pragma, guarded by the section limits and wrapped in its kept elements."""
    node: CNode = _with_pragma(loop, decision.pragma, tuple(c for c in decision.clauses if c))
    if decision.limits:
        node = CIf(" && ".join(decision.limits), (node,), (loop,))
    if not decision.scope.names:
        return node
    first = re.sub(rf"\b{loop.iterator}\b", f"({loop.init})", loop.cond)
    pairs = [(decision.scope.sources[element], name) for element, name in decision.scope.names.items()]
    kept = tuple(CDecl(f"__typeof__({source}) {name} = {source};") for source, name in pairs)
    back = tuple(CStmt(f"{source} = {name};") for source, name in pairs)
    return CIf(first, (CBlock(kept + (node,) + back),))


def _with_pragma(loop: CFor, pragma: str, clauses: tuple[str, ...]) -> CFor:
    """Add ``pragma`` to ``loop``; a parallel loop that is also a simd loop gets the combined form."""
    merged = loop.clauses + tuple(c for c in clauses if c not in loop.clauses)
    if pragma == "omp parallel for" and "omp simd" in loop.pragmas:
        others = tuple(p for p in loop.pragmas if p != "omp simd")
        return replace(loop, pragmas=others + ("omp parallel for simd",), clauses=merged)
    return replace(loop, pragmas=loop.pragmas + (pragma,), clauses=merged)


def generate(schedule: isl.Schedule, scop: Scop, iterator_prefix: str, storage: Storage | None = None) -> Generated:
    """Code for ``schedule``; loop iterators are named ``iterator_prefix`` + depth."""
    depth = max(1, _max_depth(schedule))
    ctx = schedule.get_ctx()
    names = isl.IdList.alloc(ctx, depth)
    for level in range(depth):
        names = names.add(isl.Id(f"{iterator_prefix}{level}", context=ctx))
    context = isl.Set.universe(schedule.get_domain().get_space().params())
    build = isl.AstBuild.from_context(context).set_iterators(names)
    storage = storage or Storage()
    printer = _Printer(scop, iterator_prefix, storage)
    printer.sections = {
        array: (printer.expr(build.expr_from_pw_aff(low)), printer.expr(build.expr_from_pw_aff(length)))
        for array, (low, length) in storage.sections.items()
    }
    printer.extents = {
        name: tuple(printer.expr(build.expr_from_pw_aff(extent)) for extent in extents)
        for name, extents in storage.extents.items()
    }
    code = printer.nodes(build.node_from_schedule(schedule))
    return Generated(code, frozenset(printer.helpers))


def print_parametric(
    scop: Scop, prefix: str, values: list[isl.PwAff], where: isl.Set | None = None
) -> tuple[list[str], str, frozenset[str]]:
    """``values`` (functions of the parameters) as C expressions valid where ``where`` holds,
    the condition ``where`` itself (empty when it always holds), and the helpers they call."""
    context = isl.Set.universe(values[0].get_domain_space().params()) if where is None else where
    build = isl.AstBuild.from_context(isl.Set.universe(context.get_space()))
    printer = _Printer(scop, prefix, Storage())
    always = context.is_params() and context.plain_is_universe()
    condition = "" if always else printer.expr(build.expr_from_set(context))
    inside = build.restrict(context)
    texts = [printer.expr(inside.expr_from_pw_aff(value)) for value in values]
    return texts, condition, frozenset(printer.helpers)


def _max_depth(schedule: isl.Schedule) -> int:
    depths = [0]

    def visit(node: isl.ScheduleNode) -> bool:
        if node.get_type() == isl.schedule_node_type.leaf:
            depths.append(node.get_schedule_depth())
        return True

    schedule.get_root().foreach_descendant_top_down(visit)
    return max(depths)
