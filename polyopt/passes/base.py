"""The pass interface: what each kind of pass plans on, applies to and reports, and how the region's
one-line summary names the plans.

The kinds, in the order they run on a region: a ``PartPass`` runs the rest of the pipeline on the region's
statements (``RunPart``), a ``RegionPass`` rewrites the statements, a ``SchedulePass`` plans on the schedule,
a ``ScheduledRegionPass`` rewrites the statements of the scheduled region, a ``ChoicePass`` chooses between
the transformed region and a candidate of its own, and a ``CodePass`` rewrites the generated code.

Public: ``RegionContext``, ``Decision``, ``Decisions``, ``NO_DECISIONS``, ``Part``, ``RunPart``, ``Candidate``,
``PartSetting``, ``Reported``, ``Summarized``, ``PartPass``, ``RegionPass``, ``SchedulePass``, ``ScheduledRegionPass``,
``ChoicePass``, ``CodePass``, ``Summary``, ``isl_context``, ``run_part_passes``, ``run_region_passes``,
``run_schedule_passes``, ``run_scheduled_region_passes``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any, Protocol, TypeVar

import islpy as isl

from polyopt.analysis.dependences import Dependences, compute_dependences
from polyopt.analysis.reductions import Reduction, relax
from polyopt.emit.isl_ast import Generated
from polyopt.emit.source_text import SourceText
from polyopt.frontend.params import DEFAULT_PARAMETER_VALUE
from polyopt.frontend.scop import Scop
from polyopt.machine import Machine
from polyopt.model import PolyModel, build_model
from polyopt.options import Options
from polyopt.report import RegionReport, Section
from polyopt.transform.scheduling import configure

P = TypeVar("P")
S = TypeVar("S")


@dataclass(frozen=True)
class RegionContext:
    """What the passes of one region read: its model and ``deps`` (exact), the ``relaxed`` dependences
    (for ``reductions``) that scheduling and loop legality use, and the machine, the parameter values
    the cost models assume, the arrays ``dead`` after the region, the options, the ``prefix`` of the
    generated iterators' names, the parameters whose values are ``guessed`` (not found in the source) and
    the ``original`` model of the region, before any rewrite."""

    model: PolyModel
    deps: Dependences
    relaxed: Dependences
    reductions: tuple[Reduction, ...]
    parameters: Mapping[str, int]
    dead: frozenset[str]
    options: Options
    prefix: str = "c"
    guessed: frozenset[str] = frozenset()
    original: PolyModel | None = None

    @property
    def machine(self) -> Machine:
        return self.options.machine

    @staticmethod
    def of(
        model: PolyModel,
        deps: Dependences,
        options: Options,
        reductions: tuple[Reduction, ...] = (),
        parameters: Mapping[str, int] | None = None,
        dead: frozenset[str] = frozenset(),
        prefix: str = "c",
        guessed: frozenset[str] = frozenset(),
    ) -> RegionContext:
        """The context of ``model``; a parameter without a value in ``parameters`` is ``DEFAULT_PARAMETER_VALUE``,
        and guessed."""
        given = dict(parameters or {})
        values = {name: DEFAULT_PARAMETER_VALUE for name in model.scop.parameters} | given
        guessed = guessed | {name for name in model.scop.parameters if name not in given}
        relaxed = relax(model, deps, reductions)
        return RegionContext(
            model, deps, relaxed, reductions, values, dead, options, prefix, frozenset(guessed), original=model
        )

    def rewritten(self, scop: Scop) -> RegionContext:
        """The context of ``scop`` (a rewrite of the region) modelled again, without reductions."""
        model = build_model(scop, self.model.ctx)
        deps = compute_dependences(model)
        return replace(self, model=model, deps=deps, relaxed=deps, reductions=())

    def reducing(self, reductions: tuple[Reduction, ...]) -> RegionContext:
        """The context with its dependences relaxed for ``reductions``."""
        return replace(self, reductions=reductions, relaxed=relax(self.model, self.deps, reductions))


@dataclass(frozen=True)
class Decision:
    """One pass's plan and its report sections."""

    name: str
    plan: Any
    sections: tuple[Section, ...]


@dataclass(frozen=True)
class Decisions:
    """The plans made for a region, in the order the passes ran."""

    items: tuple[Decision, ...] = field(default=())

    def plan_of(self, kind: Reported[P]) -> P | None:
        """The plan the pass ``kind`` made, None when it made none."""
        return next((item.plan for item in self.items if item.name == kind.name), None)

    def sections(self) -> Iterator[Section]:
        return (section for item in self.items for section in item.sections)

    def then(self, kind: Reported[P], plan: P) -> Decisions:
        """These decisions followed by ``plan`` of ``kind`` and its report."""
        return Decisions((*self.items, Decision(kind.name, plan, tuple(kind.report(plan)))))

    def noted(self, *notes: str) -> Decisions:
        """These decisions followed by ``notes``."""
        return Decisions((*self.items, Decision("note", None, (Section("notes", notes),))))


NO_DECISIONS = Decisions()


@dataclass(frozen=True)
class Part:
    """The code, report, warnings and one-line summary of a region or of one segment of it."""

    generated: Generated
    report: RegionReport
    warnings: tuple[str, ...]
    summary: str
    decisions: Decisions = NO_DECISIONS
    source: SourceText | None = None  # the region's code is its source text with these pragmas


def isl_context(options: Options) -> isl.Context:
    """A fresh isl context for one region (or segment), configured for the scheduler."""
    ctx = isl.Context()
    configure(ctx, options.scheduler, options.machine)
    return ctx


RunPart = Callable[[Scop, Options, frozenset[str]], Part]  # the rest of the pipeline on statements, dead arrays
Candidate = tuple[RegionContext, isl.Schedule, Decisions]  # a region's context, schedule and decisions


@dataclass(frozen=True)
class PartSetting:
    """What the part passes plan on beside the statements, the same for every part of a region: the
    ``parameters``' values the cost models assume and the ``prefix`` of the generated iterators' names."""

    parameters: Mapping[str, int]
    prefix: str


def run_part_passes(passes: tuple[PartPass[Any], ...], setting: PartSetting, inner: RunPart) -> RunPart:
    """``inner`` (the pipeline after the part passes) behind each of ``passes``, the first outermost: a pass
    that plans applies by running the rest (the passes after it, then ``inner``) or ``inner`` alone."""
    run = inner
    for kind in reversed(passes):
        run = partial(_behind, kind, setting, run, inner)
    return run


def _behind(
    kind: PartPass[Any],
    setting: PartSetting,
    rest: RunPart,
    inner: RunPart,
    scop: Scop,
    options: Options,
    dead: frozenset[str],
) -> Part:
    plan = kind.plan(scop, options, dead, setting)
    return rest(scop, options, dead) if plan is None else kind.apply(plan, rest, inner)


def run_region_passes(ctx: RegionContext, passes: tuple[RegionPass[Any], ...]) -> tuple[RegionContext, Decisions]:
    """``ctx`` after each of ``passes`` in turn planned and applied, and their plans."""
    decisions = NO_DECISIONS
    for kind in passes:
        if (plan := kind.plan(ctx)) is not None:
            ctx, decisions = kind.apply(ctx, plan), decisions.then(kind, plan)
    return ctx, decisions


def run_schedule_passes(
    ctx: RegionContext, schedule: isl.Schedule, passes: tuple[SchedulePass[isl.Schedule, Any], ...], earlier: Decisions
) -> tuple[isl.Schedule, Decisions]:
    """``schedule`` after each of ``passes`` in turn planned and applied, and ``earlier`` followed by their plans."""
    decisions = earlier
    for kind in passes:
        plan = kind.plan(ctx, schedule, decisions)
        if plan is not None:
            schedule = kind.apply(ctx, schedule, plan)
            decisions = decisions.then(kind, plan)
    return schedule, decisions


def run_scheduled_region_passes(
    ctx: RegionContext, schedule: isl.Schedule, passes: tuple[ScheduledRegionPass[Any], ...], earlier: Decisions
) -> Candidate:
    """``ctx`` and ``schedule`` after each of ``passes`` in turn planned and applied, and ``earlier`` followed
    by their plans."""
    decisions = earlier
    for kind in passes:
        if (plan := kind.plan(ctx, schedule, decisions)) is not None:
            ctx, schedule = kind.apply(ctx, schedule, plan)
            decisions = decisions.then(kind, plan)
    return ctx, schedule, decisions


class Reported(Protocol[P]):
    """A pass of any kind: its name (its plan's key in ``Decisions``) and the report sections of its plan."""

    name: str

    def report(self, plan: P) -> list[Section]: ...


class Summarized(Reported[P], Protocol[P]):
    """A pass whose plan the region's one-line summary names (``Summary``): its phrase, None for none."""

    def summary(self, plan: P) -> str | None: ...


class PartPass(Protocol[P]):
    """A pass that plans on the region's statements (and its dead arrays and ``PartSetting``) before any
    other pass, and applies by running the rest of the pipeline (``RunPart``) on them or on parts of them,
    once or more: ``rest`` runs the part passes after it, then the pipeline after the part passes; ``inner``
    runs that pipeline alone, for parts that the part passes after it must not see (the library's
    segments are not privatized)."""

    name: str

    def plan(self, scop: Scop, options: Options, dead: frozenset[str], setting: PartSetting) -> P | None: ...

    def apply(self, plan: P, rest: RunPart, inner: RunPart) -> Part: ...

    def report(self, plan: P) -> list[Section]: ...


class RegionPass(Protocol[P]):
    """A pass that rewrites the region (its statements) before it is scheduled."""

    name: str

    def plan(self, ctx: RegionContext) -> P | None: ...

    def apply(self, ctx: RegionContext, plan: P) -> RegionContext: ...

    def report(self, plan: P) -> list[Section]: ...


class SchedulePass(Protocol[S, P]):
    """A pass that plans on the region's schedule (and the plans made before it) and applies to ``S``:
    the schedule."""

    name: str

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, subject: S, plan: P) -> S: ...

    def report(self, plan: P) -> list[Section]: ...


class ScheduledRegionPass(Protocol[P]):
    """A pass that rewrites the region (its statements) after it is scheduled: it plans on the schedule
    (and the plans made before it) and applies to the context and the schedule, which it gives to the
    statements of the rewrite."""

    name: str

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: P) -> tuple[RegionContext, isl.Schedule]: ...

    def report(self, plan: P) -> list[Section]: ...


class ChoicePass(Protocol[P]):
    """A pass that chooses between the ``transformed`` region and a candidate of its own made from the
    region after its rewrites (``written``, their decisions ``earlier``); the chosen one's decisions end
    with its plan."""

    name: str

    def choose(self, written: RegionContext, earlier: Decisions, transformed: Candidate) -> Candidate: ...

    def report(self, plan: P) -> list[Section]: ...


class CodePass(Protocol[P]):
    """A pass that rewrites the region's generated code: it plans on the region's final context and
    schedule (and the plans made before it) before the code is generated, and applies to the code."""

    name: str

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, subject: Generated, plan: P) -> Generated: ...

    def report(self, plan: P) -> list[Section]: ...


@dataclass(frozen=True)
class Summary:
    """How the one-line summary of a region (the comment above its code) names the plans made for it: the
    order its code runs in (the phrase of the first of ``order`` that gives one, else ``unordered``), then
    the phrase of each of ``phrases`` that gives one."""

    order: tuple[Summarized[Any], ...]
    phrases: tuple[Summarized[Any], ...]
    unordered: str = "original order"

    def of(self, decisions: Decisions) -> str:
        order = next((phrase for kind in self.order if (phrase := _phrase(kind, decisions))), self.unordered)
        return ", ".join([order, *(phrase for kind in self.phrases if (phrase := _phrase(kind, decisions)))])


def _phrase(kind: Summarized[Any], decisions: Decisions) -> str | None:
    plan = decisions.plan_of(kind)
    return None if plan is None else kind.summary(plan)
