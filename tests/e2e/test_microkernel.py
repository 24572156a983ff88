"""End-to-end checks of the GEMM microkernel (``polyopt.library.microkernel``) with ``--blas=none``.

Handwritten products (``tests.e2e.handwritten``) at odd sizes, 1 included (``M`` x ``N`` arrays,
products of ``M`` x ``M`` or ``M`` x ``N`` blocks), with transposed operands, ``alpha`` factors, ``-=``
and ``float``; ``--parallel-work=0`` runs them on 2 threads.  Each output is compared with the
original's within the reassociation tolerance, and exactly with ``--no-reassociate`` (no microkernel).
The PolyBench examples gemm, 2mm and 3mm are checked at MINI and SMALL the same way.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case, check_example

SHOW = "for (j = 0; j < N; j++)\n  for (i = 0; i < M; i++)\n    y[j] += B[i][j] * (i % 3 + 1);\n"
SQUARE = "for (i = 0; i < M; i++)\n  for (j = 0; j < M; j++)\n    for (k = 0; k < M; k++)\n      "
WIDE = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    for (k = 0; k < M; k++)\n      "
EXPECT = "polyopt microkernel"
CASES: dict[str, Case] = {
    "gemm": Case("double", WIDE + "B[i][j] += A[i][k] * C[k][j];\n" + SHOW, EXPECT),
    "transposed-a": Case("double", WIDE + "B[i][j] += 0.5 * A[k][i] * C[k][j];\n" + SHOW, EXPECT),
    "transposed-b": Case("double", SQUARE + "B[i][j] += A[i][k] * C[j][k] * s;\n" + SHOW, EXPECT),
    "transposed-both": Case("double", SQUARE + "B[i][j] = B[i][j] + A[k][i] * C[j][k];\n" + SHOW, EXPECT),
    "float-minus": Case("float", WIDE + "B[i][j] -= A[i][k] * C[k][j] * 3;\n" + SHOW, EXPECT),
    "float-transposed-b": Case("float", SQUARE + "B[i][j] += t * A[i][k] * C[j][k];\n" + SHOW, EXPECT),
}
SIZES = [(1, 1), (7, 33), (33, 65), (65, 130)]
NONE = ("--blas=none", "--blocks-microkernel=0")  # the microkernel at every size, the smallest included


@pytest.mark.parametrize(("m", "n"), SIZES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_microkernel_keeps_the_result(tmp_path: Path, name: str, m: int, n: int) -> None:
    flags = (*NONE, "--parallel-work=0") if m > 7 else NONE
    defines = [f"M={m}", f"N={n}"]
    check_case(tmp_path, name, CASES[name], defines, exact_flags=[*NONE, "--no-reassociate"], flags=flags)


def test_integer_products_keep_their_loops(tmp_path: Path) -> None:
    case = Case("long", WIDE + "B[i][j] += A[i][k] * C[k][j];\n" + SHOW, "polyopt_float_kind(B[0][0]) != 0")
    check_case(tmp_path, "integer", case, ["M=9", "N=20"], exact_flags=[*NONE, "--no-reassociate"], flags=NONE)


@pytest.mark.parametrize("size", ["MINI", "SMALL"])
@pytest.mark.parametrize("kernel", ["gemm", "2mm", "3mm"])
def test_polybench_products_with_the_microkernel(tmp_path: Path, kernel: str, size: str) -> None:
    check_example(tmp_path, kernel, size, [*NONE, "--parallel-work=0"], EXPECT)
