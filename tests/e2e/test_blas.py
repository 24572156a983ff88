"""End-to-end checks of CBLAS calls for matrix products (``tests.e2e.handwritten``).

``--blas=cblas --blas-threshold=0`` makes polyopt call CBLAS whatever the size, so these
small programs run the calls (linked with OpenBLAS, installed by ``.ci/run``); each output
is compared with the original's within the reassociation tolerance, and the run with
``--blas=none --no-reassociate`` exactly.  ``B`` is copied into ``y`` so that the output
shows the product.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.emit.blas import cblas_available
from tests.e2e.handwritten import Case, check_case

SHOW = "for (j = 0; j < N; j++)\n  y[j] = B[0][j] + B[M - 1][j] + B[M / 2][j];\n"
PRODUCT = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    for (k = 0; k < M; k++)\n"
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
}
FORCED = ("--blas=cblas", "--blas-threshold=0")


@pytest.mark.skipif(not cblas_available(), reason="cblas.h not found (install libopenblas-dev)")
@pytest.mark.parametrize("name", sorted(CASES))
def test_library_call_keeps_the_result(tmp_path: Path, name: str) -> None:
    check_case(tmp_path, name, CASES[name], (), exact_flags=["--blas=none", "--no-reassociate"], flags=FORCED)
    assert "cblas" not in (tmp_path / f"{name}-1.polyopt.c").read_text()
