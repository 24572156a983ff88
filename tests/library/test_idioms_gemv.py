"""GEMV and GER (``polyopt.library.idioms.gemv``): matches, the cases left alone, and the CBLAS calls
that compute them."""

from __future__ import annotations

import pytest

from polyopt.library import Gemv, Ger, Rank1, find_idioms
from polyopt.library.cblas import Call
from tests.library.idiom_cases import GEMV, GEMV_JI, ModelOf, idioms_of, matrix_arguments, vector_arguments


@pytest.mark.parametrize(
    ("loops", "update", "expected"),
    [
        (GEMV, "y[i] += a * A[i][j] * x[j]", ("y += (a) * A * x", ("m", "n"))),
        (GEMV_JI, "y[i] += a * A[i][j] * x[j]", ("y += (a) * A * x", ("m", "n"))),  # loop order permuted
        (GEMV, "y[j] = y[j] + x[i] * A[i][j]", ("y += 1.0 * A^T * x", ("m", "n"))),
        (GEMV, "y[i] = A[j][i] * x[j] + y[i]", ("y += 1.0 * A^T * x", ("n", "m"))),  # transposed subscripts
        (GEMV, "y[i] -= A[i][j] * x[j]", ("y += -(1.0) * A * x", ("m", "n"))),
    ],
)
def test_gemv_both_orientations(model_of: ModelOf, loops: str, update: str, expected: tuple[str, ...]) -> None:
    ((_, routine, *found),) = idioms_of(model_of, loops.format(update))

    assert (routine, *found) == ("gemv", *expected)


@pytest.mark.parametrize(
    ("update", "expected"),
    [
        ("A[i][j] += s * x[i] * y[j]", "A += (s) * x * y^T"),
        ("A[i][j] = A[i][j] + y[j] * x[i]", "A += 1.0 * x * y^T"),
        ("A[j][i] += x[i] * y[j]", "A += 1.0 * y * x^T"),
        ("A[i][j] = A[i][j] + u[i] * v[j] - 2 * w[i] * z[j]", "A += 1.0 * u * v^T + -((2)) * w * z^T"),
    ],
)
def test_ger_one_call_per_rank_one_term(model_of: ModelOf, update: str, expected: str) -> None:
    ((_, routine, formula, _),) = idioms_of(model_of, GEMV.format(update))

    assert (routine, formula) == ("ger", expected)


@pytest.mark.parametrize(
    "body",
    [
        GEMV.format("x[i] += A[i][j] * x[j]"),  # the output is an input
        GEMV.format("y[i] += A[i][j] * y[j]"),
        GEMV.format("y[i] += A[i][2 * j] * x[j]"),  # not unit stride
        GEMV.format("y[i] += A[i][j] * x[j + 1]"),  # shifted
        GEMV.format("y[i] += A[i][j] * x[j] * x[j]"),  # a third data factor
        GEMV.format("y[i] += A[i][j] + x[j]"),  # not a product
        GEMV.format("A[i][j] += x[i] * A[j][i]"),  # a rank-1 update reading its output
        GEMV.format("A[i][j] += x[i] * y[i]"),  # not an outer product
        "for (i = 0; i < m; i++)\n  for (j = 0; j < i; j++)\n    y[i] += A[i][j] * x[j];\n",  # not the whole range
        "for (i = 0; i < m; i++)\n  for (j = 1; j < n; j++)\n    y[i] += A[i][j] * x[j];\n",
    ],
)
def test_non_matrix_vector_products_are_left_alone(model_of: ModelOf, body: str) -> None:
    assert find_idioms(model_of(body)) == ()


def test_gemv_is_one_call_on_the_stored_matrix() -> None:
    gemv = Gemv(("S0",), (), "y", "A", "x", True, "(a)")

    code = gemv.cblas(["m", "n"])

    operands = (*matrix_arguments("A"), *vector_arguments("x"), "1.0", *vector_arguments("y"))
    assert code.calls == (Call("gemv", ("CblasTrans", "m", "n", "(a)", *operands)),)


def test_ger_is_one_call_per_rank_one_term() -> None:
    ger = Ger(("S0",), (), "A", (Rank1("u", "v", "1.0"), Rank1("w", "z", "-((2))")))

    code = ger.cblas(["m", "n"])

    assert code.calls == tuple(
        Call("ger", ("m", "n", alpha, *vector_arguments(x), *vector_arguments(y), *matrix_arguments("A")))
        for x, y, alpha in (("u", "v", "1.0"), ("w", "z", "-((2))"))
    )
