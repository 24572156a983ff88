"""Unroll-and-jam into vector loops (``polyopt.transform.unroll_jam``), not into a loop that gcc unrolls
completely.

Public: ``UNROLL_JAM``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.as_written import loop_trip, unrolled
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Section
from polyopt.schedule_tree import anchored, bands_below
from polyopt.transform.unroll_jam import Jam, JamPlan, apply_unroll_jam, plan_unroll_jam


class UnrollJamPass:
    name = "unroll-and-jam"

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> JamPlan | None:
        plan = plan_unroll_jam(ctx.model, schedule, ctx.deps.full, ctx.machine.unroll_jam)
        rules = ctx.machine.small_loop_rules
        jams = tuple(jam for jam in plan.jams if not (rules and _short_inner(ctx, schedule, jam)))
        return JamPlan(jams) if jams else None

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: JamPlan) -> isl.Schedule:
        return apply_unroll_jam(subject, plan)

    def report(self, plan: JamPlan) -> list[Section]:
        return [Section("vector", tuple(jam.describe() for jam in plan.jams))]

    def summary(self, plan: JamPlan) -> str | None:
        return f"{len(plan.jams)} loop(s) unrolled and jammed"


UNROLL_JAM = UnrollJamPass()


def _short_inner(ctx: RegionContext, schedule: isl.Schedule, jam: Jam) -> bool:
    """Whether the loop that ``jam`` jams into is short enough for gcc to unroll it completely (``unrolled``):
    the copies of the loop around it then only add code."""
    band = anchored(schedule, jam.band)
    below = bands_below(band)
    if below:
        return unrolled(loop_trip(below[0], 0, ctx.model, ctx.parameters))
    last = band.band_n_member() - 1  # a recurrence's inner loop may be the band's last member
    return last > 0 and unrolled(loop_trip(band, last, ctx.model, ctx.parameters))
