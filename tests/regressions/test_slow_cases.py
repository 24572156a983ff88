"""Loops others wrote, which polyopt once made slower than gcc alone (``slow/``): each keeps its
order as written, and the optimized program computes the original's checksum.

Each program prints ``checksum X  time T``; only the checksum is compared (to float rounding: a
parallel reduction may sum in another order).  The speed itself is a benchmark's question
(``python3 -m polyopt.bench``), not a test's.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from polyopt.toolchain import compile_c, run_polyopt, run_program

CASES = sorted((Path(__file__).parent / "slow").glob("*.c"))
_CHECKSUM = re.compile(r"checksum (\S+)")
CFLAGS = ("-O2", "-fopenmp")


def _checksum(binary: Path, threads: int) -> float:
    output = run_program(binary, threads=threads).stdout
    match = _CHECKSUM.search(output)
    assert match, output
    return float(match[1])


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_slow_case_keeps_its_order_and_its_result(case: Path, tmp_path: Path) -> None:
    output = tmp_path / f"{case.stem}.opt.c"
    process = run_polyopt([str(case), "-o", str(output), "--report"])
    assert process.returncode == 0, process.stderr
    assert "chosen: the order as written" in process.stderr
    assert "as written (no transformed schedule predicted clearly faster)" in output.read_text()
    original = compile_c(case, tmp_path / "original", flags=CFLAGS)
    optimized = compile_c(output, tmp_path / "optimized", flags=CFLAGS)
    expected = _checksum(original, 1)
    for threads in (1, 2):
        assert math.isclose(_checksum(optimized, threads), expected, rel_tol=1e-4)


def test_the_transformed_schedule_is_still_there_to_choose(tmp_path: Path) -> None:
    """--no-as-written gives the transformed schedule: the comparison, not a lost transformation, keeps
    the order of the diagonal recurrence."""
    case = next(case for case in CASES if case.stem == "diagonal_recurrence")
    output = tmp_path / "out.c"
    process = run_polyopt([str(case), "-o", str(output), "--no-as-written"])
    assert process.returncode == 0, process.stderr
    text = output.read_text()
    assert "as written (no transformed schedule" not in text
    assert "omp parallel for" in text
