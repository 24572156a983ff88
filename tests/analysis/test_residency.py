"""Whether a fusion group runs from cache (PolyDL, Sec. 4.1): its data against one core's L2,
its instances against the work from which threads start."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest

from polyopt.analysis.residency import Residency, group_residency, thread_work, worth_threads
from polyopt.frontend.scop import Scop
from polyopt.machine import Machine
from polyopt.model import build_model
from tests.transform.kernels import JACOBI_1D

MACHINE = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")


@pytest.mark.parametrize(
    ("data", "instances", "resident"),
    [(1 << 20, (1 << 24) - 1, True), ((1 << 20) + 1, 1, False), (1, 1 << 24, False)],
)
def test_resident_when_the_data_fit_in_l2_and_the_work_starts_no_threads(
    data: int, instances: int, resident: bool
) -> None:
    assert Residency(data, instances, 1 << 20, 1 << 24).resident is resident


def test_jacobi_1d_at_polybench_large_is_resident(scop_of: Callable[[str], Scop]) -> None:
    model = build_model(scop_of(JACOBI_1D))
    statements = frozenset(model.domains)

    large = group_residency(model, statements, MACHINE, {"T": 500, "n": 2000})
    huge = group_residency(model, statements, MACHINE, {"T": 500, "n": 200_000})

    assert (large.data, large.instances) == (2 * 8 * 2000, 2 * 500 * 1998)
    assert large.resident and "fit in L2" in large.describe()
    assert not huge.resident and "do not fit" in huge.describe()


def test_data_beyond_the_l2_caches_start_threads_below_the_parallel_work(scop_of: Callable[[str], Scop]) -> None:
    model = build_model(scop_of(JACOBI_1D))
    statements = frozenset(model.domains)
    few = {"T": 2, "n": 4 << 20}  # two arrays of 32 MiB, 16 Mi instances: just below the parallel work
    small = {"T": 2, "n": 1 << 17}  # 512 Ki instances touching 2 MiB
    many = {"T": 5000, "n": 2000}  # 20 Mi instances reusing 32 KB

    assert MACHINE.private_caches == 2 << 20 and MACHINE.stream_threads == 2
    # 4n - 8 instances touch 16n bytes: twice the 2 MiB of the L2 caches take 1 Mi (1 - 2/n) instances
    assert thread_work(model, statements, MACHINE, few) == 1 << 20
    assert worth_threads(model, statements, MACHINE, few)
    assert thread_work(model, statements, MACHINE, small) == (1 << 20) - 16
    assert not worth_threads(model, statements, MACHINE, small)
    assert thread_work(model, statements, MACHINE, many) == MACHINE.parallel_work
    assert worth_threads(model, statements, MACHINE, many)
    assert thread_work(model, statements, replace(MACHINE, stream_threads=0), few) == MACHINE.parallel_work


def test_without_an_l3_the_shared_cache_is_the_l2_of_every_core() -> None:
    machine = Machine(l1=32 << 10, l2=1 << 20, l3=0, line=64, cores=4, simd_bytes=32, origin="test")
    assert machine.shared_cache == 4 << 20
