"""Fusion policy: which consecutive top-level loop nests are scheduled together.

Public: ``FusionGroup``, ``FusionPlan``, ``top_level_nests``,
``ResidencyOf``, ``EvaluateLoops``, ``plan_fusion``, ``ScheduleCoster``, ``schedule_costing``,
``model_costing``, ``model_residency``, ``GroupChoice``, ``group_schedule``, ``schedule_region``.

Nests are fused or distributed as units.  ``model`` (the default) weighs every
group of up to ``MAX_GROUP_NESTS`` consecutive nests by the cost of the
schedule it would get (``polyopt.analysis.fusion_cost``: instances and
streamed bytes, divided by the cores when the group keeps a parallel loop)
and picks the cheapest partition by dynamic programming (PolyMage dense-matrix thesis, Ch. 3).
``none`` keeps every nest apart,
``max`` hands the whole region to the scheduler, and ``smart`` grows groups
greedily: a nest joins the current group when it shares an array with it,
the scheduler really fuses them (one outer band over all statements), and the
fused schedule keeps an outer parallel loop whenever either part had one.

``smart`` also fuses streaming nests along the rows of a shared matrix
(BTO: fusion chosen together with the parallel loop).  A nest
streams when no statement has more loops than the arrays it touches have
dimensions: each element is used O(1) times, so the cost is memory traffic,
not reuse that tiling could capture.  isl distributes such nests (deeper
bands), which reads a shared matrix once per nest; the row-fused schedule
walks the matrix's rows once, in an outer parallel loop, and isl schedules
one row step inside.  It is chosen when it streams fewer matrices
(``polyopt.transform.stepping``) and keeps the outer parallel loop.

Each group's schedule is the first of the named candidates of ``polyopt.transform.fusion_candidates``
that applies (row-fused, isl's, the original order, stepwise, ...); ``--fusion-candidate=-NAME``
switches one off.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.dependences import Dependences
from polyopt.analysis.fusion_cost import GroupCost, group_cost
from polyopt.analysis.parallel_loops import parallel_statements
from polyopt.analysis.residency import Residency, group_residency, threads_at
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.options import FUSION_POLICIES, SchedulerOptions
from polyopt.schedule_tree import outermost_bands
from polyopt.transform.fusion_candidates import TIE, EvaluateLoops, GroupFacts, ScheduleCoster, choose
from polyopt.transform.scheduling import schedule_group, sequence_groups
from polyopt.transform.stepping import outer_parallel, row_fused, top_level_nests

MAX_GROUP_NESTS = 6  # the model policy considers groups of up to this many consecutive nests
GroupCoster = Callable[["FusionGroup"], GroupCost]
ResidencyOf = Callable[["FusionGroup"], Residency]


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
    """The partition of the nests into consecutive groups of least total cost (PolyMage dense-matrix thesis, Ch. 3:
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
    disabled: Collection[str] = (),
    known: dict[FusionGroup, GroupChoice] | None = None,
) -> GroupCoster:
    """The cost of a group as it would be scheduled (``group_schedule``, without the candidates in
    ``disabled``), by ``costing``; each group's choice is kept in ``known``, when given, for
    ``schedule_region`` with the same arguments."""

    def cost(group: FusionGroup) -> GroupCost:
        choice = group_schedule(model, group, deps, options, costing, residency(group), evaluate_loops, disabled)
        if known is not None:
            known[group] = choice
        return costing(choice.schedule)

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


@dataclass(frozen=True, eq=False)
class GroupChoice:
    """The schedule of one fusion group, the name of the candidate that gave it
    (``polyopt.transform.fusion_candidates``) and that candidate's note (None for isl's schedule)."""

    group: FusionGroup
    candidate: str
    schedule: isl.Schedule
    note: str | None

    def describe(self) -> str:
        return f"{_nest_list(self.group.nests)}: {self.candidate}"


def group_schedule(
    model: PolyModel,
    group: FusionGroup,
    deps: Dependences,
    options: SchedulerOptions,
    costing: ScheduleCoster | None = None,
    residency: Residency | None = None,
    evaluate_loops: EvaluateLoops | None = None,
    disabled: Collection[str] = (),
) -> GroupChoice:
    """The group's schedule: the first candidate of ``CANDIDATES`` not named in ``disabled`` that applies
    (``costing`` and ``evaluate_loops`` weigh the stepwise ones; ``residency``: whether the group runs from
    cache).  Every schedule is re-verified by the pipeline before code is emitted."""
    facts = GroupFacts(model, group, deps, options, costing, residency, evaluate_loops)
    candidate, schedule, note = choose(facts, disabled)
    return GroupChoice(group, candidate.name, schedule, note)


def schedule_region(
    model: PolyModel,
    deps: Dependences,
    plan: FusionPlan,
    options: SchedulerOptions,
    costing: ScheduleCoster | None = None,
    residency: ResidencyOf | None = None,
    evaluate_loops: EvaluateLoops | None = None,
    disabled: Collection[str] = (),
    known: Mapping[FusionGroup, GroupChoice] | None = None,
) -> tuple[isl.Schedule, tuple[GroupChoice, ...]]:
    """Schedule each group (``group_schedule``: ``costing`` and ``evaluate_loops`` weigh candidates, when
    given; ``residency``: whether it runs from cache, ``model_residency``; ``disabled``: candidates switched
    off) and run the groups in order; the choices name the candidate that gave each group's schedule.
    ``known``: the choices ``model_costing`` made with the same arguments, not made again."""
    known = known or {}
    choices = tuple(
        known[group]
        if group in known
        else group_schedule(
            model, group, deps, options, costing, residency(group) if residency else None, evaluate_loops, disabled
        )
        for group in plan.groups
    )
    return sequence_groups([choice.schedule for choice in choices]), choices
