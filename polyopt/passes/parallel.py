"""Parallel loops (``polyopt.transform.parallel``).

A loop whose threads never start, when every size of the region is known, is not marked: its ``if`` clause
would still cost a call into the OpenMP runtime at each execution (and its body an outlined function).

Public: ``PARALLEL``, ``PARALLEL_LOOPS``, ``starting``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.as_written import loop_threads
from polyopt.analysis.residency import threads_at
from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.tiling import TILING
from polyopt.report import Heading, Section
from polyopt.schedule_tree import anchored
from polyopt.transform.parallel import ParallelLoop, ParallelPlan, apply_parallel, plan_parallel, with_thread_work
from polyopt.transform.tiling import tile_bands

PARALLEL_LOOPS = Heading("parallel", "parallel loops", 110, always=True)


class ParallelPass:
    name = "parallel"
    headings = (PARALLEL_LOOPS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> ParallelPlan | None:
        """The parallel loops, outside the tile bands that ``earlier`` tiling made."""
        if not ctx.options.parallel:
            return None
        tiles = earlier.plan_of(TILING)
        tiled = tile_bands(tiles) if tiles is not None else frozenset()
        threads = threads_at(ctx.model, ctx.machine, ctx.parameters)
        plan = plan_parallel(schedule, ctx.relaxed.full, tiled, ctx.model, ctx.reductions, threads=threads)
        return starting(ctx, schedule, with_thread_work(plan, ctx.model, ctx.machine, ctx.parameters))

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: ParallelPlan) -> isl.Schedule:
        return apply_parallel(subject, plan)

    def report(self, plan: ParallelPlan) -> list[Section]:
        return [Section(PARALLEL_LOOPS, tuple(loop.describe() for loop in plan.loops))]

    def summary(self, plan: ParallelPlan) -> str | None:
        return f"{len(plan.loops)} parallel loop(s)" if plan.loops else None


PARALLEL = ParallelPass()


def starting(ctx: RegionContext, schedule: isl.Schedule, plan: ParallelPlan) -> ParallelPlan:
    """``plan`` without the loops whose threads never start, when every size of the region is known."""
    if ctx.guessed:
        return plan
    machine = ctx.machine

    def starts(loop: ParallelLoop) -> bool:
        if loop.wavefront:  # its band is skewed when applied: its threads are weighed where it is planned
            return True
        work = loop.work or machine.parallel_work
        return loop_threads(anchored(schedule, loop.band), loop.member, ctx.model, machine, ctx.parameters, work) > 1

    return ParallelPlan(tuple(loop for loop in plan.loops if starts(loop)))
