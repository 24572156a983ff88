"""The region pipeline: parse -> model -> analyze -> decide -> transform -> emit, over the declared passes.

Each pass (``polyopt.passes``) plans on the region's context, applies its plan and reports it; the
driver (``polyopt.driver``) runs the pipeline on every region that the frontend models
(``polyopt.frontend.read``) within its time budget.  The
passes run on a region in the order listed below, each list of a kind of pass (``polyopt.passes.base``):
``PART_PASSES`` (the library step, then privatization) around the rest, ``REGION_PASSES``, ``SCHEDULE_PASSES``,
``SCHEDULED_REGION_PASSES``, ``LOOP_PASSES``, ``CHOICE_PASSES``, the verification of the schedule, the code
generation and ``CODE_PASSES``; ``SUMMARY`` names their plans in the region's one-line comment.  With
``--identity`` no pass runs (``IDENTITY``).

Public: ``PART_PASSES``, ``REGION_PASSES``, ``SCHEDULE_PASSES``, ``SCHEDULED_REGION_PASSES``, ``LOOP_PASSES``,
``CHOICE_PASSES``, ``CODE_PASSES``, ``SUMMARY``, ``Passes``, ``PASSES``, ``IDENTITY``, ``passes_for``,
``RegionOutcome``, ``optimize_scop``, ``part``, ``transform``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import islpy as isl

from polyopt.analysis.dependences import compute_dependences
from polyopt.diagnostics import format_message
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import Generated, Storage, generate, instances_sum, print_parametric
from polyopt.emit.openmp import hoist_parallel_regions
from polyopt.emit.source_text import source_pragmas, with_pragmas
from polyopt.emit.splice import RegionCode
from polyopt.emit.storage import final_values, statement_extents, storage, with_locals
from polyopt.frontend.read import Setting
from polyopt.frontend.regions import Region, region_dead_arrays
from polyopt.frontend.scop import Scop
from polyopt.model import build_model, executed
from polyopt.options import Options
from polyopt.passes.as_written import AS_WRITTEN, SOURCE_TEXT
from polyopt.passes.base import (
    NO_DECISIONS,
    ChoicePass,
    CodePass,
    Decisions,
    Part,
    PartPass,
    PartSetting,
    RegionContext,
    RegionPass,
    ScheduledRegionPass,
    SchedulePass,
    Summary,
    isl_context,
    run_part_passes,
    run_region_passes,
    run_schedule_passes,
    run_scheduled_region_passes,
)
from polyopt.passes.contraction import CONTRACTION, contracted
from polyopt.passes.expansion import EXPANSION, LAST_VALUES, WEB_DECLARATIONS, WEBS
from polyopt.passes.fusion import FUSION
from polyopt.passes.inplace import IN_PLACE
from polyopt.passes.library import LIBRARY
from polyopt.passes.loops import loop_stage
from polyopt.passes.parallel import PARALLEL
from polyopt.passes.privatization import PRIVATIZATION
from polyopt.passes.reductions import REDUCTIONS, updates_in_order
from polyopt.passes.splitting import INNER_SPLITTING, SPLITTING
from polyopt.passes.tile_fusion import TILE_FUSION
from polyopt.passes.tiling import TILING
from polyopt.passes.unroll_jam import UNROLL_JAM
from polyopt.passes.vector import VECTOR
from polyopt.report import RegionReport, empty_report, region_report
from polyopt.verify import checked

PART_PASSES: tuple[PartPass[Any], ...] = (LIBRARY, PRIVATIZATION)
REGION_PASSES: tuple[RegionPass[Any], ...] = (IN_PLACE, WEBS, EXPANSION, SPLITTING, REDUCTIONS)
SCHEDULE_PASSES: tuple[SchedulePass[isl.Schedule, Any], ...] = (FUSION,)
SCHEDULED_REGION_PASSES: tuple[ScheduledRegionPass[Any], ...] = (INNER_SPLITTING,)
LOOP_PASSES: tuple[SchedulePass[isl.Schedule, Any], ...] = (*loop_stage(sized=True), VECTOR, UNROLL_JAM)
CHOICE_PASSES: tuple[ChoicePass[Any], ...] = (AS_WRITTEN,)
CODE_PASSES: tuple[CodePass[Any], ...] = (CONTRACTION, LAST_VALUES, WEB_DECLARATIONS)
SUMMARY = Summary(
    order=(SOURCE_TEXT, AS_WRITTEN, FUSION),
    phrases=(TILING, TILE_FUSION, IN_PLACE, EXPANSION, CONTRACTION, PARALLEL, VECTOR, UNROLL_JAM),
)


@dataclass(frozen=True)
class Passes:
    """The passes run on a region, by kind in the order they run, and how the region's one-line summary
    names their plans."""

    part: tuple[PartPass[Any], ...]
    region: tuple[RegionPass[Any], ...]
    schedule: tuple[SchedulePass[isl.Schedule, Any], ...]
    scheduled_region: tuple[ScheduledRegionPass[Any], ...]
    loop: tuple[SchedulePass[isl.Schedule, Any], ...]
    choice: tuple[ChoicePass[Any], ...]
    code: tuple[CodePass[Any], ...]
    summary: Summary


PASSES = Passes(
    part=PART_PASSES,
    region=REGION_PASSES,
    schedule=SCHEDULE_PASSES,
    scheduled_region=SCHEDULED_REGION_PASSES,
    loop=LOOP_PASSES,
    choice=CHOICE_PASSES,
    code=CODE_PASSES,
    summary=SUMMARY,
)
IDENTITY = Passes((), (), (), (), (), (), (), Summary((), (), "original order (identity)"))


def passes_for(options: Options) -> Passes:
    """The passes run on each region: none with ``--identity`` (its code regenerated as written)."""
    return IDENTITY if options.identity else PASSES


@dataclass(frozen=True)
class RegionOutcome:
    """One region's result: its replacement code, or the warning that kept it unchanged."""

    region: Region
    code: RegionCode | None
    report: RegionReport | None
    warnings: tuple[str, ...]


def optimize_scop(region: Region, scop: Scop, options: Options, setting: Setting) -> RegionOutcome:
    """One region through the pipeline: its part passes around the rest."""
    passes = passes_for(options)
    scop, dropped = executed(scop, isl_context(options))
    dead = options.assume_dead | region_dead_arrays(region)
    if not scop.statements:
        part = Part(Generated((), frozenset()), empty_report(region, setting), (), "no statement ever executes")
    else:
        inner = partial(_part, region, setting, passes, scop)
        part_setting = PartSetting(setting.values(), setting.prefix)
        part = run_part_passes(passes.part, part_setting, inner)(scop, options, dead)
    if part.source is not None:
        return _as_written(region, part, dropped)
    finals, assigned = final_values(scop, setting.prefix)
    report = replace(part.report, notes=(*dropped, *part.report.notes, *assigned))
    code = with_locals(part.generated.code, scop, contracted(part.decisions))
    version = _small_sizes(region, scop, options, setting) if passes is PASSES else None
    if version is None:
        printed = print_c(code + finals.code, region.indent)
        code_of = RegionCode(region, printed, part.generated.helpers | finals.helpers, part.summary)
        return RegionOutcome(region, code_of, report, part.warnings)
    condition, helpers, note = version
    indent = region.indent
    printed = f"{indent}if ({condition}) {{\n{print_c(code + finals.code, indent + '  ')}{indent}}} else {{\n"
    printed += f"{region.text}{indent}}}\n"
    helpers |= part.generated.helpers | finals.helpers
    summary = f"{part.summary}; as written below {options.machine.as_written_below} instances"
    report = replace(report, notes=(*report.notes, note))
    return RegionOutcome(region, RegionCode(region, printed, helpers, summary), report, part.warnings)


def _small_sizes(
    region: Region, scop: Scop, options: Options, setting: Setting
) -> tuple[str, frozenset[str], str] | None:
    """The run-time test that runs the optimized code of a region whose sizes were not known when it was
    optimized (``setting.guessed``), with its helpers and its report note (unless ``--no-as-written``); below the
    target's
    ``as-written-below`` statement instances the region's text as written runs instead (the code the cost models
    chose for the assumed sizes may cost more than it gains there: tiles larger than the loops, a parallel
    region's call into the OpenMP runtime, a microkernel's packing).  None when the sizes are known, the
    target says never, or the region declares a scalar outside its loops (a block would hide it from the
    code after the region)."""
    below, guessed = options.machine.as_written_below, sorted(setting.guessed())
    top_level = any(not local.loops for local in scop.locals)
    if not options.as_written or not below or not guessed or not scop.statements or top_level:
        return None
    extents = statement_extents(build_model(scop, isl_context(options)))
    names = sorted(name for name, values in extents.items() if values)
    if not names:
        return None
    flat = [value for name in names for value in extents[name]]
    texts, _, helpers = print_parametric(scop, setting.prefix, flat)
    printed, position = {}, 0
    for name in names:
        printed[name] = tuple(texts[position : position + len(extents[name])])
        position += len(extents[name])
    condition = f"{instances_sum(printed)} >= {below}L"
    sizes = ", ".join(guessed)
    note = f"below {below} statement instances the region runs as written (sizes not known when optimized: {sizes})"
    return condition, helpers, note


def _as_written(region: Region, part: Part, dropped: tuple[str, ...]) -> RegionOutcome:
    """The outcome of a region kept as written: its text with the pragmas of ``part.source`` (and the helper
    macros their clauses call), or without any when one of them has no ``for`` keyword at its place."""
    assert part.source is not None
    notes = (*dropped, *part.report.notes)
    text = with_pragmas(region.text, region.body_line, part.source.pragmas)
    if text is None:
        text = region.text
        notes += ("the pragmas were not put on the text as written: a loop's 'for' is not where it was read",)
    clauses = " ".join(pragma.text for pragma in part.source.pragmas)
    helpers = frozenset(name for name in part.generated.helpers if re.search(rf"\b{name}\b", clauses))
    code = RegionCode(region, text, helpers, part.summary)
    return RegionOutcome(region, code, replace(part.report, notes=notes), part.warnings)


def _part(
    region: Region, setting: Setting, passes: Passes, whole: Scop, scop: Scop, options: Options, dead: frozenset[str]
) -> Part:
    return part(region, scop, options, setting, dead, passes, source=scop is whole)


def part(
    region: Region,
    scop: Scop,
    options: Options,
    setting: Setting,
    dead: frozenset[str],
    passes: Passes = PASSES,
    source: bool = False,
) -> Part:
    """``scop`` rewritten, scheduled, verified and generated by ``passes`` (the pipeline after the part
    passes); ``dead``: the arrays whose values after it do not matter.  When ``scop`` is the whole region
    as written (``source``) and it keeps its original order, its code is its source text (``_source_text``)."""
    original = build_model(scop, isl_context(options))
    start = RegionContext.of(
        original, compute_dependences(original), options, (), setting.values(), dead, setting.prefix, setting.guessed()
    )
    rewritten, rewrites = run_region_passes(start, passes.region)
    ctx, schedule, decisions = transform(rewritten, rewrites, passes)
    for kind in passes.choice:
        ctx, schedule, decisions = kind.choose(rewritten, rewrites, (ctx, schedule, decisions))

    def retry(changed: Options, rejected: Decisions) -> tuple[RegionContext, isl.Schedule, Decisions]:
        return transform(replace(rewritten, options=changed), rejected, passes)

    ctx, schedule, decisions, failure = checked(ctx, schedule, (rewrites, decisions), start, retry)
    warnings = (format_message(region.location, "warning", failure),) if failure else ()
    if source and (failure or _kept(decisions)) and passes.choice:
        return _source_text(region, ctx, schedule, decisions, setting, passes, warnings)
    generated, decisions = _generated(ctx, schedule, decisions, passes.code)
    report = region_report(region, ctx.model, ctx.deps, schedule, decisions.sections(), setting)
    report = replace(report, non_reductions=updates_in_order(ctx.model, rewrites).lines)
    return Part(generated, report, warnings, passes.summary.of(decisions), decisions)


def _kept(decisions: Decisions) -> bool:
    choice = decisions.plan_of(AS_WRITTEN)
    return choice is not None and choice.kept and choice.text


def _source_text(
    region: Region,
    ctx: RegionContext,
    schedule: isl.Schedule,
    decisions: Decisions,
    setting: Setting,
    passes: Passes,
    warnings: tuple[str, ...],
) -> Part:
    """The region as written (``ctx``, in its original order ``schedule`` with its marks): its source text
    with the pragmas of its marked loops (``polyopt.emit.source_text``)."""
    generated = generate(schedule, ctx.model.scop, ctx.prefix, _storage(ctx, schedule, {}))
    text = source_pragmas(ctx.model.scop, generated.marked)
    decisions = decisions.then(SOURCE_TEXT, text)
    report = region_report(region, ctx.model, ctx.deps, schedule, decisions.sections(), setting)
    report = replace(report, non_reductions=updates_in_order(ctx.model, decisions).lines)
    return Part(generated, report, warnings, passes.summary.of(decisions), decisions, text)


def transform(
    ctx: RegionContext, earlier: Decisions = NO_DECISIONS, passes: Passes = PASSES
) -> tuple[RegionContext, isl.Schedule, Decisions]:
    """Decide each schedule pass's plan on the current schedule tree, then apply it; ``earlier``: the
    decisions the schedule passes follow.  The scheduler sees the reduced dependences; legality checks of
    loops (parallel, vector) use all of them, both relaxed for the reductions.  Between the scheduler's
    passes and the loop passes, the scheduled region is rewritten (``SCHEDULED_REGION_PASSES``): its
    context changes then, and is returned with the schedule."""
    schedule, decisions = run_schedule_passes(ctx, ctx.model.schedule, passes.schedule, earlier)
    ctx, schedule, decisions = run_scheduled_region_passes(ctx, schedule, passes.scheduled_region, decisions)
    return (ctx, *run_schedule_passes(ctx, schedule, passes.loop, decisions))


def _generated(
    ctx: RegionContext, schedule: isl.Schedule, decisions: Decisions, passes: tuple[CodePass[Any], ...]
) -> tuple[Generated, Decisions]:
    """The code of ``schedule`` rewritten by each of ``passes`` that plans, and ``decisions`` followed by
    their plans.  They plan before the code is generated: its storage follows their plans (contracted
    arrays become scalars)."""
    plans: list[tuple[CodePass[Any], Any]] = []
    for kind in passes:
        if (plan := kind.plan(ctx, schedule, decisions)) is not None:
            plans.append((kind, plan))
            decisions = decisions.then(kind, plan)
    generated = generate(schedule, ctx.model.scop, ctx.prefix, _storage(ctx, schedule, _scalars(decisions)))
    generated = replace(generated, code=hoist_parallel_regions(generated.code))
    for kind, plan in plans:
        generated = kind.apply(ctx, generated, plan)
    return generated, decisions


def _scalars(decisions: Decisions) -> dict[str, str]:
    return {contraction.array: contraction.name for contraction in decisions.plan_of(CONTRACTION) or ()}


def _storage(ctx: RegionContext, schedule: isl.Schedule, scalars: dict[str, str]) -> Storage:
    return storage(ctx.model, ctx.reductions, ctx.machine, schedule, scalars)
