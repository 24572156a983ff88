"""Tests for ``polyopt.transform.parallel``: which loop of each nest runs in parallel, wavefronts of
time-skewed tile bands, and the marked tree."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import islpy as isl
import pytest

from polyopt.analysis.parallel_loops import MIN_WAVEFRONT_MEMBERS, uneven_work
from polyopt.analysis.reduction_clauses import reduction_clauses
from polyopt.analysis.reductions import find_reductions
from polyopt.frontend.scop import Scop
from polyopt.machine import Machine
from polyopt.marks import PARALLEL_MARK, LoopMark, ReductionClause
from polyopt.options import TilingOptions
from polyopt.schedule_tree import (
    Anchor,
    BandText,
    anchor_of,
    anchored,
    band_nodes,
    band_text,
    carries,
    mark_parent,
    member_expressions,
    node_at,
    parallel_outermost,
    parent_mark,
)
from polyopt.transform.parallel import ParallelLoop, ParallelPlan, apply_parallel, plan_parallel, with_thread_work
from polyopt.transform.tiling import apply_tiling, plan_tiling, tile_bands
from tests.transform.kernels import GEMM, JACOBI_1D, JACOBI_2D
from tests.transform.support import Kernel, KernelOf, assert_legal, build_kernel, marked_bands, relaxed

# Dependence distances (1, 0) and (1, 1): i is parallel inside t, but not once moved outside it.
SKEWED_2D = "for (t = 1; t < T; t++)\n  for (i = 1; i < n; i++)\n    B[t][i] = B[t - 1][i] + B[t - 1][i - 1];\n"
LU = (
    "for (i = 0; i < n; i++) {\n"
    "  for (j = 0; j < i; j++) {\n"
    "    for (k = 0; k < j; k++)\n"
    "      A[i][j] -= A[i][k] * A[k][j];\n"
    "    A[i][j] /= A[j][j];\n"
    "  }\n"
    "  for (j = i; j < n; j++) {\n"
    "    for (k = 0; k < i; k++)\n"
    "      A[i][j] -= A[i][k] * A[k][j];\n"
    "  }\n"
    "}\n"
)
JACOBI_2D_SUM = (
    "for (t = 0; t < T; t++) {\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    for (j = 1; j < n - 1; j++)\n"
    "      B[i][j] = 0.2 * (A[i][j] + A[i - 1][j] + A[i + 1][j] + A[i][j - 1] + A[i][j + 1]);\n"
    "  for (i = 1; i < n - 1; i++)\n"
    "    for (j = 1; j < n - 1; j++) {\n"
    "      A[i][j] = 0.2 * (B[i][j] + B[i - 1][j] + B[i + 1][j] + B[i][j - 1] + B[i][j + 1]);\n"
    "      s += A[i][j];\n"
    "    }\n"
    "}\n"
)
DURBIN_LIKE = (
    "for (k = 1; k < n; k++) {\n"
    "  for (i = 0; i < k; i++)\n"
    "    z[i] = y[i] + y[k - i - 1];\n"
    "  for (i = 0; i < k; i++)\n"
    "    y[i] = z[i];\n"
    "}\n"
)


def _tiled(kernel: Kernel, schedule: isl.Schedule) -> tuple[isl.Schedule, frozenset[BandText]]:
    plan = plan_tiling(schedule, TilingOptions(), kernel.full)
    assert plan.bands, "expected a tiled band"
    return apply_tiling(schedule, plan), tile_bands(plan)


def _at(schedule: isl.Schedule, path: tuple[int, ...]) -> Anchor:
    return anchor_of(node_at(schedule, path))


def test_gemm_runs_its_outermost_loop_in_parallel(kernel_of: KernelOf) -> None:
    kernel = kernel_of(GEMM)
    _, schedule = kernel.scheduled()

    plan = plan_parallel(schedule, kernel.full)

    assert plan == ParallelPlan((ParallelLoop(_at(schedule, (0,)), 0, False, (("S0", "i"), ("S1", "i"))),))
    marked = apply_parallel(schedule, plan)
    ((path, band),) = marked_bands(marked, PARALLEL_MARK)
    assert path == (0, 0) and mark_parent(band) == PARALLEL_MARK
    assert member_expressions(band, 0) == {"S0": "i", "S1": "i"}
    assert not carries(band, 0, kernel.full)


def test_one_parallel_loop_per_nest_in_the_original_order(kernel_of: KernelOf) -> None:
    kernel = kernel_of(GEMM)
    # The original tree has a band per loop: i, then j and k (j parallel too, but inside i).
    assert len(band_nodes(kernel.model.schedule)) == 4

    plan = plan_parallel(kernel.model.schedule, kernel.full)

    assert [(loop.band.where, loop.member) for loop in plan.loops] == [((0,), 0)]


def test_tiled_gemm_runs_its_outermost_tile_loop_in_parallel(kernel_of: KernelOf) -> None:
    kernel = kernel_of(GEMM)
    _, schedule = kernel.scheduled()
    tiled, paths = _tiled(kernel, schedule)

    plan = plan_parallel(tiled, kernel.full, paths)

    assert plan == ParallelPlan(
        (ParallelLoop(_at(tiled, (0,)), 0, False, (("S0", "floor((i)/32)"), ("S1", "floor((i)/32)"))),)
    )


def test_a_member_parallel_outermost_is_moved_outward(kernel_of: KernelOf) -> None:
    kernel = kernel_of("for (i = 1; i < n; i++)\n  for (j = 0; j < m; j++)\n    a[i][j] = a[i - 1][j] + b[i][j];\n")
    schedule = kernel.band_schedule("{ S0[i, j] -> [i, j] }")

    plan = plan_parallel(schedule, kernel.full)

    assert plan == ParallelPlan((ParallelLoop(_at(schedule, (0,)), 1, False, (("S0", "j"),)),))
    marked = apply_parallel(schedule, plan)
    ((_, band),) = marked_bands(marked, PARALLEL_MARK)
    assert band.band_get_partial_schedule_union_map().is_equal(kernel.union_map("[n, m] -> { S0[i, j] -> [j, i] }"))
    assert not carries(band, 0, kernel.full)
    assert_legal(marked, kernel.full)


def test_a_member_parallel_only_inside_the_first_is_not_moved_outward(kernel_of: KernelOf) -> None:
    kernel = kernel_of(SKEWED_2D)
    schedule = kernel.band_schedule("{ S0[t, i] -> [t, i] }")
    ((_, band),) = band_nodes(schedule)
    assert not carries(band, 1, kernel.full)
    assert not parallel_outermost(band, 1, kernel.full)

    assert plan_parallel(schedule, kernel.full) == ParallelPlan(())


def test_lu_band_gets_no_parallel_loop_from_a_member_parallel_only_inside(kernel_of: KernelOf) -> None:
    kernel = kernel_of(LU)
    schedule = kernel.isl_schedule()
    ((path, band),) = band_nodes(schedule)
    members = range(band.band_n_member())
    inside_only = [m for m in members if not carries(band, m, kernel.full)]
    assert inside_only and inside_only[0] > 0, "expected a member parallel only inside the first one"
    assert not any(parallel_outermost(band, m, kernel.full) for m in members)

    assert plan_parallel(schedule, kernel.full) == ParallelPlan(())
    tiled, paths = _tiled(kernel, schedule)
    assert [(loop.band.where, loop.wavefront) for loop in plan_parallel(tiled, kernel.full, paths).loops] == [
        (path, True)
    ]


def test_tiled_time_skewed_stencil_runs_as_a_wavefront(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_2D)
    schedule = kernel.isl_schedule()
    ((path, band),) = band_nodes(schedule)
    assert band.band_n_member() == 3
    assert not any(parallel_outermost(band, m, kernel.full) for m in range(3)), "expected a time-skewed band"
    tiled, paths = _tiled(kernel, schedule)

    plan = plan_parallel(tiled, kernel.full, paths)

    (loop,) = plan.loops
    assert (loop.band.where, loop.member, loop.wavefront) == (path, 1, True)
    assert {name for name, _ in loop.expressions} == {"S0", "S1"}


def test_a_wavefront_names_the_reductions_its_parallel_loop_carries(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(JACOBI_2D_SUM))
    reductions = find_reductions(kernel.model)
    tiled, paths = _tiled(kernel, kernel.isl_schedule())

    plan = plan_parallel(tiled, kernel.full, paths, kernel.model, reductions)

    (loop,) = plan.loops
    assert loop.wavefront and loop.reductions
    ((_, band),) = marked_bands(apply_parallel(tiled, plan), PARALLEL_MARK)
    assert loop.reductions == reduction_clauses(kernel.model, band, 0, reductions, allow_sections=True)


def test_two_member_time_skewed_band_is_a_wavefront_only_when_threads_start(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_1D)
    schedule = kernel.isl_schedule()
    ((_, band),) = band_nodes(schedule)
    assert band.band_n_member() == MIN_WAVEFRONT_MEMBERS - 1
    tiled, paths = _tiled(kernel, schedule)
    asked: list[frozenset[str]] = []

    def threads(statements: frozenset[str]) -> bool:
        asked.append(statements)
        return True

    assert plan_parallel(tiled, kernel.full, paths) == ParallelPlan(())
    assert plan_parallel(tiled, kernel.full, paths, threads=lambda _: False) == ParallelPlan(())
    (loop,) = plan_parallel(tiled, kernel.full, paths, threads=threads).loops
    assert loop.wavefront and band_text(anchored(tiled, loop.band)) in paths
    assert asked == [kernel.statements]
    assert_legal(apply_parallel(tiled, ParallelPlan((loop,))), kernel.full)


def test_a_two_member_band_inside_a_loop_is_no_wavefront(kernel_of: KernelOf) -> None:
    kernel = kernel_of("for (k = 0; k < n; k++)\n" + JACOBI_1D.replace("\n", "\n  "))
    tiled, paths = _tiled(kernel, kernel.isl_schedule())
    assert paths
    assert not any(loop.wavefront for loop in plan_parallel(tiled, kernel.full, paths, threads=lambda _: True).loops)


def test_untiled_time_skewed_stencil_has_no_wavefront(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_1D)

    assert plan_parallel(kernel.isl_schedule(), kernel.full) == ParallelPlan(())


def test_apply_parallel_skews_a_wavefront(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_2D)
    tiled, paths = _tiled(kernel, kernel.isl_schedule())
    plan = plan_parallel(tiled, kernel.full, paths)
    ((path, tile),) = ((path, band) for path, band in band_nodes(tiled) if band_text(band) in paths)
    first, second = (tile.band_get_partial_schedule().get_union_pw_aff(m) for m in range(2))

    marked = apply_parallel(tiled, plan)

    front = node_at(marked, path)
    assert front.band_n_member() == 1 and mark_parent(front) is None
    wavefront = isl.UnionMap.from_union_pw_aff(first.add(second)).intersect_domain(kernel.model.domain)
    assert front.band_get_partial_schedule_union_map().intersect_domain(kernel.model.domain).is_equal(wavefront)
    assert carries(front, 0, kernel.full)
    ((_, band),) = marked_bands(marked, PARALLEL_MARK)
    assert band.get_schedule_depth() == front.get_schedule_depth() + 1
    assert_legal(marked, kernel.full)


def test_short_parallel_loop_inside_a_sequential_loop_is_not_used(kernel_of: KernelOf) -> None:
    kernel = kernel_of(DURBIN_LIKE)
    schedule = kernel.model.schedule

    assert plan_parallel(schedule, kernel.full) == ParallelPlan(())

    # The inner loops are parallel: only their depth keeps them sequential.
    loops = plan_parallel(schedule, kernel.full, min_depth=1).loops
    assert [loop.expressions for loop in loops] == [(("S0", "i"),), (("S1", "i"),)]
    assert all(anchored(schedule, loop.band).get_schedule_depth() == 1 for loop in loops)


def test_two_dimensional_parallel_loop_inside_a_sequential_loop_is_used(kernel_of: KernelOf) -> None:
    kernel = kernel_of(
        "for (t = 0; t < T; t++)\n"
        "  for (i = 0; i < n; i++)\n"
        "    for (j = 0; j < n; j++)\n"
        "      a[i][j] = a[i][j] + b[t];\n"
    )

    plan = plan_parallel(kernel.model.schedule, kernel.full)

    assert plan == ParallelPlan((ParallelLoop(_at(kernel.model.schedule, (0, 0)), 0, False, (("S0", "i"),)),))


def test_three_dimensional_parallel_loop_inside_a_sequential_loop_is_used(kernel_of: KernelOf) -> None:
    kernel = kernel_of(
        "for (t = 0; t < T; t++)\n"
        "  for (i = 0; i < n; i++)\n"
        "    for (j = 0; j < n; j++)\n"
        "      for (k = 0; k < n; k++)\n"
        "        a[i][j][k] = a[i][j][k] + b[t];\n"
    )

    plan = plan_parallel(kernel.model.schedule, kernel.full)

    assert plan == ParallelPlan((ParallelLoop(_at(kernel.model.schedule, (0, 0)), 0, False, (("S0", "i"),)),))


@pytest.mark.parametrize(
    "body",
    [GEMM, JACOBI_1D, LU, DURBIN_LIKE, SKEWED_2D],
    ids=["gemm", "jacobi-1d", "lu", "durbin-like", "skewed-2d"],
)
@pytest.mark.parametrize("tile", [False, True], ids=["notile", "tile"])
def test_marked_loops_carry_no_dependence(kernel_of: KernelOf, body: str, tile: bool) -> None:
    kernel = kernel_of(body)
    _, schedule = kernel.scheduled()
    paths: frozenset[BandText] = frozenset()
    if tile:
        tiles = plan_tiling(schedule, TilingOptions(), kernel.full)
        schedule, paths = apply_tiling(schedule, tiles), tile_bands(tiles)

    plan = plan_parallel(schedule, kernel.full, paths)
    marked = apply_parallel(schedule, plan)

    assert len(marked_bands(marked, PARALLEL_MARK)) == len(plan.loops)
    assert_legal(marked, kernel.full)


SYRK_LIKE = (
    "for (i = 0; i < n; i++)\n"
    "  for (k = 0; k < m; k++)\n"
    "    for (j = 0; j <= i; j++)\n"
    "      C[i][j] += A[i][k] * A[j][k];\n"
)


def _maybe_tiled(kernel: Kernel, tile: bool) -> tuple[isl.Schedule, frozenset[BandText]]:
    _, schedule = kernel.scheduled()
    return _tiled(kernel, schedule) if tile else (schedule, frozenset())


@pytest.mark.parametrize("tile", [False, True])
def test_a_triangular_parallel_loop_deals_out_its_iterations_cyclically(kernel_of: KernelOf, tile: bool) -> None:
    kernel = kernel_of(SYRK_LIKE)
    schedule, paths = _maybe_tiled(kernel, tile)

    (loop,) = plan_parallel(schedule, kernel.full, paths).loops

    assert loop.cyclic and "dealt out cyclically" in loop.describe()
    ((_, band),) = marked_bands(apply_parallel(schedule, ParallelPlan((loop,))), PARALLEL_MARK)
    assert parent_mark(band) == LoopMark(PARALLEL_MARK, 0, (), cyclic=True)


@pytest.mark.parametrize("tile", [False, True])
def test_a_rectangular_parallel_loop_keeps_blocks_of_iterations(kernel_of: KernelOf, tile: bool) -> None:
    kernel = kernel_of(GEMM)
    schedule, paths = _maybe_tiled(kernel, tile)

    (loop,) = plan_parallel(schedule, kernel.full, paths).loops

    assert not loop.cyclic
    assert not uneven_work(anchored(schedule, loop.band))


ROW_SUMS = "for (i = 0; i < n; i++) {{\n  s[i] = 0;\n  for (j = 0; j {bound}; j++)\n    s[i] += A[i][j];\n}}\n"


@pytest.mark.parametrize(("bound", "cyclic"), [("<= i", True), ("< n", False)])
def test_the_loops_below_a_statement_sequence_say_whether_the_work_is_even(
    kernel_of: KernelOf, bound: str, cyclic: bool
) -> None:
    kernel = kernel_of(ROW_SUMS.format(bound=bound))

    (loop,) = plan_parallel(kernel.model.schedule, kernel.full).loops

    assert loop.cyclic == cyclic


def test_the_parallel_loop_leaves_the_stride_one_member_to_the_vector_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of("for (j = 0; j < n; j++)\n  for (i = 0; i < n; i++)\n    B[i][j] = 2 * A[i][j];\n")
    schedule = kernel.isl_schedule()
    ((_, band),) = band_nodes(schedule)
    assert member_expressions(band, 0) == {"S0": "j"}  # isl keeps the order as written

    (loop,) = plan_parallel(schedule, kernel.full, model=kernel.model).loops
    (first,) = plan_parallel(schedule, kernel.full).loops

    assert member_expressions(band, loop.member) == {"S0": "i"}
    assert member_expressions(band, first.member) == {"S0": "j"}


def test_the_mark_name_keeps_the_cyclic_schedule() -> None:
    mark = LoopMark(PARALLEL_MARK, 2, (ReductionClause("+", "s", "variable"),), cyclic=True)
    assert LoopMark.parse(mark.name()) == mark
    assert not LoopMark.parse(LoopMark(PARALLEL_MARK, 2).name()).cyclic


@pytest.mark.parametrize(("cyclic", "factor"), [(False, 0), (True, 0), (True, 4)])
def test_the_mark_name_keeps_the_instances_from_which_threads_start(cyclic: bool, factor: int) -> None:
    mark = LoopMark(PARALLEL_MARK, 1, (ReductionClause("+", "x", "section"),), cyclic, factor, work=4096)
    assert "~work=4096" in mark.name()
    assert LoopMark.parse(mark.name()) == mark
    assert LoopMark.parse(LoopMark(PARALLEL_MARK, 1, cyclic=cyclic).name()).work == 0


COPY = "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    B[i][j] = 2 * A[i][j];\n"


def test_loops_over_streamed_data_start_threads_from_fewer_instances(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COPY)
    schedule = kernel.model.schedule
    plan = plan_parallel(schedule, kernel.full)
    machine = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")

    (loop,) = with_thread_work(plan, kernel.model, machine, {"n": 3000}).loops
    (off,) = with_thread_work(plan, kernel.model, replace(machine, stream_threads=0), {"n": 3000}).loops
    (gemm,) = with_thread_work(
        plan_parallel(kernel_of(GEMM).isl_schedule(), kernel_of(GEMM).full),
        kernel_of(GEMM).model,
        machine,
        {"ni": 3000, "nj": 3000, "nk": 3000},
    ).loops

    assert loop.work == 2 * (2 << 20) // 16  # twice the L2 of both cores, at 16 bytes (two doubles) per instance
    assert "threads from 262144 instances" in loop.describe()
    assert off.work == 0 and gemm.work == 0  # a product reuses its data: the machine's parallel work
    ((_, band),) = marked_bands(apply_parallel(schedule, ParallelPlan((loop,))), PARALLEL_MARK)
    mark = parent_mark(band)
    assert mark is not None and mark.work == loop.work


@pytest.mark.parametrize(("element", "per_instance"), [("double", 16), ("float", 8), ("char", 2)])
def test_the_bytes_streamed_per_instance_are_the_declared_elements(
    scop_of: Callable[..., Scop], element: str, per_instance: int
) -> None:
    kernel = build_kernel(scop_of(COPY, f"{element} A[3000][3000], B[3000][3000];\n"))
    plan = plan_parallel(kernel.model.schedule, kernel.full)
    machine = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")

    (loop,) = with_thread_work(plan, kernel.model, machine, {"n": 3000}).loops

    assert loop.work == 2 * (2 << 20) // per_instance
