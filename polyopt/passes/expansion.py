"""Scalar expansion (``polyopt.analysis.expansion``, ``polyopt.transform.expansion``), after the
scalars' webs are renamed apart (``polyopt.analysis.webs``, ``WEBS``).

Public: ``WEBS``, ``EXPANSION``, ``expanded_code``.
"""

from __future__ import annotations

from polyopt.analysis.expansion import Expansion, plan_expansions
from polyopt.analysis.webs import Web, plan_webs
from polyopt.emit.isl_ast import Generated, generate
from polyopt.emit.storage import with_expansions
from polyopt.model import PolyModel
from polyopt.passes.base import RegionContext
from polyopt.report import Section
from polyopt.transform.expansion import expand
from polyopt.transform.webs import renamed_webs

Expansions = tuple[Expansion, ...]
Webs = tuple[Web, ...]


class WebsPass:
    name = "webs"

    def plan(self, ctx: RegionContext) -> Webs | None:
        if ctx.options.identity or not ctx.options.expand:
            return None
        return plan_webs(ctx.model, ctx.deps, ctx.model.scop.identifiers) or None

    def apply(self, ctx: RegionContext, plan: Webs) -> RegionContext:
        return ctx.rewritten(renamed_webs(ctx.model.scop, plan))

    def report(self, plan: Webs) -> list[Section]:
        return [Section("notes", tuple(f"scalar web renamed: {web.describe()}" for web in plan))]


class ExpansionPass:
    name = "expansion"

    def plan(self, ctx: RegionContext) -> Expansions | None:
        if ctx.options.identity or not ctx.options.expand:
            return None
        return plan_expansions(ctx.model, ctx.deps, ctx.model.scop.identifiers) or None

    def apply(self, ctx: RegionContext, plan: Expansions) -> RegionContext:
        return ctx.rewritten(expand(ctx.model.scop, plan))

    def report(self, plan: Expansions) -> list[Section]:
        return [Section("expansions", tuple(expansion.describe() for expansion in plan))]


WEBS = WebsPass()
EXPANSION = ExpansionPass()


def expanded_code(plan: Expansions, generated: Generated, original: PolyModel, prefix: str) -> Generated:
    """``generated`` with the expanded scalars given back their last values (``original``: the region
    before any rewrite)."""
    scop = original.scop
    return with_expansions(plan, generated, generate(original.schedule, scop, prefix), scop, prefix)
