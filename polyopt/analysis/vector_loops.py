"""What each member of a band would give as the innermost (vector) loop: PolyMage dense-matrix thesis, Sec. 4.5, Alg. 5.

Public: ``VectorLoop``, ``vector_loop``, ``candidate_members``, ``innermost_member``, ``carries_own_dependence``,
``runs_recurrence``, ``walks_tiles``.

Each member of an innermost permutable band is scored as if it were the
innermost loop, with 2s + 4t + 8v - 16(a - s - t) over the accesses of the
band's statements (s: stride-1, t: stride-0, a: all accesses, v: parallel with
only stride-0/1 accesses); the best member is the vector loop, a simd loop when
it is vectorizable.  The parallel loop of a band under a parallel mark stays where it is.

In the point band of a tile (the loops outside it are functions of its own: ``walks_tiles``),
a best member that runs a recurrence (``runs_recurrence``: each iteration waits for
one before it) gives way to the best member that carries no dependence: the
tile's footprint was sized to stay in cache, so its scattered accesses hit there, while
the recurrence's latency would bound every iteration (adi's sweeps: the rows of a tile run
side by side instead of one division chain after the other).

These are questions about a band; ``polyopt.transform.vector`` plans and applies the vector loops,
and tiling and distribution ask them of the bands they shape.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.reduction_clauses import reduction_clauses
from polyopt.analysis.reductions import Reduction
from polyopt.analysis.strides import DimensionScore, access_stride, intra_tile_score
from polyopt.isl_util import maps_of, union_of
from polyopt.marks import PARALLEL_MARK, ReductionClause
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    Anchor,
    anchor_of,
    carries,
    mark_parent,
    member_expressions,
    member_map,
    members,
    moved_innermost,
    same_outer,
)


@dataclass(frozen=True)
class VectorLoop:
    """Member ``member`` of the ``band`` goes innermost; ``simd`` marks it vectorizable."""

    band: Anchor
    member: int
    simd: bool
    chosen: str
    scores: tuple[tuple[str, DimensionScore], ...]
    reductions: tuple[ReductionClause, ...] = ()

    def score(self) -> DimensionScore:
        """The chosen member's score."""
        return next(score for name, score in self.scores if name == self.chosen)

    def describe(self) -> str:
        table = ", ".join(f"{name}: {score.score}" for name, score in self.scores)
        clauses = "".join(f" {clause.describe()}" for clause in self.reductions)
        return f"innermost {self.chosen}{' (omp simd' + clauses + ')' if self.simd else ''}; scores {table}"


def _full_schedule(band: isl.ScheduleNode, order: list[int]) -> isl.UnionMap:
    """Instances to (prefix, band members in ``order``) vectors."""
    result = band.get_prefix_schedule_union_map()
    current = members(band)
    for member in order:
        result = result.flat_range_product(isl.UnionMap.from_union_pw_aff(current[member]))
    return result


def _simd_clauses(
    model: PolyModel,
    band: isl.ScheduleNode,
    member: int,
    dependences: isl.UnionMap,
    reductions: tuple[Reduction, ...],
) -> tuple[ReductionClause, ...] | None:
    """The reduction clauses of ``member`` as a simd loop, or None when it cannot be one."""
    permuted = moved_innermost(band, member)
    last = band.band_n_member() - 1
    if carries(permuted, last, dependences):
        return None
    return reduction_clauses(model, permuted, last, reductions, allow_sections=False)


def _score(model: PolyModel, band: isl.ScheduleNode, member: int, parallel: bool) -> DimensionScore:
    count = band.band_n_member()
    order = [m for m in range(count) if m != member] + [member]
    schedule = _full_schedule(band, order)
    statements = set(member_expressions(band, member))
    kinds: list[str] = []
    for ref in model.references:
        if ref.statement not in statements:
            continue
        timing = _restrict(schedule, ref.statement)
        kinds.append(access_stride(timing, ref.relation, timing.dim(isl.dim_type.out) - 1))
    return intra_tile_score(kinds, parallel)


def _restrict(schedule: isl.UnionMap, statement: str) -> isl.Map:
    return next(piece for piece in maps_of(schedule) if piece.get_tuple_name(isl.dim_type.in_) == statement)


def candidate_members(band: isl.ScheduleNode) -> list[int]:
    """Members that may go innermost: any of a permutable band, but never the
    parallel loop of a band under a parallel mark (it must stay outermost)."""
    count = band.band_n_member()
    if not band.band_get_permutable():
        return [count - 1]
    if mark_parent(band) == PARALLEL_MARK and count > 1:
        return list(range(1, count))
    return list(range(count))


def vector_loop(
    model: PolyModel,
    band: isl.ScheduleNode,
    dependences: isl.UnionMap,
    reductions: tuple[Reduction, ...],
) -> VectorLoop:
    count = band.band_n_member()
    candidates = candidate_members(band)
    clauses = {m: _simd_clauses(model, band, m, dependences, reductions) for m in candidates}
    scores = {m: _score(model, band, m, clauses[m] is not None) for m in candidates}
    best = max(candidates, key=lambda m: (scores[m].score, m))
    independent = [m for m in candidates if clauses[m] is not None]
    if independent and not scores[best].vectorizable and walks_tiles(band) and runs_recurrence(band, best, dependences):
        best = max(independent, key=lambda m: (scores[m].score, m))
    names = [" / ".join(sorted(set(member_expressions(band, m).values()))) for m in range(count)]
    table = tuple((names[m], scores[m]) for m in candidates)
    simd = scores[best].vectorizable
    return VectorLoop(anchor_of(band), best, simd, names[best], table, clauses[best] or () if simd else ())


def walks_tiles(band: isl.ScheduleNode) -> bool:
    """Whether ``band`` is the point band of a tile: the band around it (under a mark, if any)
    takes one value for each of its values."""
    outer = band.parent()
    if outer.get_type() == isl.schedule_node_type.mark:
        outer = outer.parent()
    if outer.get_type() != isl.schedule_node_type.band:
        return False
    points = band.band_get_partial_schedule_union_map().intersect_domain(band.get_domain())
    tiles = outer.band_get_partial_schedule_union_map().intersect_domain(band.get_domain())
    return points.reverse().apply_range(tiles).is_single_valued()


def innermost_member(
    model: PolyModel, band: isl.ScheduleNode, dependences: isl.UnionMap, reductions: tuple[Reduction, ...] = ()
) -> VectorLoop:
    """The member of ``band`` that Alg. 5 would run innermost."""
    return vector_loop(model, band, dependences, reductions)


def carries_own_dependence(band: isl.ScheduleNode, member: int, dependences: isl.UnionMap) -> bool:
    """Whether ``member``, moved innermost, carries a dependence of a statement on itself
    (seidel-2d's in-place sweep along j): no distribution of the loop by statement can then
    make it a vector loop."""
    own = _own(dependences)
    if not own:
        return False
    own_union = union_of(own, isl.UnionMap.empty(dependences.get_space()))
    return carries(moved_innermost(band, member), band.band_n_member() - 1, own_union)


def _own(dependences: isl.UnionMap) -> list[isl.Map]:
    """The dependences of a statement on itself."""
    return [
        piece
        for piece in maps_of(dependences)
        if piece.get_tuple_name(isl.dim_type.in_) == piece.get_tuple_name(isl.dim_type.out)
    ]


def runs_recurrence(band: isl.ScheduleNode, member: int, dependences: isl.UnionMap) -> bool:
    """Whether ``member``, moved innermost, carries a dependence of a statement on itself at one
    constant distance: a chain in which each iteration waits for one a fixed number of iterations
    before (adi's ``p[i][j - 1]``), not a fan-out from a few iterations (floyd-warshall's column ``k``,
    which gcc still vectorizes around)."""
    permuted = moved_innermost(band, member)
    last = band.band_n_member() - 1
    this = member_map(permuted, last)
    for piece in _own(dependences):
        pairs = same_outer(permuted, last, isl.UnionMap.from_map(piece)).apply_domain(this).apply_range(this)
        if pairs.is_empty():
            continue
        distances = isl.Map.from_union_map(pairs).deltas()
        zero = isl.Set.universe(distances.get_space()).fix_val(isl.dim_type.set, 0, isl.Val.zero(distances.get_ctx()))
        carried = distances.subtract(zero)
        if carried.is_singleton() and not carried.is_empty():
            return True
    return False
