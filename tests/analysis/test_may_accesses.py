"""May-writes (data-dependent statements) in the dependences, and the passes that leave opaque
statements and their arrays alone (reductions, scalar expansion, contraction, idioms)."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.contraction import plan_contractions
from polyopt.analysis.dependences import FLOW, compute_dependences
from polyopt.analysis.expansion import plan_expansions
from polyopt.analysis.reductions import find_reductions
from polyopt.library import find_idioms
from polyopt.model import PolyModel

ModelOf = Callable[..., PolyModel]

LOOP = "for (i = 0; i < n; i++)\n"


def _flows_into(model: PolyModel, array: str, sink: str) -> set[str]:
    return {d.source for d in compute_dependences(model).items if (d.kind, d.array, d.sink) == (FLOW, array, sink)}


@pytest.mark.parametrize("may_write", ["  if (c[i] > 0)\n    a[i] = 2;\n", "  a[idx[i]] = 2;\n"])
def test_a_may_write_kills_no_earlier_write(model_of: ModelOf, may_write: str) -> None:
    model = model_of(f"{LOOP}  a[i] = 1;\n{LOOP}{may_write}{LOOP}  b[i] = a[i];\n")

    assert _flows_into(model, "a", "S2") == {"S0", "S1"}
    reduced = compute_dependences(model).reduced
    pair = isl.UnionMap("[n] -> { S0[i] -> S2[i] : 0 <= i < n }")
    assert pair.is_subset(reduced)


def test_a_must_write_still_kills(model_of: ModelOf) -> None:
    model = model_of(f"{LOOP}  a[i] = 1;\n{LOOP}  a[i] = 2;\n{LOOP}  b[i] = a[i];\n")

    assert _flows_into(model, "a", "S2") == {"S1"}


@pytest.mark.parametrize(
    "body",
    [
        f"{LOOP}  if (a[i] > 0)\n    s += a[i];\n",
        f"{LOOP}  h[idx[i]] += 1;\n",
        f"{LOOP}  s += a[i];\n{LOOP}  if (c[i] > 0)\n    s = 0;\n",
    ],
)
def test_no_reduction_is_data_dependent_or_of_an_opaque_array(model_of: ModelOf, body: str) -> None:
    assert find_reductions(model_of(body)) == ()


def test_the_same_update_without_an_opaque_neighbour_is_a_reduction(model_of: ModelOf) -> None:
    assert [r.array for r in find_reductions(model_of(f"{LOOP}  s += a[i];\n{LOOP}  b[i] = 0;\n"))] == ["s"]


TEMPORARY = "for (j = 0; j < m; j++) {\n  t = a[j] * 2;\n  {guard}b[j] = t;\n  c[j] = t + b[j];\n}\n"


@pytest.mark.parametrize(("guard", "expanded"), [("", ["t"]), ("if (d[j] > 0) ", [])])
def test_a_scalar_that_a_guarded_statement_reads_is_not_expanded(
    model_of: ModelOf, guard: str, expanded: list[str]
) -> None:
    model = model_of(f"for (i = 0; i < n; i++)\n{TEMPORARY.replace('{guard}', guard)}")

    assert [e.scalar for e in plan_expansions(model, compute_dependences(model), frozenset())] == expanded


@pytest.mark.parametrize(("middle", "contracted"), [("  d[i] = 0;\n", ["t"]), ("  if (c[i] > 0)\n    t[i] = 0;\n", [])])
def test_a_dead_array_that_a_guarded_statement_writes_is_not_contracted(
    model_of: ModelOf, middle: str, contracted: list[str]
) -> None:
    model = model_of(f"{LOOP}{{\n  t[i] = a[i];\n{middle}  b[i] = t[i];\n}}\n")
    deps = compute_dependences(model)

    found = plan_contractions(model, deps, model.schedule, frozenset({"t"}), ())
    assert [c.array for c in found] == contracted


GEMM = (
    "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < n; k++)\n"
    "      C[i][j] += A[i][k] * B[k][j];\n"
)


@pytest.mark.parametrize(("after", "idioms"), [("  x[i] = C[i][0];\n", 1), ("  C[idx[i]][0] = 0;\n", 0)])
def test_no_idiom_touches_an_array_of_an_opaque_statement(model_of: ModelOf, after: str, idioms: int) -> None:
    assert len(find_idioms(model_of(f"{GEMM}{LOOP}{after}"))) == idioms
