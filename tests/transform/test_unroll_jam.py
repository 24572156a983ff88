"""Tests for ``polyopt.transform.unroll_jam``: the loop around a vector loop is unrolled and jammed into
it when an element it updates stays in a register, every dependence stays within one vector-loop
iteration, and the vector loop's bounds do not depend on it."""

from __future__ import annotations

import islpy as isl
import pytest

from polyopt.diagnostics import IllegalTransform
from polyopt.marks import JAM_MARK, LoopMark
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
    kernel = kernel_of(body)
    schedule = _vectorized(kernel, *bands)
    assert plan_unroll_jam(kernel.model, schedule, kernel.full, 4).jams == ()


def test_a_factor_below_two_jams_nothing(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PRODUCT)
    schedule = _vectorized(kernel, *LOOPS)
    assert plan_unroll_jam(kernel.model, schedule, kernel.full, 1).jams == ()


def test_verification_rejects_a_jam_across_columns(kernel_of: KernelOf) -> None:
    body, bands = KEPT["a dependence across columns"]
    kernel = kernel_of(body)
    schedule = _vectorized(kernel, *bands)
    forced = apply_unroll_jam(schedule, JamPlan((Jam((0,), "i", "j", 4, ("y",)),)))

    assert len(marked_bands(forced, JAM_MARK)) == 1
    with pytest.raises(IllegalTransform):
        verify_schedule(kernel.model, forced, kernel.deps)
    verify_schedule(kernel.model, schedule, kernel.deps)
