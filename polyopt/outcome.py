"""The emit stage of a region: its outcome, the code that replaces it (or the warning that kept it).

A region's code is its generated code, after a run-time test that runs the region's text as written below
the target's ``as-written-below`` statement instances when its sizes were not known (``small_sizes``), or,
when it keeps its order as written, its text with the pragmas of its marked loops (``kept_as_written``).

Public: ``RegionOutcome``, ``emitted``, ``kept_as_written``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import instances_sum, print_parametric
from polyopt.emit.source_text import with_pragmas
from polyopt.emit.splice import RegionCode
from polyopt.emit.storage import final_values, statement_extents, with_locals
from polyopt.frontend.read import Setting
from polyopt.frontend.regions import Region
from polyopt.frontend.scop import Scop
from polyopt.model import build_model
from polyopt.options import Options
from polyopt.passes.base import Part, isl_context
from polyopt.passes.contraction import contracted
from polyopt.report import NOTES, RegionReport, Section


@dataclass(frozen=True)
class RegionOutcome:
    """One region's result: its replacement code, or the warning that kept it unchanged."""

    region: Region
    code: RegionCode | None
    report: RegionReport | None
    warnings: tuple[str, ...]


def _noted(report: RegionReport, before: tuple[str, ...], after: tuple[str, ...] = ()) -> RegionReport:
    return report.replaced(Section(NOTES, (*before, *report.lines(NOTES.key), *after)))


def emitted(
    region: Region, scop: Scop, part: Part, dropped: tuple[str, ...], options: Options, setting: Setting, guarded: bool
) -> RegionOutcome:
    """The outcome of ``part``, the region ``scop`` generated (``dropped``: the notes of the statements that
    never execute): its code with the region's locals and the final values of its scalars, behind the test of
    ``small_sizes`` when ``guarded``."""
    finals, assigned = final_values(scop, setting.prefix)
    report = _noted(part.report, dropped, assigned)
    code = with_locals(part.generated.code, scop, contracted(part.decisions))
    version = small_sizes(region, scop, options, setting) if guarded else None
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
    report = _noted(report, (), (note,))
    return RegionOutcome(region, RegionCode(region, printed, helpers, summary), report, part.warnings)


def small_sizes(
    region: Region, scop: Scop, options: Options, setting: Setting
) -> tuple[str, frozenset[str], str] | None:
    """The run-time test that runs the optimized code of a region whose sizes were not known when it was
    optimized (``setting.guessed``), with its helpers and its report note (unless ``--no-as-written``); below the
    target's ``as-written-below`` statement instances the region's text as written runs instead (the code the
    cost models chose for the assumed sizes may cost more than it gains there: tiles larger than the loops, a
    parallel region's call into the OpenMP runtime, a microkernel's packing).  None when the sizes are known, the
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


def kept_as_written(region: Region, part: Part, dropped: tuple[str, ...]) -> RegionOutcome:
    """The outcome of a region kept as written: its text with the pragmas of ``part.source`` (and the helper
    macros their clauses call), or without any when one of them has no ``for`` keyword at its place."""
    assert part.source is not None
    text, missed = with_pragmas(region.text, region.body_line, part.source.pragmas), ()
    if text is None:
        text = region.text
        missed = ("the pragmas were not put on the text as written: a loop's 'for' is not where it was read",)
    clauses = " ".join(pragma.text for pragma in part.source.pragmas)
    helpers = frozenset(name for name in part.generated.helpers if re.search(rf"\b{name}\b", clauses))
    code = RegionCode(region, text, helpers, part.summary)
    return RegionOutcome(region, code, _noted(part.report, dropped, missed), part.warnings)
