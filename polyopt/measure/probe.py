"""The probe: how fast the BLAS library, polyopt's microkernel and its loops are on this machine.

Public: ``GEMM_SIZES``, ``SQUARE_SIZES``, ``BATCHED_SIZES``, ``GEMV_SIZES``, ``RunProbe``,
``default_gemv_sizes``, ``measure``, ``sampled``.

The first time a run with ``--blas=auto`` meets a BLAS idiom, polyopt optimizes one small program
(``polyopt/templates/probe_program.c``)
three times (its loops: ``--blas=none --no-microkernel``; its microkernel: ``--blas=none``; the
library: every idiom called), builds each with the benchmark's gcc flags and runs them in fresh
processes, interleaved, each timing only its region, which comes after an OpenMP parallel loop as in
any program with polyopt's parallel loops (PolyBench's harness has one too: libgomp's threads then spin
for a while, and a library call that starts the library's own threads meanwhile competes with them for
the cores): a matrix-matrix product (n×n×n) at ``GEMM_SIZES``, the rank-k update ``C += A Aᵀ`` (lower
triangle, n×n×n), the product ``C = αAB + βC`` with a symmetric ``A`` read in its lower triangle (SYMM) and
the in-place product ``B = (I + L)ᵀ B`` with a strict lower triangle ``L`` (TRMM), both in PolyBench's form,
at ``SQUARE_SIZES``, n products of n×n matrices by one n×n matrix, n times, in PolyBench doitgen's form
(a batched GEMM, whose loops are not a square GEMM's) at ``BATCHED_SIZES``, a matrix-vector product (n×n)
and two of
them over one matrix (``y = A x``, ``z = Aᵀ w``) at ``GEMV_SIZES`` and at one size whose matrix streams
from memory (``default_gemv_sizes``), with ``OMP_NUM_THREADS`` the machine's cores.  Each time is the
mean of its runs (a call after the parallel loop runs either in well under a millisecond or, when the
library's threads wait for the cores, milliseconds later; the mean weighs both as a program meets them,
where a median picks either): five rounds, then more rounds of the cases whose fastest variants are
within ``CLOSE`` of each other, up to ``MAX_RUNS`` (``sampled``; a few seconds in all).  The near ties are
where the choice flipped from one probe to the next.  ``measured_choice``
(``polyopt.library.choice``) turns the timings into a choice per idiom.

The result is cached per user, per CPU and library (``polyopt.measure.probe_cache``).  No probe with
``--no-probe`` or ``POLYOPT_NO_PROBE`` set (hermetic builds), when gcc finds no ``cblas.h`` or no
``libopenblas``, or when a target file or flags set both thresholds; the documented defaults (the
machine's thresholds) apply then.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import statistics
import tempfile
from collections.abc import Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path

from polyopt.driver import optimize_text
from polyopt.library.blas import cblas_available, library_enabled
from polyopt.library.choice import (
    AWAITING_PROBE,
    Measurements,
    Timing,
    default_choice,
    measured_choice,
)
from polyopt.machine import Machine
from polyopt.measure.probe_cache import ProbeKey, cache_folder, cache_path, library_file, load, probe_key, probed
from polyopt.options import NO_PROBE_VARIABLE, LibraryChoice, Options
from polyopt.toolchain import CBLAS_LIBRARY, CFLAGS, ToolchainError, compile_c, run_program

GEMM_SIZES = (128, 400, 800)
GEMV_SIZES = (512, 1024, 2048)
SQUARE_SIZES = (800,)  # SYRK, SYMM and TRMM, n×n×n, within the GEMM's arrays
BATCHED_SIZES = (64, 128, 192)  # n products of n×n by n×n, n times, as PolyBench's doitgen computes them
STREAM_SIZE_LIMIT = 8192  # the largest GEMV size measured: its matrix takes 512 MiB
RUNS = 5
MAX_RUNS = 9
CLOSE = 0.1  # cases whose two fastest variants are closer than this get more rounds, up to MAX_RUNS

PROGRAM = resources.files("polyopt.templates").joinpath("probe_program.c").read_text(encoding="utf-8")
# ``--blas`` and ``--microkernel`` of each variant of the program: the loops, the microkernel, every idiom called
_VARIANTS = {"loops": ("none", False), "microkernel": ("none", True), "call": ("cblas", True)}


def _optimized(folder: Path, name: str, machine: Machine) -> Path:
    """The timing program optimized as variant ``name`` (``_VARIANTS``)."""
    calls = dataclasses.replace(machine, blas3_threshold=0, blas2_threshold=0, rank_k_microkernel=1)
    blas, microkernel = _VARIANTS[name]
    options = Options(blas=blas, microkernel=microkernel, machine=calls)
    outcome = optimize_text(PROGRAM, f"{name}.c", options)
    if outcome.warnings:
        raise ToolchainError(f"polyopt did not optimize the probe's {name} program: {outcome.warnings[0]}")
    optimized = folder / f"{name}.c"
    optimized.write_text(outcome.text, encoding="utf-8")
    return optimized


def _built(folder: Path, machine: Machine, defines: list[str]) -> dict[str, Path]:
    """Each variant of the timing program, optimized one after the other (polyopt forks), each built while
    the next ones are optimized."""
    build = functools.partial(compile_c, flags=CFLAGS, defines=defines)
    with ThreadPoolExecutor(len(_VARIANTS)) as pool:
        builds = {name: pool.submit(build, _optimized(folder, name, machine), folder / name) for name in _VARIANTS}
        return {name: build.result() for name, build in builds.items()}


def _seconds(binary: Path, kind: str, size: int, threads: int) -> float:
    return float(run_program(binary, arguments=[kind, str(size)], threads=threads).stdout.split()[0])


def default_gemv_sizes(machine: Machine) -> tuple[int, ...]:
    """``GEMV_SIZES`` and the smallest power of two whose n×n doubles take twice the cache all cores share
    (up to ``STREAM_SIZE_LIMIT``), so that one measured product streams its matrix from memory as large
    programs do."""
    size = max(GEMV_SIZES)
    while size * size * 8 < 2 * machine.shared_cache and size < STREAM_SIZE_LIMIT:
        size *= 2
    return tuple(sorted({*GEMV_SIZES, size}))


Case = tuple[str, int]  # the program's kind (m, v, s) and its size n
Item = tuple[str, int, str]  # a case and the variant that runs it


def _close(times: Mapping[Item, list[float]]) -> set[Case]:
    """The cases whose two fastest variants' mean times differ by less than ``CLOSE`` of the faster."""
    means: dict[Case, list[float]] = {}
    for (kind, size, _), values in times.items():
        means.setdefault((kind, size), []).append(statistics.fmean(values))
    ranked = {case: sorted(found) for case, found in means.items() if len(found) > 1}
    return {case for case, found in ranked.items() if found[1] < found[0] * (1 + CLOSE)}


def sampled(plan: list[Item], seconds: Callable[[Item], float], runs: int, max_runs: int) -> dict[Item, list[float]]:
    """The times of every item of ``plan`` in ``runs`` interleaved rounds, then, while some case's two fastest
    variants are close (``_close``) and fewer than ``max_runs`` rounds ran, one more round of those cases'
    items: samples are added where the choice is in doubt, until it is clear or the rounds run out."""
    times: dict[Item, list[float]] = {item: [] for item in plan}
    for _ in range(runs):
        for item in plan:
            times[item].append(seconds(item))
    for _ in range(runs, max_runs):
        doubtful = _close(times)
        if not doubtful:
            break
        for item in plan:
            if item[:2] in doubtful:
                times[item].append(seconds(item))
    return times


def measure(
    machine: Machine,
    gemm_sizes: tuple[int, ...] = GEMM_SIZES,
    gemv_sizes: tuple[int, ...] | None = None,
    runs: int = RUNS,
    threads: int | None = None,
    max_runs: int = MAX_RUNS,
    square_sizes: tuple[int, ...] = SQUARE_SIZES,
    batched_sizes: tuple[int, ...] = BATCHED_SIZES,
) -> Measurements:
    """Mean region times of the loops, the microkernel and the call (GEMM, and SYRK, SYMM and TRMM at
    ``square_sizes``) and of the loops and the call (GEMV, two GEMVs over one matrix, and batched GEMMs at
    ``batched_sizes``) at each size (GEMV: by default ``default_gemv_sizes``), sampled by ``sampled`` with
    ``threads`` (default: the machine's cores)."""
    threads = threads or machine.cores
    gemv_sizes = gemv_sizes or default_gemv_sizes(machine)
    load = os.getloadavg()[0]
    defines = [f"GMAX={max(gemm_sizes + square_sizes)}", f"VMAX={max(gemv_sizes)}", f"BMAX={max(batched_sizes)}"]
    plan = [("m", size, name) for size in gemm_sizes for name in _VARIANTS]
    plan += [(kind, size, name) for kind in "kyt" for size in square_sizes for name in _VARIANTS]
    plan += [(kind, size, name) for kind in "vs" for size in gemv_sizes for name in ("loops", "call")]
    plan += [("b", size, name) for size in batched_sizes for name in ("loops", "call")]
    with tempfile.TemporaryDirectory(prefix="polyopt-probe-") as name:
        folder = Path(name)
        binaries = _built(folder, machine, defines)
        times = sampled(plan, lambda item: _seconds(binaries[item[2]], item[0], item[1], threads), runs, max_runs)
        library = run_program(binaries["call"], arguments=["info"]).stdout.splitlines()
    mean = {item: statistics.fmean(values) for item, values in times.items()}
    gemm, syrk, symm, trmm = (
        tuple(Timing(size, *(mean[kind, size, name] for name in ("loops", "call", "microkernel"))) for size in sizes)
        for kind, sizes in (("m", gemm_sizes), ("k", square_sizes), ("y", square_sizes), ("t", square_sizes))
    )
    gemv, shared, batched = (
        tuple(Timing(size, mean[kind, size, "loops"], mean[kind, size, "call"]) for size in sizes)
        for kind, sizes in (("v", gemv_sizes), ("s", gemv_sizes), ("b", batched_sizes))
    )
    corename, config = (library + ["", ""])[:2]
    return Measurements(gemm, gemv, corename, config, load, shared, syrk, symm, trmm, batched)


def _disabled(environ: Mapping[str, str]) -> bool:
    return environ.get(NO_PROBE_VARIABLE, "") not in ("", "0")


class RunProbe:
    """The library choice of one run of polyopt: ``initial`` (read from the cache, ``AWAITING_PROBE`` when
    the probe is still to run on first need, None when there is no probe: the machine's thresholds);
    calling it runs the probe; ``status`` says what happened and ``choice`` what was chosen."""

    def __init__(
        self,
        options: Options,
        given: frozenset[int],
        enabled: bool,
        *,
        run: Callable[[Machine], Measurements] = measure,
        folder: Path | None = None,
        environ: Mapping[str, str] = os.environ,
        library: Callable[[], Path | None] = library_file,
    ) -> None:
        self._options, self._given, self._run = options, given, run
        self._folder = folder if folder is not None else cache_folder(environ)
        self.choice: LibraryChoice | None = None
        self._key: ProbeKey | None = None
        self.status = self._skipped(options, given, enabled, environ)
        if self.status:
            self.initial: LibraryChoice | None = None
            return
        found = library()
        if found is None:
            self.status, self.initial = f"probe skipped: gcc finds no lib for {CBLAS_LIBRARY}", None
            return
        self._key = probe_key(found, options.machine.cores, environ=environ)
        path = cache_path(self._key, self._folder)
        cached = load(path, self._key)
        if cached is None:
            self.status, self.initial = "probe not run: no region has a BLAS idiom", AWAITING_PROBE
            return
        self.initial = self.choice = self._chosen(cached, f"measured by the probe, read from the cache {path}")
        self.status = self.initial.origin

    @staticmethod
    def _skipped(options: Options, given: frozenset[int], enabled: bool, environ: Mapping[str, str]) -> str:
        """Why no probe runs ("" when it may)."""
        if options.blas != "auto":
            return f"probe not needed with --blas={options.blas}"
        if not enabled:
            return "probe skipped: --no-probe"
        if _disabled(environ):
            return f"probe skipped: {NO_PROBE_VARIABLE} is set"
        if given >= {2, 3}:
            return "probe skipped: the target file or flags set both BLAS thresholds"
        if not cblas_available(options.cpp_flags):
            return "probe skipped: gcc finds no cblas.h"
        return ""

    def _chosen(self, measurements: Measurements, origin: str) -> LibraryChoice:
        library = f"; library {measurements.corename or 'unknown'}" + (
            f" ({measurements.config})" if measurements.config else ""
        )
        library += f"; load average {measurements.load:.1f} when measured"
        options = self._options
        return measured_choice(measurements, options.machine, self._given, options.microkernel, origin + library)

    def report(self) -> tuple[str, ...]:
        """``--report`` lines: what the probe did, then the choice per idiom kind that applied (the machine's
        thresholds when there was no probe and calls may be made; none when no region needed a choice)."""
        choice = self.choice
        if choice is None and self.initial is None and library_enabled(self._options.blas, self._options.cpp_flags):
            choice = default_choice(self._options.machine)
        lines = choice.describe() if choice is not None else ()
        return (f"library: {self.status}", *(f"  {line}" for line in lines))

    def __call__(self) -> LibraryChoice:
        """The choice from the probe's measurements (measured now unless a concurrent run did), or the
        machine's thresholds when the probe cannot run."""
        if self._key is None:
            self.choice = default_choice(self._options.machine)
            return self.choice
        try:
            measurements, what = probed(self._key, self._folder, lambda: self._run(self._options.machine))
        except (OSError, ToolchainError) as error:
            self.status = f"probe failed, machine thresholds used: {str(error).splitlines()[0]}"
            self.choice = default_choice(self._options.machine)
            return self.choice
        self.choice = self._chosen(measurements, f"measured by the probe, which {what}")
        self.status = self.choice.origin
        return self.choice
