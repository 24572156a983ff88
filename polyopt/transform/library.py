"""Where library calls go: the region cut into segments around its BLAS idioms (seed 000, Sec. 4.4).

Public: ``Segment``, ``LibraryPlan``, ``plan_library``.

Each recognized idiom (``polyopt.analysis.idioms``) becomes a segment of its
own, run as one call; the statements between them, in source order, form the other
segments, each optimized like a region of its own.  Running the segments
one after the other must respect every dependence (the products' own
updates may be reordered: they are reductions; a TRMM reads only values from
before its segment, which the idiom checks), which is checked on the
schedule that runs each segment whole, in the original order inside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

import islpy as isl

from polyopt.analysis.dependences import Dependences
from polyopt.analysis.idioms import Idiom
from polyopt.model import PolyModel
from polyopt.schedule_tree import schedule_respects


@dataclass(frozen=True)
class Segment:
    """Statements run together; ``idiom`` when the segment is one statement that a BLAS call computes."""

    statements: frozenset[str]
    idiom: Idiom | None = None


@dataclass(frozen=True)
class LibraryPlan:
    """The region's statements as ``segments``, run one after the other."""

    segments: tuple[Segment, ...]


def _segments(model: PolyModel, idioms: tuple[Idiom, ...]) -> list[Segment]:
    by_statement = {idiom.statement: idiom for idiom in idioms}
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


def plan_library(model: PolyModel, deps: Dependences, idioms: tuple[Idiom, ...]) -> LibraryPlan | None:
    """The segments around ``idioms`` (``deps`` relaxed for the reductions), or None when running
    them one after the other would break a dependence."""
    if not idioms:
        return None
    segments = _segments(model, idioms)
    if not schedule_respects(_blocked(model, segments), deps.full):
        return None
    return LibraryPlan(tuple(segments))
