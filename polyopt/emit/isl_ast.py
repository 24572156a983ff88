"""Generate code for a schedule with isl's AST builder and convert it to our C AST.

Public: ``MarkedLoop``, ``Generated``, ``Storage``, ``generate``, ``instances_sum``, ``SECTION_LIMIT``,
``print_parametric``, ``section_fits``.  Parallel (simd) marks
in the schedule tree (see ``polyopt.marks``) become ``#pragma omp parallel for``
(``#pragma omp simd``) on the loops of the member they annotate, with their
reduction clauses; a parallel and a simd mark on the same member make one
``#pragma omp parallel for simd``:

- a scalar is named in the clause;
- an array element updated in every iteration is kept in a local around
  each loop over the member (``__typeof__(x[i]) r = x[i]; ... x[i] = r;``, only
  when the loop runs at least once), which gcc vectorizes and a section would
  not be; where isl generates no loop over the member (a single iteration),
  the statement updates the element itself;
- a 1-D array section is privatized by OpenMP on each thread's stack, so the
  loop runs in parallel only when the section has 1 to ``Storage.section_limit``
  elements (the machine's ``section_limit``), and sequentially otherwise (gcc's OpenMP crashes on a section
  of length 0, and rejects a length that is the constant 0, so the clause's
  length never folds to 0 either).  A mark whose section fits at no parameter values is removed
  before printing (``polyopt.verify.printable``).

A mark the printer cannot print as decided is an internal error (``ValueError``), never dropped.

A contracted array is printed as its scalar, which is private to every
marked loop that uses it.

A parallel loop starts threads only when its statements run at least
``Storage.parallel_work`` instances in all (the machine's ``parallel_work``, or fewer when its mark says so:
``polyopt.analysis.residency.thread_work``) (``if(...)``, evaluated at run time
from the box around each statement's domain): starting a team costs more
than a small loop gains.

Expressions are composed with ``polyopt.emit.cexpr``, which parenthesizes by
precedence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.reductions import Reduction
from polyopt.emit.ast_build import ast_build, peeled
from polyopt.emit.body import print_expression, print_statement
from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt
from polyopt.emit.cexpr import CONDITIONAL, call, cast, conditional, infix, joined, negated, operand
from polyopt.emit.jammed import jammed
from polyopt.emit.marked_loops import KeptLocals, LoopDecision, apply_pragma
from polyopt.frontend.scop import Scop, unsigned_parameters
from polyopt.machine import PARALLEL_WORK, SECTION_LIMIT
from polyopt.marks import ELEMENT, JAM_MARK, PARALLEL_MARK, SECTION, SIMD_MARK, LoopMark, ReductionClause

_PRAGMAS = {PARALLEL_MARK: "omp parallel for", SIMD_MARK: "omp simd"}
_BOTH = "omp parallel for simd"

_OP = isl.ast_expr_op_type
_INFIX = {
    _OP.and_: "&&",
    _OP.and_then: "&&",
    _OP.or_: "||",
    _OP.or_else: "||",
    _OP.eq: "==",
    _OP.le: "<=",
    _OP.lt: "<",
    _OP.ge: ">=",
    _OP.gt: ">",
    _OP.add: "+",
    _OP.sub: "-",
    _OP.mul: "*",
    _OP.div: "/",
    _OP.pdiv_q: "/",
    _OP.pdiv_r: "%",
    _OP.zdiv_r: "%",
}
_HELPER_CALLS = {_OP.min: "polyopt_min", _OP.max: "polyopt_max", _OP.fdiv_q: "polyopt_floord"}


@dataclass(frozen=True)
class MarkedLoop:
    """The pragma printed on the loops over the marked member at schedule ``depth`` that run ``statements``:
    the directive, its clauses, the condition under which the loops run with it (empty: always), and
    whether the loops keep reduced elements in locals (their bodies then differ from the statements)."""

    depth: int
    statements: frozenset[str]
    pragma: str
    clauses: tuple[str, ...]
    guard: str
    keeps_locals: bool


@dataclass(frozen=True)
class Generated:
    """Generated loop code, the helper macros it calls and the marked loops in it."""

    code: tuple[CNode, ...]
    helpers: frozenset[str]
    marked: tuple[MarkedLoop, ...] = ()


@dataclass(frozen=True)
class Storage:
    """Where values live: ``reductions`` of the region, the bounds (first element, length) of
    each 1-D array reduced as a section, the scalar of each contracted array; the machine's
    ``parallel_work`` and ``section_limit``; and the C type of the generated iterators
    (``polyopt.frontend.scop.index_type``)."""

    reductions: tuple[Reduction, ...] = ()
    sections: dict[str, tuple[isl.PwAff, isl.PwAff]] = field(default_factory=dict)
    scalars: dict[str, str] = field(default_factory=dict)
    extents: dict[str, tuple[isl.PwAff, ...]] = field(default_factory=dict)
    parallel_work: int = PARALLEL_WORK
    section_limit: int = SECTION_LIMIT
    index_type: str = "int"


@dataclass(frozen=True)
class _Section:
    """A section clause's bounds as C, where its loop runs in parallel (``guard``, empty when always)."""

    low: str
    length: str
    guard: str


@dataclass
class _Member:
    """A marked member while its code is printed: its marks (a parallel and a simd mark may share
    it) and each loop that isl generated over it, with the elements that loop keeps in locals."""

    marks: list[LoopMark]
    loops: list[tuple[CFor, KeptLocals]] = field(default_factory=list)

    def kept_arrays(self) -> frozenset[str]:
        return frozenset(c.array for mark in self.marks for c in mark.reductions if c.mode == ELEMENT)


class _Printer:
    """Prints isl AST expressions and nodes; records the helpers used."""

    def __init__(self, scop: Scop, prefix: str, storage: Storage) -> None:
        self.scop = scop
        self.prefix = prefix
        self.reductions = {r.statement: r for r in storage.reductions}
        self.scalars = storage.scalars
        self.parallel_work = storage.parallel_work
        self.section_limit = storage.section_limit
        self.index_type = storage.index_type
        self.unsigned = unsigned_parameters(scop)
        self.sections: dict[str, _Section | None] = {}
        self.extents: dict[str, tuple[str, ...]] = {}
        self.helpers: set[str] = set()
        self.members: dict[str, _Member] = {}
        self.locals: list[KeptLocals] = []
        self.printed: list[set[str]] = []
        self.marked: list[MarkedLoop] = []
        self.count = 0

    def expr(self, expr: isl.AstExpr) -> str:
        kind = expr.get_type()
        if kind == isl.ast_expr_type.int:
            return str(expr.get_val().to_python())
        if kind == isl.ast_expr_type.id:
            name = expr.get_id().get_name()
            return cast("long", name) if name in self.unsigned else name
        op = expr.get_op_type()
        args = [self.expr(expr.get_op_arg(i)) for i in range(expr.get_op_n_arg())]
        if op in _INFIX:
            return infix(args[0], _INFIX[op], args[1])
        if op == _OP.minus:
            return negated(args[0])
        if op in (_OP.cond, _OP.select):
            return conditional(*args)
        if op in _HELPER_CALLS:
            name = _HELPER_CALLS[op]
            self.helpers.add(name)
            text = args[-1]
            for arg in reversed(args[:-1]):
                text = call(name, [arg, text])
            return text
        if op == _OP.call:
            return call(args[0], args[1:])
        raise ValueError(f"unexpected isl AST operation {op}")

    def section(self, build: isl.AstBuild, low: isl.PwAff, length: isl.PwAff) -> _Section | None:
        """The clause bounds of a section, where it has 1 to ``section_limit`` elements (None: nowhere).
        A length that is not a number is printed as at least 1 (``polyopt_max``), which it is where the
        guard holds, so that it never folds to the constant 0 when the parameters are macros."""
        fits = section_fits(length, self.section_limit)
        if fits.is_empty():
            return None
        inside = build.restrict(fits)
        text = self.expr(inside.expr_from_pw_aff(length))
        if not text.isdigit():
            self.helpers.add("polyopt_max")
            text = call("polyopt_max", [text, "1"])
        guard = "" if fits.complement().is_empty() else self.expr(build.expr_from_set(fits))
        return _Section(self.expr(inside.expr_from_pw_aff(low)), text, guard)

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
        if mark.depth is None or mark.kind not in (JAM_MARK, *_PRAGMAS):
            raise ValueError(f"unexpected mark '{mark.kind}' in the schedule")
        if mark.kind == JAM_MARK:
            nodes, helpers = jammed(self.nodes(node), f"{self.prefix}{mark.depth}", mark.factor)
            self.helpers.update(helpers)
            return nodes
        if any(self.sections[c.array] is None for c in mark.reductions if c.mode == SECTION):
            raise ValueError(f"a reduced section of the loop marked '{mark.name()}' never fits in its clause")
        iterator = f"{self.prefix}{mark.depth}"
        if iterator in self.members:  # a second mark on the member: the first one decides its loops
            self.members[iterator].marks.append(mark)
            return self.nodes(node)
        member = self.members[iterator] = _Member([mark])
        self.printed.append(set())
        try:
            inner = self.nodes(node)
        finally:
            del self.members[iterator]
            statements = self.printed.pop()
        if any(self._inner(source, mark.depth) for _, scope in member.loops for source in scope.sources.values()):
            raise ValueError(f"an element kept in a local varies along the loop marked '{mark.name()}'")
        kinds = {m.kind for m in member.marks}
        reductions = tuple(dict.fromkeys(c for m in member.marks for c in m.reductions))
        common = self._private(statements)
        if PARALLEL_MARK in kinds:
            parallel = [m for m in member.marks if m.kind == PARALLEL_MARK]
            common += ("schedule(static, 1)",) * any(m.cyclic for m in parallel)
            common += self._enough_work(statements, min((m.work for m in parallel if m.work), default=0))
        loops = tuple(
            (loop, tuple(c for c in (*(self._clause(r, scope) for r in reductions), *common) if c), scope)
            for loop, scope in member.loops
        )
        guards = [self.sections[c.array].guard for c in reductions if c.mode == SECTION]
        pragma = _BOTH if len(kinds) == 2 else _PRAGMAS[mark.kind]
        guard = joined("&&", [g for g in guards if g])
        for _, clauses, scope in loops:
            self.marked.append(MarkedLoop(mark.depth, frozenset(statements), pragma, clauses, guard, bool(scope.names)))
        return apply_pragma(inner, LoopDecision(pragma, iterator, loops, guard))

    def _inner(self, text: str, depth: int) -> bool:
        """Whether ``text`` uses the iterator of a loop at ``depth`` or deeper."""
        return any(int(level) >= depth for level in re.findall(rf"\b{re.escape(self.prefix)}(\d+)\b", text))

    def _clause(self, clause: ReductionClause, scope: KeptLocals) -> str:
        if clause.mode == ELEMENT:
            names = [name for element, name in scope.names.items() if element.startswith(f"{clause.array}[")]
            return f"reduction({clause.op}:{', '.join(names)})" if names else ""
        if clause.mode == SECTION:
            section = self.sections[clause.array]
            bounds = (operand(bound, CONDITIONAL, strict=True) for bound in (section.low, section.length))
            return f"reduction({clause.op}:{clause.array}[{':'.join(bounds)}])"
        return f"reduction({clause.op}:{clause.array})"

    def _enough_work(self, statements: set[str], work: int) -> tuple[str, ...]:
        """``if(...)``: run in parallel only for at least ``work`` statement instances (0: ``parallel_work``)."""
        if not statements <= set(self.extents):
            return ()
        count = instances_sum({name: self.extents[name] for name in statements})
        return (f"if({infix(count, '>=', f'{work or self.parallel_work}L')})",) if count else ()

    def _private(self, statements: set[str]) -> tuple[str, ...]:
        """``private(...)`` of the contracted scalars that ``statements`` use."""
        used = {
            self.scalars[access.array]
            for name in statements
            for access in self.scop.statement(name).reads + self.scop.statement(name).writes
            if access.array in self.scalars
        }
        return (f"private({', '.join(sorted(used))})",) if used else ()

    def _for(self, node: isl.AstNode) -> CNode:
        iterator = self.expr(node.for_get_iterator())
        init = self.expr(node.for_get_init())
        if node.for_is_degenerate():
            return CBlock((CDecl(f"const {self.index_type} {iterator} = {init};"),) + self.nodes(node.for_get_body()))
        member = self.members.get(iterator)
        scope = KeptLocals(member.kept_arrays() if member else frozenset())
        self.locals.append(scope)
        try:
            body = self.nodes(node.for_get_body())
        finally:
            self.locals.pop()
        cond = node.for_get_cond()
        loop = CFor(
            iterator,
            init,
            self.expr(cond),
            self.expr(node.for_get_inc()),
            body,
            bound=self._hoistable_bound(cond, iterator),
            ctype=self.index_type,
        )
        if member:
            member.loops.append((loop, scope))
        return loop

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
        """The reduced element of statement ``name`` -> its local, when the loops around it keep it in one
        (each loop's local starts from the enclosing loop's)."""
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


def section_fits(length: isl.PwAff, limit: int) -> isl.Set:
    """The parameter values where a reduced section of ``length`` elements has 1 to ``limit`` of them: there
    its loop runs in parallel, with the section in its clause."""
    space = length.get_domain_space()
    at_most = length.le_set(isl_util.const(space, limit))
    return length.ge_set(isl_util.const(space, 1)).intersect(at_most)


def generate(schedule: isl.Schedule, scop: Scop, iterator_prefix: str, storage: Storage | None = None) -> Generated:
    """Code for ``schedule`` (its simd loops ``peeled``); loop iterators are named ``iterator_prefix`` + depth."""
    schedule = peeled(schedule)
    build = ast_build(schedule, iterator_prefix)
    storage = storage or Storage()
    printer = _Printer(scop, iterator_prefix, storage)
    printer.sections = {array: printer.section(build, low, length) for array, (low, length) in storage.sections.items()}
    printer.extents = {
        name: tuple(printer.expr(build.expr_from_pw_aff(extent)) for extent in extents)
        for name, extents in storage.extents.items()
    }
    code = printer.nodes(build.node_from_schedule(schedule))
    return Generated(code, frozenset(printer.helpers), tuple(printer.marked))


def instances_sum(extents: dict[str, tuple[str, ...]]) -> str:
    """The statement instances as C (in ``long``): per statement, the product of its domain box's ``extents``
    (printed), summed; empty when no statement has a loop."""
    terms = [joined("*", [cast("long", e) for e in extents[name]]) for name in sorted(extents)]
    return joined("+", [term for term in terms if term])


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
