"""End-to-end checks of index-set splitting (``polyopt.analysis.splitting``): each split region must print
what the original prints, with the split pieces' loops run in parallel (every parallel loop starting threads)."""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.driver import optimize_text
from polyopt.options import Options, TilingOptions
from tests.e2e.handwritten import check_program

# Pivot rows at i == n - 1 - k, a decreasing i loop, a pivot on the domain's boundary (i from k: two
# pieces), and a pivot row k + 1 read alongside column k.
PROGRAM = """#include <stdio.h>
#define N 37
static double A[N][N], B[N][N], C[N][N], D[N][N];
static void kernel(int n) {
  int i, j, k;
#pragma scop
  for (k = 0; k < n; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        A[i][j] = A[i][j] < A[i][n - 1 - k] + A[n - 1 - k][j] ? A[i][j] : A[i][n - 1 - k] + A[n - 1 - k][j];
  for (k = 0; k < n; k++)
    for (i = n - 1; i >= 0; i--)
      for (j = 0; j < n; j++)
        B[i][j] = 0.5 * B[i][j] + 0.25 * B[k][j];
  for (k = 0; k < n; k++)
    for (i = k; i < n; i++)
      for (j = 0; j < n; j++)
        C[i][j] = C[i][j] - 0.125 * C[k][j];
  for (k = 0; k < n - 1; k++)
    for (i = 0; i < n; i++)
      for (j = 0; j < n; j++)
        D[i][j] = D[i][j] * 0.5 + D[k + 1][j] * 0.25 + D[i][k];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      A[i][j] = (i * 7 + j * 3) % 11 + (i == j ? -100 : 0) + 50;
      B[i][j] = (i + 2 * j) % 5;
      C[i][j] = (3 * i + j) % 7;
      D[i][j] = (i * j) % 3;
    }
  kernel(N);
  double s = 0;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) s += A[i][j] * (i + 1) + B[i][j] * (j + 2) + C[i][j] * 3 + D[i][j] * 5;
  printf("%.17g\\n", s);
  return 0;
}
"""


@pytest.mark.parametrize("flags", [(), ("--parallel-work=1",), ("--parallel-work=1", "--notile")])
def test_split_regions_keep_their_results(tmp_path: Path, flags: tuple[str, ...]) -> None:
    stderr = check_program(tmp_path, "pivots", PROGRAM, list(flags), "#pragma omp parallel for")
    assert stderr == ""


def test_every_nest_of_the_program_is_split() -> None:
    (region,) = optimize_text(PROGRAM, "pivots.c", Options()).regions

    assert region.report is not None
    splits = [
        note.split(":")[0] for note in region.report.lines("notes") if " split on " in note and "innermost" not in note
    ]
    assert splits == [
        "S0 split on i == n - k - 1 into S0_lt (<), S0_eq (==), S0_gt (>)",
        "S1 split on i == k into S1_lt (<), S1_eq (==), S1_gt (>)",
        "S2 split on i == k into S2_eq (==), S2_gt (>)",
        "S3 split on i == k + 1 into S3_lt (<), S3_eq (==), S3_gt (>)",
    ]


def test_the_innermost_loops_of_the_pieces_are_split_and_vectorized() -> None:
    """``A[i][n - 1 - k]`` and ``D[i][k]`` are written by their own row's loop: split on that column,
    each side of it runs as a vector loop in the same row loop (the pieces keep their statement's place)."""
    (region,) = optimize_text(PROGRAM, "pivots.c", Options(tiling=TilingOptions(enabled=False))).regions

    assert region.report is not None and region.code is not None
    inner = [note.split(" into ")[0] for note in region.report.lines("notes") if "(innermost loop)" in note]
    assert inner == [f"{piece} split on j == n - k - 1" for piece in ("S0_lt", "S0_eq", "S0_gt")] + [
        f"{piece} split on j == k" for piece in ("S3_lt", "S3_eq", "S3_gt")
    ]
    first_row = region.code.code.split("#pragma omp parallel for")[1]
    assert first_row.count("#pragma omp simd") == 2
