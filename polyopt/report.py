"""Human-readable ``--report`` text for each region.

Public: ``RegionReport``, ``format_report``.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.diagnostics import Location


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
    """What polyopt found and decided for one region."""

    index: int
    location: Location
    parameters: tuple[str, ...]
    statements: tuple[StatementLine, ...]
    dependences: tuple[DependenceLine, ...]
    schedule: str
    parallel: tuple[str, ...]
    notes: tuple[str, ...] = ()


def format_report(report: RegionReport) -> str:
    lines = [
        f"region {report.index} at {report.location}",
        f"  parameters: {', '.join(report.parameters) or '(none)'}",
        f"  statements ({len(report.statements)}):",
    ]
    for statement in report.statements:
        lines.append(f"    {statement.name} line {statement.location.line}: {statement.text}")
        lines.append(f"       domain {statement.domain}")
    lines.append(f"  dependences ({len(report.dependences)}):")
    for dep in report.dependences:
        carried = f"carried by {', '.join(dep.carried_by)}" if dep.carried_by else "loop-independent"
        lines.append(f"    {dep.kind:<6} on {dep.array}: {dep.source} -> {dep.sink}, {carried}")
    lines.append(f"  schedule: {report.schedule}")
    lines.append(f"  parallel loops: {'; '.join(report.parallel) or '(none)'}")
    lines.extend(f"  note: {note}" for note in report.notes)
    return "\n".join(lines) + "\n"
