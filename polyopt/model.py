"""Model stage: the frontend's ``Scop`` as isl objects.

Public: ``PolyModel``, ``build_model``, ``executed``, ``iterator_values``.  Each statement gets its domain,
read and write access relations, and the region's original execution order
becomes an isl schedule tree (one band per loop, sequences for statement
order; decreasing loops are scheduled by the negated iterator).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import reduce

import islpy as isl

from polyopt import isl_util
from polyopt.frontend.declarations import DEFAULT_ELEMENT_BYTES
from polyopt.frontend.scop import (
    Access,
    Affine,
    BinOp,
    Compare,
    Condition,
    Const,
    Divisible,
    Logic,
    Loop,
    LoopExit,
    Neg,
    Node,
    Not,
    Scop,
    Select,
    Statement,
    Unknown,
    Var,
    statement_names,
)


@dataclass(frozen=True, eq=False)
class Reference:
    """One array reference of a statement: ``relation`` maps its instances to elements; a ``may``
    write need not touch them all (``polyopt.frontend.scop.Access``)."""

    statement: str
    array: str
    is_write: bool
    relation: isl.Map
    may: bool = False


@dataclass(frozen=True, eq=False)
class PolyModel:
    """A region in the polyhedral model.

    ``domains`` maps statement names to their iteration domains (named set
    dims, tuple named after the statement); ``references`` holds every array
    reference ``S[i] -> A[subscripts]`` (scalars have a 0-dimensional range);
    ``schedule`` is the original execution order as a schedule tree.
    """

    scop: Scop
    ctx: isl.Context
    domains: dict[str, isl.Set]
    references: tuple[Reference, ...]
    schedule: isl.Schedule

    def element_bytes(self, array: str) -> int:
        """The bytes of one element of ``array``, from its declared type (``Declarations.element_bytes``)."""
        return self.scop.declarations.element_bytes(array)

    def widest_element(self, statements: Iterable[str]) -> int:
        """The bytes of the widest array element the ``statements`` access: it sets how many elements one
        vector of their loop holds."""
        names = set(statements)
        sizes = [
            self.element_bytes(r.array)
            for r in self.references
            if r.statement in names and r.relation.dim(isl.dim_type.out)
        ]
        return max(sizes, default=DEFAULT_ELEMENT_BYTES)

    @property
    def reads(self) -> dict[str, isl.UnionMap]:
        """Per array, the union of its read relations."""
        return self._grouped(is_write=False)

    @property
    def writes(self) -> dict[str, isl.UnionMap]:
        """Per array, the union of its write relations."""
        return self._grouped(is_write=True)

    @property
    def must_writes(self) -> dict[str, isl.UnionMap]:
        """Per array, the union of the write relations that are not ``may`` writes."""
        return self._grouped(is_write=True, may=False)

    @property
    def may_writes(self) -> dict[str, isl.UnionMap]:
        """Per array, the union of its ``may`` write relations."""
        return self._grouped(is_write=True, may=True)

    def _grouped(self, is_write: bool, may: bool | None = None) -> dict[str, isl.UnionMap]:
        grouped: dict[str, isl.UnionMap] = {}
        for ref in self.references:
            if ref.is_write == is_write and may in (None, ref.may):
                union = isl.UnionMap.from_map(ref.relation)
                grouped[ref.array] = grouped[ref.array].union(union) if ref.array in grouped else union
        return grouped

    @property
    def domain(self) -> isl.UnionSet:
        return isl_util.union_of(self.domains.values(), isl.UnionSet.empty(self.param_space()))

    @property
    def arrays(self) -> tuple[str, ...]:
        return tuple(sorted(set(self.reads) | set(self.writes)))

    def param_space(self) -> isl.Space:
        return isl.Space.create_from_names(self.ctx, set=[], params=list(self.scop.parameters)).params()

    def all_reads(self) -> isl.UnionMap:
        return isl_util.union_of(self.reads.values(), isl.UnionMap.empty(self.param_space()))

    def all_writes(self) -> isl.UnionMap:
        return isl_util.union_of(self.writes.values(), isl.UnionMap.empty(self.param_space()))

    def all_must_writes(self) -> isl.UnionMap:
        return isl_util.union_of(self.must_writes.values(), isl.UnionMap.empty(self.param_space()))

    def all_may_writes(self) -> isl.UnionMap:
        return isl_util.union_of(self.may_writes.values(), isl.UnionMap.empty(self.param_space()))

    def last_instances(self, instances: isl.UnionSet) -> isl.UnionSet:
        """The instances among ``instances`` that run last in the original order (one per parameter value)."""
        timing = self.schedule.get_map().intersect_domain(instances)
        return timing.intersect_range(timing.range().lexmax()).domain()

    def section(self, array: str) -> tuple[isl.PwAff, isl.PwAff]:
        """First element and length of the part of 1-D ``array`` the region touches,
        as functions of the parameters (0 and 0 where it touches nothing)."""
        touched = isl.UnionSet.empty(self.param_space())
        for ref in self.references:
            if ref.array == array:
                touched = touched.union(isl.UnionSet.from_set(ref.relation.range()))
        elements = isl.Set.from_union_set(touched)
        return isl_util.total(elements.dim_min(0)), isl_util.total(isl_util.extent(elements, 0))


def _affine(expr: Affine, space: isl.Space) -> isl.PwAff:
    if isinstance(expr, Var):
        return isl_util.var(space, expr.name)
    if isinstance(expr, Const):
        return isl_util.const(space, expr.value)
    if isinstance(expr, Neg):
        return _affine(expr.operand, space).neg()
    if isinstance(expr, Select):
        chosen = _condition(expr.cond, space)
        then = _affine(expr.then, space).intersect_domain(chosen)
        return then.union_add(_affine(expr.other, space).intersect_domain(chosen.complement()))
    left, right = _affine(expr.left, space), _affine(expr.right, space)
    return _binary(expr.op, left, right)


def _binary(op: str, left: isl.PwAff, right: isl.PwAff) -> isl.PwAff:
    if op == "+":
        return left.add(right)
    if op == "-":
        return left.sub(right)
    if op == "*":
        return left.mul(right)
    if op == "/":
        return left.tdiv_q(right)
    if op == "%":
        return left.tdiv_r(right)
    if op == "floord":
        return left.div(right).floor()
    if op == "ceild":
        return left.div(right).ceil()
    if op == "min":
        return left.min(right)
    if op == "max":
        return left.max(right)
    raise ValueError(f"unknown affine operator {op!r}")


def _condition(cond: Condition, space: isl.Space) -> isl.Set:
    if isinstance(cond, Compare):
        left, right = _affine(cond.left, space), _affine(cond.right, space)
        method = {"<": "lt_set", "<=": "le_set", ">": "gt_set", ">=": "ge_set", "==": "eq_set", "!=": "ne_set"}[cond.op]
        return getattr(left, method)(right)
    if isinstance(cond, Logic):
        left, right = _condition(cond.left, space), _condition(cond.right, space)
        return left.intersect(right) if cond.op == "and" else left.union(right)
    if isinstance(cond, Not):
        return _condition(cond.operand, space).complement()
    if isinstance(cond, Divisible):
        remainder = _affine(cond.expr, space).mod_val(isl.Val.int_from_si(space.get_ctx(), cond.step))
        return remainder.eq_set(isl_util.const(space, 0))
    raise TypeError(f"not a condition: {cond!r}")


def _domain(statement: Statement, space: isl.Space) -> isl.Set:
    domain = isl.Set.universe(space)
    for cond in statement.constraints:
        domain = domain.intersect(_condition(cond, space))
    return isl_util.coalesced(domain)


def _access(access: Access, space: isl.Space, domain: isl.Set) -> isl.Map:
    relation = isl.Map.from_domain(isl.Set.universe(space))
    for subscript in access.subscripts:
        if isinstance(subscript, Unknown):
            relation = relation.add_dims(isl.dim_type.out, 1)
        else:
            relation = relation.flat_range_product(isl.Map.from_pw_aff(_affine(subscript, space)))
    relation = relation.set_tuple_name(isl.dim_type.in_, space.get_tuple_name(isl.dim_type.set))
    return relation.set_tuple_name(isl.dim_type.out, access.array).intersect_domain(domain)


def _schedule(nodes: tuple[Node, ...], domains: dict[str, isl.Set], scop: Scop) -> isl.Schedule:
    """The original order of ``nodes``: a sequence of their schedules."""
    return reduce(isl.Schedule.sequence, [_node_schedule(node, domains, scop) for node in nodes])


def _node_schedule(node: Node, domains: dict[str, isl.Set], scop: Scop) -> isl.Schedule:
    if not isinstance(node, Loop):
        return isl.Schedule.from_domain(isl.UnionSet.from_set(domains[node.name]))
    inner = _schedule(node.body, domains, scop)
    partial: isl.UnionPwAff | None = None
    for name in statement_names(node):
        domain = domains[name]
        value = isl_util.var(domain.get_space(), node.iterator)
        if node.direction < 0:
            value = value.neg()
        piece = isl.UnionPwAff.from_pw_aff(value.intersect_domain(domain))
        partial = piece if partial is None else partial.union_add(piece)
    assert partial is not None
    return inner.insert_partial_schedule(isl.MultiUnionPwAff.from_union_pw_aff(partial))


def build_model(scop: Scop, ctx: isl.Context | None = None) -> PolyModel:
    """Model ``scop`` exactly: domains, access relations and the original schedule."""
    ctx = ctx or isl.DEFAULT_CONTEXT
    domains: dict[str, isl.Set] = {}
    references: list[Reference] = []
    for statement in scop.statements:
        space = isl_util.statement_space(ctx, statement.name, statement.iterators, scop.parameters)
        domain = _domain(statement, space)
        domains[statement.name] = domain
        for is_write, accesses in ((False, statement.reads), (True, statement.writes)):
            references.extend(
                Reference(statement.name, access.array, is_write, _access(access, space, domain), access.may)
                for access in accesses
            )
    return PolyModel(
        scop=scop,
        ctx=ctx,
        domains=domains,
        references=tuple(references),
        schedule=_schedule(scop.tree, domains, scop),
    )


def _exit_value(loop: LoopExit, name: str, scop: Scop, ctx: isl.Context) -> isl.Map:
    """``name[enclosing iterators] -> [value]``: what ``loop`` leaves in its variable, wherever it starts."""
    outer = [iterator for _, iterator, _ in loop.enclosing]
    space = isl_util.statement_space(ctx, name, [*outer, loop.variable], scop.parameters)
    var = Var(loop.variable)
    first = Compare(">=" if loop.step > 0 else "<=", var, loop.lower)
    distance = BinOp("-", var, loop.lower) if loop.step > 0 else BinOp("-", loop.lower, var)
    runs = reduce(lambda left, right: Logic("and", left, right), loop.bounds)
    conditions = (*loop.constraints, first, Divisible(distance, abs(loop.step)), Not(runs))
    values = reduce(isl.Set.intersect, [_condition(condition, space) for condition in conditions])
    relation = isl.Map.from_range(values).move_dims(isl.dim_type.in_, 0, isl.dim_type.out, 0, len(outer))
    relation = relation.set_tuple_name(isl.dim_type.in_, name).reset_tuple_id(isl.dim_type.out)
    return relation.lexmin() if loop.step > 0 else relation.lexmax()


def _exit_time(loop: LoopExit, name: str, scop: Scop, ctx: isl.Context, dims: int) -> isl.Map:
    """``name[enclosing iterators] -> [time]``: when ``loop`` ends in the original order (``dims`` dimensions)."""
    space = isl_util.statement_space(ctx, name, [iterator for _, iterator, _ in loop.enclosing], scop.parameters)
    times: list[isl.PwAff] = []
    for rank, iterator, direction in loop.enclosing:
        value = isl_util.var(space, iterator)
        times += [isl_util.const(space, rank), value if direction > 0 else value.neg()]
    times.append(isl_util.const(space, loop.rank))
    times += [isl_util.const(space, 0)] * (dims - len(times))
    relation = isl.Map.from_domain(isl.Set.universe(space))
    for time in times:
        relation = relation.flat_range_product(isl.Map.from_pw_aff(time))
    return relation.set_tuple_name(isl.dim_type.in_, name)


def iterator_values(scop: Scop, ctx: isl.Context | None = None) -> dict[str, isl.PwAff]:
    """For each variable that ``scop.exits`` leave a value in, its value after the region as a function of
    the parameters: the value that the last of its loops to start left in it.  Undefined where none starts."""
    ctx = ctx or isl.DEFAULT_CONTEXT
    dims = 2 * max((len(loop.enclosing) for loop in scop.exits), default=0) + 1
    timings: dict[str, isl.UnionMap] = {}
    values: dict[str, isl.UnionMap] = {}
    for index, loop in enumerate(scop.exits):
        name = f"exit{index}"
        value = _exit_value(loop, name, scop, ctx)
        timing = _exit_time(loop, name, scop, ctx, dims).intersect_domain(value.domain())
        timings[loop.variable] = timings.get(loop.variable, isl.UnionMap.empty(timing.get_space())).union(timing)
        values[loop.variable] = values.get(loop.variable, isl.UnionMap.empty(value.get_space())).union(value)
    finals: dict[str, isl.PwAff] = {}
    for variable, timing in timings.items():
        last = timing.intersect_range(timing.range().lexmax()).domain()
        left = values[variable].intersect_domain(last).range()
        if not left.is_empty():
            finals[variable] = isl_util.coalesced(isl.Set.from_union_set(left).dim_max(0))
    return finals


def executed(scop: Scop, ctx: isl.Context) -> tuple[Scop, tuple[str, ...]]:
    """``scop`` without the statements that never execute (their domains are empty for every value of
    the parameters), and a note for each."""
    domains = build_model(scop, ctx).domains
    empty = [statement for statement in scop.statements if domains[statement.name].is_empty()]
    if not empty:
        return scop, ()
    notes = tuple(f"{s.name} (line {s.location.line}) never executes (its domain is empty): left out" for s in empty)
    return scop.restricted(frozenset(domains) - {statement.name for statement in empty}), notes
