"""Privatization (``polyopt.transform.privatization``): the scalars declared inside the region's loops private
to their iterations when the region is kept as its text, or each becomes a scalar again
(``polyopt.analysis.contraction``) and no scalar is expanded; else scalars of the whole region.  An accumulator
(updated by a reduction) stays a scalar of the region: contraction leaves reduced arrays alone.

Public: ``Privatization``, ``PRIVATIZATION``.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.analysis.reductions import find_reductions
from polyopt.frontend.scop import Scop
from polyopt.model import build_model
from polyopt.options import Options
from polyopt.passes.base import Part, isl_context
from polyopt.passes.contraction import contracted
from polyopt.passes.expansion import EXPANSION
from polyopt.passes.speculative import PartSetting, RunPart
from polyopt.report import Section
from polyopt.transform.privatization import private_locals, privatized


@dataclass(frozen=True)
class Privatization:
    """The region ``scop`` (with its ``options`` and ``dead`` arrays) and the scalars to try ``private``."""

    scop: Scop
    options: Options
    dead: frozenset[str]
    private: frozenset[str]


class PrivatizationPass:
    """Runs the rest of the pipeline with the scalars private, and keeps that part when it is the source text
    (where they are private already) or each of them is contracted and no scalar is expanded; else runs it on
    the region with the scalars as written."""

    name = "privatization"
    headings = ()

    def plan(self, scop: Scop, options: Options, dead: frozenset[str], setting: PartSetting) -> Privatization | None:
        private = frozenset(local.name for local in private_locals(scop))
        if private:
            model = build_model(privatized(scop, private), isl_context(options))
            private -= {reduction.array for reduction in find_reductions(model)}
        return Privatization(scop, options, dead, private) if private else None

    def apply(self, plan: Privatization, rest: RunPart, inner: RunPart) -> Part:
        private = plan.private
        candidate = rest(privatized(plan.scop, private), plan.options, plan.dead | private)
        if candidate.source is not None:
            return candidate
        if private <= contracted(candidate.decisions) and not candidate.decisions.plan_of(EXPANSION):
            return candidate
        return rest(plan.scop, plan.options, plan.dead)

    def report(self, plan: Privatization) -> list[Section]:
        return []


PRIVATIZATION = PrivatizationPass()
