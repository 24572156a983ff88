"""The driver: parse -> model -> analyze -> decide/transform -> emit, per region.

Public: ``Decisions``, ``RegionOutcome``, ``FileOutcome``, ``optimize_text``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import partial

import islpy as isl
from pycparser import c_ast

from polyopt import isl_util
from polyopt.analysis.contraction import Contraction, plan_contractions
from polyopt.analysis.dependences import FLOW, Dependences, carrying_loops, compute_dependences
from polyopt.analysis.expansion import Expansion, plan_expansions
from polyopt.analysis.idioms import Gemm, Idiom, find_idioms
from polyopt.analysis.inplace import InPlace, plan_in_place
from polyopt.analysis.library_choice import AWAITING_PROBE, LibraryChoice, ProbeNeeded, default_choice
from polyopt.analysis.microkernel import MicrokernelPlan, plan_microkernel
from polyopt.analysis.reductions import NonReduction, Reduction, find_reductions, non_reductions, relax
from polyopt.analysis.splitting import Split, plan_splits
from polyopt.budget import Crashed, OutOfTime, attempts, run_limited
from polyopt.diagnostics import IllegalTransform, Location, UnsupportedRegion, format_message
from polyopt.emit.ast_run import executes_domain_once
from polyopt.emit.blas import LINK_NOTE, library_block, library_enabled
from polyopt.emit.body import print_statement
from polyopt.emit.cast import CIf, CNode, CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import Generated, Storage, generate, print_parametric
from polyopt.emit.microkernel import MICROKERNEL_HELPERS, microkernel_block
from polyopt.emit.openmp import hoist_parallel_regions
from polyopt.emit.splice import RegionCode, splice
from polyopt.emit.storage import with_contractions, with_expansions, with_locals
from polyopt.frontend.constants import constant_probes, named_constants
from polyopt.frontend.cparse import parse_region
from polyopt.frontend.declarations import declared_types
from polyopt.frontend.extract import check_parameter_macros, extract_scop, region_identifiers
from polyopt.frontend.liveness import live_after
from polyopt.frontend.params import (
    DEFAULT_PARAMETER_VALUE,
    ParameterValue,
    Preprocessed,
    parameter_values,
    preprocess,
)
from polyopt.frontend.regions import Region, find_regions, region_dead_arrays
from polyopt.frontend.scop import Scop
from polyopt.marks import PARALLEL_MARK, SECTION, SIMD_MARK
from polyopt.model import PolyModel, build_model, iterator_values
from polyopt.options import Options
from polyopt.report import DependenceLine, RegionReport, StatementLine
from polyopt.schedule_tree import band_nodes, carries, describe_schedule, parent_mark, schedule_respects
from polyopt.transform.distribution import DistributionPlan, apply_distribution, plan_distribution
from polyopt.transform.expansion import expand
from polyopt.transform.fusion import (
    FusionPlan,
    model_costing,
    model_residency,
    plan_fusion,
    schedule_costing,
    schedule_region,
)
from polyopt.transform.inplace import hold_in_place
from polyopt.transform.library import plan_library, read_later
from polyopt.transform.parallel import ParallelPlan, apply_parallel, plan_parallel
from polyopt.transform.privatization import private_locals, privatized
from polyopt.transform.reductions import reduction_clauses
from polyopt.transform.scheduling import configure
from polyopt.transform.splitting import split
from polyopt.transform.tiling import (
    Sizer,
    TiledBand,
    TilePlan,
    apply_tiling,
    model_sizer,
    plan_tiling,
    tile_band_paths,
)
from polyopt.transform.vector import VectorPlan, apply_vector, plan_vector

Expansions = tuple[Expansion, ...]


@dataclass(frozen=True)
class Decisions:
    """Every plan made for a region, in the order they were applied."""

    fusion: FusionPlan | None
    tiles: TilePlan
    parallel: ParallelPlan
    vector: VectorPlan
    notes: tuple[str, ...]
    reductions: tuple[Reduction, ...] = ()
    non_reductions: tuple[NonReduction, ...] = ()
    expansions: Expansions = ()
    contractions: tuple[Contraction, ...] = ()
    in_place: tuple[InPlace, ...] = ()
    distribution: DistributionPlan = DistributionPlan(())


NO_DECISIONS = Decisions(None, TilePlan(()), ParallelPlan(()), VectorPlan(()), ())


@dataclass(frozen=True)
class RegionOutcome:
    """One region's result: its replacement code, or the warning that kept it unchanged."""

    region: Region
    code: RegionCode | None
    report: RegionReport | None
    warnings: tuple[str, ...]


@dataclass(frozen=True)
class FileOutcome:
    """The optimized text, each region's outcome, and the warnings about the whole file
    (a failed preprocessor run)."""

    text: str
    regions: tuple[RegionOutcome, ...]
    file_warnings: tuple[str, ...] = ()

    @property
    def warnings(self) -> tuple[str, ...]:
        return self.file_warnings + tuple(w for region in self.regions for w in region.warnings)


@dataclass(frozen=True)
class _Setting:
    """What a region's passes need beyond its options: the prefix of generated iterator names
    and the parameter values the cost models assume (``polyopt.frontend.params``)."""

    prefix: str
    parameters: Mapping[str, ParameterValue]

    def values(self) -> dict[str, int]:
        return {name: parameter.value for name, parameter in self.parameters.items()}

    def parameter(self, name: str) -> ParameterValue:
        """The value the cost models assume for ``name`` and where it came from."""
        return self.parameters.get(name) or ParameterValue(name, DEFAULT_PARAMETER_VALUE, "default")


_SAMPLE_VALUES = (3, 8, 13)  # parameter values at which the loops generated for a strided domain are run


def _iterator_prefix(text: str) -> str:
    """A prefix ``p`` such that no identifier ``p<digits>`` (or ``p<digits>_hi``, ``p<digits>_red``)
    occurs in the file."""
    for prefix in ("c", "t", "p", "polyopt_c", "polyopt_it"):
        if not re.search(rf"\b{prefix}\d+(_hi|_red)?\b", text):
            return prefix
    return "polyopt_iterator_"


def _verify(
    model: PolyModel, schedule: isl.Schedule, deps: Dependences, reductions: tuple[Reduction, ...] = ()
) -> None:
    """Re-prove the order and every parallel or simd mark against the dependences
    (relaxed for ``reductions``), and that each mark names the reductions its loop carries."""
    if not schedule_respects(schedule, deps.full):
        raise IllegalTransform("the schedule violates a dependence")
    for _, band in band_nodes(schedule):
        mark = parent_mark(band)
        if mark is None or mark.kind not in (PARALLEL_MARK, SIMD_MARK):
            continue
        if carries(band, 0, deps.full):
            raise IllegalTransform("a loop marked parallel carries a dependence")
        needed = reduction_clauses(model, band, 0, reductions, allow_sections=mark.kind == PARALLEL_MARK)
        if needed is None or set(needed) != set(mark.reductions):
            raise IllegalTransform("a parallel loop's reduction clauses do not match the reductions it carries")


def _verify_loops(model: PolyModel, schedule: isl.Schedule) -> None:
    """On a domain with strides or modulo conditions, run the loops isl generates for ``schedule`` with all the
    parameters at each of ``_SAMPLE_VALUES`` and check that they execute each statement instance once (isl's
    loops for a tiled schedule of a stride-2 domain were found to skip instances)."""
    if not isl_util.has_local_variables(schedule.get_domain()):
        return
    samples = [{name: value for name in model.scop.parameters} for value in _SAMPLE_VALUES]
    if not executes_domain_once(schedule, samples):
        raise IllegalTransform("the loops generated for the schedule do not execute each statement instance once")


def _transform(
    model: PolyModel,
    deps: Dependences,
    options: Options,
    reductions: tuple[Reduction, ...] = (),
    parameters: Mapping[str, int] | None = None,
    dead: frozenset[str] = frozenset(),
) -> tuple[isl.Schedule, Decisions]:
    """Decide each plan on the current schedule tree, then apply it.

    The scheduler sees the reduced dependences; legality checks of loops
    (parallel, vector) use all of them.  Both are relaxed for ``reductions``.
    The cost models assume ``parameters`` (``DEFAULT_PARAMETER_VALUE`` for any other);
    ``dead`` arrays may be contracted, so no loop distribution separates their writes from their reads.
    """
    parameters = {name: DEFAULT_PARAMETER_VALUE for name in model.scop.parameters} | dict(parameters or {})
    costing = schedule_costing(model, deps, options.machine, parameters)
    residency = model_residency(model, options.machine, parameters)

    def vectorizes(schedule: isl.Schedule) -> bool:
        *_, vector = _loops(model, deps, options, schedule, None, reductions, dead)
        return bool(vector.loops) and all(loop.simd for loop in vector.loops)

    grouping = model_costing(model, deps, options.scheduler, costing, residency, vectorizes)
    fusion = plan_fusion(model, deps.reduced, options.fusion, options.scheduler, grouping)
    schedule, notes = schedule_region(model, deps, fusion, options.scheduler, costing, residency, vectorizes)
    sizer = model_sizer(model, deps.full, deps.union((FLOW,)), reductions, options.machine, parameters)
    schedule, tiles, parallel, distribution, vector = _loops(model, deps, options, schedule, sizer, reductions, dead)
    schedule = apply_vector(schedule, vector)
    return schedule, Decisions(fusion, tiles, parallel, vector, notes, reductions, distribution=distribution)


def _loops(
    model: PolyModel,
    deps: Dependences,
    options: Options,
    schedule: isl.Schedule,
    sizer: Sizer | None,
    reductions: tuple[Reduction, ...],
    dead: frozenset[str],
) -> tuple[isl.Schedule, TilePlan, ParallelPlan, DistributionPlan, VectorPlan]:
    """Tile (``sizer``: the tile-size model, else fixed sizes), mark parallel loops and distribute
    innermost loops on ``schedule``; plan its vector loops, not yet applied."""
    tiles = plan_tiling(schedule, options.tiling, deps.full, sizer)
    schedule = apply_tiling(schedule, tiles)
    parallel = ParallelPlan(())
    if options.parallel:
        parallel = plan_parallel(schedule, deps.full, tile_band_paths(tiles), model, reductions)
        schedule = apply_parallel(schedule, parallel)
    distribution = plan_distribution(model, schedule, deps.full, reductions, dead)
    schedule = apply_distribution(schedule, distribution, model)
    return schedule, tiles, parallel, distribution, plan_vector(model, schedule, deps.full, reductions)


def _extents(model: PolyModel) -> dict[str, tuple[isl.PwAff, ...]]:
    """Per statement, the extent of each loop dimension of its domain's box (any value where it is empty)."""
    extents: dict[str, tuple[isl.PwAff, ...]] = {}
    for name, domain in model.domains.items():
        count = domain.dim(isl.dim_type.set)
        extents[name] = tuple(isl_util.extended(isl_util.extent(domain, d)) for d in range(count))
    return extents


def _sections(model: PolyModel, schedule: isl.Schedule) -> dict[str, tuple[isl.PwAff, isl.PwAff]]:
    """The bounds of each array that a marked loop reduces as a section."""
    marks = [mark for _, band in band_nodes(schedule) if (mark := parent_mark(band)) is not None]
    arrays = {clause.array for mark in marks for clause in mark.reductions if clause.mode == SECTION}
    return {array: model.section(array) for array in sorted(arrays)}


def _report(
    region: Region,
    model: PolyModel,
    deps: Dependences,
    schedule: isl.Schedule,
    decisions: Decisions,
    setting: _Setting,
) -> RegionReport:
    scop = model.scop
    statements = tuple(
        StatementLine(s.name, s.location, model.domains[s.name].to_str(), print_statement(s.body, {}))
        for s in scop.statements
    )
    dependences = tuple(
        DependenceLine(d.kind, scop.members.get(d.array, d.array), d.source, d.sink, carrying_loops(model, d))
        for d in deps.items
    )
    return RegionReport(
        index=region.index,
        location=scop.location,
        parameters=tuple(setting.parameter(name) for name in scop.parameters),
        statements=statements,
        dependences=dependences,
        fusion=decisions.fusion.describe() if decisions.fusion else "none (original order)",
        schedule=tuple(describe_schedule(schedule)),
        tiles=tuple(_describe_tiles(t) for t in decisions.tiles.bands)
        + tuple(band.describe() for band in decisions.tiles.untiled),
        parallel=tuple(loop.describe() for loop in decisions.parallel.loops),
        vector=tuple(d.describe() for d in decisions.distribution.distributions)
        + tuple(loop.describe() for loop in decisions.vector.loops),
        notes=decisions.notes,
        reductions=tuple(reduction.describe() for reduction in decisions.reductions),
        non_reductions=tuple(update.describe() for update in decisions.non_reductions),
        expansions=tuple(expansion.describe() for expansion in decisions.expansions),
        in_place=tuple(place.describe() for place in decisions.in_place),
        contractions=tuple(contraction.describe() for contraction in decisions.contractions),
        fusion_candidates=decisions.fusion.candidates if decisions.fusion else (),
    )


def _describe_tiles(tiled: TiledBand) -> str:
    text = f"band at {list(tiled.path)}: sizes {list(tiled.sizes)} ({tiled.reason})"
    if tiled.outer_sizes:
        text += f", L2 tiles of {list(tiled.outer_sizes)} tiles"
    return text


def _summary(options: Options, decisions: Decisions) -> str:
    if options.identity:
        return "original order (identity)"
    parts = [f"fusion {decisions.fusion.policy}" if decisions.fusion else "original order"]
    if decisions.tiles.bands:
        parts.append("tiles " + "; ".join("x".join(map(str, t.sizes)) for t in decisions.tiles.bands))
    if decisions.in_place:
        parts.append("kept " + ", ".join(dict.fromkeys(f"{p.scalar} in {p.text}" for p in decisions.in_place)))
    if decisions.expansions:
        parts.append("expanded " + ", ".join(e.scalar for e in decisions.expansions))
    if decisions.contractions:
        parts.append("contracted " + ", ".join(c.array for c in decisions.contractions))
    if decisions.parallel.loops:
        parts.append(f"{len(decisions.parallel.loops)} parallel loop(s)")
    simd = sum(1 for loop in decisions.vector.loops if loop.simd)
    if simd:
        parts.append(f"{simd} simd loop(s)")
    return ", ".join(parts)


def _region_body(region: Region, text: str) -> c_ast.Compound | RegionOutcome:
    """The region parsed, or the outcome that keeps it as written."""
    try:
        return parse_region(region, text)
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))


def _region_scop(region: Region, text: str, body: c_ast.Compound, constants: Mapping[str, int]) -> Scop | RegionOutcome:
    """The region's model input, or the outcome that keeps it as written (outside the model)."""
    try:
        scop = extract_scop(body, region.location, declared_types(text, region), text, constants)
        check_parameter_macros(scop, text)
        variables = sorted({loop.variable for loop in scop.exits})
        live = live_after(region, text, set(variables))
        return replace(
            scop,
            exits=tuple(loop for loop in scop.exits if loop.variable in live),
            unused_iterators=tuple(variable for variable in variables if variable not in live),
        )
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))


def _optimize_region(
    region: Region, scop: Scop, options: Options, prefix: str, values: Mapping[str, ParameterValue]
) -> RegionOutcome:
    try:
        setting = _Setting(prefix, {name: values[name] for name in scop.parameters})
        return _within_budget(region, scop, options, setting)
    except ProbeNeeded:
        raise
    except Exception as error:  # a bug in a pass must not cost the user their build
        reason = f"internal error ({type(error).__name__}: {error}); please report it"
        return RegionOutcome(region, None, None, (UnsupportedRegion(reason, region.location).warning(),))


def _within_budget(region: Region, scop: Scop, options: Options, setting: _Setting) -> RegionOutcome:
    """The region optimized by the first of ``attempts(options)`` that ends within ``options.timeout``
    without crashing; the warning says what stopped the first attempt."""
    troubles: list[str] = []
    reason = ""
    for attempt in attempts(options):
        try:
            outcome = run_limited(partial(_optimize_scop, region, scop, attempt.options, setting), options.timeout)
        except OutOfTime:
            troubles.append(f"region took longer than {options.timeout:g} s")
            reason = f"took longer than {options.timeout:g} s, even in its original order"
            continue
        except Crashed as crash:
            troubles.append(f"{crash} (please report it)")
            reason = f"internal error ({crash}); please report it"
            continue
        if not attempt.fallback:
            return outcome
        message = format_message(region.location, "warning", f"{troubles[0]}; {attempt.fallback}")
        return replace(outcome, warnings=(message, *outcome.warnings))
    return RegionOutcome(region, None, None, (UnsupportedRegion(reason, region.location).warning(),))


def _in_place(
    model: PolyModel, deps: Dependences, options: Options
) -> tuple[PolyModel, Dependences, tuple[InPlace, ...], tuple[str, ...]]:
    """The region with scalars kept in the elements they are stored to (``polyopt.analysis.inplace``),
    modelled again, and why ranges were declined."""
    if options.identity or not options.expand:
        return model, deps, (), ()
    places, declined = plan_in_place(model, deps)
    if not places:
        return model, deps, (), declined
    held = build_model(hold_in_place(model.scop, places), model.ctx)
    return held, compute_dependences(held), places, declined


def _expanded(model: PolyModel, deps: Dependences, options: Options) -> tuple[PolyModel, Dependences, Expansions]:
    """The region with its scalars expanded (``polyopt.analysis.expansion``), modelled again."""
    if options.identity or not options.expand:
        return model, deps, ()
    expansions = plan_expansions(model, deps, model.scop.identifiers)
    if not expansions:
        return model, deps, ()
    expanded = build_model(expand(model.scop, expansions), model.ctx)
    return expanded, compute_dependences(expanded), expansions


def _split(model: PolyModel, deps: Dependences, options: Options) -> tuple[PolyModel, Dependences, tuple[Split, ...]]:
    """The region with statements split where a loop carries dependences only through one hyperplane
    (``polyopt.analysis.splitting``), modelled again."""
    if options.identity:
        return model, deps, ()
    splits = plan_splits(model, deps)
    if not splits:
        return model, deps, ()
    pieces = build_model(split(model.scop, splits), model.ctx)
    return pieces, compute_dependences(pieces), splits


@dataclass(frozen=True)
class _Part:
    """The code, report, warnings and one-line summary of a region or of one segment of it."""

    generated: Generated
    report: RegionReport
    warnings: tuple[str, ...]
    summary: str
    decisions: Decisions = NO_DECISIONS


def _optimize_scop(region: Region, scop: Scop, options: Options, setting: _Setting) -> RegionOutcome:
    scop, dropped = _executed(scop, _context(options))
    part, left = _library_part(region, scop, options, setting) if scop.statements else (_nothing(region, setting), ())
    if part is None:
        part = _private_part(region, scop, options, setting, _dead_arrays(region, options))
        part = replace(part, report=replace(part.report, library=left)) if left else part
    finals, assigned = _final_values(scop, setting)
    report = replace(part.report, notes=(*dropped, *part.report.notes, *assigned))
    contracted = frozenset(contraction.array for contraction in part.decisions.contractions)
    code = with_locals(part.generated.code, scop, contracted)
    printed = print_c(code + finals.code, region.indent)
    helpers = part.generated.helpers | finals.helpers
    return RegionOutcome(region, RegionCode(region, printed, helpers, part.summary), report, part.warnings)


def _executed(scop: Scop, ctx: isl.Context) -> tuple[Scop, tuple[str, ...]]:
    """``scop`` without the statements that never execute (their domains are empty for every value of
    the parameters), and a note for each."""
    domains = build_model(scop, ctx).domains
    empty = [statement for statement in scop.statements if domains[statement.name].is_empty()]
    if not empty:
        return scop, ()
    notes = tuple(f"{s.name} (line {s.location.line}) never executes (its domain is empty): left out" for s in empty)
    return scop.restricted(frozenset(domains) - {statement.name for statement in empty}), notes


def _nothing(region: Region, setting: _Setting) -> _Part:
    """The part of a region none of whose statements ever executes: no code."""
    report = RegionReport(
        index=region.index,
        location=region.location,
        parameters=tuple(setting.parameter(name) for name in setting.parameters),
        statements=(),
        dependences=(),
        fusion="none (no statement executes)",
        schedule=(),
        tiles=(),
        parallel=(),
        vector=(),
    )
    return _Part(Generated((), frozenset()), report, (), "no statement ever executes")


def _final_values(scop: Scop, setting: _Setting) -> tuple[Generated, tuple[str, ...]]:
    """Code that gives each variable of ``scop.exits`` the value the region's loops leave in it (the generated
    loops have iterators of their own), where one of its loops starts; and a report note for each.  An iterator
    that nothing reads after the region is cast to void, so that ``-Wall -Werror`` builds do not stop on a
    variable the generated code no longer uses."""
    code: list[CNode] = [CStmt(f"(void){variable};") for variable in scop.unused_iterators]
    notes: list[str] = []
    helpers: frozenset[str] = frozenset()
    for variable, value in iterator_values(scop).items():
        where = value.domain()
        always = where.is_equal(isl.Set.universe(where.get_space()))
        (text,), condition, used = print_parametric(scop, setting.prefix, [value], None if always else where)
        assignment = CStmt(f"{variable} = {text};")
        code.append(CIf(condition, (assignment,)) if condition else assignment)
        notes.append(f"after the region, {variable} = {text}" + (f" when {condition}" if condition else ""))
        helpers |= used
    return Generated(tuple(code), helpers), tuple(notes)


def _part(
    region: Region, scop: Scop, ctx: isl.Context, options: Options, setting: _Setting, dead: frozenset[str]
) -> _Part:
    """``scop`` scheduled, verified and generated (the whole pipeline without library calls); ``dead``:
    the arrays whose values after it do not matter."""
    original = build_model(scop, ctx)
    original_deps = compute_dependences(original)
    model, deps, places, declined = _in_place(original, original_deps, options)
    model, deps, expansions = _expanded(model, deps, options)
    model, deps, splits = _split(model, deps, options)
    schedule, decisions = model.schedule, NO_DECISIONS
    reassociating = options.reassociate and not options.identity
    reductions = find_reductions(model) if reassociating else ()
    relaxed = relax(model, deps, reductions)
    if not options.identity:
        schedule, decisions = _transform(model, relaxed, options, reductions, setting.values(), dead)
        notes = (*declined, *(plan.describe() for plan in splits), *decisions.notes)
        decisions = replace(decisions, expansions=expansions, in_place=places, notes=notes)
    warnings: tuple[str, ...] = ()
    try:
        _verify(model, schedule, relaxed, reductions)
        try:
            _verify_loops(model, schedule)
        except IllegalTransform as skipping:
            if not decisions.tiles.bands:
                raise
            untiled = replace(options, tiling=replace(options.tiling, enabled=False))
            schedule, decisions = _transform(model, relaxed, untiled, reductions, setting.values(), dead)
            notes = (*declined, f"tiled schedule rejected ({skipping.message}): not tiled", *decisions.notes)
            decisions = replace(decisions, expansions=expansions, in_place=places, notes=notes)
            _verify(model, schedule, relaxed, reductions)
            _verify_loops(model, schedule)
    except IllegalTransform as illegal:
        message = f"{illegal.message}; falling back to the original schedule"
        warnings = (format_message(region.location, "warning", message),)
        model, deps, expansions, reductions = original, original_deps, (), ()
        schedule, decisions = model.schedule, replace(NO_DECISIONS, notes=(message,))
    contractions = () if options.identity else plan_contractions(model, deps, schedule, dead, reductions)
    decisions = replace(
        decisions, contractions=contractions, non_reductions=non_reductions(model) if reassociating else ()
    )
    scalars = {contraction.array: contraction.name for contraction in contractions}
    machine = options.machine
    storage = Storage(
        reductions, _sections(model, schedule), scalars, _extents(model), machine.parallel_work, machine.section_limit
    )
    generated = generate(schedule, model.scop, setting.prefix, storage)
    generated = replace(generated, code=hoist_parallel_regions(generated.code))
    if contractions:
        generated = with_contractions(contractions, generated, model.scop)
    if expansions:
        generated = with_expansions(
            expansions, generated, generate(original.schedule, scop, setting.prefix), scop, setting.prefix
        )
    report = _report(region, model, deps, schedule, decisions, setting)
    return _Part(generated, report, warnings, _summary(options, decisions), decisions)


def _private_part(region: Region, scop: Scop, options: Options, setting: _Setting, dead: frozenset[str]) -> _Part:
    """``_part`` with the scalars declared inside the region's loops private to their iterations
    (``polyopt.transform.privatization``) when each becomes a scalar again (``polyopt.analysis.contraction``)
    and no scalar is expanded; else with them as scalars of the whole region.  An accumulator (updated by
    a reduction) stays a scalar of the region: contraction leaves reduced arrays alone."""
    private = frozenset(local.name for local in private_locals(scop)) if not options.identity else frozenset()
    if private:
        model = build_model(privatized(scop, private), _context(options))
        private -= {reduction.array for reduction in find_reductions(model)}
    if private:
        part = _part(region, privatized(scop, private), _context(options), options, setting, dead | private)
        contracted = {contraction.array for contraction in part.decisions.contractions}
        if private <= contracted and not part.decisions.expansions:
            return part
    return _part(region, scop, _context(options), options, setting, dead)


def _dead_arrays(region: Region, options: Options) -> frozenset[str]:
    """The arrays whose values after the region do not matter (``--assume-dead`` and the region's pragmas)."""
    return options.assume_dead | region_dead_arrays(region)


def _context(options: Options) -> isl.Context:
    """A fresh isl context for one region (or segment), configured for the scheduler."""
    ctx = isl.Context()
    configure(ctx, options.scheduler, options.machine)
    return ctx


@dataclass(frozen=True)
class _Library:
    """How the idiom segments run: CBLAS calls when ``blas``, from the work that ``choice`` says, else or
    below it the ``microkernel`` for GEMM idioms (None: the loops)."""

    blas: bool
    choice: LibraryChoice
    microkernel: MicrokernelPlan | None

    @staticmethod
    def of(options: Options) -> _Library | None:
        """What ``options`` ask for; None when no segment is cut out (no reordering, or nothing to call)."""
        if options.identity or not options.reassociate:
            return None
        blas = library_enabled(options.blas, options.cpp_flags)
        choice = options.library or default_choice(options.machine)
        microkernel = plan_microkernel(options.machine) if options.microkernel and choice.microkernel else None
        if not blas and microkernel is None:
            return None
        return _Library(blas, choice, microkernel)

    def cut(self, idioms: tuple[Idiom, ...]) -> tuple[Idiom, ...]:
        """The idioms this library computes: all with BLAS, else the GEMM ones for the microkernel.
        Raises ``ProbeNeeded`` when there are some and the choice waits for the probe."""
        cut = idioms if self.blas else tuple(idiom for idiom in idioms if isinstance(idiom, Gemm))
        if cut and self.blas and self.choice == AWAITING_PROBE:
            raise ProbeNeeded
        return cut

    def call_from(self, idiom: Idiom) -> int | None:
        """The work from which ``idiom`` is called (None: never)."""
        return self.choice.threshold(idiom) if self.blas else None

    def cut_from(self, idiom: Idiom) -> int | None:
        """The work from which ``idiom`` is cut out (None: never): always for the microkernel when the
        idiom is never called, else from its call's threshold."""
        called = self.call_from(idiom)
        if self.microkernel is not None and isinstance(idiom, Gemm) and called is None:
            return 0
        return called


def _library_part(
    region: Region, scop: Scop, options: Options, setting: _Setting
) -> tuple[_Part | None, tuple[str, ...]]:
    """The region cut around its BLAS idioms, each run by CBLAS calls when they pay
    (``polyopt.transform.library``) or by the GEMM microkernel (``polyopt.analysis.microkernel``),
    or None when none is cut out or the cut is not legal; and the report lines of the idioms left to the loops."""
    library = _Library.of(options)
    if library is None:
        return None, ()
    model = build_model(scop, _context(options))
    idioms = tuple(idiom for idiom in library.cut(find_idioms(model)) if not _uses_members(scop, idiom))
    if not idioms:
        return None, ()
    exact = compute_dependences(model)
    deps = relax(model, exact, find_reductions(model))
    plan = plan_library(model, deps, idioms, values=setting.values(), threshold=library.cut_from)
    if plan is None:
        return None, ()
    left = tuple(
        _left(idiom, _sizes(idiom, scop, setting)[0], library.call_from(idiom), work) for idiom, work in plan.left
    )
    if not plan.segments:
        return None, left
    inner = replace(options, blas="none")
    dead = _dead_arrays(region, options)
    parts: list[_Part] = []
    lines: list[str] = []
    for index, (segment, read) in enumerate(zip(plan.segments, read_later(exact, plan.segments), strict=True)):
        if live := sorted(dead & read):
            lines.append(f"segment {index + 1}: {', '.join(live)} read by a later segment, so not dead after it")
        part = _part(region, scop.restricted(segment.statements), _context(options), inner, setting, dead - read)
        if segment.idiom is not None:
            tail = _tail(segment.idiom, model, dead - read, setting)
            part, described = _library_segment(segment.idiom, part, tail, scop, library, options, setting)
            lines.extend(described)
        parts.append(part)
    code = tuple(node for part in parts for node in part.generated.code)
    helpers = frozenset().union(*(part.generated.helpers for part in parts))
    idioms_called = [segment.idiom for segment in plan.segments if segment.idiom is not None]
    notes = (LINK_NOTE,) if any(library.call_from(idiom) is not None for idiom in idioms_called) else ()
    report = replace(_merged_reports([part.report for part in parts]), library=(*lines, *left, *notes))
    summary = "; ".join(f"segment {index + 1}: {part.summary}" for index, part in enumerate(parts))
    warnings = tuple(warning for part in parts for warning in part.warnings)
    kind = "library calls" if library.blas else "microkernel"
    return _Part(Generated(code, helpers), report, warnings, f"{kind} ({summary})"), ()


def _left(idiom: Idiom, sizes: list[str], threshold: int | None, work: int | None) -> str:
    """The report line of an idiom left to the loops: its work at the assumed values is below
    ``threshold``, or it is never called."""
    if threshold is None:
        statements = ", ".join(idiom.statements)
        return f"{statements}: cblas_?{idiom.ROUTINE} {idiom.formula()} never called; left to the loops"
    return idiom.describe(sizes, threshold, work)


def _uses_members(scop: Scop, idiom: Idiom) -> bool:
    """Whether the statements of ``idiom`` access a structure member (a call would name the array)."""
    accesses = (a for name in idiom.statements for a in scop.statement(name).reads + scop.statement(name).writes)
    return any(access.array in scop.members for access in accesses)


def _sizes(idiom: Idiom, scop: Scop, setting: _Setting) -> tuple[list[str], frozenset[str]]:
    """The sizes of ``idiom`` printed as C, and the helpers they call."""
    sizes, _, helpers = print_parametric(scop, setting.prefix, [isl_util.extended(size) for size in idiom.sizes])
    return sizes, helpers


def _tail(idiom: Idiom, model: PolyModel, dead: frozenset[str], setting: _Setting) -> Generated:
    """The code of ``idiom.tail`` in the original order, none when there is no tail or its array is dead."""
    if idiom.tail is None or idiom.tail.array in dead:
        return Generated((), frozenset())
    return generate(model.schedule.intersect_domain(idiom.tail.instances), model.scop, setting.prefix)


def _library_segment(
    idiom: Idiom, part: _Part, tail: Generated, scop: Scop, library: _Library, options: Options, setting: _Setting
) -> tuple[_Part, list[str]]:
    """``part`` (one idiom's segment) run by the microkernel (a GEMM) and by CBLAS after ``tail`` when it
    pays, and the report lines of both."""
    sizes, helpers = _sizes(idiom, scop, setting)
    code, used, lines = part.generated.code, part.generated.helpers | helpers, []
    if library.microkernel is not None and isinstance(idiom, Gemm):
        parallel_work = options.machine.parallel_work if options.parallel else None
        kernel = microkernel_block(
            idiom, sizes, library.microkernel, code, cores=options.machine.cores, parallel_work=parallel_work
        )
        code, used = (kernel,), used | MICROKERNEL_HELPERS
        lines.append(f"{', '.join(idiom.statements)}: microkernel {library.microkernel.describe()}")
    threshold = library.call_from(idiom)
    if threshold is not None:
        block, called = library_block(idiom, sizes, code, threshold, tail.code)
        code, used = (block,), used | tail.helpers | called
        lines.append(idiom.describe(sizes, threshold))
    return replace(part, generated=Generated(code, frozenset(used))), lines


def _merged_reports(reports: list[RegionReport]) -> RegionReport:
    """One report for the segments of a region: the region's statements and each segment's decisions."""
    first = reports[0]
    joined = {
        field: tuple(item for report in reports for item in getattr(report, field))
        for field in (
            "statements",
            "dependences",
            "schedule",
            "tiles",
            "parallel",
            "vector",
            "notes",
            "reductions",
            "expansions",
            "in_place",
            "contractions",
            "fusion_candidates",
        )
    }
    fusion = " | ".join(report.fusion for report in reports)
    return replace(first, fusion=fusion, **joined)


def optimize_text(
    text: str, filename: str, options: Options, probe: Callable[[], LibraryChoice] | None = None
) -> FileOutcome:
    """Optimize every region of ``text``; raise ``InputError`` on invalid input.  When ``options.library``
    waits for the probe, the first region with a BLAS idiom runs ``probe`` here (outside the regions'
    time budget) for the choice of that region and the next ones (without ``probe``: the machine's)."""
    options.validate()
    regions = find_regions(text, filename)
    if regions:
        library_enabled(options.blas, options.cpp_flags)  # decided once here, not in each region's child process
    prefix = _iterator_prefix(text)
    bodies = [_region_body(region, text) for region in regions]
    identifiers = [region_identifiers(body) if isinstance(body, c_ast.Compound) else frozenset() for body in bodies]
    probes = constant_probes(text, sorted(frozenset().union(*identifiers)))
    preprocessed = preprocess(text, filename, probes, options.cpp_flags) if probes else Preprocessed({}, {})
    scops = [
        _region_scop(region, text, body, named_constants(text, region, names, preprocessed))
        if isinstance(body, c_ast.Compound)
        else body
        for region, body, names in zip(regions, bodies, identifiers, strict=True)
    ]
    names = [name for scop in scops if isinstance(scop, Scop) for name in scop.parameters]
    values, failure = parameter_values(text, filename, names, dict(options.params), options.cpp_flags, preprocessed)
    outcomes: list[RegionOutcome] = []
    for region, scop in zip(regions, scops, strict=True):
        if not isinstance(scop, Scop):
            outcomes.append(scop)
            continue
        try:
            outcomes.append(_optimize_region(region, scop, options, prefix, values))
        except ProbeNeeded:
            options = replace(options, library=probe() if probe is not None else None)
            outcomes.append(_optimize_region(region, scop, options, prefix, values))
    replacements = [outcome.code for outcome in outcomes if outcome.code is not None]
    newline = "\r\n" if "\r\n" in text else "\n"
    notice = () if failure is None else (_preprocessor_warning(filename, failure, options.cpp_flags),)
    return FileOutcome(splice(text, replacements, newline), tuple(outcomes), notice)


def _preprocessor_warning(filename: str, failure: str, cpp_flags: tuple[str, ...]) -> str:
    """The one warning for a preprocessor run that gave no parameter values."""
    flags = f" with {' '.join(cpp_flags)}" if cpp_flags else ""
    message = (
        f"the preprocessor failed{flags} ({failure}); the cost models assume {DEFAULT_PARAMETER_VALUE} "
        "for the parameters: give the compiler's -I and -D flags, or --param NAME=VALUE"
    )
    return format_message(Location(filename), "warning", message)
