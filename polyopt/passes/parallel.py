"""Parallel loops (``polyopt.transform.parallel``).

Public: ``PARALLEL``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.residency import threads_at
from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.tiling import TILING
from polyopt.report import Section
from polyopt.transform.parallel import ParallelPlan, apply_parallel, plan_parallel, with_thread_work
from polyopt.transform.tiling import tile_bands


class ParallelPass:
    name = "parallel"

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> ParallelPlan | None:
        """The parallel loops, outside the tile bands that ``earlier`` tiling made."""
        if not ctx.options.parallel:
            return None
        tiles = earlier.plan_of(TILING)
        tiled = tile_bands(tiles) if tiles is not None else frozenset()
        threads = threads_at(ctx.model, ctx.machine, ctx.parameters)
        plan = plan_parallel(schedule, ctx.relaxed.full, tiled, ctx.model, ctx.reductions, threads=threads)
        return with_thread_work(plan, ctx.model, ctx.machine, ctx.parameters)

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: ParallelPlan) -> isl.Schedule:
        return apply_parallel(subject, plan)

    def report(self, plan: ParallelPlan) -> list[Section]:
        return [Section("parallel", tuple(loop.describe() for loop in plan.loops))]

    def summary(self, plan: ParallelPlan) -> str | None:
        return f"{len(plan.loops)} parallel loop(s)" if plan.loops else None


PARALLEL = ParallelPass()
