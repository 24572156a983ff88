"""Unroll-and-jam into vector loops (``polyopt.transform.unroll_jam``).

Public: ``UNROLL_JAM``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Section
from polyopt.transform.unroll_jam import JamPlan, apply_unroll_jam, plan_unroll_jam


class UnrollJamPass:
    name = "unroll-and-jam"

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> JamPlan | None:
        plan = plan_unroll_jam(ctx.model, schedule, ctx.deps.full, ctx.machine.unroll_jam)
        return plan if plan.jams else None

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: JamPlan) -> isl.Schedule:
        return apply_unroll_jam(subject, plan)

    def report(self, plan: JamPlan) -> list[Section]:
        return [Section("vector", tuple(jam.describe() for jam in plan.jams))]

    def summary(self, plan: JamPlan) -> str | None:
        return f"{len(plan.jams)} loop(s) unrolled and jammed"


UNROLL_JAM = UnrollJamPass()
