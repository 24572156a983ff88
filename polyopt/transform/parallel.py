"""Decide and mark OpenMP parallel loops.

Public: ``ParallelLoop``, ``ParallelPlan``, ``uneven_work``, ``plan_parallel``, ``apply_parallel``.

Top-down, the first band of each nest with a member that carries no
dependence becomes the nest's parallel loop; in a permutable band that member
is moved outermost.  When no member of a tiled permutable band is parallel
(time-iterated stencils after skewing) and the band has at least
``MIN_WAVEFRONT_MEMBERS`` members, its first two members are turned into a
wavefront: the outer loop walks ``m0 + m1`` sequentially and the next one runs
the tiles of one wavefront in parallel.  A two-member band (a 1-D stencil, a
triangular solve) has too few tiles per wavefront to pay for the barriers.  The marks are re-proved by
``polyopt.pipeline`` before code is emitted.

A parallel loop whose iterations enclose unequal numbers of inner iterations
(a triangular tile space: syrk's ``j <= i``) would leave the thread with the
heavy half working alone under OpenMP's default blocks of iterations; its
iterations are dealt out one by one instead (``schedule(static, 1)``, seed
003 Sec. 3.5: the threads' loads balanced).

A parallel region costs a fork and a join; it is only worth it when the loop
does a large amount of work: its statements must have at least
``MIN_NESTED_DEPTH`` loop dimensions at or below it (tile loops do not count),
otherwise the nest stays sequential there and the search goes deeper.  A loop
nested in sequential loops starts a region per iteration of them, which makes
this matter most there.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.reductions import Reduction
from polyopt.marks import PARALLEL_MARK, ReductionClause
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    band_nodes,
    insert_loop_mark,
    member_expressions,
    members,
    moved_outermost,
    node_at,
    parallel_outermost,
    replace_band,
)
from polyopt.transform.reductions import reduction_clauses

MIN_NESTED_DEPTH = 2
MIN_WAVEFRONT_MEMBERS = 3


@dataclass(frozen=True)
class ParallelLoop:
    """The band at ``path`` runs member ``member`` in parallel.

    ``wavefront`` says the band is first skewed into a wavefront (then the
    parallel member is the second one); ``expressions`` give, per statement,
    the parallel member's schedule expression before any change.
    """

    path: tuple[int, ...]
    member: int
    wavefront: bool
    expressions: tuple[tuple[str, str], ...]
    reductions: tuple[ReductionClause, ...] = ()
    cyclic: bool = False

    def describe(self) -> str:
        names = " / ".join(sorted({expr for _, expr in self.expressions}))
        statements = ", ".join(name for name, _ in self.expressions)
        kind = "wavefront over tiles, parallel along" if self.wavefront else "loop"
        clauses = "".join(f", {clause.describe()}" for clause in self.reductions)
        clauses += ", iterations of unequal work dealt out cyclically" if self.cyclic else ""
        return f"{kind} {names} (statements {statements}{clauses})"


@dataclass(frozen=True)
class ParallelPlan:
    loops: tuple[ParallelLoop, ...]


def _work_dimensions(band: isl.ScheduleNode) -> int:
    """Loop dimensions of the band's statements that lie below the enclosing loops."""
    dims: list[int] = []
    band.get_domain().foreach_set(lambda domain: dims.append(domain.dim(isl.dim_type.set)))
    return max(dims, default=0) - _enclosing_dimensions(band)


def _enclosing_dimensions(node: isl.ScheduleNode) -> int:
    """The members of the bands around ``node``, without those of a band whose values follow from
    the bands between it and ``node`` (the tile loops of point loops that also enclose ``node``)."""
    domain = node.get_domain()
    inside: isl.UnionMap | None = None
    count = 0
    while node.has_parent():
        node = node.parent()
        if node.get_type() != isl.schedule_node_type.band:
            continue
        values = node.band_get_partial_schedule_union_map().intersect_domain(domain)
        if inside is None or not inside.reverse().apply_range(values).is_single_valued():
            count += node.band_n_member()
        inside = values if inside is None else values.flat_range_product(inside)
    return count


def _clauses(
    band: isl.ScheduleNode, member: int, model: PolyModel | None, reductions: tuple[Reduction, ...]
) -> tuple[ReductionClause, ...] | None:
    if not reductions or model is None:
        return ()
    return reduction_clauses(model, moved_outermost(band, member), 0, reductions, allow_sections=True)


def _choose(
    band: isl.ScheduleNode,
    path: tuple[int, ...],
    dependences: isl.UnionMap,
    tiled: set[tuple[int, ...]],
    model: PolyModel | None,
    reductions: tuple[Reduction, ...],
    min_depth: int,
) -> ParallelLoop | None:
    if _work_dimensions(band) < min_depth:
        return None
    count = band.band_n_member()
    candidates = range(count) if band.band_get_permutable() else range(1)
    for member in candidates:
        if not parallel_outermost(band, member, dependences):
            continue
        clauses = _clauses(band, member, model, reductions)
        if clauses is not None:
            expressions = tuple(sorted(member_expressions(band, member).items()))
            return ParallelLoop(path, member, False, expressions, clauses, uneven_work(moved_outermost(band, member)))
    if path in tiled and count >= MIN_WAVEFRONT_MEMBERS and band.band_get_permutable():
        clauses = _clauses(_wavefront(band), 0, model, reductions)
        if clauses is not None:
            return ParallelLoop(path, 1, True, tuple(sorted(member_expressions(band, 1).items())), clauses)
    return None


def _wavefront(band: isl.ScheduleNode) -> isl.ScheduleNode:
    """``band`` with its first member replaced by the sum of its first two and split after it: the band
    below, whose first member runs the tiles of one wavefront."""
    current = members(band)
    band = replace_band(band, [current[0].add(current[1])] + current[1:], permutable=True)
    return band.band_split(1).child(0)


def uneven_work(band: isl.ScheduleNode) -> bool:
    """Whether, for fixed values of the enclosing loops, the band's first member takes values
    that enclose different sets of values of its other members (of the band below, for a
    one-member band): the loop's iterations do unequal work."""
    points = band.band_get_partial_schedule_union_map()
    below = band.child(0)
    if band.band_n_member() == 1:
        if below.get_type() != isl.schedule_node_type.band:
            return False
        points = points.flat_range_product(below.band_get_partial_schedule_union_map())
    points = points.intersect_domain(band.get_domain())
    try:
        space = isl.Map.from_union_map(band.get_prefix_schedule_union_map().reverse().apply_range(points))
    except isl.Error:
        return False
    rest = space.dim(isl.dim_type.out) - 1
    if rest < 1:
        return False
    first = space.project_out(isl.dim_type.out, 1, rest)
    others = space.project_out(isl.dim_type.out, 0, 1)
    return not first.flat_range_product(others).is_equal(space)


def plan_parallel(
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    tiled: frozenset[tuple[int, ...]] = frozenset(),
    model: PolyModel | None = None,
    reductions: tuple[Reduction, ...] = (),
    min_depth: int = MIN_NESTED_DEPTH,
) -> ParallelPlan:
    """One parallel loop per nest: the outermost band that has one (``tiled``: tile-band paths) with
    ``min_depth`` loop dimensions or more at or below it.

    ``dependences`` may be relaxed for ``reductions`` (of ``model``); a loop
    that carries one then gets the clauses for it, or is not parallel.
    """
    chosen: list[ParallelLoop] = []
    for path, band in band_nodes(schedule):
        if any(path[: len(loop.path)] == loop.path for loop in chosen):
            continue
        loop = _choose(band, path, dependences, set(tiled), model, reductions, min_depth)
        if loop is not None:
            chosen.append(loop)
    return ParallelPlan(tuple(chosen))


def apply_parallel(schedule: isl.Schedule, plan: ParallelPlan) -> isl.Schedule:
    """Reorder or skew each planned band and mark its parallel loop (deepest paths first)."""
    for loop in sorted(plan.loops, key=lambda loop: loop.path, reverse=True):
        band = node_at(schedule, loop.path)
        band = _wavefront(band) if loop.wavefront else moved_outermost(band, loop.member)
        schedule = insert_loop_mark(band, PARALLEL_MARK, loop.reductions, loop.cyclic).get_schedule()
    return schedule
