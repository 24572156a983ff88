"""The driver: parse -> model -> analyze -> decide/transform -> emit, per region.

Public: ``Decisions``, ``RegionOutcome``, ``FileOutcome``, ``optimize_text``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from functools import partial

import islpy as isl

from polyopt.analysis.dependences import Dependences, carrying_loops, compute_dependences
from polyopt.budget import OutOfTime, attempts, run_limited
from polyopt.diagnostics import IllegalTransform, UnsupportedRegion, format_message
from polyopt.emit.body import print_statement
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import generate
from polyopt.emit.openmp import hoist_parallel_regions
from polyopt.emit.splice import RegionCode, splice
from polyopt.frontend.cparse import parse_region
from polyopt.frontend.extract import extract_scop
from polyopt.frontend.regions import Region, find_regions
from polyopt.frontend.scop import Scop
from polyopt.marks import PARALLEL_MARK, SIMD_MARK
from polyopt.model import PolyModel, build_model
from polyopt.options import Options
from polyopt.report import DependenceLine, RegionReport, StatementLine
from polyopt.schedule_tree import band_nodes, carries, describe_schedule, mark_parent, schedule_respects
from polyopt.transform.fusion import FusionPlan, plan_fusion, schedule_region
from polyopt.transform.parallel import ParallelPlan, apply_parallel, plan_parallel
from polyopt.transform.scheduling import configure
from polyopt.transform.tiling import TiledBand, TilePlan, apply_tiling, plan_tiling, tile_band_paths
from polyopt.transform.vector import VectorPlan, apply_vector, plan_vector


@dataclass(frozen=True)
class Decisions:
    """Every plan made for a region, in the order they were applied."""

    fusion: FusionPlan | None
    tiles: TilePlan
    parallel: ParallelPlan
    vector: VectorPlan
    notes: tuple[str, ...]


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
    text: str
    regions: tuple[RegionOutcome, ...]

    @property
    def warnings(self) -> tuple[str, ...]:
        return tuple(w for region in self.regions for w in region.warnings)


def _iterator_prefix(text: str) -> str:
    """A prefix ``p`` such that no identifier ``p<digits>`` (or ``p<digits>_hi``) occurs in the file."""
    for prefix in ("c", "t", "p", "polyopt_c", "polyopt_it"):
        if not re.search(rf"\b{prefix}\d+(_hi)?\b", text):
            return prefix
    return "polyopt_iterator_"


def _verify(schedule: isl.Schedule, dependences: isl.UnionMap) -> None:
    """Re-prove the order and every parallel or simd mark against the dependences."""
    if not schedule_respects(schedule, dependences):
        raise IllegalTransform("the schedule violates a dependence")
    for _, band in band_nodes(schedule):
        if mark_parent(band) in (PARALLEL_MARK, SIMD_MARK) and carries(band, 0, dependences):
            raise IllegalTransform("a loop marked parallel carries a dependence")


def _transform(model: PolyModel, deps: Dependences, options: Options) -> tuple[isl.Schedule, Decisions]:
    """Decide each plan on the current schedule tree, then apply it.

    The scheduler sees the reduced dependences; legality checks of loops
    (parallel, vector) use all of them.
    """
    fusion = plan_fusion(model, deps.reduced, options.fusion, options.scheduler)
    schedule, notes = schedule_region(model, deps, fusion, options.scheduler)
    tiles = plan_tiling(schedule, options.tiling, deps.full)
    schedule = apply_tiling(schedule, tiles)
    parallel = ParallelPlan(())
    if options.parallel:
        parallel = plan_parallel(schedule, deps.full, tile_band_paths(tiles))
        schedule = apply_parallel(schedule, parallel)
    vector = plan_vector(model, schedule, deps.full)
    schedule = apply_vector(schedule, vector)
    return schedule, Decisions(fusion, tiles, parallel, vector, notes)


def _report(
    region: Region, model: PolyModel, deps: Dependences, schedule: isl.Schedule, decisions: Decisions
) -> RegionReport:
    scop = model.scop
    statements = tuple(
        StatementLine(s.name, s.location, model.domains[s.name].to_str(), print_statement(s.body, {}))
        for s in scop.statements
    )
    dependences = tuple(DependenceLine(d.kind, d.array, d.source, d.sink, carrying_loops(model, d)) for d in deps.items)
    return RegionReport(
        index=region.index,
        location=scop.location,
        parameters=scop.parameters,
        statements=statements,
        dependences=dependences,
        fusion=decisions.fusion.describe() if decisions.fusion else "none (original order)",
        schedule=tuple(describe_schedule(schedule)),
        tiles=tuple(_describe_tiles(t) for t in decisions.tiles.bands),
        parallel=tuple(loop.describe() for loop in decisions.parallel.loops),
        vector=tuple(loop.describe() for loop in decisions.vector.loops),
        notes=decisions.notes,
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
    if decisions.parallel.loops:
        parts.append(f"{len(decisions.parallel.loops)} parallel loop(s)")
    simd = sum(1 for loop in decisions.vector.loops if loop.simd)
    if simd:
        parts.append(f"{simd} simd loop(s)")
    return ", ".join(parts)


def _optimize_region(region: Region, text: str, options: Options, prefix: str) -> RegionOutcome:
    try:
        scop = extract_scop(parse_region(region, text), region.location)
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))
    try:
        return _within_budget(region, scop, options, prefix)
    except Exception as error:  # a bug in a pass must not cost the user their build
        reason = f"internal error ({type(error).__name__}: {error}); please report it"
        return RegionOutcome(region, None, None, (UnsupportedRegion(reason, region.location).warning(),))


def _within_budget(region: Region, scop: Scop, options: Options, prefix: str) -> RegionOutcome:
    """The region optimized by the first of ``attempts(options)`` that ends within ``options.timeout``."""
    for attempt in attempts(options):
        try:
            outcome = run_limited(partial(_optimize_scop, region, scop, attempt.options, prefix), options.timeout)
        except OutOfTime:
            continue
        if not attempt.fallback:
            return outcome
        message = format_message(region.location, "warning", f"region took longer than {options.timeout:g} s; ")
        return replace(outcome, warnings=(message + attempt.fallback, *outcome.warnings))
    reason = f"took longer than {options.timeout:g} s, even in its original order"
    return RegionOutcome(region, None, None, (UnsupportedRegion(reason, region.location).warning(),))


def _optimize_scop(region: Region, scop: Scop, options: Options, prefix: str) -> RegionOutcome:
    ctx = isl.Context()
    configure(ctx, options.scheduler)
    model = build_model(scop, ctx)
    deps = compute_dependences(model)
    schedule, decisions = model.schedule, NO_DECISIONS
    if not options.identity:
        schedule, decisions = _transform(model, deps, options)
    warnings: tuple[str, ...] = ()
    try:
        _verify(schedule, deps.full)
    except IllegalTransform as illegal:
        message = f"{illegal.message}; falling back to the original schedule"
        warnings = (format_message(region.location, "warning", message),)
        schedule, decisions = model.schedule, replace(NO_DECISIONS, notes=(message,))
    generated = generate(schedule, scop, prefix)
    report = _report(region, model, deps, schedule, decisions)
    loops = hoist_parallel_regions(generated.code)
    code = RegionCode(region, print_c(loops, region.indent), generated.helpers, _summary(options, decisions))
    return RegionOutcome(region, code, report, warnings)


def optimize_text(text: str, filename: str, options: Options) -> FileOutcome:
    """Optimize every region of ``text``; raise ``InputError`` on invalid input."""
    options.validate()
    regions = find_regions(text, filename)
    prefix = _iterator_prefix(text)
    outcomes = tuple(_optimize_region(region, text, options, prefix) for region in regions)
    replacements = [outcome.code for outcome in outcomes if outcome.code is not None]
    newline = "\r\n" if "\r\n" in text else "\n"
    return FileOutcome(splice(text, replacements, newline), outcomes)
