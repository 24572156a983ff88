"""BLAS idiom recognition on the model (``polyopt.analysis.idioms``): matches and the cases left alone."""

from __future__ import annotations

import re
from collections.abc import Callable

import islpy as isl
import pytest

from polyopt import isl_util
from polyopt.analysis.idioms import Gemm, Idiom, find_idioms
from polyopt.model import PolyModel
from tests.support import EXAMPLES

ModelOf = Callable[..., PolyModel]

GEMM = (
    "for (i = 0; i < ni; i++) {\n  for (j = 0; j < nj; j++)\n    C[i][j] *= beta;\n"
    "  for (k = 0; k < nk; k++)\n    for (j = 0; j < nj; j++)\n      C[i][j] += alpha * A[i][k] * B[k][j];\n}\n"
)


def _product(update: str, order: str = "ijk") -> str:
    bounds = {"i": "ni", "j": "nj", "k": "nk"}
    loops = "".join(f"{'  ' * depth}for ({v} = 0; {v} < {bounds[v]}; {v}++)\n" for depth, v in enumerate(order))
    return loops + "  " * len(order) + update + "\n"


def _matches(model_of: ModelOf, body: str) -> list[tuple[str, str, str, str, bool, bool, str]]:
    gemms = [idiom for idiom in find_idioms(model_of(body)) if isinstance(idiom, Gemm)]
    return [(", ".join(g.statements), g.c, g.a, g.b, g.trans_a, g.trans_b, g.alpha) for g in gemms]


def _size(idiom: Idiom, index: int) -> str:
    """The size at ``index`` as text (``nj``, ``_PB_N``)."""
    text = str(isl_util.extended(idiom.sizes[index]))
    found = re.search(r"\{ \[\((.*)\)\] \}", text)
    assert found is not None, text
    return found.group(1)


def _found(model_of: ModelOf, body: str, declarations: str = "") -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Each idiom as (statement, routine, formula, sizes), with the names of ``body`` declared by ``declarations``."""
    return [
        (
            ", ".join(idiom.statements),
            idiom.ROUTINE,
            idiom.formula(),
            tuple(_size(idiom, i) for i in range(len(idiom.sizes))),
        )
        for idiom in find_idioms(model_of(body, declarations))
    ]


def _kernel(name: str) -> tuple[str, str]:
    """The region of the example ``name`` and the file before it (its declarations)."""
    before, region = (EXAMPLES / f"{name}.c").read_text().split("#pragma scop\n")
    return region.split("#pragma endscop")[0], before


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
    assert find_idioms(model_of(_product(update))) == ()


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
    assert _found(model_of, *_kernel(kernel)) == SUITE[kernel]


GEMV = "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++)\n    {};\n"
GEMV_JI = "for (j = 0; j < n; j++)\n  for (i = 0; i < m; i++)\n    {};\n"


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
    ((_, routine, *found),) = _found(model_of, loops.format(update))

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
    ((_, routine, formula, _),) = _found(model_of, GEMV.format(update))

    assert (routine, formula) == ("ger", expected)


SYRK = "for (i = 0; i < n; i++)\n  for (k = 0; k < m; k++)\n    for (j = {}; j {}; j++)\n      {};\n"


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
    ((_, _, formula, sizes),) = _found(model_of, body)

    assert (formula, sizes) == (expected, ("n", "m"))


TRMM = "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++)\n    for (k = {}; k < {}; k++)\n      {};\n"


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
    ((_, routine, formula, sizes),) = _found(model_of, body)

    assert (routine, formula, sizes) == ("trmm", expected, ("m", "n"))


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
        TRMM.format("i + 1", "m", "B[i][j] += 2 * A[k][i] * B[k][j]"),  # scaled: not a unit diagonal
        TRMM.format("i", "m", "B[i][j] += A[k][i] * B[k][j]"),  # the diagonal too
        TRMM.format("0", "i", "B[i][j] += A[i][k] * B[k][j]"),  # reads rows already updated
        TRMM.format("i + 1", "m", "B[i][j] += A[k][i] * B[j][k]"),  # not a row of B
    ],
)
def test_non_idioms_are_left_alone(model_of: ModelOf, body: str) -> None:
    assert find_idioms(model_of(body)) == ()


def test_report_line_names_routine_sizes_and_threshold(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(GEMV.format("y[i] += A[i][j] * x[j]")))

    line = idiom.describe(["m", "n"], 100)

    assert line == "S0: cblas_?gemv y += 1.0 * A * x (M = m, N = n) when M * N >= 100"


def test_report_line_of_an_idiom_left_to_the_loops(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(GEMV.format("y[i] += A[i][j] * x[j]")))

    line = idiom.describe(["m", "n"], 100, expected=60)

    assert line.endswith("when M * N >= 100; left to the loops: M * N = 60 at the assumed values")


SYMM = (
    "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++) {{\n    t = 0;\n    for (k = 0; k < i; k++) {{\n"
    "      {update}\n      {accumulate}\n    }}\n    {final}\n  }}\n"
)
UPDATE = "C[k][j] += alpha * B[i][j] * A[i][k];"
ACCUMULATE = "t += B[k][j] * A[i][k];"
FINAL = "C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * t;"


SYMM_DECLARED = "double A[9][9], B[9][9], C[9][9], t, alpha, beta, s;\n"


def _symm(update: str = UPDATE, accumulate: str = ACCUMULATE, final: str = FINAL) -> str:
    return SYMM.format(update=update, accumulate=accumulate, final=final)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (_symm(), "C = (alpha) * A * B + (beta) * C (A symmetric, lower)"),
        (_symm(update=ACCUMULATE, accumulate=UPDATE), "C = (alpha) * A * B + (beta) * C (A symmetric, lower)"),
        (
            _symm(
                "C[k][j] = C[k][j] + B[i][j] * A[i][k] * alpha;",
                "t = t + A[i][k] * B[k][j];",
                "C[i][j] = alpha * t + A[i][i] * alpha * B[i][j] + C[i][j] * beta;",
            ),
            "C = (alpha) * A * B + (beta) * C (A symmetric, lower)",
        ),  # terms and factors reordered
        (
            _symm(
                final="C[i][j] = C[i][j] + 2 * B[i][j] * A[i][i] + t * 2;", update="C[k][j] += 2 * B[i][j] * A[i][k];"
            ),
            "C = (2) * A * B + 1.0 * C (A symmetric, lower)",
        ),
        (
            _symm("C[k][j] += alpha * B[i][j] * A[k][i];", "t += B[k][j] * A[k][i];"),
            "C = (alpha) * A * B + (beta) * C (A symmetric, upper)",
        ),  # A's upper triangle, read as A[k][i] with k < i
        (
            _symm()
            .replace("i = 0; i < m; i++", "i = m - 1; i >= 0; i--")
            .replace("k = 0; k < i;", "k = i + 1; k < m;"),
            "C = (alpha) * A * B + (beta) * C (A symmetric, upper)",
        ),  # the upper triangle from the last row up
    ],
)
def test_symm_with_its_accumulator(model_of: ModelOf, body: str, expected: str) -> None:
    ((statements, routine, formula, sizes),) = _found(model_of, body, SYMM_DECLARED)

    assert (statements, routine, formula, sizes) == ("S0, S1, S2, S3", "symm", expected, ("m", "n"))


def test_symm_tail_is_the_last_accumulation(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(_symm(), SYMM_DECLARED))

    assert idiom.tail is not None and idiom.tail.array == "t"
    expected = "[m, n] -> { S0[m - 1, n - 1] : m > 0 and n > 0; S2[m - 1, n - 1, k] : n > 0 and 0 <= k < m - 1 }"
    assert idiom.tail.instances.is_equal(isl.UnionSet(expected))


@pytest.mark.parametrize(
    "body",
    [
        _symm().replace("t = 0;", "t = 1;"),  # not reset to 0
        "for (i = 0; i < m; i++) {\n  t = 0;\n"
        + _symm().split("\n", 1)[1].replace("    t = 0;\n", "")
        + "}\n",  # reset once per row
        _symm()
        .replace("    t = 0;\n", "")
        .replace("    }\n    C[i][j]", "    }\n    t = 0;\n    C[i][j]"),  # reset late
        _symm().replace("k = 0; k < i;", "k = 0; k < i - 1;"),  # not the whole triangle
        _symm().replace("k = 0; k < i;", "k = 1; k < i;"),
        _symm(accumulate="t += B[k][j] * A[k][i];"),  # A read from both triangles
        _symm(final=FINAL.replace("A[i][i]", "A[j][i]")),  # not the diagonal
        _symm(update=UPDATE.replace("alpha", "beta")),  # two different alphas
        _symm(update="B[k][j] += alpha * B[i][j] * A[i][k];", final=FINAL.replace("C", "B")),  # C is B
        _symm(update="A[k][j] += alpha * B[i][j] * A[i][k];", final=FINAL.replace("C", "A")),  # C is A
        _symm(accumulate="t += B[k][j] * A[i][2 * k];"),  # not unit stride
        _symm(accumulate="t += B[k][j] * A[i][k] * 2;"),  # a scaled accumulation
        _symm().replace("k = 0; k < i;", "k = i + 1; k < m;"),  # the updates reach C[i][j] before it is combined
        _symm(final=FINAL.replace("beta", "t")),  # the accumulator as a factor of C
        _symm() + "s = t;\n",  # the accumulator read elsewhere
    ],
)
def test_non_symm_left_alone(model_of: ModelOf, body: str) -> None:
    assert all(idiom.ROUTINE != "symm" for idiom in find_idioms(model_of(body, SYMM_DECLARED)))


DOITGEN = (
    "for (r = 0; r < nr; r++)\n  for (q = 0; q < nq; q++) {{\n    for (p = 0; p < np; p++) {{\n"
    "      sum[p] = 0;\n      for (s = 0; s < ns; s++)\n        {product}\n    }}\n"
    "    for (p = 0; p < np; p++)\n      {copy}\n  }}\n"
)
PRODUCT = "sum[p] += A[r][q][s] * W[s][p];"
COPY = "A[r][q][p] = sum[p];"


DOITGEN_DECLARED = "double A[9][9][9], B[9][9][9], W[9][9], sum[9], a, t;\n"


def _doitgen(product: str = PRODUCT, copy: str = COPY) -> str:
    return DOITGEN.format(product=product, copy=copy)


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        (_doitgen(), "A[b] = 1.0 * A[b] * W (in place, for each b)"),
        (_doitgen("sum[p] = sum[p] + W[p][s] * a * A[r][q][s];"), "A[b] = (a) * A[b] * W^T (in place, for each b)"),
    ],
)
def test_batched_gemm_through_a_row_buffer(model_of: ModelOf, body: str, expected: str) -> None:
    ((statements, routine, formula, sizes),) = _found(model_of, body, DOITGEN_DECLARED)

    assert (statements, routine, formula, sizes) == ("S0, S1, S2", "gemm", expected, ("nr", "nq", "np", "ns"))


def test_batched_gemm_tail_is_the_last_row(model_of: ModelOf) -> None:
    (idiom,) = find_idioms(model_of(_doitgen(), DOITGEN_DECLARED))

    assert idiom.tail is not None and idiom.tail.array == "sum"
    expected = (
        "[nr, nq, np, ns] -> { S0[nr - 1, nq - 1, p] : nr > 0 and nq > 0 and 0 <= p < np; "
        "S1[nr - 1, nq - 1, p, s] : nr > 0 and nq > 0 and 0 <= p < np and 0 <= s < ns }"
    )
    assert idiom.tail.instances.is_equal(isl.UnionSet(expected))


@pytest.mark.parametrize(
    "body",
    [
        _doitgen().replace("    for (p = 0; p < np; p++)\n      A[r][q][p] = sum[p];\n", ""),  # no copy back
        _doitgen(copy="A[q][r][p] = sum[p];"),  # copied back to another row
        _doitgen(copy="B[r][q][p] = sum[p];"),  # copied to another array
        _doitgen(copy="A[r][q][p] = 2 * sum[p];"),  # not a copy
        _doitgen().replace("sum[p] = 0;", "sum[p] = 1;"),  # not reset to 0
        _doitgen().replace("s = 0; s < ns", "s = 1; s < ns"),  # not the whole row
        _doitgen().replace("q = 0; q < nq", "q = 1; q < nq"),  # rows not from the first
        _doitgen("sum[p] += A[r][q][s] * A[r][s][p];"),  # W is X
        _doitgen("sum[p] += A[r][q][s] * W[s][p] * W[s][p];"),  # a third data factor
        _doitgen("sum[p] += A[r][s][q] * W[s][p];"),  # not a row of X
        _doitgen() + "t = sum[0];\n",  # the buffer read elsewhere
        _doitgen().replace(
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
    gemms = [idiom for idiom in find_idioms(model_of(_product(update), declarations)) if isinstance(idiom, Gemm)]

    assert [gemm.alpha for gemm in gemms] == ([alpha] if alpha else [])


@pytest.mark.parametrize(
    ("body", "declarations", "routine"),
    [
        (_symm(), SYMM_DECLARED.replace(", t,", ",") + "int t;\n", None),
        (_symm(), SYMM_DECLARED.replace(", t,", ",") + "float t;\n", None),
        (_symm(), "DATA_TYPE A[9][9], B[9][9], C[9][9], t, alpha, beta;\n", "symm"),
        (_symm(), "double A[9][9], B[9][9], C[9][9], alpha, beta;\n", None),  # t not declared here
        (_doitgen(), DOITGEN_DECLARED.replace(", sum[9],", ",") + "float sum[9];\n", None),
        (_doitgen(), DOITGEN_DECLARED.replace(", sum[9],", ",") + "long sum[9];\n", None),
        (_doitgen(), "DATA_TYPE POLYBENCH_3D(A, 9, 9, 9, nr, nq, np), W[9][9], POLYBENCH_1D(sum, 9, np);\n", "gemm"),
    ],
)
def test_accumulators_are_of_the_type_they_are_combined_into(
    model_of: ModelOf, body: str, declarations: str, routine: str | None
) -> None:
    combined = [idiom.ROUTINE for idiom in find_idioms(model_of(body, declarations)) if len(idiom.statements) > 1]

    assert combined == ([routine] if routine else [])
