"""The speculative steps, which try the rest of the pipeline per candidate, and their two combinators.

``per_part`` runs the pipeline behind each ``PartStep``: the step plans on the region's statements and
applies by running the rest of the pipeline (``RunPart``) on them or on parts of them, once or more, keeping
what it chooses (the library's segments; the region with its scalars private, or as written).
``per_candidate`` weighs the transformed region against the candidate of each ``ChoiceStep`` (the region in
its order as written) and keeps the one each step chooses.

Public: ``RunPart``, ``PartSetting``, ``PartStep``, ``ChoiceStep``, ``per_part``, ``per_candidate``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol, TypeVar

from polyopt.frontend.scop import Scop
from polyopt.options import Options
from polyopt.passes.base import Candidate, Decisions, Part, RegionContext, Reported

P = TypeVar("P")

RunPart = Callable[[Scop, Options, frozenset[str]], Part]  # the rest of the pipeline on statements, dead arrays


@dataclass(frozen=True)
class PartSetting:
    """What the part steps plan on beside the statements, the same for every part of a region: the
    ``parameters``' values the cost models assume and the ``prefix`` of the generated iterators' names."""

    parameters: Mapping[str, int]
    prefix: str


class PartStep(Reported[P], Protocol[P]):
    """A step that plans on the region's statements (and its dead arrays and ``PartSetting``) before any
    other step, and applies by running the rest of the pipeline (``RunPart``) on them or on parts of them,
    once or more: ``rest`` runs the part steps after it, then the pipeline after the part steps; ``inner``
    runs that pipeline alone, for parts that the part steps after it must not see (the library's segments
    are not privatized)."""

    def plan(self, scop: Scop, options: Options, dead: frozenset[str], setting: PartSetting) -> P | None: ...

    def apply(self, plan: P, rest: RunPart, inner: RunPart) -> Part: ...


class ChoiceStep(Reported[P], Protocol[P]):
    """A step that chooses between the ``transformed`` region and a candidate of its own made from the
    region after its rewrites (``written``, their decisions ``earlier``); the chosen one's decisions end
    with its plan."""

    def choose(self, written: RegionContext, earlier: Decisions, transformed: Candidate) -> Candidate: ...


def per_part(steps: tuple[PartStep[Any], ...], setting: PartSetting, inner: RunPart) -> RunPart:
    """``inner`` (the pipeline after the part steps) behind each of ``steps``, the first outermost: a step
    that plans applies by running the rest (the steps after it, then ``inner``) or ``inner`` alone."""
    run = inner
    for step in reversed(steps):
        run = partial(_behind, step, setting, run, inner)
    return run


def _behind(
    step: PartStep[Any],
    setting: PartSetting,
    rest: RunPart,
    inner: RunPart,
    scop: Scop,
    options: Options,
    dead: frozenset[str],
) -> Part:
    plan = step.plan(scop, options, dead, setting)
    return rest(scop, options, dead) if plan is None else step.apply(plan, rest, inner)


def per_candidate(
    steps: tuple[ChoiceStep[Any], ...], written: RegionContext, earlier: Decisions, transformed: Candidate
) -> Candidate:
    """The candidate that each of ``steps`` in turn keeps, of ``transformed`` (or the one kept before it) and
    its own made from ``written`` (the region after its rewrites, their decisions ``earlier``)."""
    for step in steps:
        transformed = step.choose(written, earlier, transformed)
    return transformed
