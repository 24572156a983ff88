"""Whether a fusion group runs from cache as it is, so that time tiling cannot pay.

Public: ``Residency``, ``group_residency``, ``thread_work``, ``worth_threads``, ``threads_at``.

PolyDL, Sec. 4.1: a reuse is realized in a cache level when every element
touched between its source and its target fits there.  The reuse that skewing
and tiling a time-iterated stencil brings into cache is the one carried by
the time loop, whose working set in the original order is all the data the
group touches: when that fits in one core's L2, the original order already
realizes it, and a skewed tiled schedule only adds its overhead (partial
tiles, guards, the loss of the vector loop over whole rows).  Time tiling
also buys wavefront parallelism (PolyMage multigrid thesis, Sec. 3.2), which is worth nothing
when the group's work is below ``Machine.parallel_work`` (no parallel loop
would start threads).  A group that meets both conditions is ``resident``.

The other end of the same scale: statements whose data exceed the L2 caches of all cores
(``Machine.private_caches``) stream them from the shared L3 or from memory on every pass, and a second
core draws more of that bandwidth however few instances they run.  So a parallel loop starts threads from
``Machine.parallel_work`` instances, or from as many as touch ``Machine.stream_threads`` times the bytes
of all L2 caches when that is fewer (``thread_work``, evaluated at run time; just beyond the L2 caches, a
pass takes tens of microseconds and the team's start and barrier take what the second core saves).
``Machine.stream_threads`` = 0 turns the second threshold off.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass

from polyopt.analysis.fusion_cost import data_bytes, instance_count
from polyopt.analysis.parallel_loops import StartsThreads
from polyopt.machine import Machine
from polyopt.model import PolyModel


@dataclass(frozen=True)
class Residency:
    """A group's ``data`` (bytes of the boxes of the array elements it touches) and ``instances``
    at the parameter values, against one core's L2 (``capacity``) and the work from which
    threads start (``parallel_work``)."""

    data: int
    instances: int
    capacity: int
    parallel_work: int

    @property
    def resident(self) -> bool:
        """Whether the data fit in ``capacity`` and the work is below ``parallel_work``."""
        return self.data <= self.capacity and self.instances < self.parallel_work

    def describe(self) -> str:
        fits = "fit" if self.data <= self.capacity else "do not fit"
        runs = "sequential" if self.instances < self.parallel_work else "worth threads"
        return (
            f"its data ({self.data / 1024:.3g} KiB) {fits} in L2 ({self.capacity // 1024} KiB) "
            f"and its {self.instances:.3g} instances are {runs}"
        )


def group_residency(
    model: PolyModel, statements: frozenset[str], machine: Machine, parameters: Mapping[str, int]
) -> Residency:
    """The residency of the group of ``statements`` on ``machine`` at ``parameters``."""
    return Residency(
        data_bytes(model, statements, parameters),
        instance_count(model, statements, parameters),
        machine.l2,
        machine.parallel_work,
    )


def thread_work(model: PolyModel, statements: frozenset[str], machine: Machine, parameters: Mapping[str, int]) -> int:
    """The statement instances from which a parallel loop over ``statements`` starts threads:
    ``Machine.parallel_work``, or fewer with ``Machine.stream_threads``: as many as touch the bytes of
    ``Machine.stream_threads`` times the L2 caches of all cores (their data per instance at ``parameters``)."""
    work = machine.parallel_work
    instances = instance_count(model, statements, parameters)
    data = data_bytes(model, statements, parameters)
    if not machine.stream_threads or not instances or not data:
        return work
    return max(1, min(work, math.ceil(machine.stream_threads * machine.private_caches * instances / data)))


def worth_threads(
    model: PolyModel, statements: frozenset[str], machine: Machine, parameters: Mapping[str, int]
) -> bool:
    """Whether a parallel loop over ``statements`` starts threads at ``parameters`` (``thread_work``)."""
    return instance_count(model, statements, parameters) >= thread_work(model, statements, machine, parameters)


def threads_at(model: PolyModel, machine: Machine, parameters: Mapping[str, int]) -> StartsThreads:
    """``worth_threads`` of a set of statements of ``model``, on ``machine`` at ``parameters``."""
    return lambda statements: worth_threads(model, statements, machine, parameters)
