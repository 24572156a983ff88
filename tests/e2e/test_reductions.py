"""End-to-end checks of reductions on small handwritten programs (issue: false dependences and reductions).

Each program (``tests.e2e.handwritten``) is optimized with the default options (reductions
may be reordered: outputs compared within a tolerance for the element type) and with
``--no-reassociate`` (compared exactly, and no reduction clause may appear), built with and
without ``-fopenmp``, and run with 1 and 2 threads.  Each case also names the clause text
the default output must contain, so a case checks that the reduction was really
parallelized or vectorized, not only that the program still prints the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case

CASES: dict[str, Case] = {
    "scalar-sum": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    s += A[i][j] * B[i][j];\n",
        "reduction(+:s)",
    ),
    "vector-section": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    y[j] = y[j] + A[i][j] * z[i];\n",
        "reduction(+:y[",
    ),
    "element-in-a-local": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    z[i] = z[i] + A[i][j] * x[j];\n",
        "_red = z[",
    ),
    "integer-product": Case(
        "long",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < 2; j++)\n    p *= (i + j) % 3 + 1;\n",
        "reduction(*:p)",
    ),
    "float-sum-minus": Case(
        "float",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    s -= A[i][j] * x[j];\n",
        "reduction(+:s)",
    ),
    "fused-pair": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  z[i] = 0;\n  for (j = 0; j < N; j++) {\n"
        "    y[j] = y[j] + A[i][j] * x[j];\n    z[i] = z[i] + B[i][j] * x[j];\n  }\n}\n",
        "reduction(+:y[",
    ),
    "partial-sums-are-read": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    s += A[i][j];\n    B[i][j] = s;\n  }\n"
        "for (j = 0; j < N; j++)\n  y[j] = B[M - 1][j];\n",
        "",
    ),
    "distributed-triangular-solve": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  for (j = 0; j < i; j++)\n    z[i] -= A[i][j] * z[j];\n"
        "  z[i] = z[i] / B[i][i];\n}\n",
        "omp simd reduction(+:",
    ),
    "distributed-cholesky-update": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < i; j++) {\n    for (k = 0; k < j; k++)\n"
        "      A[i][j] -= A[i][k] * A[j][k];\n    A[i][j] /= B[j][j];\n  }\n",
        "omp simd reduction(+:",
    ),
    "matrix-update": Case(
        "double",
        "for (k = 0; k < M; k++)\n  for (i = 0; i < M; i++)\n    for (j = 0; j < N; j++)\n"
        "      B[i][j] = B[i][j] + A[k][j] * z[i];\n"
        "for (j = 0; j < N; j++)\n  y[j] = B[M - 1][j];\n",
        "",
    ),
}
# (name suffix, -D defines): the default sizes, and a vector too long for a stack copy per thread.
SIZES = [("", ()), ("-long", ("N=20000", "M=3"))]


@pytest.mark.parametrize("defines", [d for _, d in SIZES], ids=[s or "default-size" for s, _ in SIZES])
@pytest.mark.parametrize("name", sorted(CASES))
def test_reduction_keeps_the_result(tmp_path: Path, name: str, defines: tuple[str, ...]) -> None:
    check_case(tmp_path, name, CASES[name], defines, exact_flags=["--no-reassociate"])
    assert "reduction(" not in (tmp_path / f"{name}-1.polyopt.c").read_text()


def test_an_integer_sum_of_floating_terms_keeps_its_order(tmp_path: Path) -> None:
    """``s`` (a ``long``) truncates every partial sum of its ``double`` terms toward zero: summed in
    another order or in per-thread parts the result changes, so no clause may privatize it."""
    body = "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    s += (double) (B[i][j] * 5 - 1) / 2;\n"
    check_case(tmp_path, "integer-sum", Case("long", body, ""), (), exact_flags=["--no-reassociate"])
    assert "reduction(" not in (tmp_path / "integer-sum-0.polyopt.c").read_text()
