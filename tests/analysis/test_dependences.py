"""Tests for ``polyopt.analysis.dependences``: exact dependences of small kernels and the loops carrying them."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.dependences import (
    ANTI,
    FLOW,
    OUTPUT,
    Dependence,
    Dependences,
    carried_by,
    carrying_loops,
    compute_dependences,
    flow_relation,
)
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]


def _analyse(model_of: ModelOf, body: str) -> tuple[PolyModel, Dependences]:
    model = model_of(body)
    return model, compute_dependences(model)


def _keys(deps: Dependences) -> list[tuple[str, str, str, str]]:
    return [(d.kind, d.array, d.source, d.sink) for d in deps.items]


def _find(deps: Dependences, kind: str, array: str, source: str, sink: str) -> Dependence:
    found = [d for d in deps.items if (d.kind, d.array, d.source, d.sink) == (kind, array, source, sink)]
    assert len(found) == 1, f"no single {kind} dependence on {array} {source}->{sink} in {_keys(deps)}"
    return found[0]


def _is(dep: Dependence, expected: str) -> None:
    assert dep.relation.is_equal(isl.Map(expected)), f"got {dep.relation}, expected {expected}"


def test_prefix_sum_has_one_flow_dependence_of_distance_one(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = 1; i < n; i++)\n  a[i] = a[i - 1] + b[i];\n")

    assert _keys(deps) == [(FLOW, "a", "S0", "S0")]
    (flow,) = deps.items
    _is(flow, "[n] -> { S0[i] -> S0[i + 1] : 1 <= i <= n - 2 }")
    assert flow.relation.deltas().is_equal(isl.Set("[n] -> { S0[1] : n >= 3 }"))
    assert carrying_loops(model, flow) == ("i",)


def test_gemm_reduction_is_carried_by_k_only(model_of: ModelOf) -> None:
    model, deps = _analyse(
        model_of,
        "for (i = 0; i < ni; i++)\n"
        "  for (j = 0; j < nj; j++) {\n"
        "    C[i][j] *= beta;\n"
        "    for (k = 0; k < nk; k++)\n"
        "      C[i][j] += alpha * A[i][k] * B[k][j];\n"
        "  }\n",
    )

    assert _keys(deps) == [
        (FLOW, "C", "S0", "S1"),
        (FLOW, "C", "S1", "S1"),
        (ANTI, "C", "S0", "S1"),
        (ANTI, "C", "S1", "S1"),
        (OUTPUT, "C", "S0", "S1"),
        (OUTPUT, "C", "S1", "S1"),
    ]
    init = _find(deps, FLOW, "C", "S0", "S1")
    _is(init, "[ni, nj, nk] -> { S0[i, j] -> S1[i, j, 0] : 0 <= i < ni and 0 <= j < nj and nk > 0 }")
    assert carrying_loops(model, init) == ()

    reduction = _find(deps, FLOW, "C", "S1", "S1")
    _is(
        reduction,
        "[ni, nj, nk] -> { S1[i, j, k] -> S1[i, j, k + 1] : 0 <= i < ni and 0 <= j < nj and 0 <= k < nk - 1 }",
    )
    assert carrying_loops(model, reduction) == ("k",)

    for dep in deps.items:
        assert "i" not in carrying_loops(model, dep)
        assert "j" not in carrying_loops(model, dep)


def test_independent_iterations_have_no_dependence(model_of: ModelOf) -> None:
    _, deps = _analyse(
        model_of, "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    c[i][j] = a[i][j] + b[j][i];\n"
    )

    assert deps.items == ()
    assert deps.union().is_empty()


def test_anti_dependence_of_a_forward_read(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = 0; i < n - 1; i++)\n  a[i] = a[i + 1];\n")

    assert _keys(deps) == [(ANTI, "a", "S0", "S0")]
    (anti,) = deps.items
    _is(anti, "[n] -> { S0[i] -> S0[i + 1] : 0 <= i <= n - 3 }")
    assert carrying_loops(model, anti) == ("i",)


def test_scalar_reduction_is_carried_by_its_loop(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = 0; i < n; i++)\n  s += a[i];\n")

    assert _keys(deps) == [(FLOW, "s", "S0", "S0"), (ANTI, "s", "S0", "S0"), (OUTPUT, "s", "S0", "S0")]
    # Flow is value-based (each read sees the previous write only); anti and output are memory-based.
    _is(_find(deps, FLOW, "s", "S0", "S0"), "[n] -> { S0[i] -> S0[i + 1] : 0 <= i <= n - 2 }")
    _is(_find(deps, ANTI, "s", "S0", "S0"), "[n] -> { S0[i] -> S0[i2] : 0 <= i < i2 < n }")
    _is(_find(deps, OUTPUT, "s", "S0", "S0"), "[n] -> { S0[i] -> S0[i2] : 0 <= i < i2 < n }")
    assert all(carrying_loops(model, dep) == ("i",) for dep in deps.items)


def test_decreasing_loop_dependence_goes_to_smaller_iterations(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = n - 2; i >= 0; i--)\n  x[i] = x[i + 1] + b[i];\n")

    assert _keys(deps) == [(FLOW, "x", "S0", "S0")]
    (flow,) = deps.items
    _is(flow, "[n] -> { S0[i] -> S0[i - 1] : 1 <= i <= n - 2 }")
    assert carrying_loops(model, flow) == ("i",)


def test_loop_independent_flow_between_two_statements(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = 0; i < n; i++) {\n  t[i] = a[i];\n  b[i] = t[i] * 2;\n}\n")

    assert _keys(deps) == [(FLOW, "t", "S0", "S1")]
    (flow,) = deps.items
    _is(flow, "[n] -> { S0[i] -> S1[i] : 0 <= i < n }")
    assert carrying_loops(model, flow) == ()


def test_value_based_flow_ignores_overwritten_values(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = 0; i < n; i++) {\n  a[0] = b[i];\n  c[i] = a[0];\n}\n")

    flow = _find(deps, FLOW, "a", "S0", "S1")
    _is(flow, "[n] -> { S0[i] -> S1[i] : 0 <= i < n }")
    assert carrying_loops(model, flow) == ()
    anti = _find(deps, ANTI, "a", "S1", "S0")
    _is(anti, "[n] -> { S1[i] -> S0[i2] : 0 <= i < i2 < n }")
    assert carrying_loops(model, anti) == ("i",)
    assert carrying_loops(model, _find(deps, OUTPUT, "a", "S0", "S0")) == ("i",)


def test_outer_loop_carries_a_dependence_on_the_previous_row(model_of: ModelOf) -> None:
    model, deps = _analyse(model_of, "for (i = 1; i < n; i++)\n  for (j = 0; j < m; j++)\n    a[i][j] = a[i - 1][j];\n")

    (flow,) = deps.items
    _is(flow, "[n, m] -> { S0[i, j] -> S0[i + 1, j] : 1 <= i <= n - 2 and 0 <= j < m }")
    assert carrying_loops(model, flow) == ("i",)
    assert carried_by(flow.relation, 0)
    assert not carried_by(flow.relation, 1)


def test_dependence_between_separate_loop_nests_is_carried_by_no_loop(model_of: ModelOf) -> None:
    model, deps = _analyse(
        model_of, "for (i = 0; i < n; i++)\n  t[i] = a[i];\nfor (j = 0; j < n; j++)\n  b[j] = t[n - 1 - j];\n"
    )

    (flow,) = deps.items
    _is(flow, "[n] -> { S0[i] -> S1[n - 1 - i] : 0 <= i < n }")
    assert carrying_loops(model, flow) == ()


def test_union_selects_kinds(model_of: ModelOf) -> None:
    _, deps = _analyse(model_of, "for (i = 0; i < n; i++)\n  s += a[i];\n")

    flow_only = deps.union((FLOW,))
    assert flow_only.is_equal(isl.UnionMap("[n] -> { S0[i] -> S0[i + 1] : 0 <= i <= n - 2 }"))
    everything = deps.union()
    assert everything.is_equal(isl.UnionMap("[n] -> { S0[i] -> S0[i2] : 0 <= i < i2 < n }"))
    assert deps.union((ANTI, OUTPUT)).is_equal(everything)


@pytest.mark.parametrize(
    ("relation", "level", "expected"),
    [
        ("{ S[i, j] -> S[i, j + 1] }", 0, False),
        ("{ S[i, j] -> S[i, j + 1] }", 1, True),
        ("{ S[i, j] -> S[i + 1, j - 1] }", 0, True),
        ("{ S[i, j] -> S[i + 1, j - 1] }", 1, False),
        ("{ S[i, j] -> S[i, j] }", 0, False),
    ],
)
def test_carried_by_levels(relation: str, level: int, expected: bool) -> None:
    assert carried_by(isl.Map(relation), level) is expected


Instance = tuple[str, tuple[int, ...]]


def _pairs(relation: isl.UnionMap, n: int) -> list[tuple[Instance, Instance]]:
    """The pairs of ``relation`` at ``n``, as (tuple name, coordinates) pairs."""
    found: list[tuple[Instance, Instance]] = []

    def add(point: isl.Point) -> None:
        space = point.get_space().unwrap()
        sizes = space.dim(isl.dim_type.in_), space.dim(isl.dim_type.out)
        values = [point.get_coordinate_val(isl.dim_type.set, d).to_python() for d in range(sum(sizes))]
        found.append(
            (
                (space.get_tuple_name(isl.dim_type.in_) or "", tuple(values[: sizes[0]])),
                (space.get_tuple_name(isl.dim_type.out) or "", tuple(values[sizes[0] :])),
            )
        )

    relation.intersect_params(isl.Set(f"[n] -> {{ : n = {n} }}")).wrap().foreach_point(add)
    return found


def _enumerated_flow(
    model: PolyModel, sink: isl.UnionMap, must: isl.UnionMap, may: isl.UnionMap | None, n: int
) -> set[tuple[Instance, Instance]]:
    """``flow_relation`` at ``n`` by enumeration: per sink access, the last earlier must source of its cell and
    the earlier may sources that run no earlier than that one."""
    time = {instance: when[1] for instance, when in _pairs(model.schedule.get_map(), n)}
    musts = _pairs(must, n)
    mays = [] if may is None else _pairs(may, n)
    expected: set[tuple[Instance, Instance]] = set()
    for instance, cell in _pairs(sink, n):
        writers = [source for source, written in musts if written == cell and time[source] < time[instance]]
        last = max(writers, key=time.get, default=None)
        if last is not None:
            expected.add((last, instance))
        expected |= {
            (source, instance)
            for source, touched in mays
            if touched == cell and time[source] < time[instance] and (last is None or time[source] >= time[last])
        }
    return expected


STRIDED = (
    "for (i = n - 1; i >= 2; i--)\n"
    "  for (j = 0; j < n; j += 2)\n"
    "    for (k = 0; k < j; k++) {\n"
    "      for (m = j; m <= j + 2 && m < n; m++)\n"
    "        A[m + 1] = A[2];\n"
    "      for (m = j; m <= j + 2 && m < n; m++)\n"
    "        A[i + k - 1] = A[-m + n - 1] - 3.0 * A[i];\n"
    "    }\n"
)
GUARDED = (
    "for (i = n - 3; i >= 0; i--)\n"
    "  if (i % 2 == 1)\n"
    "    for (j = i; j <= i + 2 && j < n; j++)\n"
    "      t = t + 1;\n"
    "for (i = 0; i < 4; i++)\n"
    "  for (j = i; j <= i + 2 && j < n; j++)\n"
    "    t = t + 2;\n"
)


@pytest.mark.parametrize("body", [STRIDED, GUARDED], ids=["strided", "guarded"])
def test_dataflow_on_strided_domains_matches_enumeration(model_of: ModelOf, body: str) -> None:
    # isl's compute_flow stops with an internal error on both, and leaves out dependences of the strided one
    model = model_of(body)
    writes, reads = model.all_writes(), model.all_reads()
    for sink, must, may in ((reads, writes, None), (writes, writes, None), (writes, writes, reads)):
        relation = flow_relation(sink, model.schedule, must, may)
        for n in (6, 12):
            assert set(_pairs(relation, n)) == _enumerated_flow(model, sink, must, may, n)
