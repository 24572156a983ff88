"""Reduction detection and the dependences it relaxes (``polyopt.analysis.reductions``)."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.dependences import FLOW, compute_dependences
from polyopt.analysis.expansion import plan_expansions
from polyopt.analysis.reductions import find_reductions, non_reductions, relax
from polyopt.model import PolyModel, build_model
from polyopt.transform.expansion import expand

ModelOf = Callable[..., PolyModel]


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


def test_a_term_that_is_the_updated_element_on_the_domain_is_no_reduction(model_of: ModelOf) -> None:
    # on j == 2i + 1 the term B[2 * i + 1] has the access relation of the updated B[j]
    body = "for (i = 0; i < n; i++)\n  for (j = 2 * i + 1; j <= 2 * i + 1; j++)\n    for (k = 0; k < 4; k++)\n"
    body += "      B[j] -= 0.5 * B[2 * i + 1] + E[k];\n"

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


_SUM = "for (i = 0; i < n; i++)\n  s += {term};\n"


@pytest.mark.parametrize(
    ("declarations", "term"),
    [
        ("float s; int a[100];", "a[i]"),  # a floating accumulator takes integer terms
        ("int s; int a[100];", "a[i]"),
        ("unsigned s; long a[100]; int b[100];", "a[i] * b[i] - 3"),
        ("int s; double a[100];", "(int) (a[i] * 0.5)"),  # truncated before it is added
        ("int s; double a[100];", "a[i] > 0.5"),  # a comparison is an int
        ("DATA_TYPE s; DATA_TYPE a[100];", "a[i]"),  # declared in a header (PolyBench): arithmetic
        ("double s;", "f(i)"),
    ],
)
def test_updates_associative_in_their_types_are_reductions(model_of: ModelOf, declarations: str, term: str) -> None:
    model = model_of(_SUM.format(term=term), declarations)

    assert [r.array for r in find_reductions(model)] == ["s"] and non_reductions(model) == ()


@pytest.mark.parametrize(
    ("declarations", "term", "reason"),
    [
        ("int s; float a[100];", "a[i]", "integer accumulator with a floating term"),
        ("int s; int num[100], den[100];", "(float) num[i] / den[i]", "integer accumulator with a floating term"),
        ("int s; int a[100];", "a[i] * 0.5", "integer accumulator with a floating term"),
        ("#define SCALE 1.5\nint s; int a[100];", "a[i] * SCALE", "integer accumulator with a floating term"),
        ("typedef double real;\nint s; int a[100];", "(real) a[i] / 4", "integer accumulator with a floating term"),
        ("long s; int a[100];", "f(a[i])", "integer accumulator with a term of unknown type"),
        ("float *s; int a[100];", "a[i]", "pointer accumulator"),
        ("_Bool s; int a[100];", "a[i]", "_Bool accumulator"),
    ],
)
def test_updates_not_associative_in_their_types_keep_their_order(
    model_of: ModelOf, declarations: str, term: str, reason: str
) -> None:
    model = model_of(_SUM.format(term=term), declarations)

    assert find_reductions(model) == ()
    ((update, text),) = [(u, u.describe()) for u in non_reductions(model)]
    assert (update.statement, update.array) == ("S0", "s") and reason in text


def test_a_product_into_an_integer_with_a_floating_factor_is_no_reduction(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  p = p * a[i] * 2.5;\n", "int p; int a[100];")

    assert find_reductions(model) == () and [u.array for u in non_reductions(model)] == ["p"]


def test_an_expanded_integer_accumulator_keeps_its_type(model_of: ModelOf) -> None:
    """``t`` becomes an array ``t_...[i]``; its updates by floating terms must stay in order there too."""
    body = "for (i = 0; i < n; i++) {\n  t = 0;\n  for (j = 0; j < n; j++)\n    t += A[i][j] / 3.0;\n  y[i] = t;\n}\n"
    model = model_of(body, "int t; int A[100][100], y[100];")
    expansions = plan_expansions(model, compute_dependences(model), model.scop.identifiers)
    expanded = build_model(expand(model.scop, expansions))

    assert [e.scalar for e in expansions] == ["t"]
    assert find_reductions(expanded) == ()
    assert [u.array for u in non_reductions(expanded)] == [expansions[0].name]
