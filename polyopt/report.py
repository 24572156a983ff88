"""Human-readable ``--report`` text for each region.

Public: ``DependenceLine``, ``StatementLine``, ``RegionReport``, ``format_report``.
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
    """What polyopt found and decided for one region (every decision as text)."""

    index: int
    location: Location
    parameters: tuple[str, ...]
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


def _section(title: str, items: tuple[str, ...]) -> list[str]:
    if not items:
        return [f"  {title}: (none)"]
    return [f"  {title}:"] + [f"    {item}" for item in items]


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
    lines.extend(_section("scalars kept in the elements they are stored to", report.in_place))
    lines.extend(_section("expanded scalars", report.expansions))
    lines.extend(_section("reductions (may be reordered)", report.reductions))
    if report.non_reductions:
        lines.extend(_section("updates kept in order", report.non_reductions))
    if report.fusion_candidates:
        lines.extend(_section("fusion candidates (cost model)", report.fusion_candidates))
    lines.append(f"  fusion: {report.fusion}")
    lines.extend(_section("schedule", report.schedule))
    lines.extend(_section("tiled bands", report.tiles))
    lines.extend(_section("parallel loops", report.parallel))
    lines.extend(_section("vector loops", report.vector))
    lines.extend(_section("contracted arrays", report.contractions))
    if report.library:
        lines.extend(_section("library calls", report.library))
    lines.extend(f"  note: {note}" for note in report.notes)
    return "\n".join(lines) + "\n"
