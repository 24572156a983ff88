"""End-to-end checks of the microkernel on a triangle of ``C``: SYRK and SYR2K (``polyopt.library.microkernel``).

Handwritten rank-k updates of the lower and the upper triangle, with and without the diagonal, with
transposed operands, ``alpha`` factors and ``float``, at sizes around the register block (14 x 16), the
row block (252) and the depth block (256; SYR2K's two products make one over twice the depth);
a target file sets ``rank-k-microkernel = 1`` (from any work; its default keeps these small updates on the
loops), and ``--parallel-work=0`` runs them on 2 threads, so the triangle's column chunks are shared out.  The
PolyBench examples syrk, syr2k, covariance and correlation (a strict triangle) are checked at MINI and
SMALL the same way.  Outputs are compared with the original's within the reassociation tolerance, and
exactly with ``--no-reassociate`` (no microkernel).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case, check_example
from tests.support import EXAMPLES, run_polyopt

# B (M x N, M <= N) is the target; its square M x M part is folded into y
SHOW = "for (j = 0; j < M; j++)\n  for (i = 0; i < M; i++)\n    y[j] += B[i][j] * (i % 3 + 1);\n"
LOWER = "for (i = 0; i < M; i++)\n  for (j = 0; j <= i; j++)\n    for (k = 0; k < N; k++)\n      "
STRICT_LOWER = "for (i = 0; i < M; i++)\n  for (k = 0; k < N; k++)\n    for (j = 0; j < i; j++)\n      "
UPPER = "for (i = 0; i < M; i++)\n  for (j = i; j < M; j++)\n    for (k = 0; k < M; k++)\n      "
STRICT_UPPER = "for (i = 0; i < M; i++)\n  for (j = i + 1; j < M; j++)\n    for (k = 0; k < M; k++)\n      "
EXPECT = "of C only"
CASES: dict[str, Case] = {
    "syrk-lower": Case("double", LOWER + "B[i][j] += 1.5 * A[i][k] * A[j][k];\n" + SHOW, "lower of C only"),
    "syrk-strict-lower": Case("double", STRICT_LOWER + "B[i][j] += A[i][k] * A[j][k];\n" + SHOW, "strict lower"),
    "syrk-upper-transposed": Case("double", UPPER + "B[i][j] -= A[k][i] * A[k][j] * t;\n" + SHOW, "upper of C"),
    "syr2k-lower": Case("double", LOWER + "B[i][j] += A[i][k] * C[j][k] * p + C[i][k] * A[j][k] * p;\n" + SHOW, EXPECT),
    "syr2k-strict-upper-transposed": Case(
        "double", STRICT_UPPER + "B[i][j] += 2 * A[k][i] * C[k][j] + 2 * C[k][i] * A[k][j];\n" + SHOW, "strict upper"
    ),
    "float-syrk-lower": Case("float", LOWER + "B[i][j] += A[i][k] * A[j][k] * 0.5f;\n" + SHOW, EXPECT),
}
SIZES = [(1, 1), (7, 33), (33, 65), (65, 130), (260, 270)]
NONE = ("--blas=none",)


def _any_work(folder: Path) -> tuple[str, ...]:
    """``--blas=none`` and a target file that runs rank-k updates of any work on the microkernel."""
    target = folder / "rank-k.target"
    target.write_text("rank-k-microkernel = 1\n")
    return (*NONE, "--target", str(target))


@pytest.mark.parametrize(("m", "n"), SIZES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_rank_k_microkernel_keeps_the_result(tmp_path: Path, name: str, m: int, n: int) -> None:
    flags = (*_any_work(tmp_path), "--parallel-work=0") if m > 7 else _any_work(tmp_path)
    defines = [f"M={m}", f"N={n}"]
    check_case(tmp_path, name, CASES[name], defines, exact_flags=[*NONE, "--no-reassociate"], flags=flags)


@pytest.mark.parametrize("size", ["MINI", "SMALL"])
@pytest.mark.parametrize("kernel", ["syrk", "syr2k", "covariance", "correlation"])
def test_polybench_rank_k_updates_with_the_microkernel(tmp_path: Path, kernel: str, size: str) -> None:
    check_example(tmp_path, kernel, size, [*_any_work(tmp_path), "--parallel-work=0"], EXPECT)


def test_by_default_only_large_rank_k_updates_run_on_the_microkernel(tmp_path: Path) -> None:
    optimized = tmp_path / "syrk.polyopt.c"
    result = run_polyopt(EXAMPLES / "syrk.c", [*NONE, "--report"], output=optimized)
    text = optimized.read_text()

    assert result.returncode == 0
    assert "lower of C only" in text and ">= 216000000L" in text  # LARGE's 1200 x 1200 x 1000 are above it
    assert "microkernel" in result.stdout + result.stderr

    off = tmp_path / "off.target"
    off.write_text("rank-k-microkernel = 0\n")
    run_polyopt(EXAMPLES / "syrk.c", [*NONE, "--target", str(off)], output=optimized)
    assert "of C only" not in optimized.read_text()
