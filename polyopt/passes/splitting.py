"""Index-set splitting (``polyopt.analysis.splitting``, ``polyopt.transform.splitting``).

Public: ``SPLITTING``, ``INNER_SPLITTING``.

``SPLITTING`` splits statements for parallel loops before the region is scheduled;
``INNER_SPLITTING`` splits innermost loops for vector loops after it is scheduled, the pieces in
their statement's place in the schedule (``pulled_back``), and models the region again (a
model step).
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.splitting import Split, plan_inner_splits, plan_splits
from polyopt.passes.base import NO_DECISIONS, Decisions, RegionContext
from polyopt.passes.reductions import REDUCTIONS
from polyopt.report import NOTES, Section
from polyopt.transform.splitting import pulled_back, split

Splits = tuple[Split, ...]


class SplittingPass:
    name = "splitting"
    headings = (NOTES,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Splits | None:
        return plan_splits(ctx.model, ctx.deps) or None

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: Splits) -> tuple[RegionContext, isl.Schedule]:
        return ctx.unscheduled(split(ctx.model.scop, plan))

    def report(self, plan: Splits) -> list[Section]:
        return [Section(NOTES, tuple(piece.describe() for piece in plan))]


class InnerSplittingPass:
    name = "inner splitting"
    headings = (NOTES,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Splits | None:
        return plan_inner_splits(ctx.model, ctx.deps) or None

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: Splits) -> tuple[RegionContext, isl.Schedule]:
        """The region with the pieces, modelled again, its reductions found again; and ``schedule`` given
        to the pieces."""
        rewritten = ctx.rewritten(split(ctx.model.scop, plan))
        reductions = REDUCTIONS.plan(rewritten, schedule, NO_DECISIONS)
        split_ctx = rewritten if reductions is None else rewritten.reducing(reductions)
        return split_ctx, pulled_back(schedule, plan, split_ctx.model.domains)

    def report(self, plan: Splits) -> list[Section]:
        return [Section(NOTES, tuple(f"{piece.describe()} (innermost loop)" for piece in plan))]


SPLITTING = SplittingPass()
INNER_SPLITTING = InnerSplittingPass()
