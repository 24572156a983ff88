"""Distribution of innermost loops (``polyopt.transform.distribution``).

Public: ``DISTRIBUTION``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.vector import VECTOR_LOOPS
from polyopt.report import Section
from polyopt.transform.distribution import DistributionPlan, apply_distribution, plan_distribution


class DistributionPass:
    name = "distribution"
    headings = (VECTOR_LOOPS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> DistributionPlan:
        return plan_distribution(ctx.model, schedule, ctx.relaxed.full, ctx.reductions, ctx.dead)

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: DistributionPlan) -> isl.Schedule:
        return apply_distribution(subject, plan, ctx.model)

    def report(self, plan: DistributionPlan) -> list[Section]:
        return [Section(VECTOR_LOOPS, tuple(distribution.describe() for distribution in plan.distributions))]


DISTRIBUTION = DistributionPass()
