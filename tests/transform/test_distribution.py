"""Tests for ``polyopt.transform.distribution``: the innermost loop of a band split by statement
group when a reduction's loop then becomes a vector loop (PolyMage dense-matrix thesis, Sec. 4.5, Alg. 5)."""

from __future__ import annotations

from polyopt.analysis.reductions import find_reductions
from polyopt.marks import SIMD_MARK, LoopMark
from polyopt.transform.distribution import apply_distribution, plan_distribution
from polyopt.transform.vector import apply_vector, plan_vector
from tests.transform.kernels import GEMM, JACOBI_2D
from tests.transform.support import KernelOf, assert_legal, marked_bands, relaxed

TRISOLV = (
    "for (i = 0; i < n; i++) {\n  for (j = 0; j < i; j++)\n    x[i] -= L[i][j] * x[j];\n  x[i] = x[i] / L[i][i];\n}\n"
)
# The same two statements as one two-member band (i, j | i).
TRISOLV_BAND = ("{ S0[i, j] -> [i]; S1[i] -> [i] }", "{ S0[i, j] -> [j]; S1[i] -> [i] }")


def test_the_reduction_gets_its_own_simd_loop(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(TRISOLV))
    reductions = find_reductions(kernel.model)
    schedule = kernel.band_schedule(*TRISOLV_BAND, permutable=False)

    plan = plan_distribution(kernel.model, schedule, kernel.full, reductions)

    (distribution,) = plan.distributions
    assert distribution.groups == (("S0",), ("S1",))
    assert distribution.after > distribution.before
    distributed = apply_distribution(schedule, plan, kernel.model)
    marked = apply_vector(distributed, plan_vector(kernel.model, distributed, kernel.full, reductions))
    assert_legal(marked, kernel.deps.full)
    ((_, simd),) = marked_bands(marked, SIMD_MARK)
    mark = LoopMark.parse(simd.parent().mark_get_id().get_name())
    assert [(c.op, c.array) for c in mark.reductions] == [("+", "x")]


def test_gemm_is_not_split(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(GEMM))
    _, schedule = kernel.scheduled()

    assert plan_distribution(kernel.model, schedule, kernel.full, find_reductions(kernel.model)).distributions == ()


def test_with_reordering_forbidden_nothing_is_split(kernel_of: KernelOf) -> None:
    kernel = kernel_of(TRISOLV)
    schedule = kernel.band_schedule(*TRISOLV_BAND, permutable=False)

    assert plan_distribution(kernel.model, schedule, kernel.full).distributions == ()


# A row of temporaries B, produced and summed in the same j loop (tests/e2e/test_contraction.py's ROWS).
ROWS = (
    "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++) {\n    B[i][j] = A[i][j] * x[j];\n"
    "    z[i] += B[i][j] * 2;\n  }\n"
)
ROWS_BAND = ("{ S0[i, j] -> [i]; S1[i, j] -> [i] }", "{ S0[i, j] -> [j]; S1[i, j] -> [j] }")


def test_a_dead_temporary_keeps_its_producer_and_consumer_together(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(ROWS))
    reductions = find_reductions(kernel.model)
    schedule = kernel.band_schedule(*ROWS_BAND, permutable=False)

    split = plan_distribution(kernel.model, schedule, kernel.full, reductions)
    kept = plan_distribution(kernel.model, schedule, kernel.full, reductions, frozenset({"B"}))

    assert [d.groups for d in split.distributions] == [(("S0",), ("S1",))]
    assert kept.distributions == ()


# The two sweeps skewed by time and fused into one band, the second shifted by one row and column.
JACOBI_2D_SKEWED = (
    "{ S0[t, i, j] -> [t]; S1[t, i, j] -> [t] }",
    "{ S0[t, i, j] -> [2t + i]; S1[t, i, j] -> [2t + i + 1] }",
    "{ S0[t, i, j] -> [2t + j]; S1[t, i, j] -> [2t + j + 1] }",
)


def test_a_skewed_stencil_band_gets_one_vector_loop_per_sweep(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_2D)
    schedule = kernel.band_schedule(*JACOBI_2D_SKEWED)
    assert not plan_vector(kernel.model, schedule, kernel.full).loops[0].simd

    plan = plan_distribution(kernel.model, schedule, kernel.full)

    (distribution,) = plan.distributions
    assert distribution.groups == (("S0",), ("S1",))
    distributed = apply_distribution(schedule, plan, kernel.model)
    vector = plan_vector(kernel.model, distributed, kernel.full)
    assert [loop.simd for loop in vector.loops] == [True, True]
    assert_legal(apply_vector(distributed, vector), kernel.deps.full)


def test_a_band_that_already_vectorizes_is_not_split_without_a_reduction(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_2D)
    stepped = (
        "{ S0[t, i, j] -> [t]; S1[t, i, j] -> [t] }",
        "{ S0[t, i, j] -> [0, i]; S1[t, i, j] -> [1, i] }",
        "{ S0[t, i, j] -> [j]; S1[t, i, j] -> [j] }",
    )
    schedule = kernel.band_schedule(*stepped, permutable=False)

    assert plan_distribution(kernel.model, schedule, kernel.full).distributions == ()
