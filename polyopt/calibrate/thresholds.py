"""``python -m polyopt.calibrate``: measure where CBLAS calls start to pay on this machine, as a target file.

Usage: ``python -m polyopt.calibrate [--out FILE] [--runs 5] [--threads N] [--quick]``.

The probe's measurements (``polyopt.measure.probe.measure``: polyopt's loops, its microkernel and the
library call for a matrix product ``C += A·B``, n×n×n, and the loops and the call for a
matrix-vector product ``y += A·x``, n×n, each in fresh processes timing only their region, the
median of ``--runs``), on a longer ladder of sizes.  The crossover is the smallest n from which
the call is faster at every larger measured n (against the microkernel for the matrix product when
it beats the loops, else against the loops), and the threshold is its work (n³ or n²); when the
call never wins the threshold is twice the ladder's top size's.  The result is printed as a target
file (the detected machine with ``blas3-threshold`` and ``blas2-threshold``) for ``polyopt
--target``, which wins over the probe's cached choice; the measurements go to standard error.
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
from pathlib import Path

from polyopt.library.choice import Timing, crossover, microkernel_wins
from polyopt.machine import Machine, detect, target_text
from polyopt.measure.probe import measure
from polyopt.toolchain import ToolchainError

GEMM_LADDER = (32, 64, 128, 192, 256, 384, 512, 768, 1024)
GEMV_LADDER = (256, 512, 1024, 2048, 3072, 4096)
QUICK = ((16, 32), (64, 128))  # --quick: two tiny sizes per product (a smoke test)


def threshold(timings: tuple[Timing, ...], power: int, microkernel: bool = False) -> int:
    """The work from which the call is made: the crossover's, or twice the top measured size's."""
    size = crossover(timings, microkernel)
    if size is None:
        size = 2 * max(t.size for t in timings)
    return size**power


def _shown(name: str, timing: Timing) -> str:
    kernel = "" if timing.microkernel is None else f", microkernel {timing.microkernel * 1e3:.3f} ms"
    return f"{name} n={timing.size}: loops {timing.loops * 1e3:.3f} ms{kernel}, call {timing.call * 1e3:.3f} ms"


def calibrate(machine: Machine, runs: int, threads: int, quick: bool = False) -> Machine:
    """``machine`` with both thresholds measured."""
    gemm_sizes, gemv_sizes = QUICK if quick else (GEMM_LADDER, GEMV_LADDER)
    measured = measure(machine, gemm_sizes, gemv_sizes, runs, threads, square_sizes=())
    for name, timings in (("GEMM", measured.gemm), ("GEMV", measured.gemv)):
        for timing in timings:
            print(_shown(name, timing), file=sys.stderr)
    print(f"library: {measured.corename or 'unknown'} {measured.config}".rstrip(), file=sys.stderr)
    found = {
        "blas3_threshold": threshold(measured.gemm, 3, microkernel_wins(measured.gemm)),
        "blas2_threshold": threshold(measured.gemv, 2),
    }
    return dataclasses.replace(machine, **found, origin=f"{machine.origin}; thresholds by polyopt.calibrate")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m polyopt.calibrate", description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, help="write the target file here instead of standard output")
    parser.add_argument("--runs", type=int, default=5, help="processes per variant and size (median)")
    parser.add_argument("--threads", type=int, default=detect().cores, help="OMP_NUM_THREADS of the runs")
    parser.add_argument("--quick", action="store_true", help="two tiny sizes per product (a smoke test)")
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
