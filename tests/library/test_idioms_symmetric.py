"""SYRK, SYR2K and SYMM (``polyopt.library.idioms.symmetric``): matches, the cases left alone, and the
CBLAS calls that compute them."""

from __future__ import annotations

import islpy as isl
import pytest

from polyopt.emit.cprint import print_c
from polyopt.library import Symm, Syr2k, Syrk, find_idioms
from polyopt.library.cblas import Call, Scratch
from tests.library.idiom_cases import (
    ACCUMULATE,
    FINAL,
    SYMM_DECLARED,
    SYRK,
    UPDATE,
    ModelOf,
    idioms_of,
    matrix_arguments,
    symm,
)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (SYRK.format("0", "<= i", "C[i][j] += A[i][k] * A[j][k]"), "C (lower) += 1.0 * A * A^T"),
        (SYRK.format("i", "< n", "C[i][j] += A[i][k] * A[j][k]"), "C (upper) += 1.0 * A * A^T"),
        (SYRK.format("0", "<= i", "C[i][j] += A[k][i] * A[k][j]"), "C (lower) += 1.0 * A^T * A"),
        (SYRK.format("0", "<= i", "C[j][i] += a * A[k][i] * A[k][j]"), "C (upper) += (a) * A^T * A"),
        (
            "for (j = 0; j < n; j++)\n  for (i = j; i < n; i++)\n    for (k = 0; k < m; k++)\n"
            "      C[i][j] += A[i][k] * A[j][k];\n",
            "C (lower) += 1.0 * A * A^T",
        ),  # loop order permuted, same triangle
        (
            SYRK.format("0", "<= i", "C[i][j] += A[k][j] * B[k][i] * a + a * B[k][j] * A[k][i]"),
            "C (lower) += (a) * (B^T * A + A^T * B)",
        ),
        (SYRK.format("0", "< i", "C[i][j] += A[i][k] * A[j][k]"), "C (strict lower) += 1.0 * A * A^T"),
        (SYRK.format("i + 1", "< n", "C[i][j] += A[i][k] * A[j][k]"), "C (strict upper) += 1.0 * A * A^T"),
        (SYRK.format("i + 1", "< n", "C[i][j] += A[k][i] * A[k][j]"), "C (strict upper) += 1.0 * A^T * A"),
        (SYRK.format("0", "< i", "C[j][i] -= A[k][i] * A[k][j]"), "C (strict upper) += -(1.0) * A^T * A"),
        (
            SYRK.format("i + 1", "< n", "C[i][j] += A[i][k] * B[j][k] + B[i][k] * A[j][k]"),
            "C (strict upper) += 1.0 * (A * B^T + B * A^T)",
        ),
    ],
)
def test_syrk_and_syr2k_on_exact_triangles(model_of: ModelOf, body: str, expected: str) -> None:
    ((_, _, formula, sizes),) = idioms_of(model_of, body)

    assert (formula, sizes) == (expected, ("n", "m"))


@pytest.mark.parametrize(
    "body",
    [
        SYRK.format("0", "<= i + 1", "C[i][j] += A[i][k] * A[j][k]"),  # not a triangle
        SYRK.format("0", "< i - 1", "C[i][j] += A[i][k] * A[j][k]"),  # without two diagonals
        SYRK.format("1", "< i", "C[i][j] += A[i][k] * A[j][k]"),  # a strict triangle without its first column
        SYRK.format("i + 2", "< n", "C[i][j] += A[i][k] * A[j][k]"),  # a triangle without two diagonals
        SYRK.format("i + 1", "< n", "C[i][j] += A[k][i] * A[j][k]"),  # operands of two orientations
        SYRK.format("i + 1", "< n", "C[i][j] += A[i][k] * A[k][j]"),  # not op(A) * op(A)^T
        "for (i = 0; i < n; i++)\n  for (k = 0; k < i; k++)\n    for (j = 0; j <= i; j++)\n"
        "      C[i][j] += A[i][k] * A[j][k];\n",  # the reduction does not cover the whole range
        SYRK.format("0", "<= i", "C[i][j] += A[i][k] * B[j][k]"),  # two arrays on a triangle
        SYRK.format("0", "<= i", "C[i][j] += A[i][k] * A[k][j]"),  # not op(A) * op(A)^T
        SYRK.format("0", "<= i", "C[i][j] += A[j][k] * B[i][k] + 2 * B[j][k] * A[i][k]"),  # unequal scales
    ],
)
def test_non_rank_k_updates_are_left_alone(model_of: ModelOf, body: str) -> None:
    assert find_idioms(model_of(body)) == ()


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (symm(), "C = (alpha) * A * B + (beta) * C (A symmetric, lower)"),
        (symm(update=ACCUMULATE, accumulate=UPDATE), "C = (alpha) * A * B + (beta) * C (A symmetric, lower)"),
        (
            symm(
                "C[k][j] = C[k][j] + B[i][j] * A[i][k] * alpha;",
                "t = t + A[i][k] * B[k][j];",
                "C[i][j] = alpha * t + A[i][i] * alpha * B[i][j] + C[i][j] * beta;",
            ),
            "C = (alpha) * A * B + (beta) * C (A symmetric, lower)",
        ),  # terms and factors reordered
        (
            symm(
                final="C[i][j] = C[i][j] + 2 * B[i][j] * A[i][i] + t * 2;", update="C[k][j] += 2 * B[i][j] * A[i][k];"
            ),
            "C = (2) * A * B + 1.0 * C (A symmetric, lower)",
        ),
        (
            symm("C[k][j] += alpha * B[i][j] * A[k][i];", "t += B[k][j] * A[k][i];"),
            "C = (alpha) * A * B + (beta) * C (A symmetric, upper)",
        ),  # A's upper triangle, read as A[k][i] with k < i
        (
            symm().replace("i = 0; i < m; i++", "i = m - 1; i >= 0; i--").replace("k = 0; k < i;", "k = i + 1; k < m;"),
            "C = (alpha) * A * B + (beta) * C (A symmetric, upper)",
        ),  # the upper triangle from the last row up
    ],
)
def test_symm_with_its_accumulator(model_of: ModelOf, body: str, expected: str) -> None:
    ((statements, routine, formula, sizes),) = idioms_of(model_of, body, SYMM_DECLARED)

    assert (statements, routine, formula, sizes) == ("S0, S1, S2, S3", "symm", expected, ("m", "n"))


def test_symm_beside_another_update_of_c_in_a_later_nest(model_of: ModelOf) -> None:
    later = "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < i; k++)\n"
    later += "      C[i][j] += C[k][j];\n"

    routines = [idiom.ROUTINE for idiom in find_idioms(model_of(symm() + later, SYMM_DECLARED))]

    assert routines == ["symm"]  # the later nest's update of C is not the SYMM's


def test_symm_tail_is_the_last_accumulation(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(symm(), SYMM_DECLARED))

    assert idiom.tail is not None and idiom.tail.array == "t"
    expected = "[m, n] -> { S0[m - 1, n - 1] : m > 0 and n > 0; S2[m - 1, n - 1, k] : n > 0 and 0 <= k < m - 1 }"
    assert idiom.tail.instances.is_equal(isl.UnionSet(expected))


@pytest.mark.parametrize(
    "body",
    [
        symm().replace("t = 0;", "t = 1;"),  # not reset to 0
        "for (i = 0; i < m; i++) {\n  t = 0;\n"
        + symm().split("\n", 1)[1].replace("    t = 0;\n", "")
        + "}\n",  # reset once per row
        symm()
        .replace("    t = 0;\n", "")
        .replace("    }\n    C[i][j]", "    }\n    t = 0;\n    C[i][j]"),  # reset late
        symm().replace("k = 0; k < i;", "k = 0; k < i - 1;"),  # not the whole triangle
        symm().replace("k = 0; k < i;", "k = 1; k < i;"),
        symm(accumulate="t += B[k][j] * A[k][i];"),  # A read from both triangles
        symm(final=FINAL.replace("A[i][i]", "A[j][i]")),  # not the diagonal
        symm(update=UPDATE.replace("alpha", "beta")),  # two different alphas
        symm(update="B[k][j] += alpha * B[i][j] * A[i][k];", final=FINAL.replace("C", "B")),  # C is B
        symm(update="A[k][j] += alpha * B[i][j] * A[i][k];", final=FINAL.replace("C", "A")),  # C is A
        symm(accumulate="t += B[k][j] * A[i][2 * k];"),  # not unit stride
        symm(accumulate="t += B[k][j] * A[i][k] * 2;"),  # a scaled accumulation
        symm().replace("k = 0; k < i;", "k = i + 1; k < m;"),  # the updates reach C[i][j] before it is combined
        symm(final=FINAL.replace("beta", "t")),  # the accumulator as a factor of C
        symm() + "s = t;\n",  # the accumulator read elsewhere
    ],
)
def test_non_symm_left_alone(model_of: ModelOf, body: str) -> None:
    assert all(idiom.ROUTINE != "symm" for idiom in find_idioms(model_of(body, SYMM_DECLARED)))


@pytest.mark.parametrize("strict", [False, True])
def test_syrk_and_syr2k_are_one_call_on_their_triangle(strict: bool) -> None:
    syrk = Syrk(("S0",), (), "C", "A", True, False, "(a)", strict=strict)
    syr2k = Syr2k(("S0",), (), "C", "A", False, True, "(a)", "B", strict=strict)

    codes = syrk.cblas(["n", "k"]), syr2k.cblas(["n", "k"])

    a_b, c = (*matrix_arguments("A"), *matrix_arguments("B")), ("1.0", *matrix_arguments("C"))
    assert [code.calls for code in codes] == [
        (Call("syrk", ("CblasLower", "CblasNoTrans", "n", "k", "(a)", *matrix_arguments("A"), *c)),),
        (Call("syr2k", ("CblasUpper", "CblasTrans", "n", "k", "(a)", *a_b, *c)),),
    ]
    assert all(code.repeat is None for code in codes)
    assert all(code.scratch == (Scratch("C[0][0]", "n") if strict else None) for code in codes)


def test_a_strict_triangle_keeps_its_diagonal_through_the_scratch() -> None:
    code = Syrk(("S0",), (), "C", "A", True, False, "(a)", strict=True).cblas(["n", "k"])

    assert "polyopt_scratch[polyopt_index] = C[polyopt_index][polyopt_index];" in print_c(code.before)
    assert "C[polyopt_index][polyopt_index] = polyopt_scratch[polyopt_index];" in print_c(code.after)


def test_symm_is_one_call_with_beta() -> None:
    code = Symm(("S0", "S1", "S2", "S3"), (), "C", "A", "B", False, "(alpha)", "(beta)").cblas(["m", "n"])

    operands = (*matrix_arguments("A"), *matrix_arguments("B"), "(beta)", *matrix_arguments("C"))
    assert code.calls == (Call("symm", ("CblasLeft", "CblasUpper", "m", "n", "(alpha)", *operands)),)
