"""Where library calls go: the region cut into segments around its matrix products (seed 000, Sec. 4.4).

Public: ``Segment``, ``LibraryPlan``, ``plan_library``.

Each recognized GEMM statement becomes a segment of its own, run as one
call; the statements between them, in source order, form the other
segments, each optimized like a region of its own.  Running the segments
one after the other must respect every dependence (the products' own
updates may be reordered: they are reductions), which is checked on the
schedule that runs each segment whole, in the original order inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

import islpy as isl

from polyopt.analysis.dependences import Dependences
from polyopt.analysis.idioms import Gemm
from polyopt.model import PolyModel
from polyopt.schedule_tree import schedule_respects


@dataclass(frozen=True)
class Segment:
    """Statements run together; ``gemm`` when the segment is one matrix product."""

    statements: frozenset[str]
    gemm: Gemm | None = None


@dataclass(frozen=True)
class LibraryPlan:
    segments: tuple[Segment, ...]

    def describe(self) -> tuple[str, ...]:
        return tuple(segment.gemm.describe() for segment in self.segments if segment.gemm is not None)


def _segments(model: PolyModel, gemms: tuple[Gemm, ...]) -> list[Segment]:
    by_statement = {gemm.statement: gemm for gemm in gemms}
    segments: list[Segment] = []
    pending: list[str] = []
    for statement in model.scop.statements:
        if statement.name in by_statement:
            if pending:
                segments.append(Segment(frozenset(pending)))
                pending = []
            segments.append(Segment(frozenset({statement.name}), by_statement[statement.name]))
        else:
            pending.append(statement.name)
    if pending:
        segments.append(Segment(frozenset(pending)))
    return segments


def _blocked(model: PolyModel, segments: list[Segment]) -> isl.Schedule:
    """Each segment whole, one after the other, in the original order inside each."""
    parts = []
    for segment in segments:
        domain = isl.UnionSet.empty(model.param_space())
        for name in segment.statements:
            domain = domain.union(isl.UnionSet.from_set(model.domains[name]))
        parts.append(model.schedule.intersect_domain(domain))
    return reduce(isl.Schedule.sequence, parts)


def plan_library(model: PolyModel, deps: Dependences, gemms: tuple[Gemm, ...]) -> LibraryPlan | None:
    """The segments around ``gemms`` (``deps`` relaxed for the reductions), or None when running
    them one after the other would break a dependence."""
    if not gemms:
        return None
    segments = _segments(model, gemms)
    if not schedule_respects(_blocked(model, segments), deps.full):
        return None
    return LibraryPlan(tuple(segments))
