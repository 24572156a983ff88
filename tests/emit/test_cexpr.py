"""Tests for composing C expressions with precedence (``polyopt.emit.cexpr``) and its users."""

from __future__ import annotations

import pytest

from polyopt.emit.cexpr import (
    ASSIGNMENT,
    COMMA,
    CONDITIONAL,
    POSTFIX,
    PRIMARY,
    UNARY,
    call,
    cast,
    conditional,
    infix,
    joined,
    negated,
    operand,
    precedence,
)
from polyopt.library.blas import all_positive


@pytest.mark.parametrize(
    ("text", "level"),
    [
        ("n", PRIMARY),
        ("42", PRIMARY),
        ("16777216L", PRIMARY),
        ("(a + b)", PRIMARY),
        ("a[i][j]", POSTFIX),
        ("polyopt_min(n - 1, c0 + 3)", POSTFIX),
        ("-1", UNARY),
        ("-(c0 + 1)", UNARY),
        ("(long)(m)", UNARY),
        ("sizeof(x[0])", UNARY),
        ("(long)(m) * (long)(n)", 13),
        ("sizeof(x[0]) / sizeof(x[0][0])", 13),
        ("a + b * c", 12),
        ("(p0) <= polyopt_min(n, 7)", 10),
        ("a - -1", 12),
        ("n >= 1 && m >= 1", 5),
        ("a || b && c", 4),
        ("m >= 1 && n >= 1 ? n : 0", CONDITIONAL),
        ("a ? b : c ? d : e", CONDITIONAL),
        ("x = 1", ASSIGNMENT),
        ("a, b", COMMA),
        ("a @ b", 0),
        ("(a", 0),
        ("", 0),
    ],
)
def test_precedence_is_the_loosest_top_level_operator(text: str, level: int) -> None:
    assert precedence(text) == level


def test_a_conditional_length_compared_with_a_limit_is_parenthesized() -> None:
    assert infix("m >= 1 && n >= 1 ? n : 0", "<=", "16384") == "(m >= 1 && n >= 1 ? n : 0) <= 16384"


@pytest.mark.parametrize(
    ("left", "symbol", "right", "expected"),
    [
        ("a + b", "*", "c", "(a + b) * c"),
        ("a - b", "-", "c - d", "a - b - (c - d)"),
        ("a * b", "/", "c * d", "a * b / (c * d)"),
        ("i", "-", "-1", "i - -1"),
        ("n", ">", "0", "n > 0"),
        ("(long)(m) * (long)(n)", ">=", "16777216L", "(long)(m) * (long)(n) >= 16777216L"),
        ("a || b", "&&", "c", "(a || b) && c"),
    ],
)
def test_infix_parenthesizes_only_looser_operands(left: str, symbol: str, right: str, expected: str) -> None:
    assert infix(left, symbol, right) == expected


def test_composers() -> None:
    assert joined("&&", ["a || b", "c && d", "e <= 5"]) == "(a || b) && c && d && e <= 5"
    assert joined("+", ["(long)(a) * (long)(b)", "(long)(c)"]) == "(long)(a) * (long)(b) + (long)(c)"
    assert conditional("a || b", "x", "y ? 1 : 2") == "(a || b) ? x : y ? 1 : 2"
    assert negated("-c0") == "-(-c0)"
    assert negated("c0 + 1") == "-(c0 + 1)"
    assert negated("polyopt_min(a, b)") == "-polyopt_min(a, b)"
    assert call("polyopt_max", ["n >= 1 ? n : 0", "1"]) == "polyopt_max(n >= 1 ? n : 0, 1)"
    assert call("f", ["a, b"]) == "f((a, b))"
    assert cast("long", "n") == "(long)(n)"
    assert operand("a ? b : c", CONDITIONAL, strict=True) == "(a ? b : c)"
    assert operand("a + b", CONDITIONAL, strict=True) == "a + b"


def test_library_sizes_are_compared_with_parentheses_where_needed() -> None:
    assert all_positive(["n >= 1 ? n : 0", "m - 1", "m - 1"]) == "(n >= 1 ? n : 0) > 0 && m - 1 > 0"
