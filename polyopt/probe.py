"""The probe: how fast the BLAS library, polyopt's microkernel and its loops are on this machine.

Public: ``ProbeKey``, ``GEMM_SIZES``, ``GEMV_SIZES``, ``NO_PROBE_VARIABLE``, ``RunProbe``, ``cache_folder``,
``library_file``, ``probe_key``, ``cache_path``, ``load``, ``store``, ``probed``, ``measure``.

The first time a run with ``--blas=auto`` meets a BLAS idiom, polyopt optimizes one small program
three times (its loops: ``--blas=none --no-microkernel``; its microkernel: ``--blas=none``; the
library: every idiom called), builds each with the benchmark's gcc flags and runs them in fresh
processes, interleaved, each timing only its region: a matrix-matrix product (n×n×n) at
``GEMM_SIZES`` and a matrix-vector product (n×n) at ``GEMV_SIZES``, the median of three runs, with
``OMP_NUM_THREADS`` the machine's cores (a few seconds in all).  ``measured_choice``
(``polyopt.analysis.library_choice``) turns the timings into a choice per idiom.

The result is cached per user in ``$XDG_CACHE_HOME/polyopt`` (``~/.cache/polyopt`` by default), one
JSON file per key: the CPU (model, flags), the cores, the library file that ``gcc -lopenblas`` links
(resolved path, size, modification time), ``OPENBLAS_CORETYPE`` and polyopt's version and cache
format.  A new library or CPU is a new key, so a new probe.  The file is written to a temporary
file and renamed over the cache file (atomic); a lock file (``fcntl.flock``) makes concurrent runs
(``make -j``) wait for the one that probes and then read its result, so the programs are timed one
probe at a time.  No probe with ``--no-probe`` or ``POLYOPT_NO_PROBE`` set (hermetic builds), when
gcc finds no ``cblas.h`` or no ``libopenblas``, or when a target file or flags set both thresholds;
the documented defaults (the machine's thresholds) apply then.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import re
import statistics
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from polyopt import __version__
from polyopt.analysis.library_choice import (
    AWAITING_PROBE,
    LibraryChoice,
    Measurements,
    Timing,
    default_choice,
    measured_choice,
)
from polyopt.emit.blas import cblas_available, library_enabled
from polyopt.machine import PROC_CPUINFO, Machine
from polyopt.options import Options
from polyopt.pipeline import optimize_text
from polyopt.toolchain import CBLAS_LIBRARY, CC, CFLAGS, ToolchainError, compile_c, run_program

CACHE_VERSION = 1
NO_PROBE_VARIABLE = "POLYOPT_NO_PROBE"
GEMM_SIZES = (128, 400, 800)
GEMV_SIZES = (512, 1024, 2048)
RUNS = 3

PROGRAM = """\
#include <stdio.h>
#include <stdlib.h>
#include <omp.h>
#ifndef GMAX
# define GMAX 64
#endif
#ifndef VMAX
# define VMAX 64
#endif
static double A[GMAX][GMAX], B[GMAX][GMAX], C[GMAX][GMAX], V[VMAX][VMAX], x[VMAX], y[VMAX];
extern char *openblas_get_corename(void) __attribute__((weak));
extern char *openblas_get_config(void) __attribute__((weak));

static void gemm(int n)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}

static void gemv(int n)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[i] += V[i][j] * x[j];
#pragma endscop
}

int main(int argc, char **argv)
{
  if (argc < 3 || argv[1][0] == 'i') {
    if (openblas_get_corename && openblas_get_config)
      printf("%s\\n%s\\n", openblas_get_corename(), openblas_get_config());
    return 0;
  }
  int matrix = argv[1][0] == 'm', n = atoi(argv[2]);
  for (int i = 0; i < n; i++) {
    x[i] = (i % 7) / 7.0;
    for (int j = 0; j < n; j++) {
      if (matrix) {
        A[i][j] = ((i * j) % 11) / 11.0;
        B[i][j] = ((i + j) % 13) / 13.0;
      } else
        V[i][j] = ((i * j) % 11) / 11.0;
    }
  }
  double start = omp_get_wtime();
  if (matrix)
    gemm(n);
  else
    gemv(n);
  printf("%.9f\\n", omp_get_wtime() - start);
  fprintf(stderr, "%g %g\\n", C[n / 2][n / 3], y[n / 2]);
  return 0;
}
"""
# ``--blas`` and ``--microkernel`` of each variant of the program: the loops, the microkernel, every idiom called
_VARIANTS = {"loops": ("none", False), "microkernel": ("none", True), "call": ("cblas", True)}


@dataclass(frozen=True)
class ProbeKey:
    """What the measurements depend on: the CPU (model, a hash of its flags), the cores, the library
    file (resolved path, bytes, modification time in ns), ``OPENBLAS_CORETYPE`` and polyopt's version."""

    cpu: str
    flags: str
    cores: int
    library: str
    library_bytes: int
    library_mtime: int
    coretype: str
    polyopt: str = __version__
    version: int = CACHE_VERSION

    def digest(self) -> str:
        """A short hash of the key: the name of its cache file."""
        text = json.dumps(dataclasses.asdict(self), sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def cache_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_CACHE_HOME/polyopt``, or ``~/.cache/polyopt`` when the variable is unset or not absolute."""
    base = environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "polyopt"


def cache_path(key: ProbeKey, folder: Path) -> Path:
    return folder / f"probe-{key.digest()}.json"


def library_file() -> Path | None:
    """The library file that ``gcc ... -lopenblas`` links (symbolic links resolved), None when gcc finds none."""
    name = f"lib{CBLAS_LIBRARY.removeprefix('-l')}.so"
    try:
        found = subprocess.run([CC, f"-print-file-name={name}"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = Path(found.stdout.strip())
    return path.resolve() if found.returncode == 0 and path.is_absolute() and path.exists() else None


def _cpuinfo_field(text: str, name: str) -> str:
    match = re.search(rf"^{name}\s*:(.*)$", text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def probe_key(
    library: Path, cores: int, cpuinfo: Path = PROC_CPUINFO, environ: Mapping[str, str] = os.environ
) -> ProbeKey:
    """The key of the measurements with ``library`` on this CPU (``cpuinfo``) with ``cores``."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    flags = hashlib.sha256(_cpuinfo_field(text, "flags").encode()).hexdigest()[:16]
    stat = library.stat()
    coretype = environ.get("OPENBLAS_CORETYPE", "")
    model = _cpuinfo_field(text, "model name")
    return ProbeKey(model, flags, cores, str(library), stat.st_size, stat.st_mtime_ns, coretype)


def _timings(items: list[dict[str, float]]) -> tuple[Timing, ...]:
    return tuple(Timing(int(item["size"]), item["loops"], item["call"], item.get("microkernel")) for item in items)


def load(path: Path, key: ProbeKey) -> Measurements | None:
    """The measurements cached in ``path`` for ``key``; None when there are none, or they are of another
    key or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != dataclasses.asdict(key):
            return None
        timings = _timings(data["gemm"]), _timings(data["gemv"])
        return Measurements(*timings, data["corename"], data["config"], float(data["load"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(path: Path, key: ProbeKey, measurements: Measurements, seconds: float) -> None:
    """Write the measurements of ``key`` to ``path`` atomically: into a temporary file in its folder,
    then renamed over it."""
    data = {"key": dataclasses.asdict(key), "seconds": round(seconds, 3), **dataclasses.asdict(measurements)}
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=1)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created when missing) until the block ends."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def probed(key: ProbeKey, folder: Path, run: Callable[[], Measurements]) -> tuple[Measurements, str]:
    """The measurements of ``key``: read from the cache in ``folder``, else measured by ``run`` and stored
    there (one probe at a time: others wait on the lock, then read its result); and what happened."""
    path = cache_path(key, folder)
    found = load(path, key)
    if found is not None:
        return found, f"read from the cache {path}"
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(path.with_suffix(".lock")):
        found = load(path, key)
        if found is not None:
            return found, f"read from the cache {path}, written by a concurrent run"
        start = time.monotonic()
        measurements = run()
        seconds = time.monotonic() - start
        store(path, key, measurements, seconds)
    return measurements, f"ran in {seconds:.1f} s, cached in {path}"


def _optimized(folder: Path, name: str, machine: Machine) -> Path:
    """The timing program optimized as variant ``name`` (``_VARIANTS``)."""
    calls = dataclasses.replace(machine, blas3_threshold=0, blas2_threshold=0)
    blas, microkernel = _VARIANTS[name]
    options = Options(blas=blas, microkernel=microkernel, machine=calls)
    outcome = optimize_text(PROGRAM, f"{name}.c", options)
    if outcome.warnings:
        raise ToolchainError(f"polyopt did not optimize the probe's {name} program: {outcome.warnings[0]}")
    optimized = folder / f"{name}.c"
    optimized.write_text(outcome.text, encoding="utf-8")
    return optimized


def _built(folder: Path, machine: Machine, defines: list[str]) -> dict[str, Path]:
    """Each variant of the timing program, optimized one after the other (polyopt forks), built at once."""
    sources = {name: _optimized(folder, name, machine) for name in _VARIANTS}
    with ThreadPoolExecutor(len(sources)) as pool:
        builds = {
            name: pool.submit(compile_c, source, folder / name, flags=CFLAGS, defines=defines)
            for name, source in sources.items()
        }
        return {name: build.result() for name, build in builds.items()}


def _seconds(binary: Path, kind: str, size: int, threads: int) -> float:
    return float(run_program(binary, arguments=[kind, str(size)], threads=threads).stdout.split()[0])


def measure(
    machine: Machine,
    gemm_sizes: tuple[int, ...] = GEMM_SIZES,
    gemv_sizes: tuple[int, ...] = GEMV_SIZES,
    runs: int = RUNS,
    threads: int | None = None,
) -> Measurements:
    """Median region times of the loops, the microkernel and the call (GEMM) and of the loops and the call
    (GEMV) at each size, in ``runs`` interleaved rounds with ``threads`` (default: the machine's cores)."""
    threads = threads or machine.cores
    load = os.getloadavg()[0]
    defines = [f"GMAX={max(gemm_sizes)}", f"VMAX={max(gemv_sizes)}"]
    plan = [("m", size, name) for size in gemm_sizes for name in _VARIANTS]
    plan += [("v", size, name) for size in gemv_sizes for name in ("loops", "call")]
    with tempfile.TemporaryDirectory(prefix="polyopt-probe-") as name:
        folder = Path(name)
        binaries = _built(folder, machine, defines)
        times: dict[tuple[str, int, str], list[float]] = {item: [] for item in plan}
        for _ in range(runs):
            for kind, size, variant in plan:
                times[kind, size, variant].append(_seconds(binaries[variant], kind, size, threads))
        library = run_program(binaries["call"], arguments=["info"]).stdout.splitlines()
    median = {item: statistics.median(values) for item, values in times.items()}
    gemm = tuple(
        Timing(size, median["m", size, "loops"], median["m", size, "call"], median["m", size, "microkernel"])
        for size in gemm_sizes
    )
    gemv = tuple(Timing(size, median["v", size, "loops"], median["v", size, "call"]) for size in gemv_sizes)
    corename, config = (library + ["", ""])[:2]
    return Measurements(gemm, gemv, corename, config, load)


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
