"""Array contraction (``polyopt.analysis.contraction``): dead arrays that become scalars in the code.

Public: ``CONTRACTION``, ``CONTRACTED_ARRAYS``, ``contracted``, ``scalars``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.contraction import Contraction, plan_contractions
from polyopt.emit.isl_ast import Generated
from polyopt.emit.storage import with_contractions
from polyopt.passes.base import Decisions, RegionContext
from polyopt.report import Heading, Section

Contractions = tuple[Contraction, ...]

CONTRACTED_ARRAYS = Heading("contractions", "contracted arrays", 130, always=True)


class ContractionPass:
    name = "contraction"
    headings = (CONTRACTED_ARRAYS,)

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> Contractions | None:
        return plan_contractions(ctx.model, ctx.deps, schedule, ctx.dead, ctx.reductions) or None

    def apply(self, ctx: RegionContext, subject: Generated, plan: Contractions) -> Generated:
        return with_contractions(plan, subject, ctx.model.scop)

    def report(self, plan: Contractions) -> list[Section]:
        return [Section(CONTRACTED_ARRAYS, tuple(contraction.describe() for contraction in plan))]

    def summary(self, plan: Contractions) -> str | None:
        return "contracted " + ", ".join(contraction.array for contraction in plan) if plan else None


CONTRACTION = ContractionPass()


def contracted(decisions: Decisions) -> frozenset[str]:
    """The arrays that ``decisions`` contract."""
    return frozenset(contraction.array for contraction in decisions.plan_of(CONTRACTION) or ())


def scalars(decisions: Decisions) -> dict[str, str]:
    """The scalar that stands for each array that ``decisions`` contract, by the array's name."""
    return {contraction.array: contraction.name for contraction in decisions.plan_of(CONTRACTION) or ()}
