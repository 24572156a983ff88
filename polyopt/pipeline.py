"""The driver: parse -> model -> analyze -> decide -> transform -> emit, per region.

Public: ``RegionOutcome``, ``FileOutcome``, ``optimize_text``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.dependences import Dependences, carrying_loops, compute_dependences
from polyopt.diagnostics import IllegalTransform, UnsupportedRegion, format_message
from polyopt.emit.body import print_statement
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import PARALLEL_MARK, generate
from polyopt.emit.splice import RegionCode, splice
from polyopt.frontend.cparse import parse_region
from polyopt.frontend.extract import extract_scop
from polyopt.frontend.regions import Region, find_regions
from polyopt.model import PolyModel, build_model
from polyopt.options import Options
from polyopt.report import DependenceLine, RegionReport, StatementLine
from polyopt.schedule_tree import band_nodes, carries, schedule_respects
from polyopt.transform.parallel import ParallelPlan, apply_parallel, plan_parallel


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
    """A prefix ``p`` such that no identifier ``p<digits>`` occurs in the file."""
    for prefix in ("c", "t", "p", "polyopt_c", "polyopt_it"):
        if not re.search(rf"\b{prefix}\d+\b", text):
            return prefix
    return "polyopt_iterator_"


def _verify(schedule: isl.Schedule, dependences: isl.UnionMap) -> None:
    """Re-prove the order and every parallel mark against the dependences."""
    if not schedule_respects(schedule, dependences):
        raise IllegalTransform("the schedule violates a dependence")
    for _, band in band_nodes(schedule):
        parent = band.parent()
        if parent.get_type() == isl.schedule_node_type.mark and parent.mark_get_id().get_name() == PARALLEL_MARK:
            if carries(band, 0, dependences):
                raise IllegalTransform("a loop marked parallel carries a dependence")


def _report(
    index: int, model: PolyModel, deps: Dependences, schedule_text: str, plan: ParallelPlan, notes: tuple[str, ...]
) -> RegionReport:
    scop = model.scop
    statements = tuple(
        StatementLine(s.name, s.location, model.domains[s.name].to_str(), print_statement(s.body, {}))
        for s in scop.statements
    )
    dependences = tuple(DependenceLine(d.kind, d.array, d.source, d.sink, carrying_loops(model, d)) for d in deps.items)
    return RegionReport(
        index=index,
        location=scop.location,
        parameters=scop.parameters,
        statements=statements,
        dependences=dependences,
        schedule=schedule_text,
        parallel=tuple(loop.describe() for loop in plan.loops),
        notes=notes,
    )


def _optimize_region(region: Region, text: str, options: Options, prefix: str) -> RegionOutcome:
    body = parse_region(region, text)
    try:
        scop = extract_scop(body, region.location)
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))
    model = build_model(scop)
    deps = compute_dependences(model)
    all_deps = deps.union()
    plan = ParallelPlan(())
    if not options.identity and options.transform.parallel:
        plan = plan_parallel(model.schedule, all_deps)
    schedule = apply_parallel(model.schedule, plan)
    warnings: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    try:
        _verify(schedule, all_deps)
    except IllegalTransform as illegal:
        message = f"{illegal.message}; falling back to the original schedule"
        warnings = (format_message(region.location, "warning", message),)
        notes = (message,)
        plan, schedule = ParallelPlan(()), model.schedule
    generated = generate(schedule, scop, prefix)
    schedule_text = "original order (identity)" if options.identity else "original order"
    report = _report(region.index, model, deps, schedule_text, plan, notes)
    summary = schedule_text
    if plan.loops:
        summary += f"; parallel: {len(plan.loops)} loop(s)"
    code = RegionCode(region, print_c(generated.code, region.indent), generated.helpers, summary)
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
