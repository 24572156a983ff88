"""End-to-end checks of parallel loops over data beyond the shared cache (``polyopt.analysis.residency``):
they start threads from fewer instances, and a triangular solve, all of whose loops form one
two-member band, runs its tiles as a wavefront (``polyopt.analysis.parallel_loops.runs_wavefront``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import check_program

TRISOLV = """#include <stdio.h>
#ifndef N
# define N 300
#endif
static double L[N][N], x[N], b[N];

int main(void)
{
  int i, j;
  for (i = 0; i < N; i++) {
    b[i] = (double)(i % 13 + 1) / 7;
    for (j = 0; j <= i; j++)
      L[i][j] = (double)((i + N - j + 1) * 2) / N;
  }
#pragma scop
  for (i = 0; i < N; i++) {
    x[i] = b[i];
    for (j = 0; j < i; j++)
      x[i] -= L[i][j] * x[j];
    x[i] = x[i] / L[i][i];
  }
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%.17g ", x[i]);
  printf("\\n");
  return 0;
}
"""

# Caches small enough, with l2 = 32K, that the 720 KB of the solve's matrix stream beyond the L2 caches.
_MACHINE = "l1 = 8K\nl2 = {l2}\nl3 = 4M\nline = 64\ncores = 2\nsimd-bytes = 64\nvector-registers = 32\n"


@pytest.mark.parametrize(
    ("l2", "work", "expect"),
    [("32K", 1 << 24, "#pragma omp parallel if("), ("512K", 1, "#pragma omp parallel if(")],
    ids=["streams", "enough-instances"],
)
def test_a_triangular_solve_runs_its_tiles_as_a_wavefront(tmp_path: Path, l2: str, work: int, expect: str) -> None:
    target = tmp_path / "small.target"
    target.write_text(_MACHINE.format(l2=l2) + f"parallel-work = {work}\n")
    flags = ["--report", "--target", str(target), "--tile-sizes=16,24"]
    stderr = check_program(tmp_path, "trisolv", TRISOLV, flags, expect)
    assert "wavefront over tiles" in stderr
    assert ("data stream beyond L2" in stderr) is (l2 == "32K")
    assert (f">= {work}L" in (tmp_path / "trisolv.polyopt.c").read_text()) is (l2 != "32K")
