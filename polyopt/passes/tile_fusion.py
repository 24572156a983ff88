"""Fusion of sibling tile loops (``polyopt.transform.tile_fusion``).

Public: ``TILE_FUSION``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.tiling import TILED_BANDS, TILING
from polyopt.report import Section
from polyopt.transform.tile_fusion import TileFusionPlan, apply_tile_fusion, plan_tile_fusion
from polyopt.transform.tiling import tile_bands


class TileFusionPass:
    name = "tile fusion"
    headings = (TILED_BANDS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> TileFusionPlan | None:
        tiles = earlier.plan_of(TILING)
        if tiles is None or not tiles.bands:
            return None
        bands = tile_bands(tiles)
        plan = plan_tile_fusion(ctx.model, schedule, ctx.deps.full, bands, ctx.machine, ctx.parameters)
        return plan if plan.fusions else None

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: TileFusionPlan) -> isl.Schedule:
        return apply_tile_fusion(subject, plan)

    def report(self, plan: TileFusionPlan) -> list[Section]:
        return [Section(TILED_BANDS, tuple(fusion.describe() for fusion in plan.fusions))]

    def summary(self, plan: TileFusionPlan) -> str | None:
        return "tile loops fused " + "; ".join(fusion.loop for fusion in plan.fusions)


TILE_FUSION = TileFusionPass()
