"""Unroll the loop around a vector loop and jam the copies into it, so that an element the statements
update along that loop stays in a register: register tiling of the point loops of a tile.

Public: ``Jam``, ``JamPlan``, ``plan_unroll_jam``, ``apply_unroll_jam``, ``jam_legal``.

gramschmidt sums ``R[k][j] += Q[i][k] * A[i][j]`` over the rows ``i`` of a tile, with the columns ``j`` as
the vector loop: every row loads and stores the vector of ``R`` again.  With the row loop unrolled by
``u`` and the copies jammed into the vector loop, ``R`` is loaded and stored once per ``u`` rows.  The
rewrite is chosen for a loop whose band member directly encloses a simd loop over straight-line
statements, when some statement writes an element invariant along it (the accumulator), every
dependence between instances below it at one point of the loops outside joins instances of one
vector-loop iteration (so the copies may run in any order within it, and the vector loop stays
parallel), and the vector loop's bounds do not depend on it.  The factor is the target's
``unroll_jam`` (0 or 1: never).  The code generator rewrites the loop (``polyopt.emit.jammed``).
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.marks import JAM_MARK, SIMD_MARK, LoopMark
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    band_has_inner_band,
    band_nodes,
    band_statements,
    insert_loop_mark,
    member_expressions,
    node_at,
    parent_mark,
    same_outer,
)

_NODE = isl.schedule_node_type


@dataclass(frozen=True)
class Jam:
    """The last member of the band at ``path`` (``loop``) is unrolled by ``factor`` into the vector
    loop ``vector``; ``accumulators``: the elements that stay in registers."""

    path: tuple[int, ...]
    loop: str
    vector: str
    factor: int
    accumulators: tuple[str, ...]

    def describe(self) -> str:
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
    found = (_jam(model, path, band, dependences, factor) for path, band in band_nodes(schedule))
    return JamPlan(tuple(jam for jam in found if jam is not None))


def apply_unroll_jam(schedule: isl.Schedule, plan: JamPlan) -> isl.Schedule:
    """Mark each planned loop (its band's last member split off first); deepest first."""
    for jam in sorted(plan.jams, key=lambda j: j.path, reverse=True):
        band = node_at(schedule, jam.path)
        if band.band_n_member() > 1:
            band = band.band_split(band.band_n_member() - 1).child(0)
        schedule = insert_loop_mark(band, JAM_MARK, factor=jam.factor).get_schedule()
    return schedule


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


def _jam(
    model: PolyModel, path: tuple[int, ...], band: isl.ScheduleNode, dependences: isl.UnionMap, factor: int
) -> Jam | None:
    vector = _vector_band(band)
    member = band.band_n_member() - 1
    if vector is None or (member == 0 and parent_mark(band) is not None):
        return None
    loop = isl.UnionMap.from_union_pw_aff(band.band_get_partial_schedule().get_union_pw_aff(member))
    inner = isl.UnionMap.from_union_pw_aff(vector.band_get_partial_schedule().get_union_pw_aff(0))
    if not jam_legal(band, member, vector, dependences):
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
    return Jam(path, loop_text, vector_text, factor, accumulators)


def jam_legal(band: isl.ScheduleNode, member: int, vector: isl.ScheduleNode, dependences: isl.UnionMap) -> bool:
    """Whether every dependence between instances below ``band`` at one point of the loops outside
    ``member`` joins instances of one iteration of the ``vector`` band's loop: the copies of the
    unrolled loop may then run in any order within one vector iteration, which stays parallel."""
    inner = isl.UnionMap.from_union_pw_aff(vector.band_get_partial_schedule().get_union_pw_aff(0))
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
