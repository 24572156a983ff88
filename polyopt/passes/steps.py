"""The three kinds of step, each with one runner: a ``ModelStep`` rewrites the region's statements
(model -> model), a ``ScheduleStep`` its schedule (schedule -> schedule) and a ``CodeStep`` its generated code
(code -> code).  Each plans on the region's context, its schedule and the decisions made before it, applies
its plan when it makes one, and reports it; its runner adds the plan to the decisions.

Public: ``ModelStep``, ``ScheduleStep``, ``CodeStep``, ``ModelSteps``, ``ScheduleSteps``, ``CodeSteps``, ``Stage``,
``run_stages``, ``Passes``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import islpy as isl

from polyopt.emit.isl_ast import Generated
from polyopt.passes.base import Candidate, Decisions, RegionContext, Reported, Summary
from polyopt.passes.speculative import ChoiceStep, PartStep
from polyopt.report import Heading

P = TypeVar("P")


class ModelStep(Reported[P], Protocol[P]):
    """model -> model: rewrites the region's statements, modelled again, and gives the statements of the
    rewrite their place in ``schedule`` (before the region is scheduled, the schedule of its model)."""

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, schedule: isl.Schedule, plan: P) -> tuple[RegionContext, isl.Schedule]: ...


class ScheduleStep(Reported[P], Protocol[P]):
    """schedule -> schedule: plans on the region's schedule and rewrites it."""

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, subject: isl.Schedule, plan: P) -> isl.Schedule: ...


class CodeStep(Reported[P], Protocol[P]):
    """code -> code: plans on the region's final context and schedule before the code is generated (the
    storage of the code follows the plans), and rewrites the generated code."""

    def plan(self, ctx: RegionContext, schedule: isl.Schedule, earlier: Decisions) -> P | None: ...

    def apply(self, ctx: RegionContext, subject: Generated, plan: P) -> Generated: ...


@dataclass(frozen=True)
class ModelSteps:
    """Model steps run in turn."""

    steps: tuple[ModelStep[Any], ...]

    def run(self, state: Candidate) -> Candidate:
        """``state`` after each step in turn planned and applied, its decisions followed by their plans."""
        ctx, schedule, decisions = state
        for step in self.steps:
            if (plan := step.plan(ctx, schedule, decisions)) is not None:
                ctx, schedule = step.apply(ctx, schedule, plan)
                decisions = decisions.then(step, plan)
        return ctx, schedule, decisions


@dataclass(frozen=True)
class ScheduleSteps:
    """Schedule steps run in turn."""

    steps: tuple[ScheduleStep[Any], ...]

    def run(self, state: Candidate) -> Candidate:
        """``state`` with its schedule after each step in turn planned and applied, its decisions followed by
        their plans."""
        ctx, schedule, decisions = state
        for step in self.steps:
            if (plan := step.plan(ctx, schedule, decisions)) is not None:
                schedule = step.apply(ctx, schedule, plan)
                decisions = decisions.then(step, plan)
        return ctx, schedule, decisions


Stage = ModelSteps | ScheduleSteps


def run_stages(state: Candidate, stages: tuple[Stage, ...]) -> Candidate:
    """``state`` after each of ``stages`` in turn."""
    for stage in stages:
        state = stage.run(state)
    return state


@dataclass(frozen=True)
class CodeSteps:
    """Code steps: all plan, then the code is generated, then each that planned rewrites it in turn."""

    steps: tuple[CodeStep[Any], ...]

    def run(self, state: Candidate, generated: Callable[[Decisions], Generated]) -> tuple[Generated, Decisions]:
        """The code that ``generated`` gives for the decisions (followed by the steps' plans), rewritten by each
        step that planned; and those decisions."""
        ctx, schedule, decisions = state
        plans: list[tuple[CodeStep[Any], Any]] = []
        for step in self.steps:
            if (plan := step.plan(ctx, schedule, decisions)) is not None:
                plans.append((step, plan))
                decisions = decisions.then(step, plan)
        code = generated(decisions)
        for step, plan in plans:
            code = step.apply(ctx, code, plan)
        return code, decisions


@dataclass(frozen=True)
class Passes:
    """The steps run on a region, in the order they run, and how its one-line summary names their plans."""

    parts: tuple[PartStep[Any], ...]  # speculative: the rest of the pipeline per part (``per_part``)
    rewrites: ModelSteps  # the region's statements rewritten before it is scheduled
    stages: tuple[Stage, ...]  # its schedule, and the statements it schedules
    choices: tuple[ChoiceStep[Any], ...]  # speculative: the transformed region or a candidate (``per_candidate``)
    code: CodeSteps  # its generated code
    summary: Summary

    def headings(self) -> tuple[Heading, ...]:
        """The report's headings of every step."""
        staged = (step for stage in (self.rewrites, *self.stages, self.code) for step in stage.steps)
        return tuple(heading for step in (*self.parts, *staged, *self.choices) for heading in step.headings)
