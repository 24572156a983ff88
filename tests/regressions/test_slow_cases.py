"""Loops others wrote, which polyopt once made slower than gcc alone (``slow/``, from ../shared/slow-cases):
the optimized program computes the original's checksum with 1 and 2 threads, and a region kept as written is
the source's own text, with at most ``#pragma omp`` lines added.

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
# the cases whose region is best as written: each must come out as its own text
KEPT = {
    "diagonal_recurrence",
    "expanded_scalars_kept",
    "first_min_long_index",
    "induction_under_if",
    "unrolled_gather",
}
_ADDED = re.compile(r"^[ \t]*(#pragma omp .*|/\* polyopt .*\*/)\n", re.MULTILINE)
_SCOP = re.compile(r"^[ \t]*#pragma (scop|endscop)\n", re.MULTILINE)


def _checksum(binary: Path, threads: int) -> float:
    output = run_program(binary, threads=threads).stdout
    match = _CHECKSUM.search(output)
    assert match, output
    return float(match[1])


def without_additions(text: str) -> str:
    """``text`` without polyopt's comment lines and the ``#pragma omp`` lines (each on a line of its own)."""
    return _ADDED.sub("", text)


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_slow_case_keeps_its_result_and_its_text_when_kept(case: Path, tmp_path: Path) -> None:
    output = tmp_path / f"{case.stem}.opt.c"
    process = run_polyopt([str(case), "-o", str(output), "--report"])
    assert process.returncode == 0, process.stderr
    if case.stem in KEPT:
        assert "chosen: the order as written" in process.stderr
        assert "printed as the source text" in process.stderr
        assert "kept as written (source text)" in output.read_text()
        assert without_additions(output.read_text()) == _SCOP.sub("", case.read_text())
    original = compile_c(case, tmp_path / "original", flags=CFLAGS)
    optimized = compile_c(output, tmp_path / "optimized", flags=CFLAGS)
    expected = _checksum(original, 1)
    for threads in (1, 2):
        assert math.isclose(_checksum(optimized, threads), expected, rel_tol=1e-4)


def test_the_transformed_schedule_is_still_there_to_choose(tmp_path: Path) -> None:
    """--no-as-written gives the transformed schedule (skewed, no parallel loop: its threads would never start at
    this size): the comparison, not a lost transformation, keeps the order of the diagonal recurrence."""
    case = next(case for case in CASES if case.stem == "diagonal_recurrence")
    output = tmp_path / "out.c"
    process = run_polyopt([str(case), "-o", str(output), "--no-as-written"])
    assert process.returncode == 0, process.stderr
    text = output.read_text()
    kernel = text[text.index("static void kernel") : text.index("int main")]
    assert "kept as written" not in kernel
    assert "for (int c1 = " in kernel and "for (int j = " not in kernel, kernel


def test_a_guarded_statement_pair_runs_without_guards_in_its_vector_loop(tmp_path: Path) -> None:
    """A statement shifted to free the loop of its dependence: the boundary iterations are peeled off, so the
    simd loop's body has no ``if``."""
    case = next(case for case in CASES if case.stem == "guards_in_vector_loop")
    output = tmp_path / "out.c"
    process = run_polyopt([str(case), "-o", str(output)])
    assert process.returncode == 0, process.stderr
    text = output.read_text()
    loop = text[text.index("#pragma omp simd") :]
    body = loop[loop.index("{") + 1 : loop.index("}")]
    assert "if" not in body, loop
