"""The parallel-loop questions fusion and tiling ask of a schedule (``polyopt.analysis.parallel_loops``),
checked on isl's schedules of small kernels and against the plans of the parallel planner."""

from __future__ import annotations

import pytest

from polyopt.analysis.parallel_loops import parallel_statements, runs_wavefront
from polyopt.schedule_tree import band_nodes
from polyopt.transform.parallel import plan_parallel
from tests.transform.kernels import ATAX, GEMM, JACOBI_1D, JACOBI_2D
from tests.transform.support import KernelOf


def test_a_band_with_a_parallel_member_covers_its_statements(kernel_of: KernelOf) -> None:
    kernel = kernel_of(GEMM)
    schedule = kernel.isl_schedule()
    for wavefronts in (False, True):
        assert parallel_statements(schedule, kernel.full, wavefronts) == kernel.statements


def test_a_time_skewed_band_covers_its_statements_only_as_a_wavefront(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_2D)
    schedule = kernel.isl_schedule()
    assert [band.band_n_member() for _, band in band_nodes(schedule)] == [3]
    assert parallel_statements(schedule, kernel.full, wavefronts=False) == frozenset()
    assert parallel_statements(schedule, kernel.full, wavefronts=True) == kernel.statements


def test_a_two_member_time_band_is_no_wavefront(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_1D)
    schedule = kernel.isl_schedule()
    assert not any(runs_wavefront(band) for _, band in band_nodes(schedule))
    assert parallel_statements(schedule, kernel.full, wavefronts=True) == frozenset()


@pytest.mark.parametrize("body", [GEMM, ATAX, JACOBI_1D, JACOBI_2D], ids=["gemm", "atax", "jacobi-1d", "jacobi-2d"])
def test_the_statements_are_those_the_planner_runs_in_parallel_loops(kernel_of: KernelOf, body: str) -> None:
    kernel = kernel_of(body)
    schedule = kernel.isl_schedule()
    planned = {name for loop in plan_parallel(schedule, kernel.full).loops for name, _ in loop.expressions}
    assert parallel_statements(schedule, kernel.full, wavefronts=False) == planned
