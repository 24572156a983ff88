"""TRMM (``polyopt.library.idioms.triangular``): matches, the cases left alone, and the CBLAS call that
computes it."""

from __future__ import annotations

import pytest

from polyopt.library import Trmm, find_idioms
from polyopt.library.cblas import Call
from tests.library.idiom_cases import TRMM, ModelOf, idioms_of, matrix_arguments


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (TRMM.format("i + 1", "m", "B[i][j] += A[k][i] * B[k][j]"), "B = A^T * B (A unit lower triangular)"),
        (TRMM.format("i + 1", "m", "B[i][j] += B[k][j] * A[i][k]"), "B = A * B (A unit upper triangular)"),
        (
            "for (j = 0; j < n; j++)\n  for (i = 0; i < m; i++)\n    for (k = i + 1; k < m; k++)\n"
            "      B[i][j] += A[k][i] * B[k][j];\n",
            "B = A^T * B (A unit lower triangular)",
        ),
    ],
)
def test_trmm_reads_only_rows_not_yet_updated(model_of: ModelOf, body: str, expected: str) -> None:
    ((_, routine, formula, sizes),) = idioms_of(model_of, body)

    assert (routine, formula, sizes) == ("trmm", expected, ("m", "n"))


@pytest.mark.parametrize(
    "body",
    [
        TRMM.format("i + 1", "m", "B[i][j] += 2 * A[k][i] * B[k][j]"),  # scaled: not a unit diagonal
        TRMM.format("i", "m", "B[i][j] += A[k][i] * B[k][j]"),  # the diagonal too
        TRMM.format("0", "i", "B[i][j] += A[i][k] * B[k][j]"),  # reads rows already updated
        TRMM.format("i + 1", "m", "B[i][j] += A[k][i] * B[j][k]"),  # not a row of B
    ],
)
def test_non_triangular_products_are_left_alone(model_of: ModelOf, body: str) -> None:
    assert find_idioms(model_of(body)) == ()


def test_trmm_is_one_call_with_a_unit_diagonal() -> None:
    code = Trmm(("S0",), (), "B", "A", lower=True, trans=True).cblas(["m", "n"])

    flags = ("CblasLeft", "CblasLower", "CblasTrans", "CblasUnit")
    operands = (*matrix_arguments("A"), *matrix_arguments("B"))
    assert code.calls == (Call("trmm", (*flags, "m", "n", "1.0", *operands)),)
