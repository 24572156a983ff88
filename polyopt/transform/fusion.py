"""Fusion policy: which consecutive top-level loop nests are scheduled together.

Public: ``FUSION_POLICIES``, ``FusionGroup``, ``FusionPlan``, ``top_level_nests``,
``ResidencyOf``, ``LoopAnswer``, ``EvaluateLoops``, ``plan_fusion``, ``ScheduleCoster``, ``schedule_costing``,
``model_costing``, ``model_residency``, ``group_schedule``, ``parallelizes``, ``schedule_region``.

Nests are fused or distributed as units.  ``model`` (the default) weighs every
group of up to ``MAX_GROUP_NESTS`` consecutive nests by the cost of the
schedule it would get (``polyopt.analysis.fusion_cost``: instances and
streamed bytes, divided by the cores when the group keeps a parallel loop)
and picks the cheapest partition by dynamic programming (seed 000 Ch. 3).
``none`` keeps every nest apart,
``max`` hands the whole region to the scheduler, and ``smart`` grows groups
greedily: a nest joins the current group when it shares an array with it,
the scheduler really fuses them (one outer band over all statements), and the
fused schedule keeps an outer parallel loop whenever either part had one.

``smart`` also fuses streaming nests along the rows of a shared matrix
(seed 002, BTO: fusion chosen together with the parallel loop).  A nest
streams when no statement has more loops than the arrays it touches have
dimensions: each element is used O(1) times, so the cost is memory traffic,
not reuse that tiling could capture.  isl distributes such nests (deeper
bands), which reads a shared matrix once per nest; the row-fused schedule
walks the matrix's rows once, in an outer parallel loop, and isl schedules
one row step inside.  It is chosen when it streams fewer matrices
(``polyopt.transform.stepping``) and keeps the outer parallel loop.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Protocol

import islpy as isl

from polyopt.analysis.dependences import Dependences
from polyopt.analysis.fusion_cost import GroupCost, group_cost
from polyopt.analysis.parallel_loops import parallel_statements
from polyopt.analysis.residency import Residency, group_residency, threads_at
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.schedule_tree import outermost_bands
from polyopt.transform.scheduling import (
    SchedulerOptions,
    original_group_schedule,
    schedule_group,
    sequence_groups,
)
from polyopt.transform.stepping import (
    outer_parallel,
    plane_tiled_schedule,
    row_fused,
    stepwise_schedule,
    top_level_nests,
)

FUSION_POLICIES = ("model", "smart", "max", "none")
DEFAULT_FUSION = "model"
MAX_GROUP_NESTS = 6  # the model policy considers groups of up to this many consecutive nests
TIE = 1e-6  # relative cost difference below which two partitions are equal
GroupCoster = Callable[["FusionGroup"], GroupCost]
ScheduleCoster = Callable[[isl.Schedule], GroupCost]
EvaluateLoops = Callable[[isl.Schedule], "LoopAnswer"]  # the loop stage on a candidate schedule
ResidencyOf = Callable[["FusionGroup"], Residency]
MAX_WAVEFRONT_DEPTH = 3


class LoopAnswer(Protocol):
    """What the loop stage tells of a candidate schedule (``polyopt.passes.loops.LoopEvaluation``)."""

    @property
    def vectorizes(self) -> bool: ...


@dataclass(frozen=True)
class FusionGroup:
    """Top-level nests ``nests`` (0-based, in source order) scheduled as one unit."""

    nests: tuple[int, ...]
    statements: frozenset[str]


@dataclass(frozen=True)
class FusionPlan:
    """The groups, and for the model policy the cost of every group it weighed."""

    policy: str
    groups: tuple[FusionGroup, ...]
    candidates: tuple[str, ...] = ()

    def describe(self) -> str:
        return f"{self.policy}: " + " ; ".join(_nest_list(group.nests) for group in self.groups)


def _nest_list(nests: tuple[int, ...]) -> str:
    return "{" + ", ".join(f"nest {n + 1}" for n in nests) + "}"


def _arrays(model: PolyModel, statements: frozenset[str]) -> set[str]:
    return {ref.array for ref in model.references if ref.statement in statements}


def _fully_fused(schedule: isl.Schedule) -> bool:
    bands = outermost_bands(schedule)
    return len(bands) == 1


def _group(nests: list[frozenset[str]], indices: list[int]) -> FusionGroup:
    return FusionGroup(tuple(indices), frozenset().union(*(nests[i] for i in indices)))


def plan_fusion(
    model: PolyModel,
    dependences: isl.UnionMap,
    policy: str,
    options: SchedulerOptions,
    costing: GroupCoster | None = None,
) -> FusionPlan:
    """Group the region's nests under ``policy``; ``model`` needs ``costing`` (``model_costing``)."""
    if policy not in FUSION_POLICIES:
        raise ValueError(f"unknown fusion policy {policy!r}")
    nests = top_level_nests(model.scop)
    if policy == "model":
        if costing is None:
            raise ValueError("the model fusion policy needs a cost function")
        return _cheapest(nests, costing)
    if policy == "none":
        return FusionPlan(policy, tuple(_group(nests, [i]) for i in range(len(nests))))
    if policy == "max":
        return FusionPlan(policy, (_group(nests, list(range(len(nests)))),))
    groups: list[list[int]] = [[0]]
    for index in range(1, len(nests)):
        if _worth_fusing(model, dependences, nests, groups[-1], index, options):
            groups[-1].append(index)
        else:
            groups.append([index])
    return FusionPlan(policy, tuple(_group(nests, g) for g in groups))


def _cheapest(nests: list[frozenset[str]], costing: GroupCoster) -> FusionPlan:
    """The partition of the nests into consecutive groups of least total cost (seed 000 Ch. 3:
    dynamic programming over the last group of each prefix).  Fusion must win by more than
    ``TIE``: a group that isl distributes anyway costs what its parts do, and smaller
    scheduling problems are kept."""
    count = len(nests)
    best: list[float] = [0.0] + [math.inf] * count
    start_of = [0] * (count + 1)
    weighed: list[str] = []
    for end in range(1, count + 1):
        for start in reversed(range(max(0, end - MAX_GROUP_NESTS), end)):
            group = _group(nests, list(range(start, end)))
            cost = costing(group)
            weighed.append(f"{_nest_list(group.nests)}: {cost.describe()}")
            if best[start] + cost.cycles < best[end] * (1 - TIE):
                best[end], start_of[end] = best[start] + cost.cycles, start
    groups: list[FusionGroup] = []
    end = count
    while end > 0:
        groups.insert(0, _group(nests, list(range(start_of[end], end))))
        end = start_of[end]
    return FusionPlan("model", tuple(groups), tuple(weighed))


def schedule_costing(
    model: PolyModel, deps: Dependences, machine: Machine, parameters: Mapping[str, int]
) -> ScheduleCoster:
    """The cost of a group's schedule by ``group_cost``, which spreads over the cores the
    statements under the parallel loops (wavefronts included) that sequential bands keep inside."""

    threads = threads_at(model, machine, parameters)

    def cost(schedule: isl.Schedule) -> GroupCost:
        inner = parallel_statements(schedule, deps.full, wavefronts=True, threads=threads)
        return group_cost(model, schedule, deps.full, machine, parameters, inner)

    return cost


def model_costing(
    model: PolyModel,
    deps: Dependences,
    options: SchedulerOptions,
    costing: ScheduleCoster,
    residency: ResidencyOf,
    evaluate_loops: EvaluateLoops | None = None,
) -> GroupCoster:
    """The cost of a group as it would be scheduled (``group_schedule``), by ``costing``."""

    def cost(group: FusionGroup) -> GroupCost:
        schedule, _ = group_schedule(model, group, deps, options, costing, residency(group), evaluate_loops)
        return costing(schedule)

    return cost


def model_residency(model: PolyModel, machine: Machine, parameters: Mapping[str, int]) -> ResidencyOf:
    """Whether a group runs from cache on ``machine`` at ``parameters`` (``polyopt.analysis.residency``)."""
    return lambda group: group_residency(model, group.statements, machine, parameters)


def _worth_fusing(
    model: PolyModel,
    dependences: isl.UnionMap,
    nests: list[frozenset[str]],
    current: list[int],
    index: int,
    options: SchedulerOptions,
) -> bool:
    group = _group(nests, current).statements
    candidate = nests[index]
    if not _arrays(model, group) & _arrays(model, candidate):
        return False
    if row_fused(model, _group(nests, current + [index]), dependences, options) is not None:
        return True
    fused = schedule_group(model, group | candidate, dependences, options)
    if fused is None or not _fully_fused(fused):
        return False
    if outer_parallel(fused, dependences):
        return True
    apart = [schedule_group(model, part, dependences, options) for part in (group, candidate)]
    return not any(s is not None and outer_parallel(s, dependences) for s in apart)


def _covered(schedule: isl.Schedule, dependences: isl.UnionMap, statements: frozenset[str]) -> bool:
    """Whether every statement runs under some parallel loop of ``schedule`` (untiled)."""
    return parallel_statements(schedule, dependences, wavefronts=False) >= statements


def _band_depth(schedule: isl.Schedule) -> int:
    return max((band.band_n_member() for band in outermost_bands(schedule)), default=0)


def group_schedule(
    model: PolyModel,
    group: FusionGroup,
    deps: Dependences,
    options: SchedulerOptions,
    costing: ScheduleCoster | None = None,
    residency: Residency | None = None,
    evaluate_loops: EvaluateLoops | None = None,
) -> tuple[isl.Schedule, str | None]:
    """The group's schedule, and a note when it is not isl's default one.

    When isl's schedule has no outer parallel loop (it would be skewed and
    tiled for the reuse its time loop carries) and the group is ``residency.resident``
    (that reuse already hits in cache, and no loop would start threads), the
    original order is kept.
    When isl's permutable schedule has no outer parallel loop (a time-iterated
    stencil that would run as a wavefront of time tiles) and its band is deeper
    than ``MAX_WAVEFRONT_DEPTH`` (time plus three space dimensions: skewed
    tiles are then mostly partial and guarded), isl's first two members tiled in
    whole planes (``plane_tiled_schedule``) are used instead when every statement
    gets a parallel loop in its planes; failing that, a schedule whose outer loop is
    an original (time) loop, with parallel loops inside giving every statement
    one: it streams whole rows per time step.
    With a shallower band, that stepwise schedule is used when it runs more instances
    in parallel and ``costing`` (seed 000 Ch. 3) finds it cheaper: isl's band fuses
    statements whose shared loop then carries a dependence (gramschmidt's column loop,
    fused with the statements that compute the column it reads), while inside each
    step isl distributes them and their loops run in parallel.  It is also used when
    the loop stage (``evaluate_loops``) finds simd loops in all of its innermost loops but not in all of the
    wavefront's (the loop stage first distributes a tile's rows by statement group, so jacobi-2d's
    sweeps keep their wavefront).
    Every schedule is re-verified by the pipeline before code is emitted.
    """
    where = f"nests {[n + 1 for n in group.nests]}"
    fused = row_fused(model, group, deps.full, options)
    if fused is not None:
        return fused, f"{where}: streaming, fused along matrix rows in one parallel loop"
    schedule = schedule_group(model, group.statements, deps.reduced, options)
    if schedule is None:
        return original_group_schedule(model, group.statements), f"scheduler gave up on {where}; original order kept"
    if options.outer_parallel or outer_parallel(schedule, deps.full):
        return schedule, None
    if residency is not None and residency.resident:
        return original_group_schedule(model, group.statements), f"{where}: original order kept: {residency.describe()}"
    deep = _band_depth(schedule) > MAX_WAVEFRONT_DEPTH
    wanted = deep or costing is not None or evaluate_loops is not None
    stepwise = stepwise_schedule(model, group, deps.reduced, options) if wanted else None
    if stepwise is None:
        return schedule, None
    if deep:
        planes = plane_tiled_schedule(model, group.statements, schedule, deps.reduced, options)
        if planes is not None and _covered(planes, deps.full, group.statements):
            return planes, f"{where}: time skewed along the outer space loop, parallel loops in each plane"
        if _covered(stepwise, deps.full, group.statements):
            return stepwise, f"{where}: parallel loops inside the sequential outer loop instead of a wavefront"
        return schedule, None
    if evaluate_loops is not None and _covered(stepwise, deps.full, group.statements):
        if evaluate_loops(stepwise).vectorizes and not evaluate_loops(schedule).vectorizes:
            return (
                stepwise,
                f"{where}: parallel vector loops inside the original outer loop instead of a scalar wavefront",
            )
    if costing is not None and parallelizes(costing(stepwise), costing(schedule)):
        return stepwise, f"{where}: parallel loops inside the original outer loop cost less than isl's band"
    return schedule, None


def parallelizes(stepwise: GroupCost, fused: GroupCost) -> bool:
    """Whether ``stepwise`` runs more instances in parallel than ``fused`` and costs less."""
    more = stepwise.parallel_instances > fused.parallel_instances
    return more and stepwise.cycles < fused.cycles * (1 - TIE)


def schedule_region(
    model: PolyModel,
    deps: Dependences,
    plan: FusionPlan,
    options: SchedulerOptions,
    costing: ScheduleCoster | None = None,
    residency: ResidencyOf | None = None,
    evaluate_loops: EvaluateLoops | None = None,
) -> tuple[isl.Schedule, tuple[str, ...]]:
    """Schedule each group (choosing between schedules by ``costing``, when given; ``residency``: whether
    it runs from cache, ``model_residency``) and run the groups in order; notes say where a group's
    schedule was chosen."""
    schedules: list[isl.Schedule] = []
    notes: list[str] = []
    for group in plan.groups:
        resident = residency(group) if residency else None
        schedule, note = group_schedule(model, group, deps, options, costing, resident, evaluate_loops)
        schedules.append(schedule)
        if note:
            notes.append(note)
    return sequence_groups(schedules), tuple(notes)
