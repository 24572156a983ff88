"""Driving a file through the region pipeline: its regions parsed and modelled, each optimized within
its time budget, and their code spliced back.

Public: ``Setting``, ``RegionOutcome``, ``FileOutcome``, ``OptimizeScop``, ``optimize_file``, ``executed``,
``nothing``, ``final_values``, ``dead_arrays``, ``storage``, ``statement_extents``, ``region_report``,
``region_scops``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from functools import cache, partial

import islpy as isl
from pycparser import c_ast

from polyopt import isl_util
from polyopt.analysis.dependences import Dependences, carrying_loops
from polyopt.budget import Crashed, OutOfTime, attempts, run_limited
from polyopt.diagnostics import InputError, Location, RegionSyntaxError, UnsupportedRegion, format_message
from polyopt.emit.body import print_statement
from polyopt.emit.cast import CIf, CNode, CStmt
from polyopt.emit.isl_ast import Generated, Storage, print_parametric
from polyopt.emit.splice import RegionCode, splice
from polyopt.frontend.constants import constant_probes, named_constants
from polyopt.frontend.cparse import parse_region
from polyopt.frontend.declarations import declared_types
from polyopt.frontend.extract import check_parameter_macros, extract_scop, region_identifiers
from polyopt.frontend.gnu import readable
from polyopt.frontend.liveness import live_after
from polyopt.frontend.macros import (
    expand_macros,
    file_macros_check,
    invocation_probes,
    region_probes,
    restore_positions,
)
from polyopt.frontend.params import (
    DEFAULT_PARAMETER_VALUE,
    MacrosAt,
    ParameterValue,
    Preprocessed,
    gcc_accepts,
    parameter_values,
    preprocess,
)
from polyopt.frontend.regions import Region, find_regions, region_dead_arrays
from polyopt.frontend.scop import Scop, index_type
from polyopt.library.blas import library_enabled
from polyopt.library.choice import LibraryChoice, ProbeNeeded
from polyopt.marks import SECTION
from polyopt.model import PolyModel, build_model, iterator_values
from polyopt.options import Options
from polyopt.passes.base import Decisions, Part, RegionContext
from polyopt.report import DependenceLine, RegionReport, StatementLine, with_sections
from polyopt.schedule_tree import band_nodes, describe_schedule, parent_mark


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
class Setting:
    """What a region's passes need beyond its options: the prefix of generated iterator names
    and the parameter values the cost models assume (``polyopt.frontend.params``)."""

    prefix: str
    parameters: Mapping[str, ParameterValue]

    def values(self) -> dict[str, int]:
        return {name: parameter.value for name, parameter in self.parameters.items()}

    def guessed(self) -> frozenset[str]:
        """The parameters whose values are not found in the source (``DEFAULT_PARAMETER_VALUE``)."""
        return frozenset(name for name, parameter in self.parameters.items() if parameter.origin == "default")

    def parameter(self, name: str) -> ParameterValue:
        """The value the cost models assume for ``name`` and where it came from."""
        return self.parameters.get(name) or ParameterValue(name, DEFAULT_PARAMETER_VALUE, "default")


OptimizeScop = Callable[[Region, Scop, Options, Setting], RegionOutcome]  # one attempt at a region


def optimize_file(
    text: str,
    filename: str,
    options: Options,
    probe: Callable[[], LibraryChoice] | None,
    optimize_scop: OptimizeScop,
) -> FileOutcome:
    """Optimize every region of ``text`` by ``optimize_scop``; raise ``InputError`` on invalid input.  When
    ``options.library`` waits for the probe, the first region with a BLAS idiom runs ``probe`` here (outside
    the regions' time budget) for the choice of that region and the next ones (without ``probe``: the machine's).
    The frontend reads the file with its GNU spellings of plain meaning rewritten (``polyopt.frontend.gnu``); gcc
    and the splice see it as written."""
    options.validate()
    regions, scops, values, failure = _modelled(text, filename, options)
    prefix = _iterator_prefix(text)
    outcomes: list[RegionOutcome] = []
    for region, scop in zip(regions, scops, strict=True):
        if not isinstance(scop, Scop):
            outcomes.append(scop)
            continue
        setting = Setting(prefix, {name: values[name] for name in scop.parameters})
        try:
            outcomes.append(_optimize_region(region, scop, options, setting, optimize_scop))
        except ProbeNeeded:
            options = replace(options, library=probe() if probe is not None else None)
            outcomes.append(_optimize_region(region, scop, options, setting, optimize_scop))
    replacements = [outcome.code for outcome in outcomes if outcome.code is not None]
    newline = "\r\n" if "\r\n" in text else "\n"
    notice = () if failure is None else (_preprocessor_warning(filename, failure, options.cpp_flags),)
    return FileOutcome(splice(text, replacements, newline), tuple(outcomes), notice)


def region_scops(text: str, filename: str, options: Options) -> list[tuple[Scop, dict[str, int]]]:
    """Each region of ``text`` inside the model, as the driver reads it: its ``Scop`` and the values of its
    parameters the cost models assume (``polyopt.frontend.params``)."""
    _, scops, values, _ = _modelled(text, filename, options)
    return [(scop, {name: values[name].value for name in scop.parameters}) for scop in scops if isinstance(scop, Scop)]


def _modelled(
    text: str, filename: str, options: Options
) -> tuple[list[Region], list[Scop | RegionOutcome], Mapping[str, ParameterValue], str | None]:
    """The regions of ``text``, each one's ``Scop`` (or the outcome that keeps it as written), the values of
    their parameters and why the preprocessor failed (None when it did not)."""
    plain = readable(text)
    regions = find_regions(plain, filename, text)
    if regions:
        library_enabled(options.blas, options.cpp_flags)  # decided once here, not in each region's child process
    accepted = cache(partial(gcc_accepts, text, filename, options.cpp_flags))
    written = [_region_body(region, plain, accepted) for region in regions]
    names = [region_identifiers(body) if isinstance(body, c_ast.Compound) else frozenset() for body in written]
    probes = constant_probes(plain, sorted(frozenset().union(*names)))
    at = [
        (r.start, region_probes(r) if isinstance(b, c_ast.Compound) else [])
        for r, b in zip(regions, written, strict=True)
    ]
    preprocessed = (
        preprocess(text, filename, probes, options.cpp_flags, at=at) if probes or regions else Preprocessed({}, {})
    )
    places = preprocessed.places or (None,) * len(regions)
    invocations = _invocations(text, filename, regions, places, options.cpp_flags)
    bodies = [
        _expanded_body(region, plain, body, place, expanded) if isinstance(body, c_ast.Compound) else body
        for region, body, place, expanded in zip(regions, written, places, invocations, strict=True)
    ]
    scops = [
        _region_scop(
            region, plain, body, named_constants(plain, region, region_identifiers(body), _at(preprocessed, place))
        )
        if isinstance(body, c_ast.Compound)
        else body
        for region, body, place in zip(regions, bodies, places, strict=True)
    ]
    parameters = [name for scop in scops if isinstance(scop, Scop) for name in scop.parameters]
    values, failure = parameter_values(
        text, filename, parameters, dict(options.params), options.cpp_flags, preprocessed
    )
    return regions, scops, values, failure


def _iterator_prefix(text: str) -> str:
    """A prefix ``p`` such that no identifier ``p<digits>`` (or ``p<digits>_hi``, ``p<digits>_red``)
    occurs in the file."""
    for prefix in ("c", "t", "p", "polyopt_c", "polyopt_it"):
        if not re.search(rf"\b{prefix}\d+(_hi|_red)?\b", text):
            return prefix
    return "polyopt_iterator_"


def _region_body(region: Region, text: str, gcc_accepts: Callable[[], bool | None]) -> c_ast.Compound | RegionOutcome:
    """The region parsed, or the outcome that keeps it as written: outside the model, or not readable by polyopt
    although gcc accepts the file (a syntax error stops polyopt when gcc rejects the file or cannot tell)."""
    try:
        return parse_region(region, text)
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))
    except RegionSyntaxError as error:
        if not gcc_accepts():
            raise
        reason = f"polyopt cannot read it ({error.message}); gcc accepts the file"
        unreadable = UnsupportedRegion(reason, error.location)
        return RegionOutcome(region, None, None, (unreadable.warning(),))


def _invocations(
    text: str, filename: str, regions: list[Region], places: tuple[MacrosAt | None, ...], cpp_flags: tuple[str, ...]
) -> list[Mapping[str, str] | None]:
    """Per region, the expansions at the region of its invocations of function-like macros (one more gcc run,
    when a region has one), or None when the preprocessor failed on them."""
    at = [
        (region.start, invocation_probes(region, place) if place else [])
        for region, place in zip(regions, places, strict=True)
    ]
    if not any(probes for _, probes in at):
        return [{} for _ in regions]
    found = preprocess(text, filename, [], cpp_flags, at=at).places or (None,) * len(regions)
    return [place.expansions if place is not None else None for place in found]


def _at(preprocessed: Preprocessed, place: MacrosAt | None) -> Preprocessed:
    """``preprocessed`` with the macros and expansions at one region (``place``), when known."""
    if place is None:
        return preprocessed
    return replace(preprocessed, expansions={**preprocessed.expansions, **place.expansions}, macros=place.macros)


def _expanded_body(
    region: Region, text: str, body: c_ast.Compound, place: MacrosAt | None, invocations: Mapping[str, str] | None
) -> c_ast.Compound | RegionOutcome:
    """The region parsed as gcc reads it: its macros that cannot keep their names replaced by their expansions
    (``polyopt.frontend.macros``); or the outcome that keeps it as written."""
    try:
        if place is None:
            file_macros_check(region, text)
            return body
        expanded = expand_macros(region, body, place, invocations)
        if expanded is None:
            return body
        try:
            tree = parse_region(replace(region, body=expanded.body), text)
        except InputError as error:
            macros = ", ".join(f"'{name}'" for name in expanded.macros)
            raise UnsupportedRegion(f"with macro(s) {macros} expanded, {error.message}", error.location) from None
        restore_positions(tree, expanded)
        return tree
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))


def _region_scop(region: Region, text: str, body: c_ast.Compound, constants: Mapping[str, int]) -> Scop | RegionOutcome:
    """The region's model input, or the outcome that keeps it as written (outside the model)."""
    try:
        scop = extract_scop(body, region.location, declared_types(text, region), text, constants)
        check_parameter_macros(scop, text)
        variables = sorted({loop.variable for loop in scop.exits})
        scalars = {a.array for st in scop.statements for a in st.writes if not a.subscripts} - set(scop.members)
        live = live_after(region, text, set(variables) | scalars)
        return replace(
            scop,
            exits=tuple(loop for loop in scop.exits if loop.variable in live),
            unused_iterators=tuple(variable for variable in variables if variable not in live),
            dead_scalars=frozenset(scalars - live),
        )
    except UnsupportedRegion as unsupported:
        return RegionOutcome(region, None, None, (unsupported.warning(),))


def _optimize_region(
    region: Region, scop: Scop, options: Options, setting: Setting, optimize_scop: OptimizeScop
) -> RegionOutcome:
    try:
        return _within_budget(region, scop, options, setting, optimize_scop)
    except ProbeNeeded:
        raise
    except Exception as error:  # a bug in a pass must not cost the user their build
        reason = f"internal error ({type(error).__name__}: {error}); please report it"
        return RegionOutcome(region, None, None, (UnsupportedRegion(reason, region.location).warning(),))


def _within_budget(
    region: Region, scop: Scop, options: Options, setting: Setting, optimize_scop: OptimizeScop
) -> RegionOutcome:
    """The region optimized by the first of ``attempts(options)`` that ends within ``options.timeout``
    without crashing; the warning says what stopped the first attempt."""
    troubles: list[str] = []
    reason = ""
    for attempt in attempts(options):
        try:
            outcome = run_limited(partial(optimize_scop, region, scop, attempt.options, setting), options.timeout)
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


def _preprocessor_warning(filename: str, failure: str, cpp_flags: tuple[str, ...]) -> str:
    """The one warning for a preprocessor run that gave no parameter values."""
    flags = f" with {' '.join(cpp_flags)}" if cpp_flags else ""
    message = (
        f"the preprocessor failed{flags} ({failure}); the cost models assume {DEFAULT_PARAMETER_VALUE} "
        "for the parameters: give the compiler's -I and -D flags, or --param NAME=VALUE"
    )
    return format_message(Location(filename), "warning", message)


def executed(scop: Scop, ctx: isl.Context) -> tuple[Scop, tuple[str, ...]]:
    """``scop`` without the statements that never execute (their domains are empty for every value of
    the parameters), and a note for each."""
    domains = build_model(scop, ctx).domains
    empty = [statement for statement in scop.statements if domains[statement.name].is_empty()]
    if not empty:
        return scop, ()
    notes = tuple(f"{s.name} (line {s.location.line}) never executes (its domain is empty): left out" for s in empty)
    return scop.restricted(frozenset(domains) - {statement.name for statement in empty}), notes


def nothing(region: Region, setting: Setting) -> Part:
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
    return Part(Generated((), frozenset()), report, (), "no statement ever executes")


def final_values(scop: Scop, setting: Setting) -> tuple[Generated, tuple[str, ...]]:
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


def dead_arrays(region: Region, options: Options) -> frozenset[str]:
    """The arrays whose values after the region do not matter (``--assume-dead`` and the region's pragmas)."""
    return options.assume_dead | region_dead_arrays(region)


def storage(ctx: RegionContext, schedule: isl.Schedule, scalars: Mapping[str, str]) -> Storage:
    """How the code of ``schedule`` stores its reductions, reduced sections and ``scalars``."""
    model = ctx.model
    marks = [mark for _, band in band_nodes(schedule) if (mark := parent_mark(band)) is not None]
    arrays = {clause.array for mark in marks for clause in mark.reductions if clause.mode == SECTION}
    sections = {array: model.section(array) for array in sorted(arrays)}
    machine = ctx.machine
    return Storage(
        ctx.reductions,
        sections,
        dict(scalars),
        statement_extents(model),
        machine.parallel_work,
        machine.section_limit,
        index_type(model.scop),
    )


def statement_extents(model: PolyModel) -> dict[str, tuple[isl.PwAff, ...]]:
    """Per statement, the extent of each loop dimension of its domain's box (any value where it is empty)."""
    extents: dict[str, tuple[isl.PwAff, ...]] = {}
    for name, domain in model.domains.items():
        count = domain.dim(isl.dim_type.set)
        extents[name] = tuple(isl_util.extended(isl_util.extent(domain, d)) for d in range(count))
    return extents


def region_report(
    region: Region, model: PolyModel, deps: Dependences, schedule: isl.Schedule, decisions: Decisions, setting: Setting
) -> RegionReport:
    """The report of ``model`` (dependences ``deps``) scheduled by ``schedule``: each decision's sections in order."""
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
    return with_sections(report, decisions.sections())
