"""Unroll the loop around an innermost loop and jam the copies into it: register tiling of the point
loops of a tile.

Public: ``Jam``, ``JamPlan``, ``plan_unroll_jam``, ``apply_unroll_jam``, ``jam_legal``, ``jam_order_kept``.

Two cases.  Around a vector loop, so that an element the statements update along the unrolled loop
stays in a register (an accumulator), and around a scalar loop that carries a dependence (a
recurrence), so that the copies' independent chains overlap instead of each waiting on the latency
of the one before.

gramschmidt sums ``R[k][j] += Q[i][k] * A[i][j]`` over the rows ``i`` of a tile, with the columns ``j`` as
the vector loop: every row loads and stores the vector of ``R`` again.  With the row loop unrolled by
``u`` and the copies jammed into the vector loop, ``R`` is loaded and stored once per ``u`` rows.  The
rewrite is chosen for a loop whose band member directly encloses a simd loop over straight-line
statements, when some statement writes an element invariant along it (the accumulator), every
dependence between instances below it at one point of the loops outside joins instances of one
vector-loop iteration (so the copies may run in any order within it, and the vector loop stays
parallel), and the vector loop's bounds do not depend on it.  The factor is the target's
``unroll_jam`` (0 or 1: never).  The code generator rewrites the loop (``polyopt.emit.jammed``).

seidel-2d's skewed tiles run a recurrence along their innermost loop: each point waits for the one
before it (six additions and a division), so a row is latency-bound.  The rows of a tile are the
band member just outside it; with ``u`` rows jammed, ``u`` recurrences run interleaved.  That is legal
when no dependence at one point of the outer loops goes from a row to a later row and to an earlier
column (``jam_order_kept``); the column bounds may depend on the row (the code generator runs each
copy's columns before and after the range common to all copies on their own).  A parallel loop of
rows (adi's back substitution ``u[i][j] = p[i][j] * u[i][j + 1] + q[i][j]``) is first strip-mined by
the factor: its blocks stay parallel and the rows of a block are jammed.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.marks import JAM_MARK, PARALLEL_MARK, SIMD_MARK, LoopMark
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    Anchor,
    anchor_of,
    band_has_inner_band,
    band_nodes,
    band_statements,
    carries,
    has_below,
    insert_loop_mark,
    member_expressions,
    member_map,
    parent_mark,
    rewrite_bands,
    same_outer,
)
from polyopt.transform.tiling import tile_band

_NODE = isl.schedule_node_type


@dataclass(frozen=True)
class Jam:
    """The last member of the ``band`` (``loop``) is unrolled by ``factor`` into the vector
    loop ``vector``; ``accumulators``: the elements that stay in registers."""

    band: Anchor
    loop: str
    vector: str
    factor: int
    accumulators: tuple[str, ...]
    recurrence: bool = False
    strip: bool = False  # a parallel loop, strip-mined by ``factor`` first: its blocks stay parallel

    def describe(self) -> str:
        if self.recurrence:
            blocks = f" (in parallel blocks of {self.factor})" if self.strip else ""
            return (
                f"loop {self.loop} unrolled by {self.factor}{blocks} and jammed into loop {self.vector}: "
                f"{self.factor} copies of its recurrence interleaved"
            )
        return (
            f"loop {self.loop} unrolled by {self.factor} and jammed into vector loop {self.vector}: "
            f"{', '.join(self.accumulators)} kept in registers"
        )


@dataclass(frozen=True)
class JamPlan:
    jams: tuple[Jam, ...]


def plan_unroll_jam(model: PolyModel, schedule: isl.Schedule, dependences: isl.UnionMap, factor: int) -> JamPlan:
    """The loops around simd loops of ``schedule`` to unroll and jam by ``factor`` (none when it is below 2)."""
    if factor < 2:
        return JamPlan(())
    found = (
        _jam(model, band, dependences, factor) or _recurrence_jam(band, dependences, factor)
        for _, band in band_nodes(schedule)
    )
    return JamPlan(tuple(jam for jam in found if jam is not None))


def apply_unroll_jam(schedule: isl.Schedule, plan: JamPlan) -> isl.Schedule:
    """Mark each planned loop (its band's last member split off first)."""

    def marked(band: isl.ScheduleNode, jam: Jam) -> isl.ScheduleNode:
        if jam.recurrence and band.child(0).get_type() != _NODE.band:  # the inner loop is the band's last member
            band = band.band_split(band.band_n_member() - 1)
        if band.band_n_member() > 1:
            band = band.band_split(band.band_n_member() - 1).child(0)
        if jam.strip:
            band = tile_band(band, (jam.factor,)).child(0)
        return insert_loop_mark(band, JAM_MARK, factor=jam.factor)

    return rewrite_bands(schedule, [(jam.band, jam) for jam in plan.jams], marked)


def _vector_band(band: isl.ScheduleNode) -> isl.ScheduleNode | None:
    """The simd band directly below ``band`` (a simd mark without reductions between them), over
    straight-line statements."""
    if band.n_children() != 1 or band.child(0).get_type() != _NODE.mark:
        return None
    mark = LoopMark.parse(band.child(0).mark_get_id().get_name())
    inner = band.child(0).child(0)
    if mark.kind != SIMD_MARK or mark.reductions or inner.get_type() != _NODE.band:
        return None
    if inner.band_n_member() != 1 or band_has_inner_band(inner):
        return None
    return inner


def _jam(model: PolyModel, band: isl.ScheduleNode, dependences: isl.UnionMap, factor: int) -> Jam | None:
    vector = _vector_band(band)
    member = band.band_n_member() - 1
    if vector is None or (member == 0 and parent_mark(band) is not None):
        return None
    loop = member_map(band, member)
    inner = member_map(vector, 0)
    if not jam_legal(band, member, inner, dependences):
        return None
    if not _independent_bounds(band, loop, inner):
        return None
    statements = band_statements(band)
    same_inner = inner.apply_range(inner.reverse())
    accumulators = tuple(
        sorted(
            {
                ref.array
                for ref in model.references
                if ref.is_write and ref.statement in statements and ref.relation.dim(isl.dim_type.out)
                if _invariant(band, member, same_inner, isl.UnionMap.from_map(ref.relation))
            }
        )
    )
    if not accumulators:
        return None
    loop_text = " / ".join(sorted(set(member_expressions(band, member).values())))
    vector_text = " / ".join(sorted(set(member_expressions(vector, 0).values())))
    return Jam(anchor_of(band), loop_text, vector_text, factor, accumulators)


def _recurrence_jam(band: isl.ScheduleNode, dependences: isl.UnionMap, factor: int) -> Jam | None:
    """The jam of the loop around ``band``'s last member, an innermost scalar loop that carries a
    dependence: the band's second-last member, or else the last member of the band directly above."""
    members = band.band_n_member()
    if band_has_inner_band(band) or has_below(band, _NODE.mark):
        return None
    if not carries(band, members - 1, dependences) or not _every_statement_iterates(band, members - 1):
        return None
    outer, member = band, members - 2
    if members == 1:
        outer = band.parent()
        if outer.get_type() != _NODE.band:
            return None
        member = outer.band_n_member() - 1
    mark = parent_mark(outer) if member == 0 else None
    if mark is not None and mark.kind != PARALLEL_MARK:
        return None
    inner = member_map(band, members - 1)
    if not jam_order_kept(outer, member, inner, dependences):
        return None
    loop_text = " / ".join(sorted(set(member_expressions(outer, member).values())))
    inner_text = " / ".join(sorted(set(member_expressions(band, members - 1).values())))
    return Jam(anchor_of(outer), loop_text, inner_text, factor, (), recurrence=True, strip=mark is not None)


def _every_statement_iterates(band: isl.ScheduleNode, member: int) -> bool:
    """Whether ``member`` depends on the iterators of every statement below the band, so that it is one
    loop around all of them (no statement runs once before or after it)."""
    varies = [True]

    def visit(piece: isl.PwAff) -> None:
        inputs = piece.dim(isl.dim_type.in_)
        varies[0] = varies[0] and piece.involves_dims(isl.dim_type.in_, 0, inputs)

    band.band_get_partial_schedule().get_union_pw_aff(member).foreach_pw_aff(visit)
    return varies[0]


def jam_order_kept(band: isl.ScheduleNode, member: int, inner: isl.UnionMap, dependences: isl.UnionMap) -> bool:
    """Whether no dependence between instances below ``band`` at one point of the loops outside
    ``member`` goes to a later iteration of ``member`` and an earlier one of the ``inner`` loop: the
    copies of the unrolled loop may then run interleaved, in their order, in each inner iteration."""
    loop = member_map(band, member)
    crossing = loop.lex_lt_union_map(loop).intersect(inner.lex_gt_union_map(inner))
    return same_outer(band, member, dependences).intersect(crossing).is_empty()


def jam_legal(band: isl.ScheduleNode, member: int, inner: isl.UnionMap, dependences: isl.UnionMap) -> bool:
    """Whether every dependence between instances below ``band`` at one point of the loops outside
    ``member`` joins instances of one iteration of the vector loop ``inner``: the copies of the
    unrolled loop may then run in any order within one vector iteration, which stays parallel."""
    return same_outer(band, member, dependences).is_subset(inner.apply_range(inner.reverse()))


def _invariant(band: isl.ScheduleNode, member: int, same_inner: isl.UnionMap, access: isl.UnionMap) -> bool:
    """Whether ``access`` reaches one element along ``member`` at each point of the other loops
    (those outside it and the vector loop, ``same_inner`` pairing its equal values)."""
    domain = access.domain()
    pairs = same_outer(band, member, isl.UnionMap.from_domain_and_range(domain, domain)).intersect(same_inner)
    return pairs.is_subset(access.apply_range(access.reverse()))


def _independent_bounds(band: isl.ScheduleNode, loop: isl.UnionMap, inner: isl.UnionMap) -> bool:
    """Whether the values of the vector loop at a point of the outer loops do not depend on the
    value of ``loop`` (the band's last member): every pair of them occurs."""
    domain = band.get_domain()
    outer = band.get_prefix_schedule_union_map()
    partial = band.band_get_partial_schedule()
    for earlier in range(band.band_n_member() - 1):
        outer = outer.flat_range_product(isl.UnionMap.from_union_pw_aff(partial.get_union_pw_aff(earlier)))
    outer = outer.intersect_domain(domain)
    both = outer.range_product(loop.flat_range_product(inner)).range()
    pairs = isl.Set.from_union_set(both).unwrap()
    first = pairs.project_out(isl.dim_type.out, 1, 1)
    second = pairs.project_out(isl.dim_type.out, 0, 1)
    return first.flat_range_product(second).is_subset(pairs)
