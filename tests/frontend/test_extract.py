"""Tests for ``polyopt.frontend.extract``: which constructs become which ``Scop``, and which are rejected.

Region bodies are wrapped by the ``conftest`` fixtures in a file ``k.c`` whose
body starts on line 4.  Domains are checked through ``build_model`` against
isl sets, so that equivalent spellings of a constraint compare equal.
"""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.diagnostics import Location, UnsupportedRegion
from polyopt.frontend.scop import Access, BinOp, Const, Loop, Scop, StmtRef, Var
from polyopt.model import PolyModel

ScopOf = Callable[[str], Scop]
ModelOf = Callable[[str], PolyModel]


def _domain_is(model: PolyModel, statement: str, expected: str) -> None:
    domain = model.domains[statement]
    assert domain.is_equal(isl.Set(expected)), f"{statement}: got {domain}, expected {expected}"


# -- loops --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("loop", "domain"),
    [
        ("for (i = 0; i < n; i++)", "[n] -> { S0[i] : 0 <= i < n }"),
        ("for (i = 0; i <= n; i++)", "[n] -> { S0[i] : 0 <= i <= n }"),
        ("for (i = 1; n > i; ++i)", "[n] -> { S0[i] : 1 <= i < n }"),
        ("for (i = 2; n >= i; i = i + 1)", "[n] -> { S0[i] : 2 <= i <= n }"),
        ("for (i = 0; i < n && i <= 9; i++)", "[n] -> { S0[i] : 0 <= i < n and i <= 9 }"),
        ("for (int i = -n; i < n; i++)", "[n] -> { S0[i] : -n <= i < n }"),
        ("for (i = 0x2; i < n; i++)", "[n] -> { S0[i] : 2 <= i < n }"),
        ("for (i = 010; i < n; i++)", "[n] -> { S0[i] : 8 <= i < n }"),
    ],
)
def test_increasing_loop_bounds(model_of: ModelOf, loop: str, domain: str) -> None:
    model = model_of(f"{loop}\n  a[i] = 0;\n")

    assert model.scop.tree == (Loop("i", 1, (StmtRef("S0"),)),)
    _domain_is(model, "S0", domain)


@pytest.mark.parametrize(
    ("loop", "domain"),
    [
        ("for (i = n; i > 0; i--)", "[n] -> { S0[i] : 0 < i <= n }"),
        ("for (i = n - 1; i >= 0; --i)", "[n] -> { S0[i] : 0 <= i < n }"),
        ("for (i = n; 0 < i; i = i - 1)", "[n] -> { S0[i] : 0 < i <= n }"),
    ],
)
def test_decreasing_loop_bounds(model_of: ModelOf, loop: str, domain: str) -> None:
    model = model_of(f"{loop}\n  a[i] = 0;\n")

    assert model.scop.tree == (Loop("i", -1, (StmtRef("S0"),)),)
    _domain_is(model, "S0", domain)


@pytest.mark.parametrize(
    ("loop", "direction", "domain"),
    [
        ("for (i = 0; i < n; i += 2)", 1, "[n] -> { S0[i] : 0 <= i < n and i mod 2 = 0 }"),
        ("for (i = 1; i < n; i = i + 2)", 1, "[n] -> { S0[i] : 1 <= i < n and (i - 1) mod 2 = 0 }"),
        ("for (i = n; i >= 0; i -= 3)", -1, "[n] -> { S0[i] : 0 <= i <= n and (n - i) mod 3 = 0 }"),
        ("for (i = n; i > 1; i = i - 2)", -1, "[n] -> { S0[i] : 1 < i <= n and (n - i) mod 2 = 0 }"),
    ],
)
def test_non_unit_steps_add_a_stride(model_of: ModelOf, loop: str, direction: int, domain: str) -> None:
    model = model_of(f"{loop}\n  a[i] = 0;\n")

    assert model.scop.tree == (Loop("i", direction, (StmtRef("S0"),)),)
    _domain_is(model, "S0", domain)


@pytest.mark.parametrize(
    ("inner", "domain"),
    [
        (
            "for (j = (i > 2 ? i : 2); j < (n < m ? n : m); j++)",
            "[n, m] -> { S0[i, j] : 0 <= i < n and j >= i and j >= 2 and j < n and j < m }",
        ),
        (
            "for (j = MAX(0, i - 2); j < min(n, i + 3); j++)",
            "[n, m] -> { S0[i, j] : 0 <= i < n and j >= 0 and j >= i - 2 and j < n and j < i + 3 }",
        ),
        (
            "for (j = max(0, i - m); j <= MIN(n - 1, i); j++)",
            "[n, m] -> { S0[i, j] : 0 <= i < n and j >= 0 and j >= i - m and j <= n - 1 and j <= i }",
        ),
        (
            "for (j = floord(i, 2); j < ceild(n, 3); j++)",
            "[n, m] -> { S0[i, j] : 0 <= i < n and 2j >= i - 1 and 3j < n }",
        ),
    ],
)
def test_min_max_bounds(model_of: ModelOf, inner: str, domain: str) -> None:
    model = model_of(f"for (i = 0; i < n; i++)\n  {inner}\n    a[i][j] = 0;\n")

    assert set(model.scop.parameters) <= {"n", "m"}
    _domain_is(model, "S0", domain)


@pytest.mark.parametrize(
    ("inner", "domain"),
    [
        ("for (j = 0; j <= i / 2; j++)", "[n] -> { S0[i, j] : 0 <= i < n and 0 <= j and 2j <= i }"),
        ("for (j = 0; j < (n + 1) / 2; j++)", "[n] -> { S0[i, j] : 0 <= i < n and 0 <= j and 2j < n }"),
        ("for (j = 0; j < (i - 5) / 2; j++)", "[n] -> { S0[i, j] : i < n and 0 <= j and 2j + 7 <= i }"),
        # C division truncates towards zero: (i - 5) / 2 is -2 for i = 0 and 1, and -1 for i = 2 and 3.
        (
            "for (j = (i - 5) / 2; j < 0; j++)",
            "[n] -> { S0[i, j] : 0 <= i < n and ((i <= 1 and -2 <= j <= -1) or (2 <= i <= 3 and j = -1)) }",
        ),
        ("for (j = i % 4; j < 4; j++)", "[n] -> { S0[i, j] : 0 <= i < n and j < 4 and j >= i - 4 * floor(i / 4) }"),
    ],
)
def test_division_by_constants_in_bounds(model_of: ModelOf, inner: str, domain: str) -> None:
    model = model_of(f"for (i = 0; i < n; i++)\n  {inner}\n    a[i][j] = 0;\n")

    _domain_is(model, "S0", domain)


def test_sequential_loops_may_reuse_an_iterator_name(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  a[i] = 0;\nfor (i = 0; i < n; i++)\n  b[i] = a[i];\n")

    assert scop.tree == (Loop("i", 1, (StmtRef("S0"),)), Loop("i", 1, (StmtRef("S1"),)))
    assert [s.iterators for s in scop.statements] == [("i",), ("i",)]


def test_nested_loops_give_iterators_outermost_first(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  for (j = 0; j < i; j++)\n    for (k = j; k < n; k++)\n      x = 1;\n")

    (statement,) = scop.statements
    assert statement.iterators == ("i", "j", "k")
    assert scop.tree == (Loop("i", 1, (Loop("j", 1, (Loop("k", 1, (StmtRef("S0"),)),)),)),)


# -- conditions ---------------------------------------------------------------


def test_if_with_and_and_else(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  if (i > 2 && i < n - 1)\n    a[i] = 1;\n  else\n    b[i] = 2;\n")

    assert model.scop.tree == (Loop("i", 1, (StmtRef("S0"), StmtRef("S1"))),)
    _domain_is(model, "S0", "[n] -> { S0[i] : 2 < i < n - 1 }")
    _domain_is(model, "S1", "[n] -> { S1[i] : 0 <= i < n and (i <= 2 or i >= n - 1) }")


def test_if_with_or_and_not(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  if (i == 0 || !(i < 5))\n    a[i] = 1;\n")

    _domain_is(model, "S0", "[n] -> { S0[i] : 0 <= i < n and (i = 0 or i >= 5) }")


def test_if_on_a_bare_expression_means_nonzero(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  if (i % 2)\n    a[i] = 1;\n")

    _domain_is(model, "S0", "[n] -> { S0[i] : 0 <= i < n and i mod 2 = 1 }")


def test_nested_ifs_conjoin_their_conditions(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  if (i >= m)\n    if (i != 7)\n      a[i] = 1;\n")

    _domain_is(model, "S0", "[n, m] -> { S0[i] : 0 <= i < n and i >= m and (i < 7 or i > 7) }")


# -- statements and accesses --------------------------------------------------


def test_plain_assignment_reads_and_writes(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 1; i < n; i++)\n  for (j = 0; j < n; j++)\n    A[i][j + 1] = A[i - 1][j] * B[j][i];\n")

    (statement,) = scop.statements
    assert statement.writes == (Access("A", (Var("i"), BinOp("+", Var("j"), Const(1)))),)
    assert statement.reads == (
        Access("A", (BinOp("-", Var("i"), Const(1)), Var("j"))),
        Access("B", (Var("j"), Var("i"))),
    )


@pytest.mark.parametrize("op", ["+=", "-=", "*=", "/="])
def test_compound_assignment_reads_and_writes_its_target(scop_of: ScopOf, op: str) -> None:
    scop = scop_of(f"for (i = 0; i < n; i++)\n  a[i] {op} b[i];\n")

    (statement,) = scop.statements
    assert statement.writes == (Access("a", (Var("i"),)),)
    assert statement.reads == (Access("a", (Var("i"),)), Access("b", (Var("i"),)))


@pytest.mark.parametrize("text", ["x++", "++x", "x--", "--x"])
def test_increment_statement_reads_and_writes_a_scalar(scop_of: ScopOf, text: str) -> None:
    scop = scop_of(f"for (i = 0; i < n; i++)\n  {text};\n")

    (statement,) = scop.statements
    assert statement.reads == (Access("x", ()),)
    assert statement.writes == (Access("x", ()),)


def test_increment_of_an_array_element(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  count[i]++;\n")

    assert scop.statements[0].writes == (Access("count", (Var("i"),)),)
    assert scop.statements[0].reads == (Access("count", (Var("i"),)),)


def test_scalars_are_zero_dimensional_accesses_not_parameters(scop_of: ScopOf) -> None:
    scop = scop_of("s = 0;\nfor (i = 0; i < n; i++)\n  s = s + a[i] * alpha;\n")

    first, second = scop.statements
    assert first.iterators == ()
    assert first.writes == (Access("s", ()),) and first.reads == ()
    assert second.reads == (Access("s", ()), Access("a", (Var("i"),)), Access("alpha", ()))
    assert second.writes == (Access("s", ()),)
    assert scop.parameters == ("n",)


def test_iterators_read_in_a_statement_are_not_accesses(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  a[i] = i * 2 + n;\n")

    assert scop.statements[0].reads == (Access("n", ()),)


def test_repeated_reads_are_listed_once(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  a[i] = b[i] * b[i] + b[i];\n")

    assert scop.statements[0].reads == (Access("b", (Var("i"),)),)


def test_pure_calls_and_macros_in_expressions(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  a[i] = SCALAR_VAL(1.5) * SQRT_FUN(x) + max_score(a[i], b[i]);\n")

    (statement,) = scop.statements
    assert statement.writes == (Access("a", (Var("i"),)),)
    assert statement.reads == (Access("x", ()), Access("a", (Var("i"),)), Access("b", (Var("i"),)))


def test_casts_to_macro_types(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < _PB_N; i++)\n  a[i] = (DATA_TYPE)(i + 1) / (DATA_TYPE)_PB_N;\n")

    (statement,) = scop.statements
    assert statement.writes == (Access("a", (Var("i"),)),)
    assert statement.reads == (Access("_PB_N", ()),)
    assert scop.parameters == ("_PB_N",)


def test_comments_inside_the_region_are_ignored(model_of: ModelOf) -> None:
    model = model_of(
        "/* initialise */\n"
        "for (i = 0; /* lower */ i < n; i++) // every row\n"
        "  a[i] = 0; /* done\n"
        "  over two lines */\n"
        "// trailing\n"
    )

    (statement,) = model.scop.statements
    assert statement.location.line == 6
    _domain_is(model, "S0", "[n] -> { S0[i] : 0 <= i < n }")


def test_parameters_are_the_names_read_in_bounds_conditions_and_subscripts(scop_of: ScopOf) -> None:
    scop = scop_of(
        "for (i = 0; i < _PB_N; i++)\n"
        "  for (j = 0; j < n; j++)\n"
        "    if (j >= off)\n"
        "      a[i][j + shift] = beta * b[i][j];\n"
    )

    assert scop.parameters == ("_PB_N", "n", "off", "shift")
    assert "beta" not in scop.parameters
    assert {"a", "b", "beta", "i", "j", "_PB_N", "n", "off", "shift"} <= scop.identifiers


def test_statements_are_named_and_located_in_textual_order(scop_of: ScopOf) -> None:
    scop = scop_of("x = 0;\nfor (i = 0; i < n; i++) {\n  a[i] = x;\n    b[i] = a[i];\n}\n")

    assert [s.name for s in scop.statements] == ["S0", "S1", "S2"]
    assert [s.location for s in scop.statements] == [
        Location("k.c", 4, 1),
        Location("k.c", 6, 3),
        Location("k.c", 7, 5),
    ]
    assert scop.location == Location("k.c", 3, 1)
    assert scop.statement("S1").iterators == ("i",)


# -- rejections ---------------------------------------------------------------

REJECTIONS = [
    # (case, body, position, message fragment)
    ("array in bound", "for (i = 0; i < b[0]; i++)\n  a[i] = 0;\n", "4:17", "array access in a loop bound"),
    (
        "scalar written in region used in bound",
        "m = 5;\nfor (i = 0; i < m; i++)\n  a[i] = 0;\n",
        "5:17",
        "'m' is written in the region",
    ),
    (
        "scalar written after its use in a bound",
        "for (i = 0; i < n; i++)\n  for (j = 0; j < k; j++)\n    a[i] = 0;\nk = 1;\n",
        "5:19",
        "'k' is written in the region",
    ),
    (
        "array in a loop start",
        "for (i = a[0]; i < n; i++)\n  b[i] = 0;\n",
        "4:10",
        "array access in a loop bound",
    ),
    (
        "product of iterators",
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    a[i * j] = 0;\n",
        "6:7",
        "product of two variables is not affine",
    ),
    ("product of parameters", "for (i = 0; i < n * n; i++)\n  a[i] = 0;\n", "4:17", "product of two variables"),
    ("modulo by a parameter", "for (i = 0; i < n; i++)\n  a[i % n] = 0;\n", "5:5", "division by a non-constant"),
    ("division by a parameter", "for (i = 0; i < n / m; i++)\n  a[i] = 0;\n", "4:17", "division by a non-constant"),
    ("float in subscript", "for (i = 0; i < n; i++)\n  a[i] = b[i / 2.0];\n", "5:16", "non-integer constant '2.0'"),
    ("pointer store", "for (i = 0; i < n; i++)\n  *p = a[i];\n", "5:4", "access through a pointer"),
    ("pointer load", "for (i = 0; i < n; i++)\n  a[i] = *p;\n", "5:11", "pointer operation '*'"),
    ("address-of", "for (i = 0; i < n; i++)\n  p = &a[i];\n", "5:8", "pointer operation '&'"),
    ("member of a written structure", "for (i = 0; i < n; i++)\n  p->x[i] = 0;\np = q;\n", "5:3", "'p' is written"),
    ("member in a bound", "for (i = 0; i < s.n; i++)\n  a[i] = 0;\n", "4:17", "structure member in a loop bound"),
    ("structure used whole", "for (i = 0; i < n; i++)\n  a[i] = s.x;\nt = s;\n", "6:5", "'s' is used whole"),
    ("call as statement", "for (i = 0; i < n; i++)\n  update(a, i);\n", "5:3", "call to 'update' as a statement"),
    ("printf in expression", 'for (i = 0; i < n; i++)\n  a[i] = printf("%d", i);\n', "5:10", "call to 'printf'"),
    ("rand in expression", "for (i = 0; i < n; i++)\n  a[i] = rand() + b[i];\n", "5:10", "call to 'rand'"),
    ("call in bound", "for (i = 0; i < size(n); i++)\n  a[i] = 0;\n", "4:17", "call to 'size' in an affine"),
    ("break", "for (i = 0; i < n; i++) {\n  a[i] = 0;\n  break;\n}\n", "6:3", "'break' changes control flow"),
    ("continue", "for (i = 0; i < n; i++) {\n  a[i] = 0;\n  continue;\n}\n", "6:3", "'continue' changes control"),
    ("goto", "for (i = 0; i < n; i++) {\n  a[i] = 0;\n  goto done;\n}\n", "6:3", "'goto' changes control flow"),
    ("label", "for (i = 0; i < n; i++)\nl: a[i] = 0;\n", "5:1", "label inside the region"),
    ("return", "for (i = 0; i < n; i++) {\n  a[i] = 0;\n  return;\n}\n", "6:3", "'return' changes control flow"),
    ("while", "while (n > 0)\n  n--;\n", "4:1", "'while' loop"),
    ("do-while", "do {\n  n--;\n} while (n > 0);\n", "4:1", "'do' loop"),
    ("switch", "for (i = 0; i < n; i++)\n  switch (i) {\n  case 0: a[i] = 1;\n  }\n", "5:3", "'switch' statement"),
    ("array declaration", "for (i = 0; i < n; i++) {\n  double t[4];\n  b[i] = 0;\n}\n", "5:10", "array 't' declared"),
    ("pointer declaration", "for (i = 0; i < n; i++) {\n  double *p = a;\n  b[i] = 0;\n}\n", "5:10", "pointer 'p'"),
    (
        "static declaration",
        "static int k;\nfor (i = 0; i < n; i++)\n  a[i] = 0;\n",
        "4:12",
        "'static' declaration of 'k'",
    ),
    ("structure declaration", "struct pt q;\nfor (i = 0; i < n; i++)\n  a[i] = 0;\n", "4:11", "'q' of a structure"),
    ("declared name in a bound", "int m = n;\nfor (i = 0; i < m; i++)\n  a[i] = 0;\n", "5:17", "'m' is declared"),
    (
        "pragma",
        "#pragma omp parallel for\nfor (i = 0; i < n; i++)\n  a[i] = 0;\n",
        "4:1",
        "'#pragma omp parallel' inside the region",
    ),
    ("define", "for (i = 0; i < n; i++)\n  #define X 3\n  a[i] = X;\n", "5:3", "directive '#define' inside"),
    (
        "iterator read after its loop",
        "for (i = 0; i < n; i++)\n  a[i] = 0;\nb[0] = i;\n",
        "6:8",
        "iterator 'i' is used outside its loop",
    ),
    (
        "iterator in a later bound",
        "for (i = 0; i < n; i++)\n  a[i] = 0;\nfor (j = 0; j < i; j++)\n  b[j] = 0;\n",
        "6:17",
        "iterator 'i' is used outside its loop",
    ),
    (
        "iterator assigned in body",
        "for (i = 0; i < n; i++) {\n  i = i + 1;\n  a[i] = 0;\n}\n",
        "5:3",
        "iterator 'i' is written",
    ),
    ("iterator incremented in body", "for (i = 0; i < n; i++)\n  a[i] = i++;\n", "5:10", "iterator 'i' is written"),
    (
        "iterator reused by an inner loop",
        "for (i = 0; i < n; i++)\n  for (i = 0; i < n; i++)\n    a[i] = 0;\n",
        "5:3",
        "reuses the iterator 'i'",
    ),
    ("increasing condition, decreasing step", "for (i = 0; i < n; i--)\n  a[i] = 0;\n", "4:13", "opposite directions"),
    ("decreasing condition, increasing step", "for (i = n; i > 0; i++)\n  a[i] = 0;\n", "4:13", "opposite directions"),
    ("step by a parameter", "for (i = 0; i < n; i += k)\n  a[i] = 0;\n", "4:20", "loop step is not"),
    ("loop without condition", "for (i = 0; ; i++)\n  a[i] = 0;\n", "4:1", "loop without a condition"),
    ("condition on an expression", "for (i = 0; 2 * i < n; i++)\n  a[i] = 0;\n", "4:13", "does not compare 'i'"),
    ("bound on own iterator", "for (i = 0; i < i + n; i++)\n  a[i] = 0;\n", "4:13", "depends on its own iterator"),
    ("inconsistent rank", "for (i = 0; i < n; i++)\n  a[i] = b[i][0] + b[i];\n", "5:20", "'b' is accessed with 1"),
    ("empty region", "", "3:1", "the region contains no statements"),
    ("only comments", "  /* nothing */\n  // here\n", "3:1", "the region contains no statements"),
    ("only empty statements", ";\n{ }\n", "3:1", "the region contains no statements"),
]


@pytest.mark.parametrize(
    ("body", "position", "fragment"),
    [pytest.param(body, position, fragment, id=case) for case, body, position, fragment in REJECTIONS],
)
def test_rejected_regions_say_why_and_where(scop_of: ScopOf, body: str, position: str, fragment: str) -> None:
    with pytest.raises(UnsupportedRegion) as caught:
        scop_of(body)

    error = caught.value
    line, column = (int(part) for part in position.split(":"))
    assert error.location == Location("k.c", line, column)
    assert fragment in error.message
    assert error.warning() == f"k.c:{position}: warning: region not optimized: {error.message}"
