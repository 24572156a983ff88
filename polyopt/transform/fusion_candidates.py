"""The named candidate schedules of a fusion group, tried in order by ``polyopt.transform.fusion``'s
``group_schedule``: the first that applies (and is not switched off) gives the group's schedule.

Public: ``Candidate``, ``GroupFacts``, ``CANDIDATES``, ``ORIGINAL``, ``choose``,
``LoopAnswer``, ``ScheduleCoster``, ``EvaluateLoops``, ``parallelizes``, ``TIE``, ``MAX_WAVEFRONT_DEPTH``.

The candidates, in the order they are tried (``--fusion-candidate=-NAME`` switches one off; their names, in this
order, are ``polyopt.options.FUSION_CANDIDATE_NAMES``):

- ``row-fused``: streaming nests fused along the rows of a shared matrix, in one parallel loop
  (``polyopt.transform.stepping.row_fused``; BTO, BTO).
- ``resident``: when isl's schedule has no outer parallel loop (it would be skewed and tiled for the
  reuse its time loop carries) and the group runs from cache (that reuse already hits, and no loop
  would start threads), the original order.
- ``plane-tiled``: when isl's permutable band has no outer parallel loop (a time-iterated stencil that
  would run as a wavefront of time tiles) and is deeper than ``MAX_WAVEFRONT_DEPTH`` (time plus three
  space dimensions: skewed tiles are then mostly partial and guarded), its first two members tiled in
  whole planes (``plane_tiled_schedule``), when every statement gets a parallel loop in its planes.
- ``stepwise``: with such a deep band, the group's original outer (time) loop with parallel loops
  inside giving every statement one (``stepwise_schedule``): it streams whole rows per time step.
- ``stepwise-vector``: with a shallower band, that stepwise schedule when the loop stage
  (``evaluate_loops``) finds simd loops in all of its innermost loops but not in all of the wavefront's
  (the loop stage first distributes a tile's rows by statement group, so jacobi-2d's sweeps keep their
  wavefront).
- ``stepwise-cost``: with a shallower band, the stepwise schedule when it runs more instances in
  parallel and ``costing`` (PolyMage dense-matrix thesis, Ch. 3) finds it cheaper: isl's band fuses
  statements whose shared loop then carries a dependence (gramschmidt's column loop, fused with the
  statements that compute the column it reads), while inside each step isl distributes them and their
  loops run in parallel.
- ``isl``: isl's schedule.

When none applies (isl gave up, or the candidates that apply are switched off) the original order is
kept (``ORIGINAL``, which cannot be switched off).  Every schedule is re-verified by the pipeline before
code is emitted.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import dataclass
from functools import cached_property
from typing import Protocol

import islpy as isl

from polyopt.analysis.dependences import Dependences
from polyopt.analysis.fusion_cost import GroupCost
from polyopt.analysis.parallel_loops import parallel_statements
from polyopt.analysis.residency import Residency
from polyopt.model import PolyModel
from polyopt.options import SchedulerOptions
from polyopt.schedule_tree import outermost_bands
from polyopt.transform.scheduling import original_group_schedule, schedule_group
from polyopt.transform.stepping import NestGroup, outer_parallel, plane_tiled_schedule, row_fused, stepwise_schedule

TIE = 1e-6  # relative cost difference below which two schedules (or partitions) are equal
MAX_WAVEFRONT_DEPTH = 3


class LoopAnswer(Protocol):
    """What the loop stage tells of a candidate schedule (``polyopt.passes.loops.LoopEvaluation``)."""

    @property
    def vectorizes(self) -> bool: ...


ScheduleCoster = Callable[[isl.Schedule], GroupCost]
EvaluateLoops = Callable[[isl.Schedule], LoopAnswer]  # the loop stage on a candidate schedule


@dataclass(frozen=True, eq=False)
class GroupFacts:
    """What the candidates ask of one group, each fact computed once, when first asked: ``costing`` and
    ``evaluate_loops`` (None: not weighed), ``residency`` (None: unknown)."""

    model: PolyModel
    group: NestGroup
    deps: Dependences
    options: SchedulerOptions
    costing: ScheduleCoster | None = None
    residency: Residency | None = None
    evaluate_loops: EvaluateLoops | None = None

    @property
    def where(self) -> str:
        """The group's nests as notes name them (from 1)."""
        return f"nests {[n + 1 for n in self.group.nests]}"

    @cached_property
    def row_fused(self) -> isl.Schedule | None:
        return row_fused(self.model, self.group, self.deps.full, self.options)

    @cached_property
    def scheduled(self) -> isl.Schedule | None:
        """isl's schedule; None when isl gave up."""
        return schedule_group(self.model, self.group.statements, self.deps.reduced, self.options)

    @cached_property
    def original(self) -> isl.Schedule:
        return original_group_schedule(self.model, self.group.statements)

    @cached_property
    def wavefront(self) -> bool:
        """Whether isl's schedule has no outer parallel loop (nor was one asked for): it runs as a wavefront."""
        return (
            self.scheduled is not None
            and not self.options.outer_parallel
            and not outer_parallel(self.scheduled, self.deps.full)
        )

    @cached_property
    def deep(self) -> bool:
        """Whether isl's band is deeper than ``MAX_WAVEFRONT_DEPTH`` (asked of a wavefront only)."""
        assert self.scheduled is not None
        return max((band.band_n_member() for band in outermost_bands(self.scheduled)), default=0) > MAX_WAVEFRONT_DEPTH

    @cached_property
    def stepwise(self) -> isl.Schedule | None:
        """The original outer loop with one step scheduled by isl inside; None unless one nest."""
        return stepwise_schedule(self.model, self.group, self.deps.reduced, self.options)

    @cached_property
    def planes(self) -> isl.Schedule | None:
        assert self.scheduled is not None
        return plane_tiled_schedule(self.model, self.group.statements, self.scheduled, self.deps.reduced, self.options)

    @cached_property
    def stepwise_covered(self) -> bool:
        return self.stepwise is not None and self.covered(self.stepwise)

    def covered(self, schedule: isl.Schedule) -> bool:
        """Whether every statement runs under some parallel loop of ``schedule`` (untiled)."""
        return parallel_statements(schedule, self.deps.full, wavefronts=False) >= self.group.statements


@dataclass(frozen=True)
class Candidate:
    """A candidate schedule of a fusion group, switched off by ``--fusion-candidate=-NAME``: whether it
    ``applies`` to a group's facts, how it is ``built``, and its ``note`` for ``--report`` (None for isl's
    own schedule)."""

    name: str
    applies: Callable[[GroupFacts], bool]
    build: Callable[[GroupFacts], isl.Schedule]
    note: Callable[[GroupFacts], str | None]


def parallelizes(stepwise: GroupCost, fused: GroupCost) -> bool:
    """Whether ``stepwise`` runs more instances in parallel than ``fused`` and costs less."""
    more = stepwise.parallel_instances > fused.parallel_instances
    return more and stepwise.cycles < fused.cycles * (1 - TIE)


def _stepped(facts: GroupFacts) -> isl.Schedule:
    assert facts.stepwise is not None
    return facts.stepwise


def _planes_apply(facts: GroupFacts) -> bool:
    """Whether a deep wavefront of one nest stepped along its outer loop (the stepwise schedule exists)
    gets a parallel loop for every statement in its planes."""
    if not (facts.wavefront and facts.deep and facts.stepwise is not None):
        return False
    return facts.planes is not None and facts.covered(facts.planes)


def _vectorizes(facts: GroupFacts) -> bool:
    """Whether the stepwise schedule gets simd loops from the loop stage where isl's band gets none."""
    answer = facts.evaluate_loops
    if answer is None or not (facts.wavefront and not facts.deep and facts.stepwise_covered):
        return False
    return answer(_stepped(facts)).vectorizes and not answer(_isl(facts)).vectorizes


def _cheaper(facts: GroupFacts) -> bool:
    """Whether the stepwise schedule runs more in parallel and costs less than isl's band."""
    cost = facts.costing
    if cost is None or not (facts.wavefront and not facts.deep and facts.stepwise is not None):
        return False
    return parallelizes(cost(_stepped(facts)), cost(_isl(facts)))


def _rows(facts: GroupFacts) -> isl.Schedule:
    assert facts.row_fused is not None
    return facts.row_fused


def _isl(facts: GroupFacts) -> isl.Schedule:
    assert facts.scheduled is not None
    return facts.scheduled


def _planes(facts: GroupFacts) -> isl.Schedule:
    assert facts.planes is not None
    return facts.planes


def _resident(facts: GroupFacts) -> str:
    assert facts.residency is not None
    return f"{facts.where}: original order kept: {facts.residency.describe()}"


def _original(facts: GroupFacts) -> str:
    if facts.scheduled is None:
        return f"scheduler gave up on {facts.where}; original order kept"
    return f"{facts.where}: original order kept: the candidates that apply are switched off"


CANDIDATES = (
    Candidate(
        "row-fused",
        lambda facts: facts.row_fused is not None,
        _rows,
        lambda facts: f"{facts.where}: streaming, fused along matrix rows in one parallel loop",
    ),
    Candidate(
        "resident",
        lambda facts: facts.wavefront and facts.residency is not None and facts.residency.resident,
        lambda facts: facts.original,
        _resident,
    ),
    Candidate(
        "plane-tiled",
        _planes_apply,
        _planes,
        lambda facts: f"{facts.where}: time skewed along the outer space loop, parallel loops in each plane",
    ),
    Candidate(
        "stepwise",
        lambda facts: facts.wavefront and facts.deep and facts.stepwise_covered,
        _stepped,
        lambda facts: f"{facts.where}: parallel loops inside the sequential outer loop instead of a wavefront",
    ),
    Candidate(
        "stepwise-vector",
        _vectorizes,
        _stepped,
        lambda facts: (
            f"{facts.where}: parallel vector loops inside the original outer loop instead of a scalar wavefront"
        ),
    ),
    Candidate(
        "stepwise-cost",
        _cheaper,
        _stepped,
        lambda facts: f"{facts.where}: parallel loops inside the original outer loop cost less than isl's band",
    ),
    Candidate("isl", lambda facts: facts.scheduled is not None, _isl, lambda facts: None),
)
ORIGINAL = Candidate("original", lambda facts: True, lambda facts: facts.original, _original)


def choose(facts: GroupFacts, disabled: Collection[str] = ()) -> tuple[Candidate, isl.Schedule, str | None]:
    """The first candidate of ``CANDIDATES`` not named in ``disabled`` that applies (else ``ORIGINAL``),
    its schedule and its note."""
    candidate = next(
        (c for c in CANDIDATES if c.name not in disabled and c.applies(facts)),
        ORIGINAL,
    )
    return candidate, candidate.build(facts), candidate.note(facts)
