"""Reductions that may be reordered (``polyopt.analysis.reductions``): the dependences they relax.

Public: ``REDUCTIONS``, ``updates_in_order``.
"""

from __future__ import annotations

from polyopt.analysis.reductions import Reduction, find_reductions, non_reductions
from polyopt.model import PolyModel
from polyopt.options import Options
from polyopt.passes.base import RegionContext
from polyopt.report import Section

Reductions = tuple[Reduction, ...]


def reassociating(options: Options) -> bool:
    """Whether ``options`` let reductions be reordered."""
    return options.reassociate and not options.identity


class ReductionsPass:
    name = "reductions"

    def plan(self, ctx: RegionContext) -> Reductions | None:
        return find_reductions(ctx.model) if reassociating(ctx.options) else None

    def apply(self, ctx: RegionContext, plan: Reductions) -> RegionContext:
        return ctx.reducing(plan)

    def report(self, plan: Reductions) -> list[Section]:
        return [Section("reductions", tuple(reduction.describe() for reduction in plan))]


REDUCTIONS = ReductionsPass()


def updates_in_order(model: PolyModel, options: Options) -> Section:
    """The report section of the updates that look like reductions but are kept in order."""
    updates = non_reductions(model) if reassociating(options) else ()
    return Section("non_reductions", tuple(update.describe() for update in updates))
