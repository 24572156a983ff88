"""BLAS idiom recognition on the model (``polyopt.library``): the PolyBench kernels, report lines,
and the types the calls compute in.  Each family's matches are tested in ``test_idioms_<family>.py``."""

from __future__ import annotations

import pytest

from polyopt.library import Gemm, find_idioms
from tests.library.idiom_cases import (
    DOITGEN_DECLARED,
    GEMV,
    SYMM_DECLARED,
    ModelOf,
    doitgen,
    idioms_of,
    kernel_region,
    product_body,
    symm,
)

SUITE = {
    "gemm": [("S1", "gemm", "C += (alpha) * A * B", ("_PB_NI", "_PB_NJ", "_PB_NK"))],
    "2mm": [
        ("S1", "gemm", "tmp += (alpha) * A * B", ("_PB_NI", "_PB_NJ", "_PB_NK")),
        ("S3", "gemm", "D += 1.0 * tmp * C", ("_PB_NI", "_PB_NL", "_PB_NJ")),
    ],
    "syrk": [("S1", "syrk", "C (lower) += (alpha) * A * A^T", ("_PB_N", "_PB_M"))],
    "syr2k": [("S1", "syr2k", "C (lower) += (alpha) * (B * A^T + A * B^T)", ("_PB_N", "_PB_M"))],
    "trmm": [("S0", "trmm", "B = A^T * B (A unit lower triangular)", ("_PB_M", "_PB_N"))],
    "gemver": [
        ("S0", "ger", "A += 1.0 * u1 * v1^T + 1.0 * u2 * v2^T", ("_PB_N", "_PB_N")),
        ("S1", "gemv", "x += (beta) * A^T * y", ("_PB_N", "_PB_N")),
        ("S3", "gemv", "w += (alpha) * A * x", ("_PB_N", "_PB_N")),
    ],
    "mvt": [
        ("S0", "gemv", "x1 += 1.0 * A * y_1", ("_PB_N", "_PB_N")),
        ("S1", "gemv", "x2 += 1.0 * A^T * y_2", ("_PB_N", "_PB_N")),
    ],
    "atax": [
        ("S2", "gemv", "tmp += 1.0 * A * x", ("_PB_M", "_PB_N")),
        ("S3", "gemv", "y += 1.0 * A^T * tmp", ("_PB_M", "_PB_N")),
    ],
    "bicg": [
        ("S2", "gemv", "s += 1.0 * A^T * r", ("_PB_N", "_PB_M")),
        ("S3", "gemv", "q += 1.0 * A * p", ("_PB_N", "_PB_M")),
    ],
    "gesummv": [
        ("S2", "gemv", "tmp += 1.0 * A * x", ("_PB_N", "_PB_N")),
        ("S3", "gemv", "y += 1.0 * B * x", ("_PB_N", "_PB_N")),
    ],
    "symm": [
        (
            "S0, S1, S2, S3",
            "symm",
            "C = (alpha) * A * B + (beta) * C (A symmetric, lower)",
            ("_PB_M", "_PB_N"),
        )
    ],
    "correlation": [("S12", "syrk", "corr (strict upper) += 1.0 * data^T * data", ("_PB_M", "_PB_N"))],
    "doitgen": [
        (
            "S0, S1, S2",
            "gemm",
            "A[b] = 1.0 * A[b] * C4 (in place, for each b)",
            ("_PB_NR", "_PB_NQ", "_PB_NP", "_PB_NP"),
        )
    ],
    "lu": [],  # the operands are the output
}


@pytest.mark.parametrize("kernel", sorted(SUITE))
def test_polybench_kernels(model_of: ModelOf, kernel: str) -> None:
    assert idioms_of(model_of, *kernel_region(kernel)) == SUITE[kernel]


def test_report_line_names_routine_sizes_and_threshold(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(GEMV.format("y[i] += A[i][j] * x[j]")))

    line = idiom.describe(["m", "n"], 100)

    assert line == "S0: cblas_?gemv y += 1.0 * A * x (M = m, N = n) when M * N >= 100"


def test_report_line_of_an_idiom_left_to_the_loops(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(GEMV.format("y[i] += A[i][j] * x[j]")))

    line = idiom.describe(["m", "n"], 100, expected=60)

    assert line.endswith("when M * N >= 100; left to the loops: M * N = 60 at the assumed values")


@pytest.mark.parametrize(
    ("update", "declarations", "alpha"),
    [
        ("C[i][j] += A[i][k] * B[k][j] * n * n;", "double A[9][9], B[9][9], C[9][9], n;\n", "(n) * (n)"),
        ("C[i][j] += 2.5 * A[i][k] * B[k][j] * n;", "double A[9][9], B[9][9], C[9][9];\nint n;\n", "(2.5) * (n)"),
        ("C[i][j] += a * A[i][k] * B[k][j] * b;", "DATA_TYPE A[9][9], B[9][9], C[9][9], a;\nint b;\n", "(a) * (b)"),
        # two integer factors: the call would multiply them in int, the statement in double
        ("C[i][j] += A[i][k] * B[k][j] * n * n;", "double A[9][9], B[9][9], C[9][9];\nint n;\n", None),
        ("C[i][j] += A[i][k] * B[k][j] * 2 * 3;", "double A[9][9], B[9][9], C[9][9];\n", None),
        # a factor of a type from a header may be an integer type but that of C
        ("C[i][j] += a * A[i][k] * B[k][j] * b;", "double A[9][9], B[9][9], C[9][9];\nDATA_TYPE a, b;\n", None),
    ],
)
def test_factors_are_multiplied_in_the_type_of_the_statement(
    model_of: ModelOf, update: str, declarations: str, alpha: str | None
) -> None:
    gemms = [idiom for idiom in find_idioms(model_of(product_body(update), declarations)) if isinstance(idiom, Gemm)]

    assert [gemm.alpha for gemm in gemms] == ([alpha] if alpha else [])


@pytest.mark.parametrize(
    ("body", "declarations", "routine"),
    [
        (symm(), SYMM_DECLARED.replace(", t,", ",") + "int t;\n", None),
        (symm(), SYMM_DECLARED.replace(", t,", ",") + "float t;\n", None),
        (symm(), "DATA_TYPE A[9][9], B[9][9], C[9][9], t, alpha, beta;\n", "symm"),
        (symm(), "double A[9][9], B[9][9], C[9][9], alpha, beta;\n", None),  # t not declared here
        (doitgen(), DOITGEN_DECLARED.replace(", sum[9],", ",") + "float sum[9];\n", None),
        (doitgen(), DOITGEN_DECLARED.replace(", sum[9],", ",") + "long sum[9];\n", None),
        (doitgen(), "DATA_TYPE POLYBENCH_3D(A, 9, 9, 9, nr, nq, np), W[9][9], POLYBENCH_1D(sum, 9, np);\n", "gemm"),
    ],
)
def test_accumulators_are_of_the_type_they_are_combined_into(
    model_of: ModelOf, body: str, declarations: str, routine: str | None
) -> None:
    combined = [idiom.ROUTINE for idiom in find_idioms(model_of(body, declarations)) if len(idiom.statements) > 1]

    assert combined == ([routine] if routine else [])
