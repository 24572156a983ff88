"""Tests for the loop exits that ``polyopt.frontend.extract`` records and for ``polyopt.model.iterator_values``:
the value each loop variable holds after the region, checked against the same loops run in Python."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from polyopt import isl_util
from polyopt.diagnostics import UnsupportedRegion
from polyopt.frontend.scop import Scop
from polyopt.model import iterator_values

ScopOf = Callable[[str], Scop]
Values = dict[str, int]


def _single(n: int, m: int) -> Values:
    i = 0
    while i < n:
        i += 1
    return {"i": i}


def _triangular(n: int, m: int) -> Values:
    values: Values = {}
    i = 0
    while i < n:
        j = 0
        while j <= i:
            j += 1
        values["j"] = j
        i += 1
    return values | {"i": i}


def _decreasing(n: int, m: int) -> Values:
    i = n - 1
    while i >= 2:
        i -= 1
    return {"i": i}


def _stepped(n: int, m: int) -> Values:
    i = 1
    while i < n:
        i += 3
    k = n
    while k > -5:
        k -= 4
    return {"i": i, "k": k}


def _same_variable(n: int, m: int) -> Values:
    i = 0
    while i < n:
        i += 1
    values = {"i": i}
    j = 0
    while j < m:
        i = j
        while i < n and i < m + 2:
            i += 1
        values["i"] = i
        j += 1
    return values | {"j": j}


def _guarded(n: int, m: int) -> Values:
    values: Values = {}
    if n > 2:
        i = m
        while i > 0:
            i -= 2
        values["i"] = i
    return values


def _inner_of_a_loop_that_may_not_run(n: int, m: int) -> Values:
    values: Values = {}
    j = 0
    while j < m:
        i = 0
        while i < j:
            i += 1
        values["i"] = i
        j += 1
    return values | {"j": j}


CASES = [
    ("for (i = 0; i < n; i++)\n  a[i] = 0;\n", _single),
    ("for (i = 0; i < n; i++)\n  for (j = 0; j <= i; j++)\n    a[i][j] = 0;\n", _triangular),
    ("for (i = n - 1; i >= 2; i--)\n  a[i] = 0;\n", _decreasing),
    ("for (i = 1; i < n; i += 3)\n  a[i] = 0;\nfor (k = n; k > -5; k -= 4)\n  a[k] = 1;\n", _stepped),
    (
        "for (i = 0; i < n; i++)\n  a[i] = 0;\n"
        "for (j = 0; j < m; j++)\n  for (i = j; i < n && i < m + 2; i++)\n    a[i] += 1;\n",
        _same_variable,
    ),
    ("if (n > 2)\n  for (i = m; i > 0; i = i - 2)\n    a[i] = 0;\n", _guarded),
    ("for (j = 0; j < m; j++)\n  for (i = 0; i < j; i++)\n    ;\nb[0] = 0;\n", _inner_of_a_loop_that_may_not_run),
]


@pytest.mark.parametrize(("body", "run"), CASES)
def test_the_values_after_the_region_are_those_the_loops_leave(
    scop_of: ScopOf, body: str, run: Callable[[int, int], Values]
) -> None:
    values = iterator_values(scop_of(body))

    for n in range(-3, 8):
        for m in range(-2, 7):
            found = {name: isl_util.value_at(value, {"n": n, "m": m}) for name, value in values.items()}
            assert {name: value for name, value in found.items() if value is not None} == run(n, m), (n, m)


def test_loops_over_variables_declared_in_the_loop_leave_nothing(scop_of: ScopOf) -> None:
    scop = scop_of("for (int i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    a[i][j] = 0;\n")

    assert [loop.variable for loop in scop.exits] == ["j"]


def test_a_loop_with_an_empty_body_still_leaves_its_value(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  ;\nb[0] = 0;\n")

    assert [loop.variable for loop in scop.exits] == ["i"]
    assert isl_util.value_at(iterator_values(scop)["i"], {"n": 5}) == 5


def test_a_statement_may_use_the_variable_before_its_loops(scop_of: ScopOf) -> None:
    scop = scop_of("b[0] = i;\nfor (t = 0; t < n; t++)\n  b[t] = 1;\nfor (i = 0; i < n; i++)\n  a[i] = 0;\n")

    assert [loop.variable for loop in scop.exits] == ["t", "i"]


def test_a_statement_in_a_loop_around_a_later_loop_over_its_variable_is_rejected(scop_of: ScopOf) -> None:
    with pytest.raises(UnsupportedRegion, match="'i' is used by a statement and is the iterator of a later loop"):
        scop_of("for (t = 0; t < n; t++) {\n  b[t] = i;\n  for (i = 0; i < n; i++)\n    a[i] = 0;\n}\n")
