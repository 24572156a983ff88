"""The loop stage: tiling, fusion of sibling tile loops, parallel loops and distribution of innermost loops,
then the vector plan; and the one cached question earlier stages ask of it, ``LoopQuery.evaluate_loops``.

Public: ``LoopEvaluation``, ``loop_stage``, ``run_loops``, ``LoopQuery``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import islpy as isl

from polyopt.passes.base import NO_DECISIONS, Decisions, RegionContext
from polyopt.passes.distribution import DISTRIBUTION
from polyopt.passes.parallel import PARALLEL
from polyopt.passes.steps import ScheduleStep, ScheduleSteps
from polyopt.passes.tile_fusion import TILE_FUSION
from polyopt.passes.tiling import FIXED_TILING, TILING
from polyopt.passes.vector import VECTOR
from polyopt.transform.vector import VectorPlan


@dataclass(frozen=True)
class LoopEvaluation:
    """A schedule after the loop stage, the stage's decisions and its vector plan (not yet applied)."""

    schedule: isl.Schedule
    decisions: Decisions
    vector: VectorPlan

    @property
    def vectorizes(self) -> bool:
        """Whether every innermost loop becomes a simd loop."""
        return bool(self.vector.loops) and all(loop.simd for loop in self.vector.loops)


def loop_stage(sized: bool) -> tuple[ScheduleStep[Any], ...]:
    """The passes of the loop stage: tiles from the tile-size model when ``sized``, else fixed sizes."""
    return (TILING if sized else FIXED_TILING, TILE_FUSION, PARALLEL, DISTRIBUTION)


def run_loops(ctx: RegionContext, schedule: isl.Schedule) -> LoopEvaluation:
    """The loop stage with fixed tile sizes on ``schedule``, and its vector plan."""
    _, schedule, decisions = ScheduleSteps(loop_stage(sized=False)).run((ctx, schedule, NO_DECISIONS))
    return LoopEvaluation(schedule, decisions, VECTOR.plan(ctx, schedule, decisions))


class LoopQuery:
    """``evaluate_loops``: the loop stage with fixed tile sizes on a candidate schedule of the region,
    evaluated once per distinct schedule."""

    def __init__(self, ctx: RegionContext) -> None:
        self.ctx = ctx
        self.seen: dict[str, LoopEvaluation] = {}

    def evaluate_loops(self, schedule: isl.Schedule) -> LoopEvaluation:
        key = schedule.to_str()
        if key not in self.seen:
            self.seen[key] = run_loops(self.ctx, schedule)
        return self.seen[key]
