"""Unroll-and-jam into vector loops (``polyopt.transform.unroll_jam``), not into a loop that gcc unrolls
completely, and recurrences interleaved only where the inner loop runs one chain and gcc does not vectorize
the loop around it.

A recurrence whose dependences span ``d`` iterations of its inner loop already runs ``d`` independent chains
side by side (PNG's Sub filter, each byte plus the byte one pixel of 3 bytes before it: 4 rows jammed ran
0.5-0.65x of the rows one after another; at one byte per pixel, the jam ran 1.45x faster).  Where gcc
vectorizes the loop around the recurrence by itself, with stride-1 vectors (a FIR filter, ``y[i] += h[k] *
x[i - k]`` with ``k`` inner), its lanes run more chains than the copies of a jam (jammed by 4: 0.3x).

Public: ``UNROLL_JAM``.
"""

from __future__ import annotations

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.as_written import loop_trip, score_schedule, unrolled
from polyopt.analysis.strides import SCATTERED
from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.vector import VECTOR_LOOPS
from polyopt.report import Section
from polyopt.schedule_tree import anchored, band_statements, bands_below, member_map, same_outer
from polyopt.transform.unroll_jam import Jam, JamPlan, apply_unroll_jam, plan_unroll_jam


class UnrollJamPass:
    name = "unroll-and-jam"
    headings = (VECTOR_LOOPS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> JamPlan | None:
        plan = plan_unroll_jam(ctx.model, schedule, ctx.deps.full, ctx.machine.unroll_jam)
        rules = ctx.machine.small_loop_rules
        kept = (jam for jam in plan.jams if not (rules and _short_inner(ctx, schedule, jam)))
        jams = tuple(jam for jam in kept if not (jam.recurrence and _lanes_run(ctx, schedule, jam)))
        return JamPlan(jams) if jams else None

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: JamPlan) -> isl.Schedule:
        return apply_unroll_jam(subject, plan)

    def report(self, plan: JamPlan) -> list[Section]:
        return [Section(VECTOR_LOOPS, tuple(jam.describe() for jam in plan.jams))]

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


def _lanes_run(ctx: RegionContext, schedule: isl.Schedule, jam: Jam) -> bool:
    """Whether the recurrence of ``jam`` runs several chains side by side without it: its inner loop's own
    chains (``_chains``), or vector lanes of the loop around it that gcc vectorizes (``_vectorized_around``)."""
    return _chains(ctx, schedule, jam) or _vectorized_around(ctx, schedule, jam)


def _vectorized_around(ctx: RegionContext, schedule: isl.Schedule, jam: Jam) -> bool:
    """Whether gcc vectorizes the loop around each statement of ``jam``'s recurrence by itself, every access
    of it in stride-1 or invariant vectors (``score_schedule``)."""
    names = band_statements(anchored(schedule, jam.band))
    score = score_schedule(ctx.model, schedule, ctx.deps.full, ctx.machine, ctx.parameters)
    costs = [cost for cost in score.statements if cost.statement in names]
    return bool(costs) and all(cost.simd and SCATTERED not in cost.strides for cost in costs)


def _chains(ctx: RegionContext, schedule: isl.Schedule, jam: Jam) -> bool:
    """Whether the inner loop of the recurrence ``jam`` interleaves runs several chains already: every
    dependence it carries spans at least two of its iterations at the region's parameters."""
    band = anchored(schedule, jam.band)
    below = bands_below(band)
    inner = below[0] if below else band
    member = inner.band_n_member() - 1
    step = member_map(inner, member)
    spans = same_outer(inner, member, ctx.deps.full).apply_domain(step).apply_range(step).deltas()
    forward = isl.Set("{ [d] : d >= 1 }", context=ctx.model.ctx).align_params(spans.get_space())
    carried = spans.intersect(isl.UnionSet.from_set(forward))
    if carried.is_empty():
        return False
    shortest = isl_util.value_at(isl.Set.from_union_set(carried).dim_min(0), ctx.parameters)
    return shortest is not None and shortest >= 2
