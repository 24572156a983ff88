"""End-to-end checks of SYMM and TRMM as GEMMs on blocks of the microkernel (``polyopt.library.microkernel``).

Handwritten SYMMs in PolyBench's form (an accumulator ``t`` whose last value the program prints, the
symmetric ``A`` read in its lower or upper triangle, through ``A[i][k]`` or ``A[k][i]``, a scalar ``alpha``
and a literal ``beta``) and in-place TRMMs (``op(A)`` upper or lower triangular, transposed or not, the rows
of ``B`` run up or down as the original order needs to read the original ``B``), ``double`` and ``float``,
at sizes around the register block (14 x 16), the row block (252) and the depth block (256), with
``--blas=none`` (the microkernel from any work) and ``--parallel-work=0`` (2 threads share the column
chunks), and a TRMM whose ``B`` holds a row of infinities (no zero outside ``op(A)``'s triangle may
multiply it: 0 * inf is NaN).  The PolyBench examples symm and trmm are checked at MINI and SMALL the same
way.  Outputs are
compared with the original's within the reassociation tolerance, and exactly with ``--no-reassociate``
(no microkernel).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case, check_example, check_program

# C and B (M x N, M <= N) are folded into y; A's square M x M part is the triangular or symmetric operand
SHOW_C = "for (j = 0; j < N; j++)\n  for (i = 0; i < M; i++)\n    y[j] += C[i][j] * (i % 3 + 1);\n"
SHOW_B = SHOW_C.replace("C[i][j]", "B[i][j]")
SYMM_BELOW = """for (i = 0; i < M; i++)
  for (j = 0; j < N; j++) {{
    t = 0;
    for (k = 0; k < i; k++) {{
      C[k][j] += p * B[i][j] * {a};
      t += B[k][j] * {a};
    }}
    C[i][j] = 0.75 * C[i][j] + p * B[i][j] * A[i][i] + p * t;
  }}
"""
# the updates of C's rows below r come after their own combinations: the rows run down
SYMM_ABOVE = SYMM_BELOW.replace("for (k = 0; k < i; k++)", "for (k = i + 1; k < M; k++)").replace(
    "for (i = 0; i < M; i++)", "for (i = M - 1; i >= 0; i--)"
)
TRMM_UP = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    for (k = i + 1; k < M; k++)\n      "
TRMM_DOWN = "for (i = M - 1; i >= 0; i--)\n  for (j = 0; j < N; j++)\n    for (k = 0; k < i; k++)\n      "
SYMM = "symmetric"
TRMM = "added to B in place"
CASES: dict[str, Case] = {
    "symm-lower": Case("double", SYMM_BELOW.format(a="A[i][k]") + SHOW_C, "A symmetric (lower)"),
    "symm-upper": Case("double", SYMM_ABOVE.format(a="A[i][k]") + SHOW_C, "A symmetric (upper)"),
    "symm-upper-read-below": Case("double", SYMM_BELOW.format(a="A[k][i]") + SHOW_C, "A symmetric (upper)"),
    "float-symm-lower": Case("float", SYMM_BELOW.format(a="A[i][k]") + SHOW_C, SYMM),
    "trmm-upper-transposed": Case("double", TRMM_UP + "B[i][j] += A[k][i] * B[k][j];\n" + SHOW_B, "upper strict"),
    "trmm-upper": Case("double", TRMM_UP + "B[i][j] += A[i][k] * B[k][j];\n" + SHOW_B, "upper strict"),
    "trmm-lower": Case("double", TRMM_DOWN + "B[i][j] += A[i][k] * B[k][j];\n" + SHOW_B, "lower strict"),
    "trmm-lower-transposed": Case("double", TRMM_DOWN + "B[i][j] += A[k][i] * B[k][j];\n" + SHOW_B, "lower strict"),
    "float-trmm-upper": Case("float", TRMM_UP + "B[i][j] += A[i][k] * B[k][j];\n" + SHOW_B, TRMM),
}
SIZES = [(1, 1), (7, 33), (33, 65), (65, 130), (260, 270)]
NONE = ("--blas=none", "--blocks-microkernel=0")  # the microkernel at every size, the smallest included


@pytest.mark.parametrize(("m", "n"), SIZES)
@pytest.mark.parametrize("name", sorted(CASES))
def test_symm_and_trmm_on_the_microkernel_keep_the_result(tmp_path: Path, name: str, m: int, n: int) -> None:
    flags = (*NONE, "--parallel-work=0") if m > 7 else NONE
    check_case(tmp_path, name, CASES[name], [f"M={m}", f"N={n}"], exact_flags=[*NONE, "--no-reassociate"], flags=flags)


@pytest.mark.parametrize("size", ["MINI", "SMALL"])
@pytest.mark.parametrize(("kernel", "expect"), [("symm", SYMM), ("trmm", TRMM)])
def test_polybench_symm_and_trmm_with_the_microkernel(tmp_path: Path, kernel: str, expect: str, size: str) -> None:
    check_example(tmp_path, kernel, size, [*NONE, "--parallel-work=0"], expect)


# B's row 17 is infinite: the rows whose sums include it become infinite, the others must stay finite
NON_FINITE = r"""#include <math.h>
#include <stdio.h>
#define M 40
#define N 37
static double A[M][M], B[M][N];

int main(void)
{
  int i, j, k;
  for (i = 0; i < M; i++) {
    for (j = 0; j < M; j++)
      A[i][j] = (double)((i * 3 + j * 5) % 11 + 1) / 8;
    for (j = 0; j < N; j++)
      B[i][j] = i == 17 ? INFINITY : (double)((i + 2 * j) % 7 + 1) / 3;
  }
#pragma scop
LOOPS
#pragma endscop
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      printf("%d %d %.17g ", isnan(B[i][j]) != 0, isinf(B[i][j]) != 0, isfinite(B[i][j]) ? B[i][j] : 0.0);
  printf("\n");
  return 0;
}
"""


@pytest.mark.parametrize(
    "loops", [TRMM_UP + "B[i][j] += A[k][i] * B[k][j];\n", TRMM_DOWN + "B[i][j] += A[i][k] * B[k][j];\n"]
)
def test_a_trmm_multiplies_no_element_of_b_by_a_zero_outside_the_triangle(tmp_path: Path, loops: str) -> None:
    text = NON_FINITE.replace("LOOPS", loops)

    check_program(tmp_path, "non_finite", text, [*NONE, "--parallel-work=0"], TRMM)
