"""End-to-end checks of dynamic programs over a triangular table: the cell ``(i, j)`` takes the best split
``k`` between ``i`` and ``j``.  The table's two loops form one tiled band with no parallel member, and the
split loop below it is too small for threads, so the tiles run as a wavefront
(``polyopt.analysis.parallel_loops.runs_wavefront``); a nest whose inner loop is worth threads keeps
that loop parallel instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import check_program

# The least cost of bracketing a chain of matrices (cost[i][j] over the split k), then a cell-wise mix
# with a neighbour: int and double tables, forward and backward row orders.
INTERVALS = """#include <stdio.h>
#ifndef N
# define N 180
#endif
static {type} cost[N][N], dims[N + 1];

int main(void)
{{
  int i, j, k;
  for (i = 0; i <= N; i++)
    dims[i] = (i * 7) % 11 + 1;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      cost[i][j] = i == j ? 0 : 1000000;
#pragma scop
  for (i = {rows}) {{
    for (j = i + 1; j < N; j++) {{
      for (k = i; k < j; k++)
        cost[i][j] = cost[i][j] < cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1]
                     ? cost[i][j] : cost[i][k] + cost[k + 1][j] + dims[i] * dims[k + 1] * dims[j + 1];
      cost[i][j] = cost[i][j] + cost[i + 1][j] / 1024;
    }}
  }}
#pragma endscop
  for (i = 0; i < N; i++)
    printf("{format} ", cost[i][N - 1]);
  printf("\\n");
  return 0;
}}
"""

# Caches small enough that the table's 260 KB stream from memory, and threads start from few instances.
_MACHINE = "l1 = 8K\nl2 = 32K\nl3 = 128K\nline = 64\ncores = 2\nsimd-bytes = 64\nvector-registers = 32\n"


@pytest.mark.parametrize(
    ("kind", "rows"),
    [("int", "N - 2; i >= 0; i--"), ("double", "N - 2; i >= 0; i--")],
    ids=["int", "double"],
)
def test_a_table_of_best_splits_runs_its_tiles_as_a_wavefront(tmp_path: Path, kind: str, rows: str) -> None:
    target = tmp_path / "small.target"
    target.write_text(_MACHINE + "parallel-work = 4096\n")
    text = INTERVALS.format(type=kind, rows=rows, format="%d" if kind == "int" else "%.17g")
    flags = ["--report", "--target", str(target), "--tile-sizes=16,24"]

    stderr = check_program(tmp_path, "intervals", text, flags, "#pragma omp parallel")

    assert "wavefront over tiles" in stderr


def test_a_table_with_a_parallel_inner_nest_keeps_that_nest_parallel(tmp_path: Path) -> None:
    target = tmp_path / "small.target"
    target.write_text(_MACHINE + "parallel-work = 4096\n")
    text = TABLE_WITH_ROWS
    flags = ["--report", "--target", str(target)]

    stderr = check_program(tmp_path, "rows", text, flags, "#pragma omp parallel")

    assert "wavefront" not in stderr and "loop c (statements S1)" in stderr


# Each cell of a 2-D recurrence fills a plane of a 4-D array that the next row's cells read, so the plane's
# loops stay under the recurrence's band, and carry nothing.
TABLE_WITH_ROWS = """#include <stdio.h>
#define N 40
#define M 64
static double t[N][N], w[N][N][M][M];

int main(void)
{
  int i, j, c, d;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      t[i][j] = (double)((i * 3 + j) % 7) / 8;
#pragma scop
  for (i = 1; i < N; i++)
    for (j = 1; j < N; j++) {
      t[i][j] = 0.5 * t[i - 1][j] + 0.25 * t[i][j - 1] + w[i - 1][j][i % M][j % M] / 1024;
      for (c = 0; c < M; c++)
        for (d = 0; d < M; d++)
          w[i][j][c][d] = t[i][j] * (c + 1) + d;
    }
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%.17g %.17g ", t[i][N - 1], w[i][N - 1][i % M][M - 1]);
  printf("\\n");
  return 0;
}
"""
