"""Fusion and scheduling (``polyopt.transform.fusion``): which nests are scheduled together, and the
region's schedule.  Candidate schedules are weighed with the loop stage's answer (``LoopQuery``); the
report names the candidate that gave each group's schedule (``fusion_schedules``).

Public: ``FusionChoice``, ``FUSION``, ``FUSION_POLICY``, ``FUSION_CANDIDATES``, ``FUSION_SCHEDULES``.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.loops import LoopQuery
from polyopt.report import NOTES, Heading, Section
from polyopt.transform.fusion import (
    FusionGroup,
    FusionPlan,
    GroupChoice,
    model_costing,
    model_residency,
    plan_fusion,
    schedule_costing,
    schedule_region,
)

FUSION_CANDIDATES = Heading("fusion_candidates", "fusion candidates (cost model)", 50)
FUSION_POLICY = Heading("fusion", "fusion", 60, joined=True, default=("none (original order)",))
FUSION_SCHEDULES = Heading("fusion_schedules", "fusion groups' schedules (the candidate that gave each)", 70)


@dataclass(frozen=True)
class FusionChoice:
    """The fusion plan, the schedule it gives and the candidate that gave each group's schedule."""

    plan: FusionPlan
    schedule: isl.Schedule
    choices: tuple[GroupChoice, ...]


class FusionPass:
    name = "fusion"
    headings = (FUSION_CANDIDATES, FUSION_POLICY, FUSION_SCHEDULES, NOTES)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> FusionChoice:
        model, deps, scheduler = ctx.model, ctx.relaxed, ctx.options.scheduler
        disabled = ctx.options.disabled_fusion_candidates
        costing = schedule_costing(model, deps, ctx.machine, ctx.parameters)
        residency = model_residency(model, ctx.machine, ctx.parameters)
        query = LoopQuery(ctx).evaluate_loops
        known: dict[FusionGroup, GroupChoice] = {}
        grouping = model_costing(model, deps, scheduler, costing, residency, query, disabled, known)
        plan = plan_fusion(model, deps.reduced, ctx.options.fusion, scheduler, grouping)
        scheduled, choices = schedule_region(model, deps, plan, scheduler, costing, residency, query, disabled, known)
        return FusionChoice(plan, scheduled, choices)

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: FusionChoice) -> isl.Schedule:
        return plan.schedule

    def report(self, plan: FusionChoice) -> list[Section]:
        return [
            Section(FUSION_POLICY, (plan.plan.describe(),)),
            Section(FUSION_CANDIDATES, plan.plan.candidates),
            Section(FUSION_SCHEDULES, tuple(choice.describe() for choice in plan.choices)),
            Section(NOTES, tuple(choice.note for choice in plan.choices if choice.note)),
        ]

    def summary(self, plan: FusionChoice) -> str | None:
        return f"fusion {plan.plan.policy}"


FUSION = FusionPass()
