"""``polyopt tune``'s measurements: each region's variants built into the user's program, checked and timed.

Public: ``DEFAULT_RUNS``, ``TuneFailure``, ``Settings``, ``measure``.

The programs of ``tune_plan.programs`` are built with the harness (``polyopt.program.harness``), each with a timer
around every region (``tune_plan.instrumented``); a program whose output differs from the original's is split into
one program per region it times (``tune_plan.isolated``) so that a wrong variant is rejected alone; the correct
ones are timed interleaved, ``Settings.runs`` rounds, and each region's choice is made (``tune_plan.choose``).
"""

from __future__ import annotations

import dataclasses
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from polyopt.program.harness import (
    DEFAULT_RTOL,
    THREADS,
    Build,
    beside,
    build,
    outputs_difference,
    run_outputs,
)
from polyopt.program.tune_plan import (
    MARGIN,
    TIMES_VARIABLE,
    Program,
    RegionChoice,
    RegionVariants,
    TuneResult,
    VariantResult,
    choose,
    instrumented,
    isolated,
    programs,
    timers_source,
)
from polyopt.toolchain import ToolchainError

DEFAULT_RUNS = 5


class TuneFailure(Exception):
    """Tuning could not finish: polyopt, the original's build or run, or the composed program failed."""


@dataclass(frozen=True)
class Settings:
    """How the programs are built (``how``), timed (``runs`` rounds with ``threads`` OpenMP threads) and
    compared (``rtol``, as ``polyopt check``), and the ``margin`` by which the code as written is kept."""

    how: Build
    runs: int = DEFAULT_RUNS
    threads: int = 1
    rtol: float = DEFAULT_RTOL
    margin: float = MARGIN


@dataclass
class _Measurements:
    """The samples gathered so far: seconds per (region position, variant), runs per region, rejections."""

    seconds: dict[tuple[int, int], list[float]] = dataclasses.field(default_factory=dict)
    executions: dict[int, int] = dataclasses.field(default_factory=dict)
    rejected: dict[tuple[int, int], str] = dataclasses.field(default_factory=dict)

    def reject(self, program: Program, why: str) -> None:
        for r in program.timed:
            self.rejected[r, program.picks[r]] = why
            self.seconds.pop((r, program.picks[r]), None)


class _Bench:
    """Builds, checks and times the instrumented programs of one file in ``folder``."""

    def __init__(
        self, source: Path, text: str, variants: Sequence[RegionVariants], settings: Settings, folder: Path
    ) -> None:
        self.source, self.text, self.variants, self.settings, self.folder = source, text, variants, settings, folder
        timers = folder / "polyopt_tune_timers.c"
        timers.write_text(timers_source(variants), encoding="utf-8")
        self.how = replace(beside(settings.how, source), extra_sources=(*settings.how.extra_sources, timers))
        try:
            original = build(source, folder / "original", settings.how)
            self.expected = run_outputs(original, threads=1)
        except ToolchainError as error:
            raise TuneFailure(f"the original program: {error}") from None

    def verified(self, program: Program) -> tuple[Path | None, str | None]:
        """``program`` built, and None; or None and why it failed to build or printed other output than the
        original with one of ``harness.THREADS``."""
        source = self.folder / f"{program.name}.c"
        source.write_text(instrumented(self.text, self.variants, program), encoding="utf-8")
        try:
            binary = build(source, self.folder / program.name, self.how)
            for threads in THREADS:
                difference = self.difference(run_outputs(binary, threads))
                if difference is not None:
                    return None, f"outputs differ with OMP_NUM_THREADS={threads}, {difference}"
        except ToolchainError as error:
            return None, str(error)
        return binary, None

    def difference(self, outputs: tuple[str, str]) -> str | None:
        return outputs_difference(self.expected, outputs, self.settings.rtol, name="variant")

    def timed(self, binary: Path) -> tuple[tuple[str, str], dict[int, tuple[float, int]]]:
        """What one run of ``binary`` printed, and per region index its seconds and executions."""
        times = self.folder / "times"
        times.unlink(missing_ok=True)
        outputs = run_outputs(binary, self.settings.threads, {TIMES_VARIABLE: str(times)})
        try:
            lines = times.read_text(encoding="utf-8").split("\n")
        except OSError:
            raise ToolchainError(f"{binary} wrote no region times (did it end by exit or return from main?)") from None
        found = (line.split() for line in lines if line.strip())
        return outputs, {int(index): (int(ns) * 1e-9, int(count)) for index, ns, count in found}


def _accepted(bench: _Bench, measurements: _Measurements) -> list[tuple[Program, Path]]:
    """The built programs whose outputs are right: a wrong one is split into one program per region it
    times (``tune_plan.isolated``), and a wrong single variant is rejected."""
    accepted: list[tuple[Program, Path]] = []
    pending = list(programs(bench.variants))
    while pending:
        program = pending.pop(0)
        binary, failure = bench.verified(program)
        if binary is not None:
            accepted.append((program, binary))
        elif not any(program.picks):
            raise TuneFailure(f"the original program with its regions timed: {failure}")
        elif len(program.timed) > 1:
            pending[:0] = isolated(program)
        else:
            measurements.reject(program, failure or "")
    return accepted


def measure(source: Path, text: str, variants: Sequence[RegionVariants], settings: Settings) -> TuneResult:
    """Each region's variants checked and timed in the user's program ``source`` (whose text is ``text``),
    and the choice per region (``tune_plan.choose``)."""
    measurements = _Measurements()
    with tempfile.TemporaryDirectory(prefix="polyopt-tune-") as name:
        bench = _Bench(source, text, variants, settings, Path(name))
        accepted = _accepted(bench, measurements)
        for _ in range(settings.runs):
            for program, binary in list(accepted):
                try:
                    outputs, times = bench.timed(binary)
                    difference = bench.difference(outputs)
                except ToolchainError as error:
                    difference = str(error)
                if difference is not None:
                    if not any(program.picks):
                        raise TuneFailure(f"the original program printed other output in a timed run: {difference}")
                    measurements.reject(program, f"a timed run: {difference}")
                    accepted.remove((program, binary))
                    continue
                for r in program.timed:
                    seconds, count = times.get(variants[r].region.index, (0.0, 0))
                    measurements.executions[r] = count
                    if count:
                        measurements.seconds.setdefault((r, program.picks[r]), []).append(seconds)
    return _result(variants, measurements, settings)


def _result(variants: Sequence[RegionVariants], measurements: _Measurements, settings: Settings) -> TuneResult:
    regions = []
    for r, item in enumerate(variants):
        results = tuple(
            VariantResult(
                variant.names,
                variant.summary,
                tuple(measurements.seconds.get((r, k), ())),
                measurements.rejected.get((r, k)),
            )
            for k, variant in enumerate(item.variants)
        )
        chosen, executions = choose(results, settings.margin), measurements.executions.get(r, 0)
        regions.append(RegionChoice(item.region.index, item.region.location.line, results, chosen, executions))
    return TuneResult(tuple(regions), settings.runs, settings.threads, settings.margin)
