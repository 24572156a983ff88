"""The region pipeline: parse -> model -> analyze -> decide -> transform -> emit, over the declared passes.

Each pass (``polyopt.passes``) plans on the region's context, applies its plan and reports it; the
driver (``polyopt.driver``) runs the pipeline on every region of a file within its time budget.

Public: ``REGION_PASSES``, ``SCHEDULE_PASSES``, ``LOOP_PASSES``, ``RegionOutcome``, ``FileOutcome``,
``optimize_text``, ``optimize_scop``, ``part``, ``transform``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import partial
from typing import Any

import islpy as isl

from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.reductions import find_reductions
from polyopt.diagnostics import format_message
from polyopt.driver import FileOutcome as FileOutcome
from polyopt.driver import RegionOutcome as RegionOutcome
from polyopt.driver import (
    Setting,
    dead_arrays,
    executed,
    final_values,
    nothing,
    optimize_file,
    region_report,
    storage,
    summary,
)
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import generate
from polyopt.emit.openmp import hoist_parallel_regions
from polyopt.emit.splice import RegionCode
from polyopt.emit.storage import with_locals, with_webs
from polyopt.frontend.regions import Region
from polyopt.frontend.scop import Scop
from polyopt.library.choice import LibraryChoice
from polyopt.model import build_model
from polyopt.options import Options
from polyopt.passes.as_written import weighed
from polyopt.passes.base import NO_DECISIONS, Decisions, Part, RegionContext, RegionPass, SchedulePass, isl_context
from polyopt.passes.base import run_schedule_passes as run
from polyopt.passes.contraction import CONTRACTION, contracted
from polyopt.passes.expansion import EXPANSION, WEBS, expanded_code
from polyopt.passes.fusion import FUSION
from polyopt.passes.inplace import IN_PLACE
from polyopt.passes.library import LIBRARY
from polyopt.passes.loops import loop_stage
from polyopt.passes.reductions import REDUCTIONS, updates_in_order
from polyopt.passes.splitting import INNER_SPLITTING, SPLITTING
from polyopt.passes.unroll_jam import UNROLL_JAM
from polyopt.passes.vector import VECTOR
from polyopt.transform.privatization import private_locals, privatized
from polyopt.verify import checked

REGION_PASSES: tuple[RegionPass[Any], ...] = (IN_PLACE, WEBS, EXPANSION, SPLITTING, REDUCTIONS)
SCHEDULE_PASSES: tuple[SchedulePass[isl.Schedule, Any], ...] = (FUSION,)
LOOP_PASSES: tuple[SchedulePass[isl.Schedule, Any], ...] = (*loop_stage(sized=True), VECTOR, UNROLL_JAM)


def optimize_text(
    text: str, filename: str, options: Options, probe: Callable[[], LibraryChoice] | None = None
) -> FileOutcome:
    """Optimize every region of ``text`` (``polyopt.driver.optimize_file``)."""
    return optimize_file(text, filename, options, probe, optimize_scop)


def optimize_scop(region: Region, scop: Scop, options: Options, setting: Setting) -> RegionOutcome:
    """One region: its library segments (``LIBRARY``) or the whole region through the pipeline."""
    scop, dropped = executed(scop, isl_context(options))
    dead = dead_arrays(region, options)
    cut = LIBRARY.plan(scop, options, setting.values(), dead, setting.prefix) if scop.statements else None
    if not scop.statements:
        part = nothing(region, setting)
    elif cut is not None and cut.plan.segments:
        part = LIBRARY.apply(cut, partial(_segment, region, setting))
    else:
        part = _private_part(region, scop, options, setting, dead)
        part = replace(part, report=replace(part.report, library=cut.left)) if cut and cut.left else part
    finals, assigned = final_values(scop, setting)
    report = replace(part.report, notes=(*dropped, *part.report.notes, *assigned))
    code = with_locals(part.generated.code, scop, contracted(part.decisions))
    printed = print_c(code + finals.code, region.indent)
    helpers = part.generated.helpers | finals.helpers
    return RegionOutcome(region, RegionCode(region, printed, helpers, part.summary), report, part.warnings)


def _segment(region: Region, setting: Setting, scop: Scop, options: Options, dead: frozenset[str]) -> Part:
    return part(region, scop, options, setting, dead)


def _private_part(region: Region, scop: Scop, options: Options, setting: Setting, dead: frozenset[str]) -> Part:
    """``part`` with the scalars declared inside the region's loops private to their iterations
    (``polyopt.transform.privatization``) when each becomes a scalar again (``polyopt.analysis.contraction``)
    and no scalar is expanded; else with them as scalars of the whole region.  An accumulator (updated by
    a reduction) stays a scalar of the region: contraction leaves reduced arrays alone."""
    private = frozenset(local.name for local in private_locals(scop)) if not options.identity else frozenset()
    if private:
        model = build_model(privatized(scop, private), isl_context(options))
        private -= {reduction.array for reduction in find_reductions(model)}
    if private:
        candidate = part(region, privatized(scop, private), options, setting, dead | private)
        if private <= contracted(candidate.decisions) and not candidate.decisions.plan_of(EXPANSION):
            return candidate
    return part(region, scop, options, setting, dead)


def part(region: Region, scop: Scop, options: Options, setting: Setting, dead: frozenset[str]) -> Part:
    """``scop`` rewritten, scheduled, verified and generated (the whole pipeline without library calls);
    ``dead``: the arrays whose values after it do not matter."""
    original = build_model(scop, isl_context(options))
    start = RegionContext.of(
        original, compute_dependences(original), options, (), setting.values(), dead, setting.prefix, setting.guessed()
    )
    ctx, rewrites = start, NO_DECISIONS
    for kind in REGION_PASSES:
        if (plan := kind.plan(ctx)) is not None:
            ctx, rewrites = kind.apply(ctx, plan), rewrites.then(kind, plan)
    rewritten = ctx
    if not options.identity:
        ctx, schedule, decisions = transform(rewritten, rewrites)
        if options.as_written:
            ctx, schedule, decisions = weighed(rewritten, rewrites, (ctx, schedule, decisions))
    else:
        schedule, decisions = ctx.model.schedule, rewrites

    def retry(changed: Options, rejected: Decisions) -> tuple[RegionContext, isl.Schedule, Decisions]:
        return transform(replace(rewritten, options=changed), rejected)

    ctx, schedule, decisions, failure = checked(ctx, schedule, (rewrites, decisions), start, retry)
    warnings = (format_message(region.location, "warning", failure),) if failure else ()
    if (contractions := CONTRACTION.plan(ctx, schedule, decisions)) is not None:
        decisions = decisions.then(CONTRACTION, contractions)
    generated = generate(schedule, ctx.model.scop, setting.prefix, storage(ctx, schedule, _scalars(decisions)))
    generated = replace(generated, code=hoist_parallel_regions(generated.code))
    if contractions is not None:
        generated = CONTRACTION.apply(ctx, generated, contractions)
    if expansions := decisions.plan_of(EXPANSION):
        generated = expanded_code(expansions, generated, original, setting.prefix)
    if webs := decisions.plan_of(WEBS):
        generated = with_webs(webs, generated)
    report = region_report(region, ctx.model, ctx.deps, schedule, decisions, setting)
    report = replace(report, non_reductions=updates_in_order(ctx.model, options).lines)
    return Part(generated, report, warnings, summary(options, decisions), decisions)


def _scalars(decisions: Decisions) -> dict[str, str]:
    return {contraction.array: contraction.name for contraction in decisions.plan_of(CONTRACTION) or ()}


def transform(ctx: RegionContext, earlier: Decisions = NO_DECISIONS) -> tuple[RegionContext, isl.Schedule, Decisions]:
    """Decide each schedule pass's plan on the current schedule tree, then apply it; ``earlier``: the
    decisions the schedule passes follow.  The scheduler sees the reduced dependences; legality checks of
    loops (parallel, vector) use all of them, both relaxed for the reductions.  Between the scheduler's
    passes and the loop passes, innermost loops are split (``INNER_SPLITTING``): the region's context
    changes then, and is returned with the schedule."""
    schedule, decisions = run(ctx, ctx.model.schedule, SCHEDULE_PASSES, earlier)
    if (pieces := INNER_SPLITTING.plan(ctx)) is not None:
        split_ctx = INNER_SPLITTING.apply(ctx, pieces)
        ctx, schedule = split_ctx, INNER_SPLITTING.schedule(schedule, split_ctx, pieces)
        decisions = decisions.then(INNER_SPLITTING, pieces)
    return (ctx, *run(ctx, schedule, LOOP_PASSES, decisions))
