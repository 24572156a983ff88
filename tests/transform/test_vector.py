"""Tests for ``polyopt.transform.vector``: the innermost (vector) loop of each innermost band
(PolyMage dense-matrix thesis, Alg. 5), its ``omp simd`` mark, and the parallel loop it must leave in place."""

from __future__ import annotations

import islpy as isl
import pytest

from polyopt.analysis.vector_loops import VectorLoop
from polyopt.marks import PARALLEL_MARK, SIMD_MARK
from polyopt.options import Options, TilingOptions
from polyopt.passes.base import Decisions, RegionContext
from polyopt.passes.parallel import PARALLEL
from polyopt.passes.tiling import TILING
from polyopt.passes.vector import VECTOR
from polyopt.pipeline import transform
from polyopt.schedule_tree import band_nodes, carries, member_expressions
from polyopt.transform.parallel import ParallelLoop, apply_parallel, plan_parallel
from polyopt.transform.tiling import TiledBand
from polyopt.transform.vector import apply_vector, plan_vector
from tests.transform.kernels import ATAX, GEMM, JACOBI_1D
from tests.transform.support import Kernel, KernelOf, assert_legal, marked_bands

ROW_SUMS = "for (i = 0; i < n; i++)\n  for (k = 0; k < n; k++)\n    s[i] = s[i] + A[i][k];\n"
DOT = "for (i = 0; i < n; i++)\n  s = s + a[i] * b[i];\n"
NOTILE = Options(tiling=TilingOptions(enabled=False))


def _transform(
    kernel: Kernel, options: Options, parameters: dict[str, int] | None = None
) -> tuple[isl.Schedule, Decisions]:
    """The schedule passes of the pipeline on ``kernel``."""
    _, schedule, decisions = transform(RegionContext.of(kernel.model, kernel.deps, options, parameters=parameters))
    return schedule, decisions


def _vector_loops(decisions: Decisions) -> tuple[VectorLoop, ...]:
    plan = decisions.plan_of(VECTOR)
    assert plan is not None
    return plan.loops


def _parallel_loops(decisions: Decisions) -> tuple[ParallelLoop, ...]:
    plan = decisions.plan_of(PARALLEL)
    return plan.loops if plan is not None else ()


def _tiled_bands(decisions: Decisions) -> tuple[TiledBand, ...]:
    plan = decisions.plan_of(TILING)
    return plan.bands if plan is not None else ()


def _innermost(schedule: isl.Schedule) -> list[tuple[tuple[int, ...], isl.ScheduleNode]]:
    """Bands with no band below them (the ones ``plan_vector`` decides on)."""
    bands = band_nodes(schedule)
    return [(path, band) for path, band in bands if not any(p != path and p[: len(path)] == path for p, _ in bands)]


def _plan_on_isl_schedule(kernel: Kernel) -> tuple[isl.Schedule, tuple[VectorLoop, ...]]:
    _, schedule = kernel.scheduled()
    return schedule, plan_vector(kernel.model, schedule, kernel.full).loops


def test_gemm_point_band_runs_j_innermost_as_a_simd_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of(GEMM)

    schedule, decisions = _transform(kernel, Options())

    (loop,) = _vector_loops(decisions)
    assert (loop.chosen, loop.simd) == ("j", True)
    scores = dict(loop.scores)
    assert scores["j"].score == max(score.score for score in scores.values())
    assert scores["j"].vectorizable
    ((_, simd),) = marked_bands(schedule, SIMD_MARK)
    assert simd.band_n_member() == 1
    assert member_expressions(simd, 0) == {"S0": "j", "S1": "j"}
    assert _innermost(schedule) == [(path, band) for path, band in band_nodes(schedule) if band.is_equal(simd)]


def test_gemm_vector_loop_without_tiling(kernel_of: KernelOf) -> None:
    kernel = kernel_of(GEMM)

    schedule, decisions = _transform(kernel, NOTILE)

    (loop,) = _vector_loops(decisions)
    assert (loop.chosen, loop.simd) == ("j", True)
    ((_, simd),) = marked_bands(schedule, SIMD_MARK)
    assert member_expressions(simd, 0) == {"S0": "j", "S1": "j"}
    ((_, outer),) = marked_bands(schedule, PARALLEL_MARK)
    assert member_expressions(outer, 0) == {"S0": "i", "S1": "i"}


def test_a_reduction_loop_is_never_a_simd_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of(ROW_SUMS)

    schedule, loops = _plan_on_isl_schedule(kernel)

    (loop,) = loops
    scores = dict(loop.scores)
    # k has the better strides (A[i][k] stride 1, s[i] stride 0) but carries the sum.
    assert loop.chosen == "k" and scores["k"].score > scores["i"].score
    assert not loop.simd and not scores["k"].vectorizable
    assert marked_bands(apply_vector(schedule, plan_vector(kernel.model, schedule, kernel.full)), SIMD_MARK) == []


def test_a_scalar_reduction_is_not_a_simd_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of(DOT)

    schedule, loops = _plan_on_isl_schedule(kernel)

    (loop,) = loops
    assert loop.chosen == "i" and not loop.simd


def test_a_stride_2_loop_is_not_a_simd_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of("for (i = 0; i < n; i += 2)\n  a[i] = b[i];\n")

    _, loops = _plan_on_isl_schedule(kernel)

    (loop,) = loops
    ((_, score),) = loop.scores
    assert (score.spatial, score.temporal) == (0, 0)
    assert not loop.simd


def test_the_parallel_member_of_a_marked_band_stays_outermost(kernel_of: KernelOf) -> None:
    """atax --notile: y[j] += A[i][j] * tmp[i] is scheduled (j, i) with j parallel; j would score best
    innermost (stride 1 on A and y) but must stay the parallel loop."""
    kernel = kernel_of(ATAX)
    _, schedule = kernel.scheduled()
    schedule = apply_parallel(schedule, plan_parallel(schedule, kernel.full))
    marked = {
        member_expressions(band, 0).get("S3"): (path, band) for path, band in marked_bands(schedule, PARALLEL_MARK)
    }
    assert "j" in marked, "expected S3's band to run j in parallel"
    path, band = marked["j"]
    assert band.band_n_member() == 2 and member_expressions(band, 1) == {"S3": "i"}

    plan = plan_vector(kernel.model, schedule, kernel.full)

    (loop,) = [loop for loop in plan.loops if loop.band.where == path]
    assert loop.member == 1 and loop.chosen == "i"
    assert [name for name, _ in loop.scores] == ["i"]
    vectorized = apply_vector(schedule, plan)
    parallel_bands = [b for _, b in marked_bands(vectorized, PARALLEL_MARK) if "S3" in member_expressions(b, 0)]
    assert [member_expressions(b, 0) for b in parallel_bands] == [{"S3": "j"}]
    assert_legal(vectorized, kernel.full)


def test_atax_notile_pipeline_keeps_every_parallel_loop_outermost(kernel_of: KernelOf) -> None:
    kernel = kernel_of(ATAX)

    schedule, decisions = _transform(kernel, NOTILE)

    expected = sorted(sorted({expr for _, expr in loop.expressions}) for loop in _parallel_loops(decisions))
    marked = [member_expressions(band, 0) for _, band in marked_bands(schedule, PARALLEL_MARK)]
    assert sorted(sorted(set(m.values())) for m in marked) == expected
    assert_legal(schedule, kernel.full)


SNIPPETS = {
    "gemm": GEMM,
    "atax": ATAX,
    "row-sums": ROW_SUMS,
    "dot": DOT,
    "transpose": "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    b[i][j] = a[j][i];\n",
    "jacobi-1d": JACOBI_1D,
}


@pytest.mark.parametrize(
    "options", [Options(), NOTILE, Options(parallel=False)], ids=["default", "notile", "noparallel"]
)
@pytest.mark.parametrize("body", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_apply_vector_respects_every_dependence(kernel_of: KernelOf, body: str, options: Options) -> None:
    kernel = kernel_of(body)

    schedule, decisions = _transform(kernel, options)

    assert_legal(schedule, kernel.full)
    assert len(marked_bands(schedule, SIMD_MARK)) == sum(loop.simd for loop in _vector_loops(decisions))
    for _, band in marked_bands(schedule, SIMD_MARK):
        assert band.band_n_member() == 1
        assert not carries(band, 0, kernel.full)


ROW_RECURRENCE = "for (i = 0; i < n; i++)\n  for (j = 1; j < n; j++)\n    p[i][j] = 1.0 / (2.0 * p[i][j - 1] + 3.0);\n"


def test_a_tile_runs_its_independent_rows_side_by_side_rather_than_a_recurrence(kernel_of: KernelOf) -> None:
    kernel = kernel_of(ROW_RECURRENCE)

    _, tiled = _transform(kernel, Options(), parameters={"n": 8000})
    _, untiled = _transform(kernel, NOTILE, parameters={"n": 8000})

    assert _tiled_bands(tiled) and [loop.chosen for loop in _vector_loops(tiled)] == ["i"]
    assert [loop.chosen for loop in _vector_loops(untiled)] == ["j"]
