"""``python -m polyopt.calibrate``: the crossover rule, and a smoke run that writes a target file
which ``--target`` reads back."""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.calibrate.thresholds import QUICK, main, threshold
from polyopt.library.blas import cblas_available
from polyopt.library.choice import Timing, crossover
from polyopt.machine import load_target


def test_the_crossover_is_where_the_call_wins_from_then_on() -> None:
    timings = (Timing(32, 1.0, 2.0), Timing(64, 2.0, 1.5), Timing(128, 4.0, 4.5), Timing(256, 9.0, 5.0))

    assert crossover(timings) == 256  # 64 wins once, but 128 loses again
    assert threshold(timings, 3) == 256**3


def test_the_crossover_against_the_microkernel_compares_the_call_with_it() -> None:
    timings = (Timing(64, 2.0, 1.5, 1.0), Timing(128, 8.0, 4.0, 3.0), Timing(256, 30.0, 10.0, 12.0))

    assert crossover(timings) == 64
    assert crossover(timings, microkernel=True) == 256
    assert threshold(timings, 3, microkernel=True) == 256**3


def test_a_call_that_never_wins_gets_a_threshold_beyond_the_ladder() -> None:
    timings = (Timing(256, 1.0, 2.0), Timing(512, 2.0, 3.0))

    assert crossover(timings) is None
    assert threshold(timings, 2) == 1024**2


@pytest.mark.skipif(not cblas_available(), reason="needs cblas.h (libopenblas-dev)")
def test_quick_calibration_writes_a_target_file(tmp_path: Path) -> None:
    target = tmp_path / "here.target"

    assert main(["--quick", "--runs", "1", "--out", str(target)]) == 0

    machine = load_target(target)
    gemm, gemv = QUICK
    assert machine.blas3_threshold in {size**3 for size in (*gemm, 2 * max(gemm))}
    assert machine.blas2_threshold in {size**2 for size in (*gemv, 2 * max(gemv))}
