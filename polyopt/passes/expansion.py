"""Scalar expansion (``polyopt.analysis.expansion``, ``polyopt.transform.expansion``), after the
scalars' webs are renamed apart (``polyopt.analysis.webs``, ``WEBS``); and the code of both
(``polyopt.emit.storage``): the expanded scalars allocated and given back their last values
(``LAST_VALUES``), the webs' scalars declared (``WEB_DECLARATIONS``).

Public: ``WEBS``, ``EXPANSION``, ``LAST_VALUES``, ``WEB_DECLARATIONS``, ``EXPANDED_SCALARS``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.expansion import Expansion, plan_expansions
from polyopt.analysis.webs import Web, plan_webs
from polyopt.emit.isl_ast import Generated, generate
from polyopt.emit.storage import with_expansions, with_webs
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import NOTES, Heading, Section
from polyopt.transform.expansion import expand
from polyopt.transform.webs import renamed_webs

Expansions = tuple[Expansion, ...]
Webs = tuple[Web, ...]

EXPANDED_SCALARS = Heading("expansions", "expanded scalars", 20, always=True)


class WebsPass:
    name = "webs"
    headings = (NOTES,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Webs | None:
        if not ctx.options.expand:
            return None
        return plan_webs(ctx.model, ctx.deps, ctx.model.scop.identifiers) or None

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: Webs) -> tuple[RegionContext, isl.Schedule]:
        return ctx.unscheduled(renamed_webs(ctx.model.scop, plan))

    def report(self, plan: Webs) -> list[Section]:
        return [Section(NOTES, tuple(f"scalar web renamed: {web.describe()}" for web in plan))]


class ExpansionPass:
    name = "expansion"
    headings = (EXPANDED_SCALARS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Expansions | None:
        if not ctx.options.expand:
            return None
        return plan_expansions(ctx.model, ctx.deps, ctx.model.scop.identifiers) or None

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: Expansions) -> tuple[RegionContext, isl.Schedule]:
        return ctx.unscheduled(expand(ctx.model.scop, plan))

    def report(self, plan: Expansions) -> list[Section]:
        return [Section(EXPANDED_SCALARS, tuple(expansion.describe() for expansion in plan))]

    def summary(self, plan: Expansions) -> str | None:
        return "expanded " + ", ".join(expansion.scalar for expansion in plan) if plan else None


class LastValuesPass:
    """The code inside the allocation of the expanded scalars, each given back its last value after it;
    the region before any rewrite (``RegionContext.original``) when an allocation fails."""

    name = "last values"
    headings = ()

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Expansions | None:
        return earlier.plan_of(EXPANSION) or None

    def apply(self, ctx: RegionContext, subject: Generated, plan: Expansions) -> Generated:
        original = ctx.original if ctx.original is not None else ctx.model
        scop = original.scop
        return with_expansions(plan, subject, generate(original.schedule, scop, ctx.prefix), scop, ctx.prefix)

    def report(self, plan: Expansions) -> list[Section]:
        return []


class WebDeclarationsPass:
    """The code in a block that declares the scalar of each renamed web."""

    name = "web declarations"
    headings = ()

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Webs | None:
        return earlier.plan_of(WEBS) or None

    def apply(self, ctx: RegionContext, subject: Generated, plan: Webs) -> Generated:
        return with_webs(plan, subject)

    def report(self, plan: Webs) -> list[Section]:
        return []


WEBS = WebsPass()
EXPANSION = ExpansionPass()
LAST_VALUES = LastValuesPass()
WEB_DECLARATIONS = WebDeclarationsPass()
