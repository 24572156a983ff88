"""Tiling (``polyopt.transform.tiling``, sizes from ``polyopt.analysis.tile_sizes``).

Public: ``TilingPass``, ``TILING``, ``FIXED_TILING``, ``TILED_BANDS``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.dependences import FLOW
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Heading, Section
from polyopt.transform.tiling import TiledBand, TilePlan, apply_tiling, model_sizer, plan_tiling

TILED_BANDS = Heading("tiles", "tiled bands", 100, always=True)


class TilingPass:
    """Tiles with the tile-size model when ``sized``, else with the fixed sizes of the options."""

    name = "tiling"
    headings = (TILED_BANDS,)

    def __init__(self, sized: bool) -> None:
        self.sized = sized

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> TilePlan:
        deps = ctx.relaxed
        sizer = (
            model_sizer(ctx.model, deps.full, deps.union((FLOW,)), ctx.reductions, ctx.machine, ctx.parameters)
            if self.sized
            else None
        )
        return plan_tiling(schedule, ctx.options.tiling, deps.full, sizer)

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: TilePlan) -> isl.Schedule:
        return apply_tiling(subject, plan)

    def report(self, plan: TilePlan) -> list[Section]:
        lines = tuple(_describe(band) for band in plan.bands) + tuple(band.describe() for band in plan.untiled)
        return [Section(TILED_BANDS, lines)]

    def summary(self, plan: TilePlan) -> str | None:
        return "tiles " + "; ".join("x".join(map(str, band.sizes)) for band in plan.bands) if plan.bands else None


def _describe(tiled: TiledBand) -> str:
    text = f"{tiled.band.describe()}: sizes {list(tiled.sizes)} ({tiled.reason})"
    if tiled.outer_sizes:
        text += f", L2 tiles of {list(tiled.outer_sizes)} tiles"
    return text


TILING = TilingPass(sized=True)
FIXED_TILING = TilingPass(sized=False)
