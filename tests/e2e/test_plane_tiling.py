"""End-to-end checks of time skewing in planes (``polyopt.transform.stepping.plane_tiled_schedule``): a
3-D heat stencil whose data exceed L2, tiled by the model and by small given sizes that leave partial tiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import check_program

TARGET = Path(__file__).parents[1] / "decisions" / "server.target"

HEAT = """#include <stdio.h>
#ifndef N
# define N 64
#endif
#ifndef T
# define T 9
#endif
static double A[N][N][N], B[N][N][N];

int main(void)
{
  int t, i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        A[i][j][k] = B[i][j][k] = (double)((i * 7 + j * 5 + k * 3) % 17) / 9;
#pragma scop
  for (t = 1; t <= T; t++) {
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          B[i][j][k] = 0.125 * (A[i + 1][j][k] - 2.0 * A[i][j][k] + A[i - 1][j][k])
                     + 0.125 * (A[i][j + 1][k] - 2.0 * A[i][j][k] + A[i][j - 1][k])
                     + 0.125 * (A[i][j][k + 1] - 2.0 * A[i][j][k] + A[i][j][k - 1]) + A[i][j][k];
    for (i = 1; i < N - 1; i++)
      for (j = 1; j < N - 1; j++)
        for (k = 1; k < N - 1; k++)
          A[i][j][k] = 0.125 * (B[i + 1][j][k] - 2.0 * B[i][j][k] + B[i - 1][j][k])
                     + 0.125 * (B[i][j + 1][k] - 2.0 * B[i][j][k] + B[i][j - 1][k])
                     + 0.125 * (B[i][j][k + 1] - 2.0 * B[i][j][k] + B[i][j][k - 1]) + B[i][j][k];
  }
#pragma endscop
  for (i = 0; i < N; i++)
    for (j = i % 5; j < N; j += 5)
      for (k = j % 7; k < N; k += 7)
        printf("%.17g %.17g ", A[i][j][k], B[i][j][k]);
  printf("\\n");
  return 0;
}
"""


@pytest.mark.parametrize("sizes", [[], ["--tile-sizes=3,5"]], ids=["model", "given"])
def test_a_heat_stencil_tiled_in_planes_keeps_its_result(tmp_path: Path, sizes: list[str]) -> None:
    flags = ["--report", "--target", str(TARGET), "--parallel-work=1", *sizes]
    stderr = check_program(tmp_path, "heat", HEAT, flags, "#pragma omp for")
    assert "time skewed along the outer space loop" in stderr
