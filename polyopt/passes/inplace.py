"""Scalars kept in the elements they are stored to (``polyopt.analysis.inplace``).

Public: ``InPlacePlan``, ``IN_PLACE``, ``KEPT_IN_PLACE``.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.inplace import InPlace, plan_in_place
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import NOTES, Heading, Section
from polyopt.transform.inplace import hold_in_place

KEPT_IN_PLACE = Heading("in_place", "scalars kept in the elements they are stored to", 10, always=True)


@dataclass(frozen=True)
class InPlacePlan:
    """The scalars kept in place, and why other ranges were declined."""

    places: tuple[InPlace, ...]
    declined: tuple[str, ...]


class InPlacePass:
    name = "in-place"
    headings = (KEPT_IN_PLACE,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> InPlacePlan | None:
        if not ctx.options.expand:
            return None
        places, declined = plan_in_place(ctx.model, ctx.deps)
        return InPlacePlan(places, declined) if places or declined else None

    def apply(
        self, ctx: RegionContext, schedule: isl.Schedule, plan: InPlacePlan
    ) -> tuple[RegionContext, isl.Schedule]:
        return ctx.unscheduled(hold_in_place(ctx.model.scop, plan.places)) if plan.places else (ctx, schedule)

    def report(self, plan: InPlacePlan) -> list[Section]:
        return [Section(NOTES, plan.declined), Section(KEPT_IN_PLACE, tuple(p.describe() for p in plan.places))]

    def summary(self, plan: InPlacePlan) -> str | None:
        if not plan.places:
            return None
        return "kept " + ", ".join(dict.fromkeys(f"{place.scalar} in {place.text}" for place in plan.places))


IN_PLACE = InPlacePass()
