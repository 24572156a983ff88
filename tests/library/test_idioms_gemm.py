"""GEMM and the batched in-place GEMM (``polyopt.library.idioms.gemm``): matches, the cases left
alone, and the CBLAS calls that compute them."""

from __future__ import annotations

import islpy as isl
import pytest

from polyopt.emit.cast import CDecl
from polyopt.emit.cprint import print_c
from polyopt.library import BatchedGemm, Gemm, find_idioms
from polyopt.library.cblas import Call, Repeat, Scratch
from tests.library.idiom_cases import (
    DOITGEN_DECLARED,
    GEMM,
    ModelOf,
    doitgen,
    gemms,
    idioms_of,
    matrix_arguments,
    product_body,
)


def test_polybench_gemm_update_is_recognized_next_to_its_beta_scaling(model_of: ModelOf) -> None:
    assert gemms(model_of, GEMM) == [("S1", "C", "A", "B", False, False, "(alpha)")]


@pytest.mark.parametrize("order", ["ijk", "kij", "jki"])
def test_any_loop_order_is_recognized(model_of: ModelOf, order: str) -> None:
    body = product_body("C[i][j] += A[i][k] * B[k][j];", order)

    assert gemms(model_of, body) == [("S0", "C", "A", "B", False, False, "1.0")]


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
    ((_, c, *found),) = gemms(model_of, product_body(update))

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
    assert find_idioms(model_of(product_body(update))) == ()


def test_a_triangular_product_is_left_alone(model_of: ModelOf) -> None:
    body = (
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < i; k++)\n"
        "      C[i][j] += A[i][k] * B[k][j];\n"
    )

    assert find_idioms(model_of(body)) == ()


def test_a_product_not_starting_at_zero_is_left_alone(model_of: ModelOf) -> None:
    body = (
        "for (i = lo; i < ni; i++)\n  for (j = 0; j < nj; j++)\n    for (k = 0; k < nk; k++)\n"
        "      C[i][j] += A[i][k] * B[k][j];\n"
    )

    assert find_idioms(model_of(body)) == ()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (doitgen(), "A[b] = 1.0 * A[b] * W (in place, for each b)"),
        (doitgen("sum[p] = sum[p] + W[p][s] * a * A[r][q][s];"), "A[b] = (a) * A[b] * W^T (in place, for each b)"),
    ],
)
def test_batched_gemm_through_a_row_buffer(model_of: ModelOf, body: str, expected: str) -> None:
    ((statements, routine, formula, sizes),) = idioms_of(model_of, body, DOITGEN_DECLARED)

    assert (statements, routine, formula, sizes) == ("S0, S1, S2", "gemm", expected, ("nr", "nq", "np", "ns"))


def test_batched_gemm_tail_is_the_last_row(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(doitgen(), DOITGEN_DECLARED))

    assert idiom.tail is not None and idiom.tail.array == "sum"
    expected = (
        "[nr, nq, np, ns] -> { S0[nr - 1, nq - 1, p] : nr > 0 and nq > 0 and 0 <= p < np; "
        "S1[nr - 1, nq - 1, p, s] : nr > 0 and nq > 0 and 0 <= p < np and 0 <= s < ns }"
    )
    assert idiom.tail.instances.is_equal(isl.UnionSet(expected))


@pytest.mark.parametrize(
    "body",
    [
        doitgen().replace("    for (p = 0; p < np; p++)\n      A[r][q][p] = sum[p];\n", ""),  # no copy back
        doitgen(copy="A[q][r][p] = sum[p];"),  # copied back to another row
        doitgen(copy="B[r][q][p] = sum[p];"),  # copied to another array
        doitgen(copy="A[r][q][p] = 2 * sum[p];"),  # not a copy
        doitgen().replace("sum[p] = 0;", "sum[p] = 1;"),  # not reset to 0
        doitgen().replace("s = 0; s < ns", "s = 1; s < ns"),  # not the whole row
        doitgen().replace("q = 0; q < nq", "q = 1; q < nq"),  # rows not from the first
        doitgen("sum[p] += A[r][q][s] * A[r][s][p];"),  # W is X
        doitgen("sum[p] += A[r][q][s] * W[s][p] * W[s][p];"),  # a third data factor
        doitgen("sum[p] += A[r][s][q] * W[s][p];"),  # not a row of X
        doitgen() + "t = sum[0];\n",  # the buffer read elsewhere
        doitgen().replace(
            "        sum[p] += A[r][q][s] * W[s][p];\n    }\n",
            "        sum[p] += A[r][q][s] * W[s][p];\n      A[r][q][p] = sum[p];\n    }\n",
        ),  # copied back before the row is read: two copies, the first in the loop of p
        "for (r = 0; r < nr; r++)\n  for (q = 0; q < nq; q++)\n    for (p = 0; p < np; p++) {\n      sum[p] = 0;\n"
        "      for (s = 0; s < ns; s++)\n        sum[p] += A[r][q][s] * W[s][p];\n      A[r][q][p] = sum[p];\n"
        "    }\n",  # copied back element by element: later elements read the new row
    ],
)
def test_non_batched_gemm_left_alone(model_of: ModelOf, body: str) -> None:
    assert all(len(idiom.statements) == 1 for idiom in find_idioms(model_of(body, DOITGEN_DECLARED)))


def test_gemm_is_one_call_with_its_operands_transposed() -> None:
    gemm = Gemm(("S0",), (), "C", "A", "B", True, False, "(a)")

    code = gemm.cblas(["m", "n", "k"])

    operands = (*matrix_arguments("A"), *matrix_arguments("B"), "1.0", *matrix_arguments("C"))
    assert code.calls == (Call("gemm", ("CblasTrans", "CblasNoTrans", "m", "n", "k", "(a)", *operands)),)
    assert (code.scratch, code.repeat, code.before, code.after) == (None, None, (), ())


def test_batched_gemm_calls_per_group_of_batches_into_the_scratch_and_copies_back() -> None:
    batched = BatchedGemm(("S0", "S1", "S2"), (), "X", "W", True, "(a)")

    code = batched.cblas(["b", "m", "n", "k"])

    batch = ("(void *)&X[polyopt_batch][0][0]", "(int)polyopt_leading_dimension(X[0])")
    operands = (*batch, *matrix_arguments("W"), "0.0", "(void *)polyopt_scratch", "(n)")
    shape = ("polyopt_group * (m)", "n", "k")
    assert code.calls == (Call("gemm", ("CblasNoTrans", "CblasTrans", *shape, "(a)", *operands)),)
    assert code.elements == ("X[0][0][0]", "W[0][0]")
    assert code.scratch == Scratch("X[0][0][0]", "polyopt_group * (m) * (n)")
    assert code.repeat == Repeat("polyopt_batch", "b", "polyopt_group")
    group = "const int polyopt_group = polyopt_leading_dimension(X) == (size_t)(m) ? (b) : 1;"
    assert code.declarations == (CDecl(group),)
    copy = (
        "X[polyopt_batch + polyopt_index_row / (m)][polyopt_index_row % (m)][polyopt_index_column]"
        " = polyopt_scratch[(size_t)polyopt_index_row * (n) + polyopt_index_column];"
    )
    assert copy in print_c(code.after)
