"""The pass interface: what a region pass and a schedule pass plan, apply and report.

Public: ``RegionContext``, ``Decision``, ``Decisions``, ``NO_DECISIONS``, ``Part``, ``RegionPass``,
``SchedulePass``, ``isl_context``, ``run_schedule_passes``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, TypeVar

import islpy as isl

from polyopt.analysis.dependences import Dependences, compute_dependences
from polyopt.analysis.reductions import Reduction, relax
from polyopt.emit.isl_ast import Generated
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
    generated iterators' names and the parameters whose values are ``guessed`` (not found in the source)."""

    model: PolyModel
    deps: Dependences
    relaxed: Dependences
    reductions: tuple[Reduction, ...]
    parameters: Mapping[str, int]
    dead: frozenset[str]
    options: Options
    prefix: str = "c"
    guessed: frozenset[str] = frozenset()

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
        return RegionContext(model, deps, relaxed, reductions, values, dead, options, prefix, frozenset(guessed))

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

    def plan_of(self, kind: RegionPass[P] | SchedulePass[Any, P]) -> P | None:
        """The plan the pass ``kind`` made, None when it made none."""
        return next((item.plan for item in self.items if item.name == kind.name), None)

    def sections(self) -> Iterator[Section]:
        return (section for item in self.items for section in item.sections)

    def then(self, kind: RegionPass[P] | SchedulePass[Any, P], plan: P) -> Decisions:
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


def isl_context(options: Options) -> isl.Context:
    """A fresh isl context for one region (or segment), configured for the scheduler."""
    ctx = isl.Context()
    configure(ctx, options.scheduler, options.machine)
    return ctx


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


class RegionPass(Protocol[P]):
    """A pass that rewrites the region (its statements) before it is scheduled."""

    name: str

    def plan(self, ctx: RegionContext) -> P | None: ...

    def apply(self, ctx: RegionContext, plan: P) -> RegionContext: ...

    def report(self, plan: P) -> list[Section]: ...


class SchedulePass(Protocol[S, P]):
    """A pass that plans on the region's schedule (and the plans made before it) and applies to ``S``:
    the schedule, or the generated code."""

    name: str

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, subject: S, plan: P) -> S: ...

    def report(self, plan: P) -> list[Section]: ...
