"""``--report``: the text for each region, and the one JSON document of ``--report=json``.

Public: ``DependenceLine``, ``StatementLine``, ``RegionReport``, ``Section``, ``with_sections``, ``region_report``,
``empty_report``, ``RegionSummary``, ``format_report``, ``report_json``, ``REPORT_FORMAT``.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, replace
from typing import Any

import islpy as isl

from polyopt.analysis.dependences import Dependences, carrying_loops
from polyopt.diagnostics import Location
from polyopt.emit.body import print_statement
from polyopt.frontend.params import ParameterValue
from polyopt.frontend.read import Setting
from polyopt.frontend.regions import Region
from polyopt.model import PolyModel
from polyopt.schedule_tree import describe_schedule

REPORT_FORMAT = 1  # the version of --report=json's document; raised when a field changes meaning or goes


@dataclass(frozen=True)
class DependenceLine:
    kind: str
    array: str
    source: str
    sink: str
    carried_by: tuple[str, ...]


@dataclass(frozen=True)
class StatementLine:
    name: str
    location: Location
    domain: str
    text: str


@dataclass(frozen=True)
class RegionReport:
    """What polyopt found and decided for one region (every decision as text)."""

    index: int
    location: Location
    parameters: tuple[ParameterValue, ...]
    statements: tuple[StatementLine, ...]
    dependences: tuple[DependenceLine, ...]
    fusion: str
    schedule: tuple[str, ...]
    tiles: tuple[str, ...]
    parallel: tuple[str, ...]
    vector: tuple[str, ...]
    notes: tuple[str, ...] = ()
    reductions: tuple[str, ...] = ()
    non_reductions: tuple[str, ...] = ()
    expansions: tuple[str, ...] = ()
    in_place: tuple[str, ...] = ()
    contractions: tuple[str, ...] = ()
    library: tuple[str, ...] = ()
    fusion_candidates: tuple[str, ...] = ()
    fusion_schedules: tuple[str, ...] = ()
    as_written: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """One pass's report lines for one field of ``RegionReport``."""

    field: str
    lines: tuple[str, ...]


def with_sections(report: RegionReport, sections: Iterable[Section]) -> RegionReport:
    """``report`` with the lines of ``sections`` added to their fields, in order; the ``fusion`` lines,
    when there are any, replace its fusion text."""
    fields: dict[str, tuple[str, ...]] = {}
    for section in sections:
        fields[section.field] = fields.get(section.field, ()) + section.lines
    fusion = fields.pop("fusion", ())
    added = {name: getattr(report, name) + lines for name, lines in fields.items()}
    return replace(report, fusion=" | ".join(fusion) if fusion else report.fusion, **added)


def region_report(
    region: Region,
    model: PolyModel,
    deps: Dependences,
    schedule: isl.Schedule,
    sections: Iterable[Section],
    setting: Setting,
) -> RegionReport:
    """The report of ``model`` (dependences ``deps``) scheduled by ``schedule``: its decisions' ``sections`` in
    order."""
    scop = model.scop
    statements = tuple(
        StatementLine(s.name, s.location, model.domains[s.name].to_str(), print_statement(s.body, {}))
        for s in scop.statements
    )
    dependences = tuple(
        DependenceLine(d.kind, scop.members.get(d.array, d.array), d.source, d.sink, carrying_loops(model, d))
        for d in deps.items
    )
    report = RegionReport(
        index=region.index,
        location=scop.location,
        parameters=tuple(setting.parameter(name) for name in scop.parameters),
        statements=statements,
        dependences=dependences,
        fusion="none (original order)",
        schedule=tuple(describe_schedule(schedule)),
        tiles=(),
        parallel=(),
        vector=(),
    )
    return with_sections(report, sections)


def empty_report(region: Region, setting: Setting) -> RegionReport:
    """The report of a region none of whose statements ever executes."""
    return RegionReport(
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


def _section(title: str, items: tuple[str, ...]) -> list[str]:
    if not items:
        return [f"  {title}: (none)"]
    return [f"  {title}:"] + [f"    {item}" for item in items]


def format_report(report: RegionReport) -> str:
    lines = [
        f"region {report.index} at {report.location}",
        f"  parameters: {', '.join(f'{p.name} = {p.value} ({p.origin})' for p in report.parameters) or '(none)'}",
        f"  statements ({len(report.statements)}):",
    ]
    for statement in report.statements:
        lines.append(f"    {statement.name} line {statement.location.line}: {statement.text}")
        lines.append(f"       domain {statement.domain}")
    lines.append(f"  dependences ({len(report.dependences)}):")
    for dep in report.dependences:
        carried = f"carried by {', '.join(dep.carried_by)}" if dep.carried_by else "loop-independent"
        lines.append(f"    {dep.kind:<6} on {dep.array}: {dep.source} -> {dep.sink}, {carried}")
    lines.extend(_section("scalars kept in the elements they are stored to", report.in_place))
    lines.extend(_section("expanded scalars", report.expansions))
    lines.extend(_section("reductions (may be reordered)", report.reductions))
    if report.non_reductions:
        lines.extend(_section("updates kept in order", report.non_reductions))
    if report.fusion_candidates:
        lines.extend(_section("fusion candidates (cost model)", report.fusion_candidates))
    lines.append(f"  fusion: {report.fusion}")
    if report.fusion_schedules:
        lines.extend(_section("fusion groups' schedules (the candidate that gave each)", report.fusion_schedules))
    if report.as_written:
        lines.extend(_section("as written against transformed (cost model)", report.as_written))
    lines.extend(_section("schedule", report.schedule))
    lines.extend(_section("tiled bands", report.tiles))
    lines.extend(_section("parallel loops", report.parallel))
    lines.extend(_section("vector loops", report.vector))
    lines.extend(_section("contracted arrays", report.contractions))
    if report.library:
        lines.extend(_section("library calls", report.library))
    lines.extend(f"  note: {note}" for note in report.notes)
    return "\n".join(lines) + "\n"


@dataclass(frozen=True)
class RegionSummary:
    """One region of a file as ``--report=json`` lists it: ``summary`` is the one-line comment of its
    replacement (None when it is kept as written), ``report`` what was found and decided (None
    when it is outside the model)."""

    index: int
    location: Location
    summary: str | None
    warnings: tuple[str, ...]
    report: RegionReport | None


def report_json(
    source: str,
    machine: str,
    library: Sequence[str],
    tile_sizes: str | None,
    warnings: Sequence[str],
    regions: Sequence[RegionSummary],
) -> str:
    """The ``--report=json`` document of one run (its fields are described in doc/report.md)."""
    document: dict[str, Any] = {
        "format": REPORT_FORMAT,
        "source": source,
        "machine": machine,
        "library": list(library),
        "tile_sizes_file": tile_sizes,
        "warnings": list(warnings),
        "regions": [_region(region) for region in regions],
    }
    return json.dumps(document, indent=2)


def _region(region: RegionSummary) -> dict[str, Any]:
    entry: dict[str, Any] = {
        "index": region.index,
        "location": asdict(region.location),
        "optimized": region.summary is not None,
        "summary": region.summary,
        "warnings": list(region.warnings),
    }
    if region.report is not None:
        decisions = asdict(region.report)
        del decisions["index"], decisions["location"]
        entry |= decisions
    return entry
