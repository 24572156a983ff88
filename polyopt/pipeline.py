"""The region pipeline, top-down: parse -> model -> analyze -> decide -> transform -> emit.

The frontend (``polyopt.frontend.read``) parses; the driver (``polyopt.driver``) runs ``optimize_scop`` on each
modelled region within its time budget.  Here the region is modelled and analysed, then decided and
transformed by the declared steps (``polyopt.passes.steps``): the part steps around the rest (``per_part``),
the model steps that rewrite it, the stages that schedule it, the choice of the order as written
(``per_candidate``), the verification of the schedule, and the code steps around its generated code; its code
is then emitted (``polyopt.outcome``).  ``SUMMARY`` names the plans in the region's one-line comment, and
``LAYOUT`` orders its report's sections.  With ``--identity`` no step runs (``IDENTITY``).

Public: ``Passes``, ``PASSES``, ``IDENTITY``, ``LAYOUT``, ``optimize_scop``, ``part``, ``transform``.
"""

from __future__ import annotations

from dataclasses import replace
from functools import partial

import islpy as isl

from polyopt.analysis.dependences import compute_dependences
from polyopt.diagnostics import format_message
from polyopt.emit.isl_ast import Generated, generate
from polyopt.emit.openmp import hoist_parallel_regions
from polyopt.emit.source_text import source_pragmas
from polyopt.emit.storage import storage
from polyopt.frontend.read import Setting
from polyopt.frontend.regions import Region, region_dead_arrays
from polyopt.frontend.scop import Scop
from polyopt.model import build_model, executed
from polyopt.options import Options
from polyopt.outcome import RegionOutcome, emitted, kept_as_written
from polyopt.passes.as_written import AS_WRITTEN, SOURCE_TEXT
from polyopt.passes.base import NO_DECISIONS, Candidate, Decisions, Part, RegionContext, Summary, isl_context
from polyopt.passes.contraction import CONTRACTION, scalars
from polyopt.passes.expansion import EXPANSION, LAST_VALUES, WEB_DECLARATIONS, WEBS
from polyopt.passes.fusion import FUSION, FUSION_POLICY
from polyopt.passes.inplace import IN_PLACE
from polyopt.passes.library import LIBRARY
from polyopt.passes.loops import loop_stage
from polyopt.passes.parallel import PARALLEL
from polyopt.passes.privatization import PRIVATIZATION
from polyopt.passes.reductions import REDUCTIONS, updates_in_order
from polyopt.passes.speculative import PartSetting, per_candidate, per_part
from polyopt.passes.splitting import INNER_SPLITTING, SPLITTING
from polyopt.passes.steps import CodeSteps, ModelSteps, Passes, ScheduleSteps, run_stages
from polyopt.passes.tile_fusion import TILE_FUSION
from polyopt.passes.tiling import TILING
from polyopt.passes.unroll_jam import UNROLL_JAM
from polyopt.passes.vector import VECTOR
from polyopt.report import Section, empty_report, layout, region_report
from polyopt.verify import checked

PASSES = Passes(
    parts=(LIBRARY, PRIVATIZATION),
    rewrites=ModelSteps((IN_PLACE, WEBS, EXPANSION, SPLITTING, REDUCTIONS)),
    stages=(
        ScheduleSteps((FUSION,)),
        ModelSteps((INNER_SPLITTING,)),
        ScheduleSteps((*loop_stage(sized=True), VECTOR, UNROLL_JAM)),
    ),
    choices=(AS_WRITTEN,),
    code=CodeSteps((CONTRACTION, LAST_VALUES, WEB_DECLARATIONS)),
    summary=Summary(
        order=(SOURCE_TEXT, AS_WRITTEN, FUSION),
        phrases=(TILING, TILE_FUSION, IN_PLACE, EXPANSION, CONTRACTION, PARALLEL, VECTOR, UNROLL_JAM),
    ),
)
IDENTITY = Passes((), ModelSteps(()), (), (), CodeSteps(()), Summary((), (), "original order (identity)"))
LAYOUT = layout(PASSES.headings())


def optimize_scop(region: Region, scop: Scop, options: Options, setting: Setting) -> RegionOutcome:
    """One region through the pipeline: its part steps around the rest, then its code emitted."""
    passes = IDENTITY if options.identity else PASSES
    scop, dropped = executed(scop, isl_context(options))
    dead = options.assume_dead | region_dead_arrays(region)
    if not scop.statements:
        report = empty_report(region, setting, LAYOUT, Section(FUSION_POLICY, ("none (no statement executes)",)))
        done = Part(Generated((), frozenset()), report, (), "no statement ever executes")
    else:
        inner = partial(_part, region, setting, passes, scop)
        done = per_part(passes.parts, PartSetting(setting.values(), setting.prefix), inner)(scop, options, dead)
    if done.source is not None:
        return kept_as_written(region, done, dropped)
    return emitted(region, scop, done, dropped, options, setting, guarded=passes is PASSES)


def _part(
    region: Region, setting: Setting, passes: Passes, whole: Scop, scop: Scop, options: Options, dead: frozenset[str]
) -> Part:
    return part(region, scop, options, setting, dead, passes, source=scop.tree is whole.tree)


def part(
    region: Region,
    scop: Scop,
    options: Options,
    setting: Setting,
    dead: frozenset[str],
    passes: Passes = PASSES,
    source: bool = False,
) -> Part:
    """``scop`` modelled, rewritten, scheduled, verified and generated by ``passes`` (the pipeline after the part
    steps); ``dead``: the arrays whose values after it do not matter.  When ``scop`` is the whole region as
    written (``source``: its loop tree, its scalars declared in loop bodies perhaps private, as they are in the
    text) and it keeps its original order, its code is its source text with the pragmas of its marked loops
    (``polyopt.emit.source_text``)."""
    original = build_model(scop, isl_context(options))
    deps = compute_dependences(original)
    start = RegionContext.of(original, deps, options, (), setting.values(), dead, setting.prefix, setting.guessed())
    rewritten, _, rewrites = passes.rewrites.run((start, original.schedule, NO_DECISIONS))
    ctx, schedule, decisions = per_candidate(
        passes.choices, rewritten, rewrites, transform(rewritten, rewrites, passes)
    )

    def retry(changed: Options, rejected: Decisions) -> Candidate:
        return transform(replace(rewritten, options=changed), rejected, passes)

    ctx, schedule, decisions, failure = checked(ctx, schedule, (rewrites, decisions), start, retry)
    warnings = (format_message(region.location, "warning", failure),) if failure else ()
    text = None
    if source and (failure or _kept(decisions)) and passes.choices:
        generated = _generated(ctx, schedule, decisions)
        text = source_pragmas(ctx.model.scop, generated.marked)
        decisions = decisions.then(SOURCE_TEXT, text)
    else:
        generated, decisions = passes.code.run((ctx, schedule, decisions), partial(_generated, ctx, schedule))
    report = region_report(region, ctx.model, ctx.deps, schedule, decisions.sections(), setting, LAYOUT)
    report = report.replaced(updates_in_order(ctx.model, decisions if text is not None else rewrites))
    return Part(generated, report, warnings, passes.summary.of(decisions), decisions, text)


def _kept(decisions: Decisions) -> bool:
    choice = decisions.plan_of(AS_WRITTEN)
    return choice is not None and choice.kept and choice.text


def transform(ctx: RegionContext, earlier: Decisions = NO_DECISIONS, passes: Passes = PASSES) -> Candidate:
    """The region ``ctx`` through the stages of ``passes`` from its order as written; ``earlier``: the decisions
    they follow.  The scheduler sees the reduced dependences; legality checks of loops (parallel, vector) use
    all of them, both relaxed for the reductions."""
    return run_stages((ctx, ctx.model.schedule, earlier), passes.stages)


def _generated(ctx: RegionContext, schedule: isl.Schedule, decisions: Decisions) -> Generated:
    """The code of ``schedule``, its storage following ``decisions`` (contracted arrays become scalars)."""
    room = storage(ctx.model, ctx.reductions, ctx.machine, schedule, scalars(decisions))
    generated = generate(schedule, ctx.model.scop, ctx.prefix, room)
    return replace(generated, code=hoist_parallel_regions(generated.code))
