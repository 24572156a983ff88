"""Reductions that may be reordered (``polyopt.analysis.reductions``): the dependences they relax.

Public: ``REDUCTIONS``, ``REORDERED``, ``KEPT_IN_ORDER``, ``updates_in_order``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.reductions import Reduction, find_reductions, non_reductions
from polyopt.model import PolyModel
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Heading, Section

Reductions = tuple[Reduction, ...]

REORDERED = Heading("reductions", "reductions (may be reordered)", 30, always=True)
KEPT_IN_ORDER = Heading("non_reductions", "updates kept in order", 40)


class ReductionsPass:
    name = "reductions"
    headings = (REORDERED, KEPT_IN_ORDER)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Reductions | None:
        return find_reductions(ctx.model) if ctx.options.reassociate else None

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: Reductions) -> tuple[RegionContext, isl.Schedule]:
        return ctx.reducing(plan), schedule

    def report(self, plan: Reductions) -> list[Section]:
        return [Section(REORDERED, tuple(reduction.describe() for reduction in plan))]


REDUCTIONS = ReductionsPass()


def updates_in_order(model: PolyModel, rewrites: Decisions) -> Section:
    """The report section of the updates that look like reductions but are kept in order, when the region's
    ``rewrites`` looked for reductions."""
    updates = non_reductions(model) if rewrites.plan_of(REDUCTIONS) is not None else ()
    return Section(KEPT_IN_ORDER, tuple(update.describe() for update in updates))
