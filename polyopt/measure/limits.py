"""The machine's limits, measured once per machine: peak FLOP/s and the bandwidth of each memory level.

Public: ``Limits``, ``LimitsKey``, ``LimitsError``, ``MIN_SECONDS``, ``TRIALS``, ``accumulators``,
``working_sets``, ``program``, ``parse``, ``run_limits``, ``stable_limits``, ``limits_key``, ``measured_limits``.

One generated C program (``program``) measures everything in one run, built with
``gcc -O3 -march=native -fopenmp``:

- the peak rate of ``double`` and ``float``: a loop of fused multiply-adds on ``accumulators`` independent
  vectors of the detected width (GCC's ``vector_size`` extension, so it does not hang on the
  auto-vectorizer), enough to keep two FMA units of four cycles' latency busy; 2 flops per lane and FMA;
- the peak rate of ``int`` operations: the same loop on ``int`` lanes of an exclusive or and an add (the
  exclusive or keeps gcc from summing the repetitions in closed form); 2 operations per lane and step;
- the peak rate of ``double`` divisions: the same loop dividing each accumulator by a constant (a division
  unit is slower than the FMA units and not pipelined as deeply, so a kernel that divides at every point can
  be bound by it: adi, seidel-2d);
- the bandwidth of L1, L2, L3 and DRAM: STREAM's copy ``a[i] = b[i]`` and triad ``a[i] = b[i] + s*c[i]``
  over three ``double`` arrays whose bytes together are ``working_sets`` (half of each cache, eight
  times the L3 for DRAM), each thread on its own arrays.  Bytes are counted as STREAM counts them:
  16 per element for copy, 24 for triad; the write-allocate read of the stored line is not counted.
  A level's bandwidth is the better of the two kernels (``Limits.kernels`` says which).

Each is measured on one thread and on all cores (OpenMP): its repetitions double until a pass takes
``MIN_SECONDS``, then the best of ``TRIALS`` passes counts.  The program runs again until a run raises
no limit by more than ``STABLE`` (at most ``RUNS`` times), each limit the best of the runs: another job
on the machine lowers a run's figures (the all-core ones most), never raises them.  The result is cached
per user like the probe's (``polyopt.measure.probe_cache``), per CPU, cores, caches, vector width,
compiler and polyopt version; ``python -m polyopt.measure`` prints it as the target profile's
``peak-gflops-*`` and ``bandwidth-*`` keys.
"""

from __future__ import annotations

import dataclasses
import json
import math
import subprocess
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from polyopt import __version__
from polyopt.machine import Machine
from polyopt.measure.probe_cache import CacheKey, cache_folder, computed_once, cpu_identity, write_json
from polyopt.target_keys import LIMIT_FIELDS
from polyopt.toolchain import CC, CFLAGS, ToolchainError, compile_c, run_program

CACHE_VERSION = 4
MIN_SECONDS = 0.04  # a timed pass lasts at least this long
TRIALS = 5  # timed passes per measurement: the best counts
STABLE = 0.05  # the runs stop when one raises no limit by more than this fraction
RUNS = 6  # at most this many runs of the program
LEVELS = ("l1", "l2", "l3", "dram")
KERNELS = ("fma", "add", "div", "copy", "triad")


class LimitsError(ToolchainError):
    """The limits program printed something other than its measurements."""


@dataclass(frozen=True)
class Limits:
    """Peak GFLOP/s (double, float), bandwidth in GB/s (L1, L2, L3, DRAM), peak G operations/s on ``int`` and
    peak G ``double`` divisions/s, each on one core (``_core``) and on all cores; 0 where not measured (no L3).
    ``kernels`` names the kernel that measured each field (``fma``, ``add``, ``div``, ``copy`` or ``triad``)."""

    peak_gflops_double_core: float
    peak_gflops_double: float
    peak_gflops_float_core: float
    peak_gflops_float: float
    bandwidth_l1_core: float
    bandwidth_l1: float
    bandwidth_l2_core: float
    bandwidth_l2: float
    bandwidth_l3_core: float
    bandwidth_l3: float
    bandwidth_dram_core: float
    bandwidth_dram: float
    peak_gops_int_core: float
    peak_gops_int: float
    peak_gdivs_double_core: float
    peak_gdivs_double: float
    kernels: tuple[tuple[str, str], ...] = ()
    runs: int = 1

    def settings(self) -> dict[str, float]:
        """The limits by ``Machine`` field (the target profile's keys)."""
        return {field: getattr(self, field) for field in LIMIT_FIELDS}

    def applied(self, machine: Machine) -> Machine:
        """``machine`` with these limits in its profile."""
        return dataclasses.replace(machine, **self.settings(), origin=f"{machine.origin}; limits measured")


def accumulators(machine: Machine) -> int:
    """Independent vector accumulators of the FMA loop: 16 with 32 vector registers, else 12 (2 FMA units
    of 4 cycles' latency need 8; more hide a longer latency), leaving registers for the constants."""
    return min(16, machine.vector_registers - 4)


def working_sets(machine: Machine, threads: int) -> dict[str, int]:
    """Bytes of the three arrays of each thread per level when ``threads`` run: half of L1 and of L2 (each
    core's own), half of the L3 shared by the threads, and eight times the L3 (or all cores' L2) for DRAM:
    copy then still touches over five times the L3 (with four times, some of it stayed in cache)."""
    shared = machine.l3 or machine.l2 * machine.cores
    sets = {"l1": machine.l1 // 2, "l2": machine.l2 // 2}
    if machine.l3:
        sets["l3"] = machine.l3 // 2 // threads
    sets["dram"] = 8 * shared // threads
    return sets


_HEADER = r"""#include <omp.h>
#include <stdio.h>
#include <stdlib.h>

#define ACC %(accumulators)d
typedef double vd __attribute__((vector_size(%(vector)d)));
typedef float vf __attribute__((vector_size(%(vector)d)));
typedef int vi __attribute__((vector_size(%(vector)d)));
static double min_seconds;
static int trials;
static volatile double sink[1024];

/* The seconds of one of the best passes of `body` (reps repetitions, doubled until a pass takes min_seconds). */
#define TIMED(threads, setup, body, teardown, result)                                  \
  {                                                                                     \
    long reps = 1;                                                                      \
    int done = 0;                                                                       \
    double best = 1e30, start = 0;                                                      \
    _Pragma("omp parallel num_threads(threads)")                                        \
    {                                                                                   \
      int me = omp_get_thread_num();                                                    \
      setup;                                                                            \
      while (done < trials) {                                                           \
        _Pragma("omp barrier")                                                          \
        _Pragma("omp master") start = omp_get_wtime();                                  \
        _Pragma("omp barrier")                                                          \
        body;                                                                           \
        _Pragma("omp barrier")                                                          \
        _Pragma("omp single")                                                           \
        {                                                                               \
          double elapsed = omp_get_wtime() - start;                                     \
          if (elapsed < min_seconds && done == 0)                                       \
            reps = reps * 2 > reps * 1.2 * min_seconds / elapsed ? reps * 2 : reps * 1.2 * min_seconds / elapsed; \
          else {                                                                        \
            best = elapsed / reps < best ? elapsed / reps : best;                       \
            done++;                                                                     \
          }                                                                             \
        }                                                                               \
      }                                                                                 \
      teardown;                                                                         \
    }                                                                                   \
    result = best;                                                                      \
  }

/* ACC independent chains of `step` on vectors of `type`, each started at `first` (k: its index, me: the
   thread's). */
#define ACC_LOOP(type, scalar, first, step)                                             \
  {                                                                                     \
    type acc[ACC];                                                                      \
    for (int k = 0; k < ACC; k++)                                                       \
      acc[k] = (type){} + (scalar)(first);                                              \
    for (long r = 0; r < reps; r++) {                                                   \
      _Pragma("GCC unroll 16")                                                          \
      for (int k = 0; k < ACC; k++)                                                     \
        acc[k] = step;                                                                  \
    }                                                                                   \
    scalar total = 0;                                                                   \
    for (int k = 0; k < ACC; k++)                                                       \
      for (unsigned l = 0; l < sizeof(type) / sizeof(scalar); l++)                      \
        total += acc[k][l];                                                             \
    sink[me %% 1024] = total;                                                           \
  }
#define FMA_LOOP(type, scalar) \
  ACC_LOOP(type, scalar, k + me, acc[k] * ((type){} + (scalar)0.9999999) + ((type){} + (scalar)1e-7))
#define ADD_LOOP ACC_LOOP(vi, int, k + me, (acc[k] ^ ((vi){} + 5)) + ((vi){} + 3))
#define DIV_LOOP ACC_LOOP(vd, double, k + me + 1, acc[k] / ((vd){} + 1.0000001))

static double division_peak(int threads)
{
  double seconds;
  TIMED(threads, , DIV_LOOP, , seconds);
  return 1.0 * ACC * (%(vector)d / 8) * threads / seconds / 1e9;
}

static double integer_peak(int threads)
{
  double seconds;
  TIMED(threads, , ADD_LOOP, , seconds);
  return 2.0 * ACC * (%(vector)d / 4) * threads / seconds / 1e9;
}

static double peak(int threads, int single)
{
  double seconds;
  TIMED(threads, , if (single) FMA_LOOP(vd, double) else FMA_LOOP(vf, float), , seconds);
  int lanes = single ? %(vector)d / 8 : %(vector)d / 4;
  return 2.0 * ACC * lanes * threads / seconds / 1e9;
}

__attribute__((optimize("no-tree-loop-distribute-patterns")))
static void pass(int triad, double *a, const double *b, const double *c, long n, long reps)
{
  for (long r = 0; r < reps; r++) {
    if (triad)
      for (long i = 0; i < n; i++)
        a[i] = b[i] + 3.0 * c[i];
    else
      for (long i = 0; i < n; i++)
        a[i] = b[i];
    __asm__ volatile("" ::: "memory");
  }
}

static double bandwidth(int threads, int triad, long bytes)
{
  long n = bytes / 24 / 8 * 8;
  double seconds;
  TIMED(threads,
        double *a = aligned_alloc(64, 3 * n * sizeof(double)); double *b = a + n; double *c = b + n;
        for (long i = 0; i < 3 * n; i++) a[i] = 1.0 + (i & 7),
        pass(triad, a, b, c, n, reps),
        sink[me %% 1024] = a[n / 2]; free(a),
        seconds);
  return (triad ? 24.0 : 16.0) * n * threads / seconds / 1e9;
}

static void report(const char *field, const char *kernel, double value)
{
  printf("%%s %%s %%.6g\n", field, kernel, value);
}

static void level(const char *field, int threads, long bytes)
{
  double copy = bandwidth(threads, 0, bytes), triad = bandwidth(threads, 1, bytes);
  report(field, copy > triad ? "copy" : "triad", copy > triad ? copy : triad);
}

int main(int argc, char **argv)
{
  min_seconds = argc > 1 ? atof(argv[1]) : 0.05;
  trials = argc > 2 ? atoi(argv[2]) : 3;
  omp_set_dynamic(0);
"""


def program(machine: Machine) -> str:
    """The C program that measures ``machine``'s limits and prints ``field kernel value`` per limit
    (``LIMIT_FIELDS``, 0-valued fields left out); its arguments are ``MIN_SECONDS`` and ``TRIALS``."""
    lines = [_HEADER % {"accumulators": accumulators(machine), "vector": machine.simd_bytes}]
    for suffix, threads in (("_core", 1), ("", machine.cores)):
        for kind, single in (("double", 1), ("float", 0)):
            lines.append(f'  report("peak_gflops_{kind}{suffix}", "fma", peak({threads}, {single}));\n')
        for name, bytes_ in working_sets(machine, threads).items():
            lines.append(f'  level("bandwidth_{name}{suffix}", {threads}, {bytes_}L);\n')
        lines.append(f'  report("peak_gops_int{suffix}", "add", integer_peak({threads}));\n')
        lines.append(f'  report("peak_gdivs_double{suffix}", "div", division_peak({threads}));\n')
    lines.append("  return 0;\n}\n")
    return "".join(lines)


def parse(text: str) -> Limits:
    """The limits a run of ``program`` printed: one ``field kernel value`` line per limit, each field once,
    every value a positive number; fields not printed (no L3) are 0.  Raises ``LimitsError`` saying which
    line is wrong."""
    values: dict[str, float] = {}
    kernels: dict[str, str] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        parts = line.split()
        if len(parts) != 3 or parts[0] not in LIMIT_FIELDS or parts[1] not in KERNELS:
            raise LimitsError(f"the limits program's line {number} is not 'field kernel value': '{line}'")
        field, kernel, value = parts
        if field in values:
            raise LimitsError(f"the limits program printed '{field}' twice (line {number})")
        try:
            measured = float(value)
        except ValueError:
            measured = math.nan
        if not math.isfinite(measured) or measured <= 0:
            raise LimitsError(f"the limits program's line {number} has no positive number: '{line}'")
        values[field], kernels[field] = measured, kernel
    missing = [field for field in LIMIT_FIELDS if field not in values and "_l3" not in field]
    if missing:
        raise LimitsError(f"the limits program printed no {', '.join(missing)}")
    return Limits(**{field: values.get(field, 0.0) for field in LIMIT_FIELDS}, kernels=tuple(kernels.items()))


def run_limits(machine: Machine, min_seconds: float = MIN_SECONDS, trials: int = TRIALS) -> Limits:
    """Build ``program`` and run it once: ``machine``'s limits (each pass at least ``min_seconds``, best of
    ``trials``)."""
    with tempfile.TemporaryDirectory(prefix="polyopt-limits-") as name:
        source = Path(name) / "limits.c"
        source.write_text(program(machine), encoding="utf-8")
        binary = compile_c(source, Path(name) / "limits", flags=CFLAGS)
        result = run_program(binary, arguments=[str(min_seconds), str(trials)], threads=machine.cores, timeout=120)
    return parse(result.stdout)


def _best(first: Limits, second: Limits) -> Limits:
    """Each limit the larger of the two measurements', with the kernel that measured it."""
    kernels = dict(first.kernels)
    values = {}
    for field in LIMIT_FIELDS:
        values[field] = max(getattr(first, field), getattr(second, field))
        if getattr(second, field) > getattr(first, field):
            kernels[field] = dict(second.kernels)[field]
    return Limits(**values, kernels=tuple(kernels.items()), runs=first.runs + second.runs)


def _raised(before: Limits, after: Limits) -> bool:
    """Whether ``after`` raises some limit of ``before`` by more than ``STABLE``."""
    return any(getattr(after, field) > (1 + STABLE) * getattr(before, field) for field in LIMIT_FIELDS)


def stable_limits(machine: Machine, run: Callable[[Machine], Limits] = run_limits, runs: int = RUNS) -> Limits:
    """``machine``'s limits, ``run`` again until a run raises none by more than ``STABLE`` (at most ``runs``
    runs): each limit the best of the runs."""
    best = run(machine)
    while best.runs < runs:
        merged = _best(best, run(machine))
        if not _raised(best, merged):
            return merged
        best = merged
    return best


@dataclass(frozen=True)
class LimitsKey(CacheKey):
    """What the limits depend on: the CPU (model, a hash of its flags), the machine's facts, the compiler
    and polyopt's version."""

    cpu: str
    flags: str
    cores: int
    caches: tuple[int, int, int]
    simd_bytes: int
    vector_registers: int
    compiler: str
    polyopt: str = __version__
    version: int = CACHE_VERSION


def _compiler() -> str:
    """The first line of ``gcc --version`` ('' when gcc does not run)."""
    try:
        done = subprocess.run([CC, "--version"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return done.stdout.partition("\n")[0]


def limits_key(machine: Machine) -> LimitsKey:
    model, flags = cpu_identity()
    caches = (machine.l1, machine.l2, machine.l3)
    return LimitsKey(model, flags, machine.cores, caches, machine.simd_bytes, machine.vector_registers, _compiler())


def _load(path: Path, key: LimitsKey) -> Limits | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != json.loads(json.dumps(dataclasses.asdict(key))):
            return None
        kernels = tuple((field, kernel) for field, kernel in data["kernels"])
        values = {field: float(data[field]) for field in LIMIT_FIELDS}
        return Limits(**values, kernels=kernels, runs=int(data.get("runs", 1)))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _store(path: Path, key: LimitsKey, limits: Limits, seconds: float) -> None:
    write_json(path, {"key": dataclasses.asdict(key), "seconds": round(seconds, 3), **dataclasses.asdict(limits)})


def measured_limits(
    machine: Machine, folder: Path | None = None, run: Callable[[Machine], Limits] = run_limits
) -> tuple[Limits, str]:
    """``machine``'s limits: read from the cache in ``folder`` (default: the probe's), else measured by ``run``
    until stable (``stable_limits``) and cached there (one measurement at a time); and what happened."""
    key = limits_key(machine)
    path = (folder if folder is not None else cache_folder()) / f"limits-{key.digest()}.json"
    return computed_once(
        path,
        lambda: _load(path, key),
        lambda: stable_limits(machine, run),
        lambda limits, seconds: _store(path, key, limits, seconds),
    )
