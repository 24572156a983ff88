"""Scalars kept in the elements they are stored to (``polyopt.analysis.inplace``).

Public: ``InPlacePlan``, ``IN_PLACE``.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.analysis.inplace import InPlace, plan_in_place
from polyopt.passes.base import RegionContext
from polyopt.report import Section
from polyopt.transform.inplace import hold_in_place


@dataclass(frozen=True)
class InPlacePlan:
    """The scalars kept in place, and why other ranges were declined."""

    places: tuple[InPlace, ...]
    declined: tuple[str, ...]


class InPlacePass:
    name = "in-place"

    def plan(self, ctx: RegionContext) -> InPlacePlan | None:
        if not ctx.options.expand:
            return None
        places, declined = plan_in_place(ctx.model, ctx.deps)
        return InPlacePlan(places, declined) if places or declined else None

    def apply(self, ctx: RegionContext, plan: InPlacePlan) -> RegionContext:
        return ctx.rewritten(hold_in_place(ctx.model.scop, plan.places)) if plan.places else ctx

    def report(self, plan: InPlacePlan) -> list[Section]:
        return [Section("notes", plan.declined), Section("in_place", tuple(p.describe() for p in plan.places))]

    def summary(self, plan: InPlacePlan) -> str | None:
        if not plan.places:
            return None
        return "kept " + ", ".join(dict.fromkeys(f"{place.scalar} in {place.text}" for place in plan.places))


IN_PLACE = InPlacePass()
