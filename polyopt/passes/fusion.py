"""Fusion and scheduling (``polyopt.transform.fusion``): which nests are scheduled together, and the
region's schedule.  Candidate schedules are weighed with the loop stage's answer (``LoopQuery``).

Public: ``FusionChoice``, ``FUSION``.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.loops import LoopQuery
from polyopt.report import Section
from polyopt.transform.fusion import (
    FusionPlan,
    model_costing,
    model_residency,
    plan_fusion,
    schedule_costing,
    schedule_region,
)


@dataclass(frozen=True)
class FusionChoice:
    """The fusion plan, the schedule it gives and notes on where a group's schedule was chosen."""

    plan: FusionPlan
    schedule: isl.Schedule
    notes: tuple[str, ...]


class FusionPass:
    name = "fusion"

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> FusionChoice:
        model, deps, scheduler = ctx.model, ctx.relaxed, ctx.options.scheduler
        costing = schedule_costing(model, deps, ctx.machine, ctx.parameters)
        residency = model_residency(model, ctx.machine, ctx.parameters)
        query = LoopQuery(ctx).evaluate_loops
        grouping = model_costing(model, deps, scheduler, costing, residency, query)
        plan = plan_fusion(model, deps.reduced, ctx.options.fusion, scheduler, grouping)
        scheduled, notes = schedule_region(model, deps, plan, scheduler, costing, residency, query)
        return FusionChoice(plan, scheduled, notes)

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: FusionChoice) -> isl.Schedule:
        return plan.schedule

    def report(self, plan: FusionChoice) -> list[Section]:
        return [
            Section("fusion", (plan.plan.describe(),)),
            Section("fusion_candidates", plan.plan.candidates),
            Section("notes", plan.notes),
        ]

    def summary(self, plan: FusionChoice) -> str | None:
        return f"fusion {plan.plan.policy}"


FUSION = FusionPass()
