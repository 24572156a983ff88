"""The library step as a part pass of the pipeline (``polyopt.library.step``): the region cut around its BLAS
idioms, each segment run by CBLAS calls, by the GEMM microkernel or by the loops.

Public: ``LibraryPass``, ``LIBRARY``.
"""

from __future__ import annotations

from dataclasses import replace

from polyopt.frontend.scop import Scop
from polyopt.library.step import LibraryCut, apply_cut, plan_cut
from polyopt.options import Options
from polyopt.passes.base import Part, PartSetting, RunPart
from polyopt.report import Section


class LibraryPass:
    """Plans the cut of the region's statements before any other pass; applies by running each segment
    through the pipeline after the part passes (``inner``: a segment is not privatized) and its idiom by the
    library, or, when every idiom is left to the loops, the whole region through the rest, its report
    saying why."""

    name = "library"

    def plan(self, scop: Scop, options: Options, dead: frozenset[str], setting: PartSetting) -> LibraryCut | None:
        """The cut of the region ``scop`` (``plan_cut``)."""
        return plan_cut(scop, options, setting.parameters, dead, setting.prefix)

    def apply(self, cut: LibraryCut, rest: RunPart, inner: RunPart) -> Part:
        """The region as its segments, run one after the other (``apply_cut``), else as a whole with the
        report lines of the idioms left to the loops."""
        if cut.plan.segments:
            return apply_cut(cut, inner)
        part = rest(cut.ctx.model.scop, cut.ctx.options, cut.ctx.dead)
        return replace(part, report=replace(part.report, library=cut.left)) if cut.left else part

    def report(self, plan: LibraryCut) -> list[Section]:
        return []


LIBRARY = LibraryPass()
