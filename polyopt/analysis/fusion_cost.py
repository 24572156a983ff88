"""The cost of a fusion group's schedule: PolyMage dense-matrix thesis, Ch. 3 (DP fusion with a cost function),
PolyDL, Alg. 1-2 (working sets against cache capacity), BTO (fusion and parallelism
chosen together).

Public: ``BandCost``, ``GroupCost``, ``group_cost``, ``instance_count``,
``data_bytes``, ``box_size``.

A group's schedule runs as a sequence of outermost bands (isl may distribute
a group).  Each band executes its statement instances and streams every
array its statements touch once (the first touch misses in every cache, and a
second band that reads the same array again pays again); a band with a parallel outermost loop (or, being
permutable, a member that can be moved out as one) spreads both over the
cores.  A sequential band spreads the share ``p`` of its instances that run in
parallel loops inside it (the caller's ``inner_parallel`` statements: a
sequential outer loop with a parallel inner loop per step, or a wavefront).  Its cost in cycles is

    (instances · op_cycles + streamed bytes · byte_cycles) · (1 - p + p / cores),

with ``p = 1`` for a parallel band, and a group costs the sum over its bands.  Fusing nests that share an array
saves streaming it again, and costs nothing unless the fused band loses its
parallel loop: exactly the trade BTO searches.  Sizes are box
extents at the parameter values (``polyopt.frontend.params``).  ``op_cycles``, ``byte_cycles`` and
``cores`` are the machine's (``polyopt.machine``).
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Mapping
from dataclasses import dataclass

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.parallel_loops import has_parallel_member
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.schedule_tree import band_statements, outermost_bands


@dataclass(frozen=True)
class BandCost:
    """One outermost band: its statements, their instances, the bytes it streams, and the share
    of its instances that run in parallel (1: the band's outer loop is parallel)."""

    statements: tuple[str, ...]
    instances: int
    streamed: int
    parallel: float

    def cycles(self, machine: Machine) -> float:
        work = self.instances * machine.op_cycles + self.streamed * machine.byte_cycles
        return work * (1 - self.parallel + self.parallel / machine.cores)


@dataclass(frozen=True)
class GroupCost:
    """The bands of one group's schedule and its cost on ``machine``."""

    bands: tuple[BandCost, ...]
    machine: Machine

    @property
    def cycles(self) -> float:
        return sum(band.cycles(self.machine) for band in self.bands)

    @property
    def parallel_instances(self) -> float:
        """The statement instances that run in parallel loops."""
        return sum(band.instances * band.parallel for band in self.bands)

    def describe(self) -> str:
        parallel = sum(band.parallel for band in self.bands)
        streamed = sum(band.streamed for band in self.bands) / 2**20
        instances = sum(band.instances for band in self.bands)
        return (
            f"{self.cycles:.3g} cycles: {len(self.bands)} outer band(s), {parallel:.3g} parallel, "
            f"{instances:.3g} instances, {streamed:.3g} MiB streamed"
        )


def group_cost(
    model: PolyModel,
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    machine: Machine,
    parameters: Mapping[str, int],
    inner_parallel: frozenset[str] = frozenset(),
) -> GroupCost:
    """The cost of running one group's ``schedule`` (module docstring); ``inner_parallel`` are the
    statements that run in a parallel loop below a sequential outermost band."""
    bands = [_band_cost(model, band, dependences, parameters, inner_parallel) for band in outermost_bands(schedule)]
    loose = set(model.domains) & _statements_of(schedule) - {s for band in bands for s in band.statements}
    if loose:  # statements outside any loop run once each
        bands.append(BandCost(tuple(sorted(loose)), len(loose), 0, 0.0))
    return GroupCost(tuple(bands), machine)


def _statements_of(schedule: isl.Schedule) -> set[str]:
    return {domain.get_tuple_name() for domain in isl_util.sets_of(schedule.get_domain())}


def _band_cost(
    model: PolyModel,
    band: isl.ScheduleNode,
    dependences: isl.UnionMap,
    parameters: Mapping[str, int],
    inner_parallel: frozenset[str],
) -> BandCost:
    statements = tuple(sorted(band_statements(band)))
    counts = {name: instance_count(model, frozenset({name}), parameters) for name in statements}
    instances = sum(counts.values())
    streamed = data_bytes(model, frozenset(statements), parameters)
    if has_parallel_member(band, dependences):
        return BandCost(statements, instances, streamed, 1.0)
    inside = sum(count for name, count in counts.items() if name in inner_parallel)
    return BandCost(statements, instances, streamed, inside / instances if instances else 0.0)


def instance_count(model: PolyModel, statements: frozenset[str], parameters: Mapping[str, int]) -> int:
    """Instances of ``statements`` (the boxes of their domains at ``parameters``)."""
    return sum(_statement_instances(model, name, parameters) for name in sorted(statements))


_INSTANCES: weakref.WeakKeyDictionary[PolyModel, dict[tuple[str, tuple[tuple[str, int], ...]], int]] = (
    weakref.WeakKeyDictionary()
)


def _statement_instances(model: PolyModel, name: str, parameters: Mapping[str, int]) -> int:
    """The box of statement ``name``'s domain at ``parameters``, kept per model: the fusion search weighs each
    statement in every group it belongs to."""
    known = _INSTANCES.setdefault(model, {})
    key = (name, tuple(sorted(parameters.items())))
    if key not in known:
        known[key] = box_size(isl_util.at_parameters(model.domains[name], parameters))
    return known[key]


def data_bytes(model: PolyModel, statements: frozenset[str], parameters: Mapping[str, int]) -> int:
    """Bytes of the boxes of array elements ``statements`` touch."""
    touched: dict[str, isl.Set] = {}
    for ref in model.references:
        if ref.statement in statements and ref.relation.dim(isl.dim_type.out) > 0:
            elements = ref.relation.range()
            touched[ref.array] = touched[ref.array].union(elements) if ref.array in touched else elements
    return sum(
        model.element_bytes(array) * box_size(isl_util.at_parameters(e, parameters)) for array, e in touched.items()
    )


def box_size(values: isl.Set) -> int:
    """The number of points in the bounding box of ``values`` (1 per unknown dimension)."""
    if values.is_empty():
        return 0
    values = values.remove_divs()
    extents = [isl_util.constant(isl_util.extent(values, d)) for d in range(values.dim(isl.dim_type.set))]
    return math.prod(max(1, extent or 1) for extent in extents)
