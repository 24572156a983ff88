"""End-to-end checks of unroll-and-jam into vector loops (``polyopt.transform.unroll_jam``) on small
handwritten programs (``tests.e2e.handwritten``), at sizes that leave remainders."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case, check_program

CASES = {
    # C[i][j] over k: the k loop is jammed into the vector loop over j.
    "product": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < M; k++)\n    for (j = 0; j < N; j++)\n"
        "      D[0][i][j] += A[i][k] * B[k][j];\n",
        "_j + 3;",
    ),
    "product-long": Case(
        "long",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < M; k++)\n    for (j = 0; j < N; j++)\n"
        "      D[0][i][j] += A[i][k] * B[k][j];\n",
        "_j + 3;",
    ),
    # A recurrence along the rows of every column: y[j] carries it, and B reads it row by row.
    "recurrence": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    y[j] = y[j] * 0.5 + A[i][j];\n"
        "    D[1][i][j] = y[j];\n  }\n",
        "_j + 3;",
    ),
    # A recurrence along j in every row and a dependence from the row above: rows jammed into j.
    "row-recurrence": Case(
        "double",
        "for (l = 0; l < 4; l++)\n  for (i = 1; i < M; i++)\n    for (j = 1; j < N; j++)\n"
        "      D[1][i][j] = D[1][i - 1][j] * 0.25 + D[1][i][j - 1] * 0.5 + A[i][j];\n",
        "c2_from",
    ),
    "row-recurrence-float": Case(
        "float",
        "for (i = 1; i < M; i++)\n  for (j = 1; j < N; j++)\n"
        "    D[1][i][j] = D[1][i - 1][j] * 0.25f + D[1][i][j - 1] * 0.5f;\n",
        "c1_from",
    ),
    # A dependence across columns: nothing is jammed.
    "across": Case(
        "double",
        "for (i = 1; i < M; i++)\n  for (j = 0; j < N - 1; j++) {\n    y[j] += A[i][j];\n"
        "    D[2][i][j] = D[2][i - 1][j + 1] * 0.5 + y[j];\n  }\n",
        "polyopt",
    ),
}


@pytest.mark.parametrize("sizes", [(), ("M=9", "N=3")])
def test_parallel_rows_jammed_in_blocks_keep_the_result(tmp_path: Path, sizes: tuple[str, ...]) -> None:
    # A back substitution along each row (adi's last sweep); the rows are a parallel loop.
    case = Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = N - 2; j >= 0; j--)\n"
        "    D[1][i][j] = D[1][i][j + 1] * A[i][j] + B[i][j];\n",
        "c1_j += 4",
    )
    flags = ["--parallel-work=1"]
    check_case(tmp_path, "parallel-rows", case, sizes, exact_flags=[*flags, "--no-reassociate"], flags=flags)


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("sizes", [(), ("M=9", "N=3")])
def test_jammed_loops_keep_the_result(tmp_path: Path, name: str, sizes: tuple[str, ...]) -> None:
    check_case(tmp_path, name, CASES[name], sizes, exact_flags=["--no-reassociate"])


# A Gauss-Seidel sweep: tiled, its band skewed, its rows jammed into the recurrence along the columns
# (whose bounds depend on the row in the skewed tiles).
SEIDEL = """#include <stdio.h>
#ifndef N
# define N 1000
#endif
#ifndef T
# define T 6
#endif
static double A[N][N];

int main(void)
{
  int t, i, j;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      A[i][j] = (double)((i * 5 + j * 3) % 13) / 7;
#pragma scop
  for (t = 0; t < T; t++)
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        A[i][j] = (A[i - 1][j - 1] + A[i - 1][j + 1] + A[i][j - 1] + A[i][j] + A[i + 1][j]) / 5.0;
#pragma endscop
  for (i = 0; i < N; i++)
    for (j = i % 13; j < N; j += 13)
      printf("%.17g ", A[i][j]);
  printf("\\n");
  return 0;
}
"""


def test_a_tiled_gauss_seidel_sweep_keeps_its_result(tmp_path: Path) -> None:
    stderr = check_program(tmp_path, "seidel", SEIDEL, ["--report"], "_from = ")
    assert "copies of its recurrence interleaved" in stderr


# PNG's Sub filter undone in place (libpng's png_read_filter_row_sub): each byte plus the byte one pixel of SPAN
# bytes to its left.  Its dependences span SPAN iterations of the column loop.
SUB_FILTER = """#include <stdio.h>
#define ROWS 64
#define SPAN {span}
#define ROWBYTES (SPAN * 512)
static unsigned char img[ROWS][ROWBYTES];

int main(void)
{{
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < ROWBYTES; i++)
      img[r][i] = (unsigned char)((r * 31 + i * 7) % 251);
#pragma scop
  for (long r = 0; r < ROWS; r++)
    for (long i = SPAN; i < ROWBYTES; i++)
      img[r][i] = (unsigned char)((img[r][i] + img[r][i - SPAN]) & 0xff);
#pragma endscop
  unsigned long sum = 0;
  for (int r = 0; r < ROWS; r++)
    for (int i = 0; i < ROWBYTES; i++)
      sum = sum * 31 + img[r][i];
  printf("%lu\\n", sum);
  return 0;
}}
"""


@pytest.mark.parametrize(("span", "jammed"), [(1, True), (3, False)])
def test_rows_are_jammed_into_a_recurrence_of_one_chain_only(tmp_path: Path, span: int, jammed: bool) -> None:
    """A recurrence that spans ``span`` columns runs ``span`` chains side by side already: only a single chain
    gains from rows interleaved with it."""
    stderr = check_program(tmp_path, f"sub{span}", SUB_FILTER.format(span=span), ["--report"], "polyopt")
    assert ("copies of its recurrence interleaved" in stderr) == jammed, stderr


# A FIR filter (y[i] = sum_k h[k] x[i - k]): gcc vectorizes the loop over i around the recurrence over k by
# itself, with stride-1 vectors of y and x, so its lanes run more chains than the copies of a jam.
FIR = """#include <stdio.h>
#define N 4003
#define K 32
static double x[N], y[N], h[K];

int main(void)
{
  for (int i = 0; i < N; i++)
    x[i] = ((i * 17) % 23) / 23.0 - 0.5;
  for (int k = 0; k < K; k++)
    h[k] = 1.0 / (k + 2);
#pragma scop
  for (int i = K - 1; i < N; i++) {
    y[i] = 0.0;
    for (int k = 0; k < K; k++)
      y[i] += h[k] * x[i - k];
  }
#pragma endscop
  for (int i = 0; i < N; i += 97)
    printf("%.17g ", y[i]);
  printf("\\n");
  return 0;
}
"""


def test_a_recurrence_is_not_jammed_where_gcc_vectorizes_the_loop_around_it(tmp_path: Path) -> None:
    stderr = check_program(tmp_path, "fir", FIR, ["--report"], "kept as written (source text)")
    assert "copies of its recurrence interleaved" not in stderr, stderr
