"""Decide and mark OpenMP parallel loops.

Public: ``ParallelLoop``, ``ParallelPlan``, ``plan_parallel``, ``with_thread_work``, ``apply_parallel``.

Top-down, the first band of each nest with a member that carries no
dependence becomes the nest's parallel loop; in a permutable band that member
is moved outermost.  When no member of a tiled permutable band is parallel
(time-iterated stencils after skewing) and its tiles may run as a wavefront
(``polyopt.analysis.parallel_loops.runs_wavefront``: three members or more, or two that are all
the loops of their statements when a loop over them starts threads), its first two members are
turned into a wavefront: the outer loop walks ``m0 + m1`` sequentially and the next one runs
the tiles of one wavefront in parallel.  The marks are re-proved by
``polyopt.pipeline`` before code is emitted.

A loop starts threads from ``Machine.parallel_work`` instances (an ``if`` clause evaluated at run
time), or from fewer when its data stream beyond the L2 caches (``with_thread_work``,
``polyopt.analysis.residency.thread_work``).

A parallel loop whose iterations enclose unequal numbers of inner iterations
(a triangular tile space: syrk's ``j <= i``) would leave the thread with the
heavy half working alone under OpenMP's default blocks of iterations; its
iterations are dealt out one by one instead (``schedule(static, 1)``, PolyMage multigrid thesis,
Sec. 3.5: the threads' loads balanced).

A parallel region costs a fork and a join; it is only worth it when the loop
does a large amount of work: its statements must have at least
``MIN_NESTED_DEPTH`` loop dimensions at or below it (tile loops do not count),
otherwise the nest stays sequential there and the search goes deeper.  A loop
nested in sequential loops starts a region per iteration of them, which makes
this matter most there.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

import islpy as isl

from polyopt.analysis.parallel_loops import (
    MIN_NESTED_DEPTH,
    StartsThreads,
    parallel_members,
    runs_wavefront,
    uneven_work,
    work_dimensions,
)
from polyopt.analysis.reduction_clauses import reduction_clauses
from polyopt.analysis.reductions import Reduction
from polyopt.analysis.residency import thread_work
from polyopt.analysis.vector_loops import innermost_member
from polyopt.machine import Machine
from polyopt.marks import PARALLEL_MARK, ReductionClause
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    Anchor,
    BandText,
    anchor_of,
    band_nodes,
    band_text,
    insert_loop_mark,
    member_expressions,
    members,
    moved_outermost,
    replace_band,
    rewrite_bands,
)


@dataclass(frozen=True)
class ParallelLoop:
    """The ``band`` runs member ``member`` in parallel.

    ``wavefront`` says the band is first skewed into a wavefront (then the
    parallel member is the second one); ``expressions`` give, per statement,
    the parallel member's schedule expression before any change.
    """

    band: Anchor
    member: int
    wavefront: bool
    expressions: tuple[tuple[str, str], ...]
    reductions: tuple[ReductionClause, ...] = ()
    cyclic: bool = False
    work: int = 0

    @property
    def statements(self) -> frozenset[str]:
        return frozenset(name for name, _ in self.expressions)

    def describe(self) -> str:
        names = " / ".join(sorted({expr for _, expr in self.expressions}))
        statements = ", ".join(name for name, _ in self.expressions)
        kind = "wavefront over tiles, parallel along" if self.wavefront else "loop"
        clauses = "".join(f", {clause.describe()}" for clause in self.reductions)
        clauses += ", iterations of unequal work dealt out cyclically" if self.cyclic else ""
        clauses += f", threads from {self.work} instances: its data stream beyond L2" if self.work else ""
        return f"{kind} {names} (statements {statements}{clauses})"


@dataclass(frozen=True)
class ParallelPlan:
    loops: tuple[ParallelLoop, ...]


def _clauses(
    band: isl.ScheduleNode, member: int, model: PolyModel | None, reductions: tuple[Reduction, ...]
) -> tuple[ReductionClause, ...] | None:
    if not reductions or model is None:
        return ()
    return reduction_clauses(model, moved_outermost(band, member), 0, reductions, allow_sections=True)


@dataclass(frozen=True)
class _Search:
    """What ``plan_parallel`` looks for (see its arguments)."""

    dependences: isl.UnionMap
    tiled: frozenset[BandText]
    model: PolyModel | None
    reductions: tuple[Reduction, ...]
    min_depth: int
    threads: StartsThreads | None


def _vector_last(band: isl.ScheduleNode, members: list[int], search: _Search) -> list[int]:
    """``members`` with the one Alg. 5 would run innermost last, when ``band`` is innermost and another
    remains: moved outermost as the parallel loop, it would leave a worse vector loop inside."""
    if search.model is None or len(members) < 2 or band.child(0).get_type() != isl.schedule_node_type.leaf:
        return members
    inner = innermost_member(search.model, band, search.dependences, search.reductions).member
    return sorted(members, key=lambda member: member == inner)


def _choose(band: isl.ScheduleNode, search: _Search) -> ParallelLoop | None:
    if work_dimensions(band) < search.min_depth:
        return None
    anchor = anchor_of(band)
    for member in _vector_last(band, parallel_members(band, search.dependences), search):
        clauses = _clauses(band, member, search.model, search.reductions)
        if clauses is not None:
            expressions = tuple(sorted(member_expressions(band, member).items()))
            return ParallelLoop(anchor, member, False, expressions, clauses, uneven_work(moved_outermost(band, member)))
    if band_text(band) in search.tiled and runs_wavefront(band, search.threads, search.dependences):
        clauses = _clauses(_wavefront(band), 0, search.model, search.reductions)
        if clauses is not None:
            return ParallelLoop(anchor, 1, True, tuple(sorted(member_expressions(band, 1).items())), clauses)
    return None


def _wavefront(band: isl.ScheduleNode) -> isl.ScheduleNode:
    """``band`` with its first member replaced by the sum of its first two and split after it: the band
    below, whose first member runs the tiles of one wavefront."""
    current = members(band)
    band = replace_band(band, [current[0].add(current[1])] + current[1:], permutable=True)
    return band.band_split(1).child(0)


def plan_parallel(
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    tiled: frozenset[BandText] = frozenset(),
    model: PolyModel | None = None,
    reductions: tuple[Reduction, ...] = (),
    min_depth: int = MIN_NESTED_DEPTH,
    threads: StartsThreads | None = None,
) -> ParallelPlan:
    """One parallel loop per nest: the outermost band that has one (``tiled``: the tile bands, whose
    tiles may run as a wavefront, ``runs_wavefront`` with ``threads``) with ``min_depth`` loop
    dimensions or more at or below it.

    ``dependences`` may be relaxed for ``reductions`` (of ``model``); a loop
    that carries one then gets the clauses for it, or is not parallel.
    """
    search = _Search(dependences, tiled, model, reductions, min_depth, threads)
    chosen: list[ParallelLoop] = []
    inside: list[tuple[int, ...]] = []  # the positions of the chosen bands, whose descendants need no other
    for path, band in band_nodes(schedule):
        if any(path[: len(outer)] == outer for outer in inside):
            continue
        loop = _choose(band, search)
        if loop is not None:
            chosen.append(loop)
            inside.append(path)
    return ParallelPlan(tuple(chosen))


def with_thread_work(
    plan: ParallelPlan, model: PolyModel, machine: Machine, parameters: Mapping[str, int]
) -> ParallelPlan:
    """``plan`` with ``work`` set on the loops that start threads from fewer instances than the machine's
    ``parallel_work`` because their data stream beyond the L2 caches (``polyopt.analysis.residency.thread_work``)."""
    loops = []
    for loop in plan.loops:
        work = thread_work(model, loop.statements, machine, parameters)
        loops.append(replace(loop, work=work if work < machine.parallel_work else 0))
    return ParallelPlan(tuple(loops))


def apply_parallel(schedule: isl.Schedule, plan: ParallelPlan) -> isl.Schedule:
    """Reorder or skew each planned band and mark its parallel loop."""

    def marked(band: isl.ScheduleNode, loop: ParallelLoop) -> isl.ScheduleNode:
        band = _wavefront(band) if loop.wavefront else moved_outermost(band, loop.member)
        return insert_loop_mark(band, PARALLEL_MARK, loop.reductions, loop.cyclic, work=loop.work)

    return rewrite_bands(schedule, [(loop.band, loop) for loop in plan.loops], marked)
