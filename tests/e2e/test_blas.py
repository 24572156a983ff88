"""End-to-end checks of CBLAS calls for BLAS idioms (``tests.e2e.handwritten``).

``--blas=cblas --blas-threshold=0 --blas2-threshold=0`` makes polyopt call CBLAS whatever the size, so these
small programs run the calls (linked with OpenBLAS, installed by ``.ci/run``); each output
is compared with the original's within the reassociation tolerance, and the run with
``--blas=none --no-reassociate`` exactly.  ``B`` is copied into ``y`` so that the output
shows the product.  Square operands are sub-blocks of the M x N arrays (M < N), so the leading
dimensions differ from the sizes.  The strict triangles' diagonals show in ``y``.  The SYMM cases leave their
accumulator ``t`` live, printed after the region, and the batched GEMMs their buffer ``x``.

Row-pointer matrices (``double **``, rows out of order in one padded block) have no leading dimension:
their products run the loops, at the default threshold and with every call forced.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.library.blas import cblas_available
from tests.e2e.handwritten import Case, check_case, check_program

SHOW = "for (j = 0; j < N; j++)\n  y[j] = B[0][j] + B[M - 1][j] + B[M / 2][j];\n"
PRODUCT = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    for (k = 0; k < M; k++)\n"
MATRIX = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    "
TRIANGLE = "for (i = 0; i < M; i++)\n  for (k = 0; k < N; k++)\n    for (j = 0; j <= i; j++)\n      "
STRICT = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    for (k = i + 1; k < M; k++)\n      "
SYMM = (
    "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {{\n    t = 0;\n    for (k = 0; k < i; k++) {{\n"
    "      {update}\n      {accumulate}\n    }}\n"
    "    B[i][j] = 0.5 * B[i][j] + 1.5 * C[i][j] * A[i][i] + 1.5 * t;\n  }}\n"
)
SYMM_UPDATE = "B[k][j] += 1.5 * C[i][j] * A[i][k];"
SYMM_ACCUMULATE = "t += C[k][j] * A[i][k];"
CASES: dict[str, Case] = {
    "gemm": Case("double", PRODUCT + "      B[i][j] += A[i][k] * A[k][j];\n" + SHOW, "cblas_dgemm"),
    "gemm-transposed-a": Case("double", PRODUCT + "      B[i][j] += 0.5 * A[k][i] * A[k][j];\n" + SHOW, "CblasTrans"),
    "sgemm": Case("float", PRODUCT + "      B[i][j] -= A[i][k] * A[k][j] * 3;\n" + SHOW, "cblas_sgemm"),
    "polybench-gemm": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  for (j = 0; j < N; j++)\n    B[i][j] *= 0.5;\n"
        "  for (k = 0; k < M; k++)\n    for (j = 0; j < N; j++)\n      B[i][j] += 1.5 * A[i][k] * A[k][j];\n}\n" + SHOW,
        "cblas_dgemm",
    ),
    "integer-product": Case("long", PRODUCT + "      B[i][j] += A[i][k] * A[k][j];\n" + SHOW, "cblas_dgemm"),
    "gemv": Case("double", MATRIX + "z[i] += 0.5 * A[i][j] * x[j];\n", "CblasNoTrans"),
    "gemv-transposed": Case("double", MATRIX + "y[j] = y[j] + A[i][j] * z[i];\n", "CblasTrans"),
    "sgemv": Case("float", MATRIX + "z[i] -= x[j] * B[i][j];\n", "cblas_sgemv"),
    "integer-gemv": Case("long", MATRIX + "z[i] += A[i][j] * x[j];\n", "cblas_dgemv"),
    "atax": Case(
        "double",
        "for (j = 0; j < N; j++)\n  y[j] = 0;\nfor (i = 0; i < M; i++) {\n  z[i] = 0;\n"
        "  for (j = 0; j < N; j++)\n    z[i] = z[i] + A[i][j] * x[j];\n"
        "  for (j = 0; j < N; j++)\n    y[j] = y[j] + A[i][j] * z[i];\n}\n",
        "cblas_dgemv",
    ),
    "ger": Case("double", MATRIX + "B[i][j] = B[i][j] + z[i] * x[j] - 2 * x[j] * z[i] * 0.25;\n" + SHOW, "cblas_dger"),
    "sger": Case("float", MATRIX + "B[i][j] += 1.5 * z[i] * x[j];\n" + SHOW, "cblas_sger"),
    "syrk": Case("double", TRIANGLE + "B[i][j] += 0.5 * A[i][k] * A[j][k];\n" + SHOW, "CblasLower"),
    "syrk-upper-transposed": Case(
        "float",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < M; k++)\n    for (j = i; j < M; j++)\n"
        "      B[i][j] += A[k][i] * A[k][j];\n" + SHOW,
        "cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans",
    ),
    "polybench-syrk": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  for (j = 0; j <= i; j++)\n    B[i][j] *= 0.5;\n  for (k = 0; k < N; k++)\n"
        "    for (j = 0; j <= i; j++)\n      B[i][j] += 1.5 * A[i][k] * A[j][k];\n}\n" + SHOW,
        "cblas_dsyrk",
    ),
    "syrk-strict-lower": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < N; k++)\n    for (j = 0; j < i; j++)\n"
        "      B[i][j] += 0.5 * A[i][k] * A[j][k];\n" + SHOW,
        "cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans",
    ),
    "syrk-strict-upper-transposed": Case(
        "float",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < M; k++)\n    for (j = i + 1; j < M; j++)\n"
        "      B[i][j] += A[k][i] * A[k][j];\n" + SHOW,
        "cblas_ssyrk(CblasRowMajor, CblasUpper, CblasTrans",
    ),
    "correlation": Case(
        "double",
        "for (i = 0; i < M - 1; i++) {\n  B[i][i] = 1.0;\n  for (j = i + 1; j < M; j++) {\n    B[i][j] = 0.0;\n"
        "    for (k = 0; k < N; k++)\n      B[i][j] += A[i][k] * A[j][k];\n    B[j][i] = B[i][j];\n  }\n}\n"
        "B[M - 1][M - 1] = 1.0;\n" + SHOW,
        "cblas_dsyrk(CblasRowMajor, CblasUpper, CblasNoTrans",
    ),
    "syr2k-strict": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < N; k++)\n    for (j = 0; j < i; j++)\n"
        "      B[i][j] += A[j][k] * C[i][k] + C[j][k] * A[i][k];\n" + SHOW,
        "cblas_dsyr2k",
    ),
    "syr2k": Case(
        "double", TRIANGLE + "B[i][j] += A[j][k] * 2 * C[i][k] + C[j][k] * 2 * A[i][k];\n" + SHOW, "cblas_dsyr2k"
    ),
    "trmm": Case("double", STRICT + "B[i][j] += A[k][i] * B[k][j];\n" + SHOW, "CblasLower, CblasTrans, CblasUnit"),
    "trmm-upper": Case("float", STRICT + "B[i][j] += B[k][j] * A[i][k];\n" + SHOW, "CblasUpper, CblasNoTrans"),
    "polybench-trmm": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    for (k = i + 1; k < M; k++)\n"
        "      B[i][j] += A[k][i] * B[k][j];\n    B[i][j] = 1.5 * B[i][j];\n  }\n" + SHOW,
        "cblas_dtrmm",
    ),
    "symm": Case("double", SYMM.format(update=SYMM_UPDATE, accumulate=SYMM_ACCUMULATE) + SHOW, "CblasLeft, CblasLower"),
    "ssymm": Case(
        "float",
        SYMM.format(update=SYMM_ACCUMULATE, accumulate="B[k][j] = B[k][j] + A[i][k] * C[i][j] * 1.5;") + SHOW,
        "cblas_ssymm",
    ),  # the updates in the other order, factors reordered
    "symm-upper": Case(
        "double",
        SYMM.format(update=SYMM_UPDATE, accumulate=SYMM_ACCUMULATE)
        .replace("i = 0; i < M; i++", "i = M - 1; i >= 0; i--")
        .replace("k = 0; k < i;", "k = i + 1; k < M;")
        + SHOW,
        "cblas_dsymm(CblasRowMajor, CblasLeft, CblasUpper",
    ),
}
DOITGEN = (
    "for (i = 0; i < 3; i++)\n  for (j = 0; j < {rows}; j++) {{\n    for (k = 0; k < {columns}; k++) {{\n"
    "      x[k] = 0;\n      for (l = 0; l < {depth}; l++)\n        x[k] += {product};\n    }}\n"
    "    for (k = 0; k < {columns}; k++)\n      D[i][j][k] = x[k];\n  }}\n"
)
CASES |= {
    "doitgen": Case(
        "double",
        DOITGEN.format(rows="M", columns="N", depth="M", product="D[i][j][l] * C[l][k]"),
        "cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, polyopt_group",
    ),
    "doitgen-rows-apart": Case(
        "float",
        DOITGEN.format(rows="M - 3", columns="N", depth="M", product="2 * D[i][j][l] * A[l][k]"),
        "cblas_sgemm",
    ),  # the batches' rows are not evenly spaced: one call per batch
    "doitgen-transposed": Case(
        "double",
        DOITGEN.format(rows="M", columns="M", depth="N", product="D[i][j][l] * A[k][l]"),
        "CblasNoTrans, CblasTrans",
    ),
}
FORCED = ("--blas=cblas", "--blas-threshold=0", "--blas2-threshold=0")


@pytest.mark.skipif(not cblas_available(), reason="cblas.h not found (install libopenblas-dev)")
@pytest.mark.parametrize("name", sorted(CASES))
def test_library_call_keeps_the_result(tmp_path: Path, name: str) -> None:
    check_case(tmp_path, name, CASES[name], (), exact_flags=["--blas=none", "--no-reassociate"], flags=FORCED)
    assert "cblas" not in (tmp_path / f"{name}-1.polyopt.c").read_text()


ROW_POINTERS = """#include <stdio.h>
#include <stdlib.h>
static double **A, **B, **C, x[200], y[200];

static void kernel(int n)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[i] += 0.5 * A[i][j] * x[j];
#pragma endscop
}

static double **rows(int n, int salt)
{
  double **matrix = malloc(n * sizeof *matrix), *block = malloc(n * (n + 3) * sizeof *block);
  for (int i = 0; i < n; i++) {
    matrix[i] = block + (i * 7 % n) * (n + 3);
    for (int j = 0; j < n; j++)
      matrix[i][j] = (double)((i * 3 + j * salt) % 11 - 4) / 8;
  }
  return matrix;
}

int main(void)
{
  int n = 200;
  A = rows(n, 5);
  B = rows(n, 2);
  C = rows(n, 1);
  for (int j = 0; j < n; j++)
    x[j] = (double)(j % 9 + 1) / 5;
  kernel(n);
  for (int i = 0; i < n; i++) {
    double sum = 0;
    for (int j = 0; j < n; j++)
      sum += C[i][j] * (j % 3 + 1);
    printf("%.17g %.17g\\n", sum, y[i]);
  }
  return 0;
}
"""


@pytest.mark.skipif(not cblas_available(), reason="cblas.h not found (install libopenblas-dev)")
@pytest.mark.parametrize("flags", [(), ("--blas-threshold=1", "--blas2-threshold=1")])
def test_row_pointer_matrices_run_the_loops(tmp_path: Path, flags: tuple[str, ...]) -> None:
    check_program(tmp_path, "rows", ROW_POINTERS, flags, "polyopt_leading_dimension(A) > 0")


USER_NAMES = """\
#include <stdio.h>

#define N 40
static double I[N][N], complex[N][N], C[N][N];

int main(void)
{
  int i, j, k;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {
      I[i][j] = (double)((i * 3 + j) % 7) / 4;
      complex[i][j] = (double)((i + j * 5) % 9) / 8;
    }
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      for (k = 0; k < N; k++)
        C[i][j] += I[i][k] * complex[k][j];
#pragma endscop
  for (i = 0; i < N; i++)
    printf("%.17g\\n", C[i][i] + C[i][N - 1 - i]);
  return 0;
}
"""


@pytest.mark.skipif(not cblas_available(), reason="cblas.h not found (install libopenblas-dev)")
def test_the_library_header_leaves_the_programs_names_alone(tmp_path: Path) -> None:
    """OpenBLAS's cblas.h would include <complex.h>, whose macros ``I`` and ``complex`` are common names."""
    check_program(tmp_path, "names", USER_NAMES, ("--blas-threshold=1",), "cblas_dgemm")
