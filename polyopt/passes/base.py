"""What the steps of a region plan on and decide: the region's context, the decisions made for it in order,
the part of the region a run of the pipeline gives, and how the region's one-line summary names the plans.
The kinds of step and their runners are in ``polyopt.passes.steps``; the speculative steps, which run the
rest of the pipeline per candidate, in ``polyopt.passes.speculative``.

Public: ``RegionContext``, ``Decision``, ``Decisions``, ``NO_DECISIONS``, ``Part``, ``Candidate``, ``Reported``,
``Summarized``, ``Summary``, ``isl_context``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, replace
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
from polyopt.report import NOTES, Heading, RegionReport, Section
from polyopt.transform.scheduling import configure

P = TypeVar("P")


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

    def unscheduled(self, scop: Scop) -> tuple[RegionContext, isl.Schedule]:
        """The context of ``scop`` (a rewrite of the region before it is scheduled) and its order as written."""
        ctx = self.rewritten(scop)
        return ctx, ctx.model.schedule

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
        return Decisions((*self.items, Decision("note", None, (Section(NOTES, notes),))))


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


Candidate = tuple[RegionContext, isl.Schedule, Decisions]  # a region's context, schedule and decisions


class Reported(Protocol[P]):
    """A step of any kind: its name (its plan's key in ``Decisions``), the headings of the report its
    sections go under, and the report sections of its plan."""

    name: str
    headings: tuple[Heading, ...]

    def report(self, plan: P) -> list[Section]: ...


class Summarized(Reported[P], Protocol[P]):
    """A step whose plan the region's one-line summary names (``Summary``): its phrase, None for none."""

    def summary(self, plan: P) -> str | None: ...


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
