"""GEMM recognition on the model (``polyopt.analysis.idioms``): matches and the cases left alone."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from polyopt.analysis.idioms import find_gemms
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]

GEMM = (
    "for (i = 0; i < ni; i++) {\n  for (j = 0; j < nj; j++)\n    C[i][j] *= beta;\n"
    "  for (k = 0; k < nk; k++)\n    for (j = 0; j < nj; j++)\n      C[i][j] += alpha * A[i][k] * B[k][j];\n}\n"
)


def _product(update: str, order: str = "ijk") -> str:
    bounds = {"i": "ni", "j": "nj", "k": "nk"}
    loops = "".join(f"{'  ' * depth}for ({v} = 0; {v} < {bounds[v]}; {v}++)\n" for depth, v in enumerate(order))
    return loops + "  " * len(order) + update + "\n"


def _matches(model_of: ModelOf, body: str) -> list[tuple[str, str, str, str, bool, bool, str]]:
    return [(g.statement, g.c, g.a, g.b, g.trans_a, g.trans_b, g.alpha) for g in find_gemms(model_of(body))]


def test_polybench_gemm_update_is_recognized_next_to_its_beta_scaling(model_of: ModelOf) -> None:
    assert _matches(model_of, GEMM) == [("S1", "C", "A", "B", False, False, "(alpha)")]


@pytest.mark.parametrize("order", ["ijk", "kij", "jki"])
def test_any_loop_order_is_recognized(model_of: ModelOf, order: str) -> None:
    body = _product("C[i][j] += A[i][k] * B[k][j];", order)

    assert _matches(model_of, body) == [("S0", "C", "A", "B", False, False, "1.0")]


@pytest.mark.parametrize(
    ("update", "expected"),
    [
        ("C[i][j] += A[k][i] * B[k][j];", ("A", "B", True, False, "1.0")),
        ("C[i][j] += A[i][k] * B[j][k];", ("A", "B", False, True, "1.0")),
        ("C[i][j] = C[i][j] + B[k][j] * 2.0 * A[i][k];", ("A", "B", False, False, "(2.0)")),
        ("C[i][j] -= alpha * A[i][k] * B[k][j];", ("A", "B", False, False, "-((alpha))")),
        ("C[j][i] += A[j][k] * B[k][i];", ("A", "B", False, False, "1.0")),
    ],
)
def test_transposes_factors_and_signs(model_of: ModelOf, update: str, expected: tuple[str, ...]) -> None:
    ((_, c, *found),) = _matches(model_of, _product(update))

    assert (c, *found) == ("C", *expected)


@pytest.mark.parametrize(
    "update",
    [
        "C[i][j] += A[i][k] * C[k][j];",  # the output is an input
        "C[i][j] += A[2 * i][k] * B[k][j];",  # not unit stride
        "C[i][j] += A[i][k + 1] * B[k][j];",  # shifted
        "C[i][j] += A[i][k] * B[k][j] + A[i][j];",  # more than a product
        "C[i][j] = A[i][k] * B[k][j];",  # not an update
        "C[i][j] += A[i][k] * B[k][j] * x[k];",  # a third data factor
        "C[i][j] *= A[i][k] * B[k][j];",  # a product reduction
    ],
)
def test_non_products_are_left_alone(model_of: ModelOf, update: str) -> None:
    assert _matches(model_of, _product(update)) == []


def test_a_triangular_product_is_left_alone(model_of: ModelOf) -> None:
    body = (
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < i; k++)\n"
        "      C[i][j] += A[i][k] * B[k][j];\n"
    )

    assert _matches(model_of, body) == []


def test_a_product_not_starting_at_zero_is_left_alone(model_of: ModelOf) -> None:
    body = (
        "for (i = lo; i < ni; i++)\n  for (j = 0; j < nj; j++)\n    for (k = 0; k < nk; k++)\n"
        "      C[i][j] += A[i][k] * B[k][j];\n"
    )

    assert _matches(model_of, body) == []
