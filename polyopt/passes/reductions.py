"""Reductions that may be reordered (``polyopt.analysis.reductions``): the dependences they relax.

Public: ``REDUCTIONS``, ``updates_in_order``.
"""

from __future__ import annotations

from polyopt.analysis.reductions import Reduction, find_reductions, non_reductions
from polyopt.model import PolyModel
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Section

Reductions = tuple[Reduction, ...]


class ReductionsPass:
    name = "reductions"

    def plan(self, ctx: RegionContext) -> Reductions | None:
        return find_reductions(ctx.model) if ctx.options.reassociate else None

    def apply(self, ctx: RegionContext, plan: Reductions) -> RegionContext:
        return ctx.reducing(plan)

    def report(self, plan: Reductions) -> list[Section]:
        return [Section("reductions", tuple(reduction.describe() for reduction in plan))]


REDUCTIONS = ReductionsPass()


def updates_in_order(model: PolyModel, rewrites: Decisions) -> Section:
    """The report section of the updates that look like reductions but are kept in order, when the region's
    ``rewrites`` looked for reductions."""
    updates = non_reductions(model) if rewrites.plan_of(REDUCTIONS) is not None else ()
    return Section("non_reductions", tuple(update.describe() for update in updates))
