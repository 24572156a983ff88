"""End-to-end checks of array contraction on small handwritten programs (``tests.e2e.handwritten``).

``B`` is not printed by the programs, so it may be declared dead, with ``--assume-dead B``
or with ``#pragma polyopt dead(B)`` in the region; the exact run keeps the contraction and
forbids reassociation.

PolyBench's 2mm, atax and gesummv with their temporaries declared dead and filled with ones before
the kernels: the regions are cut around their products, and a temporary that a later segment reads
must keep its stores in the segment that zeroes it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.library.blas import cblas_available
from tests.e2e.handwritten import Case, check_case, check_program

ROWS = (
    "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    B[i][j] = A[i][j] * x[j];\n"
    "for (i = 0; i < M; i++) {\n  z[i] = 0;\n  for (j = 0; j < N; j++)\n    z[i] = z[i] + B[i][j] * 2;\n}\n"
)
COLUMNS = (
    "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    B[i][j] = A[i][j] + x[j];\n"
    "for (j = 0; j < N; j++)\n  for (i = 0; i < M; i++)\n    y[j] = y[j] * 0.5 + B[i][j];\n"
)
CASES: dict[str, tuple[Case, tuple[str, ...]]] = {
    "rows-flag": (Case("double", ROWS, "B_c"), ("--assume-dead", "B")),
    "rows-pragma": (Case("double", "#pragma polyopt dead(B)\n" + ROWS, "B_c"), ()),
    # Not fused (the column recurrence on y): B keeps its storage, and z is never written.
    "columns-flag": (Case("double", COLUMNS, "polyopt"), ("--assume-dead=B,z",)),
    "long-rows": (Case("long", ROWS.replace("* 2", "* 3"), "B_c"), ("--assume-dead", "B")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_contraction_keeps_the_result(tmp_path: Path, name: str) -> None:
    case, flags = CASES[name]
    check_case(tmp_path, name, case, (), exact_flags=[*flags, "--no-reassociate"], flags=flags)


SEGMENTED = """#include <stdio.h>
#define N 37
static double A[N][N], B[N][N], C[N][N], D[N][N], tmp[N][N], u[N], v[N], x[N], y[N], z[N];

static void mm2(int n)
{
  int i, j, k;
#pragma scop
#pragma polyopt dead(tmp)
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      tmp[i][j] = 0.0;
      for (k = 0; k < n; k++)
        tmp[i][j] += 1.5 * A[i][k] * B[k][j];
    }
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++) {
      D[i][j] *= 1.2;
      for (k = 0; k < n; k++)
        D[i][j] += tmp[i][k] * C[k][j];
    }
#pragma endscop
}

static void atax(int m, int n)
{
  int i, j;
#pragma scop
#pragma polyopt dead(u)
  for (i = 0; i < n; i++)
    y[i] = 0.0;
  for (i = 0; i < m; i++) {
    u[i] = 0.0;
    for (j = 0; j < n; j++)
      u[i] = u[i] + A[i][j] * x[j];
    for (j = 0; j < n; j++)
      y[j] = y[j] + A[i][j] * u[i];
  }
#pragma endscop
}

static void gesummv(int n)
{
  int i, j;
#pragma scop
#pragma polyopt dead(v)
  for (i = 0; i < n; i++) {
    v[i] = 0.0;
    z[i] = 0.0;
    for (j = 0; j < n; j++) {
      v[i] = A[i][j] * x[j] + v[i];
      z[i] = B[i][j] * x[j] + z[i];
    }
    z[i] = 1.5 * v[i] + 1.2 * z[i];
  }
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < N; i++) {
    x[i] = (double)(i % 9 + 1) / 5;
    u[i] = v[i] = 1.0;
    for (int j = 0; j < N; j++) {
      A[i][j] = (double)((i * 3 + j * 5) % 11 - 4) / 8;
      B[i][j] = (double)((i + 2 * j) % 7 + 1) / 3;
      C[i][j] = (double)((2 * i + j) % 5 - 2) / 4;
      D[i][j] = (double)((i * j) % 6 - 2) / 5;
      tmp[i][j] = 1.0;
    }
  }
  mm2(N);
  atax(N - 4, N);
  gesummv(N);
  for (int i = 0; i < N; i++) {
    printf("%.17g %.17g ", y[i], z[i]);
    for (int j = 0; j < N; j++)
      printf("%.17g ", D[i][j]);
  }
  printf("\\n");
  return 0;
}
"""
# The options, what the output must contain, and the temporaries reported live after their segment 1
# (the microkernel cuts out GEMMs only).
LIBRARIES = {
    "blas-none": (("--blas=none",), "polyopt microkernel", ("tmp",)),
    "default": ((), "polyopt microkernel", ("tmp", "u", "v")),
    "blas-calls": (("--blas=cblas", "--blas-threshold=1", "--blas2-threshold=1"), "cblas_dgemv", ("tmp", "u", "v")),
}


@pytest.mark.parametrize("name", sorted(LIBRARIES))
def test_dead_temporaries_read_by_a_later_segment_keep_their_stores(tmp_path: Path, name: str) -> None:
    flags, expect, live = LIBRARIES[name]
    if "cblas" in name and not cblas_available():
        pytest.skip("cblas.h not found (install libopenblas-dev)")
    report = check_program(tmp_path, "segmented", SEGMENTED, [*flags, "--report"], expect)
    for array in live:
        assert f"segment 1: {array} read by a later segment, so not dead after it" in report
