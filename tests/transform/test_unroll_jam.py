"""Tests for ``polyopt.transform.unroll_jam``: the loop around a vector loop is unrolled and jammed into
it when an element it updates stays in a register, every dependence stays within one vector-loop
iteration, and the vector loop's bounds do not depend on it; the loop around a scalar loop that
carries a dependence, when no dependence goes to a later copy and an earlier column."""

from __future__ import annotations

import islpy as isl
import pytest

from polyopt.diagnostics import IllegalTransform
from polyopt.marks import JAM_MARK, PARALLEL_MARK, LoopMark
from polyopt.schedule_tree import anchor_of, insert_loop_mark, node_at
from polyopt.transform.unroll_jam import Jam, JamPlan, apply_unroll_jam, plan_unroll_jam
from polyopt.transform.vector import apply_vector, plan_vector
from polyopt.verify import verify_schedule
from tests.transform.support import Kernel, KernelOf, assert_legal, marked_bands

PRODUCT = (
    "for (i = 0; i < n; i++)\n  for (k = 0; k < m; k++)\n    for (j = 0; j < n; j++)\n"
    "      C[i][j] += A[i][k] * B[k][j];\n"
)
LOOPS = ("{ S0[i, k, j] -> [i] }", "{ S0[i, k, j] -> [k] }", "{ S0[i, k, j] -> [j] }")


def _vectorized(kernel: Kernel, *bands: str) -> isl.Schedule:
    schedule = kernel.band_schedule(*bands)
    return apply_vector(schedule, plan_vector(kernel.model, schedule, kernel.full))


def test_the_reduction_loop_is_jammed_into_the_vector_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PRODUCT)
    schedule = _vectorized(kernel, *LOOPS)

    plan = plan_unroll_jam(kernel.model, schedule, kernel.full, 4)

    (jam,) = plan.jams
    assert (jam.loop, jam.vector, jam.factor, jam.accumulators) == ("k", "j", 4, ("C",))
    jammed = apply_unroll_jam(schedule, plan)
    assert_legal(jammed, kernel.full)
    ((_, band),) = marked_bands(jammed, JAM_MARK)
    mark = LoopMark.parse(band.parent().mark_get_id().get_name())
    assert (mark.depth, mark.factor) == (1, 4)


KEPT = {
    # (i - 1, j + 1) -> (i, j): the copies of a jammed row would run a later column first.
    "a dependence across columns": (
        "for (i = 1; i < n; i++)\n  for (j = 0; j < n - 1; j++) {\n    y[j] += A[i][j];\n"
        "    B[i][j] = B[i - 1][j + 1] * 0.5;\n  }\n",
        ("{ S0[i, j] -> [i]; S1[i, j] -> [i] }", "{ S0[i, j] -> [j]; S1[i, j] -> [j] }"),
    ),
    # The vector loop's bounds depend on the loop around it.
    "a triangle": (
        PRODUCT.replace("j < n", "j <= k"),
        LOOPS,
    ),
    # No element stays along k.
    "no accumulator": (
        "for (k = 0; k < m; k++)\n  for (j = 0; j < n; j++)\n    C[k][j] = A[k][j] * 2;\n",
        ("{ S0[k, j] -> [k] }", "{ S0[k, j] -> [j] }"),
    ),
}


@pytest.mark.parametrize("case", sorted(KEPT))
def test_loops_are_kept(kernel_of: KernelOf, case: str) -> None:
    body, bands = KEPT[case]
    _assert_kept(kernel_of(body), vectorized=True, bands=bands)


def _assert_kept(kernel: Kernel, vectorized: bool, bands: tuple[str, ...]) -> None:
    schedule = _vectorized(kernel, *bands) if vectorized else kernel.band_schedule(*bands)
    assert plan_unroll_jam(kernel.model, schedule, kernel.full, 4).jams == ()


def test_a_factor_below_two_jams_nothing(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PRODUCT)
    schedule = _vectorized(kernel, *LOOPS)
    assert plan_unroll_jam(kernel.model, schedule, kernel.full, 1).jams == ()


def test_verification_rejects_a_jam_across_columns(kernel_of: KernelOf) -> None:
    body, bands = KEPT["a dependence across columns"]
    kernel = kernel_of(body)
    schedule = _vectorized(kernel, *bands)
    forced = apply_unroll_jam(schedule, JamPlan((Jam(anchor_of(node_at(schedule, (0,))), "i", "j", 4, ("y",)),)))

    assert len(marked_bands(forced, JAM_MARK)) == 1
    with pytest.raises(IllegalTransform):
        verify_schedule(kernel.model, forced, kernel.deps)
    verify_schedule(kernel.model, schedule, kernel.deps)


# B[i][j] waits for B[i][j - 1] (a recurrence along j) and for B[i - 1][j + 1]: distance (1, -1).
RECURRENCE = (
    "for (i = 1; i < n; i++)\n  for (j = 1; j < n - 1; j++)\n    B[i][j] = B[i - 1][j + 1] * 0.5 + B[i][j - 1];\n"
)


@pytest.mark.parametrize(
    "bands",
    [("{ S0[i, j] -> [i, i + j] }",), ("{ S0[i, j] -> [i] }", "{ S0[i, j] -> [i + j] }")],
    ids=["one band", "two bands"],
)
def test_rows_are_jammed_into_a_skewed_recurrence(kernel_of: KernelOf, bands: tuple[str, ...]) -> None:
    kernel = kernel_of(RECURRENCE)
    schedule = kernel.band_schedule(*bands)

    plan = plan_unroll_jam(kernel.model, schedule, kernel.full, 4)

    (jam,) = plan.jams
    assert (jam.band.where, jam.loop, jam.vector, jam.recurrence, jam.accumulators) == ((0,), "i", "i + j", True, ())
    jammed = apply_unroll_jam(schedule, plan)
    assert_legal(jammed, kernel.full)
    ((_, band),) = marked_bands(jammed, JAM_MARK)
    assert band.band_n_member() == 1 and band.child(0).get_type() == isl.schedule_node_type.band
    verify_schedule(kernel.model, jammed, kernel.deps)


KEPT_SCALAR = {
    # (i - 1, j + 1) -> (i, j): a jammed row would run before the column it reads from the row above.
    "a dependence across columns": (RECURRENCE, ("{ S0[i, j] -> [i] }", "{ S0[i, j] -> [j] }")),
    # The scalar loop carries no dependence: nothing to overlap.
    "no recurrence": (
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    B[i][j] = A[i][j] * 2;\n",
        ("{ S0[i, j] -> [i] }", "{ S0[i, j] -> [j] }"),
    ),
    # S0 runs once per row before the loop over j: the row's body is not one loop.
    "a statement outside the loop": (
        "for (i = 0; i < n; i++) {\n  z[i] = 0;\n  for (j = 0; j < n; j++)\n    z[i] = z[i] * 0.5 + A[i][j];\n}\n",
        ("{ S0[i] -> [i]; S1[i, j] -> [i] }", "{ S0[i] -> [-1]; S1[i, j] -> [j] }"),
    ),
}


@pytest.mark.parametrize("case", sorted(KEPT_SCALAR))
def test_scalar_loops_are_kept(kernel_of: KernelOf, case: str) -> None:
    body, bands = KEPT_SCALAR[case]
    _assert_kept(kernel_of(body), vectorized=False, bands=bands)


def test_verification_rejects_rows_jammed_across_columns(kernel_of: KernelOf) -> None:
    kernel = kernel_of(RECURRENCE)
    schedule = kernel.band_schedule("{ S0[i, j] -> [i] }", "{ S0[i, j] -> [j] }")
    forced = apply_unroll_jam(
        schedule, JamPlan((Jam(anchor_of(node_at(schedule, (0,))), "i", "j", 4, (), recurrence=True),))
    )

    assert len(marked_bands(forced, JAM_MARK)) == 1
    with pytest.raises(IllegalTransform):
        verify_schedule(kernel.model, forced, kernel.deps)


def test_a_parallel_loop_of_rows_is_jammed_in_parallel_blocks(kernel_of: KernelOf) -> None:
    kernel = kernel_of(
        "for (i = 0; i < n; i++)\n  for (j = 1; j < n; j++)\n    B[i][j] = B[i][j - 1] * 0.5 + A[i][j];\n"
    )
    schedule = kernel.band_schedule("{ S0[i, j] -> [i] }", "{ S0[i, j] -> [j] }")
    schedule = insert_loop_mark(node_at(schedule, (0,)), PARALLEL_MARK).get_schedule()

    plan = plan_unroll_jam(kernel.model, schedule, kernel.full, 4)

    (jam,) = plan.jams
    assert (jam.loop, jam.vector, jam.recurrence, jam.strip) == ("i", "j", True, True)
    jammed = apply_unroll_jam(schedule, plan)
    ((_, blocks),) = marked_bands(jammed, PARALLEL_MARK)
    ((_, rows),) = marked_bands(jammed, JAM_MARK)
    assert "floor((i)/4)" in blocks.band_get_partial_schedule().to_str() and rows.parent().parent().is_equal(blocks)
    assert_legal(jammed, kernel.full)
    verify_schedule(kernel.model, jammed, kernel.deps)
