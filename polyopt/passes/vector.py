"""Vector loops (``polyopt.transform.vector``).

Public: ``VECTOR``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Section
from polyopt.transform.vector import VectorPlan, apply_vector, plan_vector


class VectorPass:
    name = "vector"

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> VectorPlan:
        return plan_vector(ctx.model, schedule, ctx.relaxed.full, ctx.reductions)

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: VectorPlan) -> isl.Schedule:
        return apply_vector(subject, plan)

    def report(self, plan: VectorPlan) -> list[Section]:
        return [Section("vector", tuple(loop.describe() for loop in plan.loops))]

    def summary(self, plan: VectorPlan) -> str | None:
        simd = sum(1 for loop in plan.loops if loop.simd)
        return f"{simd} simd loop(s)" if simd else None


VECTOR = VectorPass()
