"""The library step as a pass of the pipeline (``polyopt.library.step``): the region cut around its BLAS
idioms, each segment run by CBLAS calls, by the GEMM microkernel or by the loops.

Public: ``LibraryPass``, ``LIBRARY``.
"""

from __future__ import annotations

from collections.abc import Mapping

from polyopt.frontend.scop import Scop
from polyopt.library.step import LibraryCut, RunSegment, apply_cut, plan_cut
from polyopt.options import Options
from polyopt.passes.base import Part


class LibraryPass:
    """Plans on the region's statements before any other pass; applies by running each segment through
    the rest of the pipeline (``RunSegment``) and its idiom by the library."""

    name = "library"

    def plan(
        self, scop: Scop, options: Options, parameters: Mapping[str, int], dead: frozenset[str], prefix: str
    ) -> LibraryCut | None:
        """The cut of the region ``scop`` (``plan_cut``)."""
        return plan_cut(scop, options, parameters, dead, prefix)

    def apply(self, cut: LibraryCut, run: RunSegment) -> Part:
        """The region as its segments, run one after the other (``apply_cut``)."""
        return apply_cut(cut, run)


LIBRARY = LibraryPass()
