"""Vector loops (``polyopt.transform.vector``).

A loop shorter than half a vector register runs scalar (gcc may use vectors of half the register's width, as it
does by default on AVX-512 targets): its lanes are never filled, and the simd mark only adds a peeled prologue
and a masked or scalar epilogue (3x3 products through a temporary, their loop of 3 marked simd, ran 1.7x slower
than gcc's own complete unrolling; 5x5 block products ran 8% faster with their loops of 5 marked). A loop that
reduces runs as a simd loop only from ``REDUCTION_VECTORS`` vectors' worth of iterations per run: the horizontal
sum at the end of each run costs more than a shorter loop gains (a product of 16x16 blocks whose sums over 16
elements became simd reductions, split into loops of their own, ran 10x slower than as written).

Public: ``VECTOR``, ``VECTOR_LOOPS``, ``REDUCTION_VECTORS``.
"""

from __future__ import annotations

from dataclasses import replace

import islpy as isl

from polyopt.analysis.as_written import loop_trip
from polyopt.analysis.vector_loops import VectorLoop
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Heading, Section
from polyopt.schedule_tree import anchored, band_statements
from polyopt.transform.vector import VectorPlan, apply_vector, plan_vector

REDUCTION_VECTORS = 8  # a simd reduction pays from this many vectors' worth of iterations per run

VECTOR_LOOPS = Heading("vector", "vector loops", 120, always=True)


class VectorPass:
    name = "vector"
    headings = (VECTOR_LOOPS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> VectorPlan:
        plan = plan_vector(ctx.model, schedule, ctx.relaxed.full, ctx.reductions)
        return VectorPlan(tuple(_long_enough(ctx, schedule, loop) for loop in plan.loops))

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: VectorPlan) -> isl.Schedule:
        return apply_vector(subject, plan)

    def report(self, plan: VectorPlan) -> list[Section]:
        return [Section(VECTOR_LOOPS, tuple(loop.describe() for loop in plan.loops))]

    def summary(self, plan: VectorPlan) -> str | None:
        simd = sum(1 for loop in plan.loops if loop.simd)
        return f"{simd} simd loop(s)" if simd else None


VECTOR = VectorPass()


def _long_enough(ctx: RegionContext, schedule: isl.Schedule, loop: VectorLoop) -> VectorLoop:
    """``loop``, a scalar loop when it runs fewer iterations than half a vector register's lanes, or reduces over
    fewer than ``REDUCTION_VECTORS`` vectors per run."""
    if not (loop.simd and ctx.machine.small_loop_rules):
        return loop
    band = anchored(schedule, loop.band)
    trip = loop_trip(band, loop.member, ctx.model, ctx.parameters)
    lanes = max(1, ctx.machine.simd_bytes // ctx.model.widest_element(band_statements(band)))
    needed = REDUCTION_VECTORS * lanes if loop.reductions else max(1, lanes // 2)
    return loop if trip is None or trip >= needed else replace(loop, simd=False, reductions=())
