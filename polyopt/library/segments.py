"""Where library calls go: the region cut into segments around its BLAS idioms (PolyMage dense-matrix thesis, Sec. 4.4).

Public: ``Segment``, ``LibraryPlan``, ``expected_work``, ``plan_library``, ``read_later``.

An idiom whose work at the parameter values the cost models assume
(``polyopt.frontend.params``) is below its threshold, or that has none (never called), is not cut out: its
statement stays with the others, which keeps their fusion (bicg's two
matrix-vector products read ``A`` once when fused; cut apart, with the call
not made, they ran 1.3–2.5 times slower at LARGE sizes).  The call of an idiom
that is cut out is still decided at run time.

Each recognized idiom (``polyopt.library``) becomes a segment of its
own, run as its calls: the statement it is, or all of them for an idiom of
several statements (SYMM's four, the batched GEMM's three); the statements between them, in source order,
form the other segments, each optimized like a region of its own.  Running the
segments one after the other must respect every dependence (the products' own
updates may be reordered: they are reductions; a TRMM reads only values from
before its segment, and the statements of a SYMM or a batched GEMM compute the
product in their original order, which the idioms check), which is checked on the schedule that
runs each segment whole, in the original order inside it.

An array declared dead after the region is dead after one of its segments only when no later
segment reads a value that the segment writes (``read_later``): otherwise a segment alone, where
the array is written and never read, would contract it away.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import reduce

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.dependences import FLOW, Dependences
from polyopt.library import Idiom
from polyopt.model import PolyModel
from polyopt.schedule_tree import schedule_respects


@dataclass(frozen=True)
class Segment:
    """Statements run together; ``idiom`` when the segment is the statements that BLAS calls compute."""

    statements: frozenset[str]
    idiom: Idiom | None = None


@dataclass(frozen=True)
class LibraryPlan:
    """The region's statements as ``segments``, run one after the other (none when no idiom is cut
    out); ``left``: the idioms left to the loops because their work at the assumed parameter values,
    the second of each pair (None: unknown), is below their threshold or they have none."""

    segments: tuple[Segment, ...]
    left: tuple[tuple[Idiom, int | None], ...] = ()


def expected_work(idiom: Idiom, values: Mapping[str, int]) -> int | None:
    """The work of ``idiom`` where the parameters take ``values``; None when a size is unknown there."""
    sizes = [isl_util.value_at(idiom.sizes[index], values) for index in idiom.WORK]
    return None if any(size is None for size in sizes) else math.prod(size for size in sizes if size is not None)


def _segments(model: PolyModel, idioms: tuple[Idiom, ...]) -> list[Segment]:
    """Each idiom's statements as a segment, where its first statement is; the other statements,
    in source order, as segments between them."""
    by_statement = {name: idiom for idiom in idioms for name in idiom.statements}
    segments: list[Segment] = []
    pending: list[str] = []
    for statement in model.scop.statements:
        idiom = by_statement.get(statement.name)
        if idiom is None:
            pending.append(statement.name)
        elif statement.name == idiom.statements[0]:
            if pending:
                segments.append(Segment(frozenset(pending)))
                pending = []
            segments.append(Segment(frozenset(idiom.statements), idiom))
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


def plan_library(
    model: PolyModel,
    deps: Dependences,
    idioms: tuple[Idiom, ...],
    *,
    values: Mapping[str, int],
    threshold: Callable[[Idiom], int | None],
) -> LibraryPlan | None:
    """The segments around the ``idioms`` whose work at the parameter ``values`` reaches their
    ``threshold`` (None: the idiom is never cut out; ``deps`` relaxed for the reductions), or None when
    there is no idiom or running the segments one after the other would break a dependence."""
    works = [(idiom, expected_work(idiom, values), threshold(idiom)) for idiom in idioms]
    left = tuple((idiom, work) for idiom, work, least in works if least is None or (work is not None and work < least))
    kept = tuple(idiom for idiom in idioms if all(idiom is not other for other, _ in left))
    if not kept:
        return LibraryPlan((), left) if left else None
    segments = _segments(model, kept)
    if not schedule_respects(_blocked(model, segments), deps.full):
        return None
    return LibraryPlan(tuple(segments), left)


def read_later(deps: Dependences, segments: tuple[Segment, ...]) -> tuple[frozenset[str], ...]:
    """For each of ``segments``, the arrays of which a later segment reads a value that it writes
    (``deps``: the region's value-based flows, not relaxed for reductions)."""
    owner = {name: index for index, segment in enumerate(segments) for name in segment.statements}
    read: list[set[str]] = [set() for _ in segments]
    for dep in deps.items:
        if dep.kind == FLOW and owner[dep.sink] > owner[dep.source]:
            read[owner[dep.source]].add(dep.array)
    return tuple(frozenset(arrays) for arrays in read)
