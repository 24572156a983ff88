"""Index-set splitting (``polyopt.analysis.splitting``, ``polyopt.transform.splitting``).

Public: ``SPLITTING``.
"""

from __future__ import annotations

from polyopt.analysis.splitting import Split, plan_splits
from polyopt.passes.base import RegionContext
from polyopt.report import Section
from polyopt.transform.splitting import split

Splits = tuple[Split, ...]


class SplittingPass:
    name = "splitting"

    def plan(self, ctx: RegionContext) -> Splits | None:
        if ctx.options.identity:
            return None
        return plan_splits(ctx.model, ctx.deps) or None

    def apply(self, ctx: RegionContext, plan: Splits) -> RegionContext:
        return ctx.rewritten(split(ctx.model.scop, plan))

    def report(self, plan: Splits) -> list[Section]:
        return [Section("notes", tuple(piece.describe() for piece in plan))]


SPLITTING = SplittingPass()
