"""Driving a file through the region pipeline: its regions read by the frontend (``polyopt.frontend.read``), each
modelled one optimized within its time budget, and their code spliced back.

Public: ``FileOutcome``, ``OptimizeScop``, ``optimize_text``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from functools import partial

from polyopt.budget import KEPT_AS_WRITTEN, Crashed, OutOfTime, attempts, run_limited
from polyopt.diagnostics import UnsupportedRegion, format_message
from polyopt.emit.splice import splice
from polyopt.frontend.read import Declined, Setting, read_regions
from polyopt.frontend.regions import Region
from polyopt.frontend.scop import Scop
from polyopt.library.blas import library_enabled
from polyopt.library.choice import ProbeNeeded
from polyopt.options import LibraryChoice, Options
from polyopt.outcome import RegionOutcome
from polyopt.pipeline import optimize_scop


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


OptimizeScop = Callable[[Region, Scop, Options, Setting], RegionOutcome]  # one attempt at a region


def optimize_text(
    text: str,
    filename: str,
    options: Options,
    probe: Callable[[], LibraryChoice] | None = None,
    optimize: OptimizeScop = optimize_scop,
) -> FileOutcome:
    """Optimize every region of ``text`` by ``optimize`` (the region pipeline); raise ``InputError`` on invalid
    input.  When ``options.library`` waits for the probe, the first region with a BLAS idiom runs ``probe`` here
    (outside the regions' time budget) for the choice of that region and the next ones (without ``probe``: the
    machine's).  The frontend reads the file with its GNU spellings of plain meaning rewritten
    (``polyopt.frontend.gnu``); gcc and the splice see it as written."""
    options.validate()
    read = read_regions(text, filename, options.cpp_flags, dict(options.params))
    if read.regions:
        library_enabled(options.blas, options.cpp_flags)  # decided once here, not in each region's child process
    outcomes: list[RegionOutcome] = []
    for item in read.regions:
        if isinstance(item, Declined):
            outcomes.append(RegionOutcome(item.region, None, None, (item.warning(),)))
            continue
        try:
            outcomes.append(_optimize_region(item.region, item.scop, options, item.setting, optimize))
        except ProbeNeeded:
            options = replace(options, library=probe() if probe is not None else None)
            outcomes.append(_optimize_region(item.region, item.scop, options, item.setting, optimize))
    replacements = [outcome.code for outcome in outcomes if outcome.code is not None]
    newline = "\r\n" if "\r\n" in text else "\n"
    return FileOutcome(splice(text, replacements, newline), tuple(outcomes), read.warnings)


def _optimize_region(
    region: Region, scop: Scop, options: Options, setting: Setting, optimize: OptimizeScop
) -> RegionOutcome:
    try:
        return _within_budget(region, scop, options, setting, optimize)
    except ProbeNeeded:
        raise
    except Exception as error:  # a bug in a pass must not cost the user their build
        reason = f"internal error ({type(error).__name__}: {error}); please report it"
        return RegionOutcome(region, None, None, (UnsupportedRegion(reason, region.location).warning(),))


def _within_budget(
    region: Region, scop: Scop, options: Options, setting: Setting, optimize: OptimizeScop
) -> RegionOutcome:
    """The region optimized by the first of ``attempts(options)`` that ends within ``options.timeout``
    without crashing, else kept as written (its own text, untouched); the warning says what stopped the first
    attempt."""
    troubles: list[str] = []
    for attempt in attempts(options):
        try:
            outcome = run_limited(partial(optimize, region, scop, attempt.options, setting), options.timeout)
        except OutOfTime:
            troubles.append(f"region took longer than {options.timeout:g} s")
            continue
        except Crashed as crash:
            troubles.append(f"{crash} (please report it)")
            continue
        if not attempt.fallback:
            return outcome
        message = format_message(region.location, "warning", f"{troubles[0]}; {attempt.fallback}")
        return replace(outcome, warnings=(message, *outcome.warnings))
    message = format_message(region.location, "warning", f"{troubles[0]}; {KEPT_AS_WRITTEN}")
    return RegionOutcome(region, None, None, (message,))
