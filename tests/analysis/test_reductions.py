"""Reduction detection and the dependences it relaxes (``polyopt.analysis.reductions``)."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.dependences import FLOW, compute_dependences
from polyopt.analysis.reductions import find_reductions, relax
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]


@pytest.mark.parametrize(
    ("body", "array", "op"),
    [
        ("for (i = 0; i < n; i++)\n  s += a[i];\n", "s", "+"),
        ("for (i = 0; i < n; i++)\n  s -= a[i];\n", "s", "+"),
        ("for (i = 0; i < n; i++)\n  p *= a[i];\n", "p", "*"),
        ("for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    x[i] = x[i] + A[i][j] * y[j];\n", "x", "+"),
        ("for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    x[i] = A[i][j] * y[j] + x[i];\n", "x", "+"),
        ("for (i = 0; i < n; i++)\n  s = s - a[i] + b[i];\n", "s", "+"),
        ("for (i = 0; i < n; i++)\n  p = a[i] * p * b[i];\n", "p", "*"),
    ],
)
def test_reductions_are_found(model_of: ModelOf, body: str, array: str, op: str) -> None:
    (reduction,) = find_reductions(model_of(body))

    assert (reduction.statement, reduction.array, reduction.op) == ("S0", array, op)


@pytest.mark.parametrize(
    "body",
    [
        "for (i = 1; i < n; i++)\n  x[i] = x[i - 1] + a[i];\n",  # reads another element
        "for (i = 0; i < n; i++)\n  s = a[i] - s;\n",  # s enters negated
        "for (i = 0; i < n; i++)\n  s = s * 2 + a[i];\n",  # neither a sum nor a product of s
        "for (i = 0; i < n; i++)\n  s = s + s;\n",  # s twice
        "for (i = 0; i < n; i++)\n  s += s * a[i];\n",  # s in the added value
        "for (i = 0; i < n; i++)\n  s = a[i];\n",  # no update at all
        "for (i = 0; i < n; i++)\n  s /= a[i];\n",  # not associative
    ],
)
def test_non_reductions_are_not_found(model_of: ModelOf, body: str) -> None:
    assert find_reductions(model_of(body)) == ()


def test_relaxing_drops_the_self_dependences_only(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  s += a[i];\nt = s;\n")
    deps = compute_dependences(model)
    relaxed = relax(model, deps, find_reductions(model))

    updates = isl.UnionSet.from_set(model.domains["S0"])
    assert any(d.source == d.sink == "S0" for d in deps.items)
    assert not any(d.source == d.sink == "S0" for d in relaxed.items)
    assert relaxed.reduced.intersect_domain(updates).intersect_range(updates).is_empty()
    assert not relaxed.reduced.intersect_domain(updates).is_empty()  # updates still precede the read


def test_reads_after_a_reduction_wait_for_every_update(model_of: ModelOf) -> None:
    """Value-based flow says only the last update feeds ``t = s``; once the updates may run in
    any order, the read must follow all of them."""
    model = model_of("for (i = 0; i < n; i++)\n  s += a[i];\nt = s;\n")
    deps = compute_dependences(model)
    relaxed = relax(model, deps, find_reductions(model))

    (original,) = [d for d in deps.items if d.kind == FLOW and d.sink == "S1"]
    (memory,) = [d for d in relaxed.items if d.kind == FLOW and d.sink == "S1"]
    every_update = model.domains["S0"]
    assert original.relation.domain().is_strict_subset(every_update)
    assert memory.relation.domain().is_equal(every_update)


def test_nothing_to_relax_keeps_the_dependences(model_of: ModelOf) -> None:
    model = model_of("for (i = 1; i < n; i++)\n  a[i] = a[i - 1] + b[i];\n")
    deps = compute_dependences(model)

    assert relax(model, deps, find_reductions(model)) is deps


@pytest.mark.parametrize(
    "body",
    [
        # cholesky: the added value reads A[i][k] and A[j][k], never the updated A[i][j]
        "for (i = 0; i < n; i++)\n  for (j = 0; j < i; j++)\n    for (k = 0; k < j; k++)\n"
        "      A[i][j] -= A[i][k] * A[j][k];\n",
        # trisolv: x[j] with j < i
        "for (i = 0; i < n; i++)\n  for (j = 0; j < i; j++)\n    x[i] = x[i] - L[i][j] * x[j];\n",
    ],
)
def test_reductions_may_read_other_elements_of_their_array(model_of: ModelOf, body: str) -> None:
    (reduction,) = find_reductions(model_of(body))

    assert reduction.op == "+" and not reduction.pure


def test_a_read_that_may_be_the_updated_element_is_no_reduction(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++)\n  for (j = 0; j <= i; j++)\n    x[i] -= L[i][j] * x[j];\n"  # j == i

    assert find_reductions(model_of(body)) == ()


def test_relaxing_keeps_the_order_of_reads_of_other_elements(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  for (j = 0; j < i; j++)\n    x[i] -= L[i][j] * x[j];\n")
    deps = compute_dependences(model)
    relaxed = relax(model, deps, find_reductions(model))

    # the update of x[1] (at i = 1) precedes its read at i = 2; the updates of one element are free
    ordered = isl.UnionMap("[n] -> { S0[1, 0] -> S0[2, 1] : n >= 3 }")
    assert ordered.is_subset(relaxed.full)
    assert relaxed.full.intersect(isl.UnionMap("[n] -> { S0[i, j] -> S0[i, j2] }")).is_empty()
    # the scheduler still sees them in order: only loops marked parallel or simd reorder them
    assert relaxed.reduced.is_equal(deps.reduced)
