"""``--report``: the text for each region, and the one JSON document of ``--report=json``.

Public: ``DependenceLine``, ``StatementLine``, ``Heading``, ``Section``, ``SCHEDULE``, ``NOTES``, ``layout``,
``RegionReport``, ``gathered``, ``region_report``, ``empty_report``, ``merged``, ``format_report``, ``RegionSummary``,
``report_json``, ``REPORT_FORMAT``.
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
# the keys of the sections in a region of that document, in their order; the keys of later headings follow
JSON_KEYS = (
    "fusion",
    "schedule",
    "tiles",
    "parallel",
    "vector",
    "notes",
    "reductions",
    "non_reductions",
    "expansions",
    "in_place",
    "contractions",
    "library",
    "fusion_candidates",
    "fusion_schedules",
    "as_written",
)


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
class Heading:
    """A section of a region's report: its ``key`` in ``--report=json``, its ``title`` in the text, and its
    ``rank`` (sections print in the order of their ranks).  The text prints a heading without lines as
    ``(none)`` when ``always``, else leaves it out; a ``joined`` heading is one line, its lines joined by
    `` | `` (one string in the JSON document), ``default`` when no pass gave it one."""

    key: str
    title: str
    rank: int
    always: bool = False
    joined: bool = False
    default: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """Lines of one pass's report under one heading."""

    heading: Heading
    lines: tuple[str, ...]


SCHEDULE = Heading("schedule", "schedule", 90, always=True)
NOTES = Heading("notes", "note", 150)


def layout(headings: Iterable[Heading]) -> tuple[Heading, ...]:
    """The headings of a region's report, in the order of their ranks: ``headings`` (those of the passes
    that may run), the schedule and the notes."""
    unique = {heading.key: heading for heading in (*headings, SCHEDULE, NOTES)}
    return tuple(sorted(unique.values(), key=lambda heading: heading.rank))


@dataclass(frozen=True)
class RegionReport:
    """What polyopt found and decided for one region (every decision as text): the region's parameters,
    statements and dependences, then one section per heading of the report's layout, in order."""

    index: int
    location: Location
    parameters: tuple[ParameterValue, ...]
    statements: tuple[StatementLine, ...]
    dependences: tuple[DependenceLine, ...]
    sections: tuple[Section, ...]

    def lines(self, key: str) -> tuple[str, ...]:
        """The lines under the heading ``key``."""
        return next(section.lines for section in self.sections if section.heading.key == key)

    def replaced(self, *sections: Section) -> RegionReport:
        """The report with the lines of each of ``sections`` under its heading instead of the lines there."""
        new = {section.heading.key: section for section in sections}
        return replace(self, sections=tuple(new.get(section.heading.key, section) for section in self.sections))


def gathered(headings: tuple[Heading, ...], sections: Iterable[Section]) -> tuple[Section, ...]:
    """One section per heading of ``headings``: the lines of ``sections`` under it in order, else its default."""
    lines: dict[str, tuple[str, ...]] = {heading.key: () for heading in headings}
    for section in sections:
        lines[section.heading.key] += section.lines
    return tuple(Section(heading, lines[heading.key] or heading.default) for heading in headings)


def region_report(
    region: Region,
    model: PolyModel,
    deps: Dependences,
    schedule: isl.Schedule,
    sections: Iterable[Section],
    setting: Setting,
    headings: tuple[Heading, ...],
) -> RegionReport:
    """The report of ``model`` (dependences ``deps``) scheduled by ``schedule``: its decisions' ``sections`` in
    order under ``headings`` (a ``layout``)."""
    scop = model.scop
    statements = tuple(
        StatementLine(s.name, s.location, model.domains[s.name].to_str(), print_statement(s.body, {}))
        for s in scop.statements
    )
    dependences = tuple(
        DependenceLine(d.kind, scop.members.get(d.array, d.array), d.source, d.sink, carrying_loops(model, d))
        for d in deps.items
    )
    parameters = tuple(setting.parameter(name) for name in scop.parameters)
    described = Section(SCHEDULE, tuple(describe_schedule(schedule)))
    return RegionReport(
        region.index, scop.location, parameters, statements, dependences, gathered(headings, (described, *sections))
    )


def empty_report(region: Region, setting: Setting, headings: tuple[Heading, ...], *sections: Section) -> RegionReport:
    """The report of a region none of whose statements ever executes, with ``sections``."""
    parameters = tuple(setting.parameter(name) for name in setting.parameters)
    return RegionReport(region.index, region.location, parameters, (), (), gathered(headings, sections))


def merged(reports: Sequence[RegionReport]) -> RegionReport:
    """One report for the segments of a region: the first one's place and parameters, and the statements,
    dependences and lines of each segment in turn under each heading."""
    first = reports[0]
    statements = tuple(line for report in reports for line in report.statements)
    dependences = tuple(line for report in reports for line in report.dependences)
    sections = gathered(tuple(s.heading for s in first.sections), (s for r in reports for s in r.sections))
    return replace(first, statements=statements, dependences=dependences, sections=sections)


def _listed(title: str, items: tuple[str, ...]) -> list[str]:
    if not items:
        return [f"  {title}: (none)"]
    return [f"  {title}:"] + [f"    {item}" for item in items]


def _section_text(section: Section) -> list[str]:
    heading = section.heading
    if heading == NOTES:  # a report made in a child process holds copies of the headings
        return [f"  note: {note}" for note in section.lines]
    if heading.joined:
        return [f"  {heading.title}: {' | '.join(section.lines)}"]
    return _listed(heading.title, section.lines) if section.lines or heading.always else []


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
    for section in report.sections:
        lines.extend(_section_text(section))
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
    report = region.report
    if report is not None:
        entry["parameters"] = [asdict(parameter) for parameter in report.parameters]
        entry["statements"] = [asdict(statement) for statement in report.statements]
        entry["dependences"] = [asdict(dependence) for dependence in report.dependences]
        keys = {key: position for position, key in enumerate(JSON_KEYS)}
        for section in sorted(report.sections, key=lambda section: keys.get(section.heading.key, len(keys))):
            lines = section.lines
            entry[section.heading.key] = " | ".join(lines) if section.heading.joined else list(lines)
    return entry
