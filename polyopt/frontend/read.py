"""The frontend's door: a C file's regions, each modelled (its ``Scop`` and the parameter values the cost models
assume) or declined with the reason.

Public: ``Setting``, ``Modelled``, ``Declined``, ``ReadFile``, ``file_regions``, ``read_regions``.

``read_regions`` runs the frontend's steps on a file in order: the regions found in the file with its GNU
spellings of plain meaning rewritten (``polyopt.frontend.gnu``); each region parsed; one preprocessor run for the
named constants and the macros at each region, and one more for the invocations of function-like macros
(``polyopt.frontend.macros``); the regions parsed again with the macros that cannot keep their names expanded;
each one's ``Scop`` (``polyopt.frontend.extract``) with the variables live after it; and the values of every
region's parameters (``polyopt.frontend.params``).  Only a syntax error that gcc confirms, or a malformed region
(``polyopt.frontend.regions``), raises: every other region that polyopt cannot model is declined.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import cache, partial
from typing import TypeVar

from pycparser import c_ast

from polyopt.diagnostics import InputError, Location, RegionSyntaxError, UnsupportedRegion, format_message
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
    object_bodies,
    parameter_values,
    preprocess,
)
from polyopt.frontend.regions import Region, find_regions
from polyopt.frontend.scop import Scop

T = TypeVar("T")


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


@dataclass(frozen=True)
class Modelled:
    """A region inside the model: its ``Scop`` and its ``Setting``."""

    region: Region
    scop: Scop
    setting: Setting


@dataclass(frozen=True)
class Declined:
    """A region kept as written, and why: ``reason`` at ``location``."""

    region: Region
    reason: str
    location: Location | None

    def warning(self) -> str:
        """The warning that says why the region is kept as written."""
        return UnsupportedRegion(self.reason, self.location).warning()


@dataclass(frozen=True)
class ReadFile:
    """A file's regions in file order, each modelled or declined, and the warnings about the whole file (a
    failed preprocessor run)."""

    regions: tuple[Modelled | Declined, ...]
    warnings: tuple[str, ...] = ()

    @property
    def modelled(self) -> tuple[Modelled, ...]:
        return tuple(region for region in self.regions if isinstance(region, Modelled))


def file_regions(text: str, filename: str) -> list[Region]:
    """The regions of ``text`` as ``read_regions`` finds them (their bodies as written in ``Region.text``);
    ``InputError`` for a malformed region."""
    return find_regions(readable(text), filename, text)


def read_regions(
    text: str, filename: str, cpp_flags: tuple[str, ...] = (), params: Mapping[str, int] | None = None
) -> ReadFile:
    """The regions of the file ``filename`` holding ``text``, each modelled or declined (see the module
    docstring); ``cpp_flags``: the ``-I``/``-D``/``-U`` flags gcc reads the file with; ``params``: the
    ``--param`` values.  Raises ``InputError`` on invalid input."""
    plain = readable(text)
    regions = find_regions(plain, filename, text)
    accepted = cache(partial(gcc_accepts, text, filename, cpp_flags))
    written = [_read(region, partial(_region_body, region, plain, accepted)) for region in regions]
    names = [region_identifiers(body) if isinstance(body, c_ast.Compound) else frozenset() for body in written]
    probes = constant_probes(plain, sorted(frozenset().union(*names)))
    at = [
        (r.start, region_probes(r) if isinstance(b, c_ast.Compound) else [])
        for r, b in zip(regions, written, strict=True)
    ]
    preprocessed = preprocess(text, filename, probes, cpp_flags, at=at) if probes or regions else Preprocessed({}, {})
    places = preprocessed.places or (None,) * len(regions)
    invocations = _invocations(text, filename, regions, places, cpp_flags)
    bodies = [
        _read(region, partial(_expanded_body, region, plain, body, place, expanded))
        if isinstance(body, c_ast.Compound)
        else body
        for region, body, place, expanded in zip(regions, written, places, invocations, strict=True)
    ]
    scops = [
        _read(
            region,
            partial(
                _region_scop,
                region,
                plain,
                body,
                _constants(plain, region, body, preprocessed, place),
                object_bodies(place.macros if place else preprocessed.macros),
            ),
        )
        if isinstance(body, c_ast.Compound)
        else body
        for region, body, place in zip(regions, bodies, places, strict=True)
    ]
    parameters = [name for scop in scops if isinstance(scop, Scop) for name in scop.parameters]
    values, failure = parameter_values(text, filename, parameters, dict(params or {}), cpp_flags, preprocessed)
    prefix = _iterator_prefix(text)
    read = tuple(
        Modelled(region, scop, Setting(prefix, {name: values[name] for name in scop.parameters}))
        if isinstance(scop, Scop)
        else scop
        for region, scop in zip(regions, scops, strict=True)
    )
    notice = () if failure is None else (_preprocessor_warning(filename, failure, cpp_flags),)
    return ReadFile(read, notice)


def _read(region: Region, step: Callable[[], T]) -> T | Declined:
    """What ``step`` reads of ``region``, or the region declined for the reason it gives."""
    try:
        return step()
    except UnsupportedRegion as unsupported:
        return Declined(region, unsupported.message, unsupported.location)


def _iterator_prefix(text: str) -> str:
    """A prefix ``p`` such that no identifier ``p<digits>`` (or ``p<digits>_hi``, ``p<digits>_red``)
    occurs in the file."""
    for prefix in ("c", "t", "p", "polyopt_c", "polyopt_it"):
        if not re.search(rf"\b{prefix}\d+(_hi|_red)?\b", text):
            return prefix
    return "polyopt_iterator_"


def _region_body(region: Region, text: str, gcc_accepts: Callable[[], bool | None]) -> c_ast.Compound:
    """The region parsed; ``UnsupportedRegion`` when it is outside the model, or not readable by polyopt although
    gcc accepts the file (a syntax error stops polyopt when gcc rejects the file or cannot tell)."""
    try:
        return parse_region(region, text)
    except RegionSyntaxError as error:
        if not gcc_accepts():
            raise
        reason = f"polyopt cannot read it ({error.message}); gcc accepts the file"
        raise UnsupportedRegion(reason, error.location) from None


def _invocations(
    text: str, filename: str, regions: list[Region], places: tuple[MacrosAt | None, ...], cpp_flags: Sequence[str]
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


def _constants(
    text: str, region: Region, body: c_ast.Compound, preprocessed: Preprocessed, place: MacrosAt | None
) -> dict[str, int]:
    """The named constants of ``region`` (``body``), with the macros and expansions at the region when known."""
    if place is not None:
        expansions = {**preprocessed.expansions, **place.expansions}
        preprocessed = replace(preprocessed, expansions=expansions, macros=place.macros)
    return named_constants(text, region, region_identifiers(body), preprocessed)


def _expanded_body(
    region: Region, text: str, body: c_ast.Compound, place: MacrosAt | None, invocations: Mapping[str, str] | None
) -> c_ast.Compound:
    """The region parsed as gcc reads it: its macros that cannot keep their names replaced by their expansions
    (``polyopt.frontend.macros``); ``UnsupportedRegion`` when that cannot be done."""
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


def _region_scop(
    region: Region, text: str, body: c_ast.Compound, constants: Mapping[str, int], macros: Mapping[str, str]
) -> Scop:
    """The region's model input, its declarations' header types expanded by the object-like ``macros`` in effect
    at it; ``UnsupportedRegion`` when it is outside the model."""
    declarations = declared_types(text, region).with_expansions(macros)
    scop = extract_scop(body, region.location, declarations, text, constants)
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


def _preprocessor_warning(filename: str, failure: str, cpp_flags: Sequence[str]) -> str:
    """The one warning for a preprocessor run that gave no parameter values."""
    flags = f" with {' '.join(cpp_flags)}" if cpp_flags else ""
    message = (
        f"the preprocessor failed{flags} ({failure}); the cost models assume {DEFAULT_PARAMETER_VALUE} "
        "for the parameters: give the compiler's -I and -D flags, or --param NAME=VALUE"
    )
    return format_message(Location(filename), "warning", message)
