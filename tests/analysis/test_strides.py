"""Tests for ``polyopt.analysis.strides``: stride kinds of accesses along schedule dimensions, and the
intra-tile score of the PolyMage dense-matrix thesis (Alg. 5, Table 4.4)."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.dependences import carried_by, compute_dependences
from polyopt.analysis.strides import (
    BACKWARD,
    FORWARD,
    SCATTERED,
    SPATIAL,
    TEMPORAL,
    DimensionScore,
    access_direction,
    access_stride,
    innermost_varying,
    intra_tile_score,
)
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]

IDENTITY_2D = "[n] -> { S[i, j] -> [i, j] : 0 <= i, j < n }"


@pytest.mark.parametrize(
    ("access", "position", "expected"),
    [
        pytest.param("{ S[i, j] -> A[i] }", 1, TEMPORAL, id="stride-0"),
        pytest.param("{ S[i, j] -> A[i, j] }", 1, SPATIAL, id="stride-1-last-subscript"),
        pytest.param("{ S[i, j] -> A[i, n - j] }", 1, SPATIAL, id="stride-minus-1"),
        pytest.param("{ S[i, j] -> A[i, j] }", 0, SCATTERED, id="stride-along-non-last-subscript"),
        pytest.param("{ S[i, j] -> A[j, i] }", 1, SCATTERED, id="transposed-inner"),
        pytest.param("{ S[i, j] -> A[j, i] }", 0, SPATIAL, id="transposed-outer"),
        pytest.param("{ S[i, j] -> A[i + j] }", 0, SPATIAL, id="sum-outer"),
        pytest.param("{ S[i, j] -> A[i + j] }", 1, SPATIAL, id="sum-inner"),
        pytest.param("{ S[i, j] -> A[2j] }", 1, SCATTERED, id="stride-2"),
        pytest.param("{ S[i, j] -> s[] }", 0, TEMPORAL, id="scalar-outer"),
        pytest.param("{ S[i, j] -> s[] }", 1, TEMPORAL, id="scalar-inner"),
    ],
)
def test_access_stride_along_an_identity_schedule(access: str, position: int, expected: str) -> None:
    schedule = isl.Map(IDENTITY_2D)
    relation = isl.Map("[n] -> " + access).intersect_domain(schedule.domain())

    assert access_stride(schedule, relation, position) == expected


def test_access_stride_along_a_loop_with_a_step() -> None:
    schedule = isl.Map("[n] -> { S[i] -> [i] : 0 <= i < n and i mod 2 = 0 }")
    relation = isl.Map("[n] -> { S[i] -> A[i] }").intersect_domain(schedule.domain())

    assert access_stride(schedule, relation, 0) == SCATTERED


def test_access_stride_follows_the_schedule_not_the_iterator_order() -> None:
    interchanged = isl.Map("[n] -> { S[i, j] -> [j, i] : 0 <= i, j < n }")
    relation = isl.Map("[n] -> { S[i, j] -> A[i, j] : 0 <= i, j < n }")

    assert access_stride(interchanged, relation, 1) == SCATTERED
    assert access_stride(interchanged, relation, 0) == SPATIAL


def test_access_stride_under_a_skewed_schedule() -> None:
    # t = i, u = i + j: advancing u alone moves j by one, advancing t alone moves i by one and j back by one.
    skewed = isl.Map("[n] -> { S[i, j] -> [i, i + j] : 0 <= i, j < n }")
    row = isl.Map("[n] -> { S[i, j] -> A[i, j] : 0 <= i, j < n }")

    assert access_stride(skewed, row, 1) == SPATIAL
    assert access_stride(skewed, row, 0) == SCATTERED


def test_score_formula() -> None:
    score = DimensionScore(spatial=2, temporal=1, accesses=5, vectorizable=True)

    assert score.score == 2 * 2 + 4 * 1 + 8 - 16 * 2


@pytest.mark.parametrize(
    ("kinds", "parallel", "vectorizable"),
    [
        ([SPATIAL, TEMPORAL], True, True),
        ([SPATIAL, TEMPORAL], False, False),
        ([SPATIAL, SCATTERED], True, False),
        ([], True, True),
    ],
)
def test_vectorizable_needs_parallel_and_no_scattered_access(
    kinds: list[str], parallel: bool, vectorizable: bool
) -> None:
    assert intra_tile_score(kinds, parallel).vectorizable is vectorizable


MATMUL = (
    "for (i = 0; i < n; i++)\n"
    "  for (j = 0; j < n; j++)\n"
    "    for (k = 0; k < n; k++)\n"
    "      C[i][j] += A[i][k] * B[k][j];\n"
)

# PolyMage dense-matrix thesis, Table 4.4 (accesses: C read, C write, A, B).
TABLE_4_4 = {
    "i": DimensionScore(spatial=0, temporal=1, accesses=4, vectorizable=False),
    "j": DimensionScore(spatial=3, temporal=1, accesses=4, vectorizable=True),
    "k": DimensionScore(spatial=1, temporal=2, accesses=4, vectorizable=False),
}


@pytest.mark.parametrize("innermost", ["i", "j", "k"])
def test_intra_tile_score_reproduces_table_4_4_for_matmul(model_of: ModelOf, innermost: str) -> None:
    model = model_of(MATMUL)
    (dependence,) = (d.relation for d in compute_dependences(model).items if d.kind == "flow")
    order = [name for name in "ijk" if name != innermost] + [innermost]
    schedule = isl.Map(f"[n] -> {{ S0[i, j, k] -> [{', '.join(order)}] }}").intersect_domain(model.domains["S0"])
    references = [ref for ref in model.references if ref.statement == "S0"]
    assert sorted((ref.array, ref.is_write) for ref in references) == [
        ("A", False),
        ("B", False),
        ("C", False),
        ("C", True),
    ]

    kinds = [access_stride(schedule, ref.relation, 2) for ref in references]
    scheduled = dependence.apply_domain(schedule).apply_range(schedule)
    parallel = not carried_by(scheduled, 2)
    result = intra_tile_score(kinds, parallel)

    assert result == TABLE_4_4[innermost]
    assert result.score == {"i": -44, "j": 18, "k": -6}[innermost]


@pytest.mark.parametrize(
    ("access", "expected"),
    [
        pytest.param("{ S[i, j] -> A[i, j] }", FORWARD, id="forward"),
        pytest.param("[n] -> { S[i, j] -> A[i, n - j] }", BACKWARD, id="backward"),
        pytest.param("{ S[i, j] -> A[i] }", TEMPORAL, id="temporal"),
        pytest.param("{ S[i, j] -> A[j, i] }", SCATTERED, id="scattered"),
    ],
)
def test_access_direction_tells_a_backward_walk(access: str, expected: str) -> None:
    schedule = isl.Map(IDENTITY_2D)
    assert access_direction(schedule, isl.Map(access).align_params(schedule.get_space()), 1) == expected


def test_innermost_varying_skips_constant_dimensions() -> None:
    assert innermost_varying(isl.Map("[n] -> { S[i, j] -> [0, i, 1, j, 0] : 0 <= i, j < n }")) == 3
    assert innermost_varying(isl.Map("{ S[] -> [0, 2] }")) is None
