"""``python -m polyopt.calibrate``: measure where CBLAS calls start to pay on this machine.

Usage: ``python -m polyopt.calibrate [--out FILE] [--runs 5] [--threads N] [--quick]``.

For a matrix product (``C += A·B``, n×n×n) and a matrix-vector product (``y += A·x``,
n×n) at a ladder of sizes n, polyopt optimizes one small program twice, once with
``--blas=none`` (its own loops) and once with every idiom called (``--blas=cblas``,
thresholds 0; the size is the macro ``NC``: ``cblas.h`` names parameters ``N``); both
are built with the benchmark's gcc flags and run in fresh processes
(a PolyBench run makes one call per process, so a call pays for waking OpenBLAS's
threads), each timing only its region; the median of ``--runs`` is kept.  The crossover
is the smallest n from which the call is faster at every larger measured n, and the
threshold is its work (n³ or n²); when the call never wins the threshold is beyond the
ladder.  The result is printed as a target file (the detected machine with
``blas3-threshold`` and ``blas2-threshold``) for ``polyopt --target``; the measurements go
to standard error.
"""

from __future__ import annotations

import argparse
import dataclasses
import statistics
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from polyopt.bench import CFLAGS
from polyopt.machine import Machine, detect, target_text
from polyopt.toolchain import ToolchainError, compile_c, run_polyopt, run_program

PROGRAM = """\
#include <stdio.h>
#include <omp.h>
#ifndef NC
# define NC 64
#endif
static double A[NC][NC], B[NC][NC], C[NC][NC], x[NC], y[NC];

static void kernel(void)
{{
  int i, j, k;
#pragma scop
{body}
#pragma endscop
}}

int main(void)
{{
  for (int i = 0; i < NC; i++) {{
    x[i] = (i % 7) / 7.0;
    for (int j = 0; j < NC; j++) {{
      A[i][j] = ((i * j) % 11) / 11.0;
      B[i][j] = ((i + j) % 13) / 13.0;
    }}
  }}
  double start = omp_get_wtime();
  kernel();
  printf("%.9f\\n", omp_get_wtime() - start);
  fprintf(stderr, "%g %g\\n", C[NC / 2][NC / 3], y[NC / 2]);
  return 0;
}}
"""


@dataclass(frozen=True)
class Routine:
    """A BLAS idiom to calibrate: its loop nest, its work exponent (n^power) and its sizes."""

    name: str
    body: str
    power: int
    ladder: tuple[int, ...]
    quick: tuple[int, ...]


GEMM = Routine(
    "GEMM (level 3)",
    "  for (i = 0; i < NC; i++)\n    for (j = 0; j < NC; j++)\n      for (k = 0; k < NC; k++)\n"
    "        C[i][j] += A[i][k] * B[k][j];",
    3,
    (32, 48, 64, 96, 128, 192, 256, 384, 512),
    (16, 32),
)
GEMV = Routine(
    "GEMV (level 2)",
    "  for (i = 0; i < NC; i++)\n    for (j = 0; j < NC; j++)\n      y[i] += A[i][j] * x[j];",
    2,
    (256, 512, 1024, 2048, 3072, 4096, 6144),
    (64, 128),
)


@dataclass(frozen=True)
class Timing:
    size: int
    loops: float
    call: float


def crossover(timings: list[Timing]) -> int | None:
    """The smallest size from which the call is faster at every larger measured size."""
    found: int | None = None
    for timing in sorted(timings, key=lambda t: t.size, reverse=True):
        if timing.call >= timing.loops:
            break
        found = timing.size
    return found


def threshold(routine: Routine, timings: list[Timing]) -> int:
    """The work from which ``routine`` is called: the crossover's, or twice the ladder's top size's."""
    size = crossover(timings)
    if size is None:
        size = 2 * max(t.size for t in timings)
    return size**routine.power


def _built(folder: Path, routine: Routine, size: int, flags: list[str], tag: str) -> Path:
    source = folder / f"{tag}.c"
    source.write_text(PROGRAM.format(body=routine.body), encoding="utf-8")
    optimized = folder / f"{tag}.opt.c"
    result = run_polyopt([str(source), "-o", str(optimized), f"--param=NC={size}", *flags])
    if result.returncode != 0:
        raise ToolchainError(f"polyopt failed on the calibration program: {result.stderr}")
    return compile_c(optimized, folder / tag, flags=CFLAGS, defines=[f"NC={size}"])


def _seconds(binary: Path, threads: int) -> float:
    return float(run_program(binary, threads=threads).stdout.split()[0])


def measure(routine: Routine, sizes: tuple[int, ...], runs: int, threads: int) -> list[Timing]:
    """Median region times of polyopt's loops and of the CBLAS call at each size, interleaved."""
    timings: list[Timing] = []
    with tempfile.TemporaryDirectory(prefix="polyopt-calibrate-") as name:
        folder = Path(name)
        for size in sizes:
            loops = _built(folder, routine, size, ["--blas=none"], "loops")
            call = _built(folder, routine, size, ["--blas=cblas", "--blas-threshold=0", "--blas2-threshold=0"], "call")
            pairs = [(_seconds(loops, threads), _seconds(call, threads)) for _ in range(runs)]
            timing = Timing(size, statistics.median(p[0] for p in pairs), statistics.median(p[1] for p in pairs))
            print(
                f"{routine.name} n={size}: loops {timing.loops * 1e3:.3f} ms, call {timing.call * 1e3:.3f} ms",
                file=sys.stderr,
                flush=True,
            )
            timings.append(timing)
    return timings


def calibrate(machine: Machine, runs: int, threads: int, quick: bool = False) -> Machine:
    """``machine`` with both thresholds measured."""
    found = {}
    for field, routine in (("blas3_threshold", GEMM), ("blas2_threshold", GEMV)):
        timings = measure(routine, routine.quick if quick else routine.ladder, runs, threads)
        found[field] = threshold(routine, timings)
    return dataclasses.replace(machine, **found, origin=f"{machine.origin}; thresholds by polyopt.calibrate")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m polyopt.calibrate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the target file here instead of standard output")
    parser.add_argument("--runs", type=int, default=5, help="processes per variant and size (median)")
    parser.add_argument("--threads", type=int, default=detect().cores, help="OMP_NUM_THREADS of the runs")
    parser.add_argument("--quick", action="store_true", help="two tiny sizes per routine (a smoke test)")
    args = parser.parse_args(argv)
    try:
        machine = calibrate(detect(), args.runs, args.threads, args.quick)
    except ToolchainError as error:
        print(f"polyopt.calibrate: error: {error}", file=sys.stderr)
        return 1
    text = target_text(machine)
    if args.out is None:
        print(text, end="")
    else:
        args.out.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
