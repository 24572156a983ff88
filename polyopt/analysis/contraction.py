"""Array contraction (BTO): a dead temporary array becomes one scalar.

Public: ``Contraction``, ``plan_contractions``.

Once fusion brings each producer of a temporary array next to its consumers,
the array needs no more storage than one value at a time.  An array that is
dead after the region (the user says so: ``--assume-dead`` or ``#pragma
polyopt dead(...)``; polyopt cannot see the rest of the program) is replaced
by one scalar when, under the final schedule,

- every read gets its value from a write in the region (nothing from before),
- no write to the array runs between a value's write and any of its reads,
- and a parallel or simd loop holds either both ends of each such flow, in
  one iteration, or neither: the scalar is private to those loops.

Arrays updated by a reduction are left alone: their updates run in another
order, which the per-element reasoning above does not cover.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.dependences import FLOW, Dependences
from polyopt.analysis.reductions import Reduction
from polyopt.frontend.scop import opaque_arrays
from polyopt.marks import PARALLEL_MARK, SIMD_MARK
from polyopt.model import PolyModel
from polyopt.schedule_tree import band_nodes, carries, parent_mark


@dataclass(frozen=True)
class Contraction:
    """``array`` is replaced by the scalar ``name``."""

    array: str
    name: str

    def describe(self) -> str:
        return f"{self.array} -> scalar {self.name} (dead after the region)"


def _array_flows(deps: Dependences, array: str) -> isl.UnionMap:
    result = isl.UnionMap.empty(deps.space)
    for dep in deps.items:
        if dep.kind == FLOW and dep.array == array:
            result = result.union(isl.UnionMap.from_map(dep.relation))
    return result


def _all_read_values_written(model: PolyModel, flows: isl.UnionMap, array: str) -> bool:
    """Whether every element each read reaches was written in the region by a source of its flow (a
    statement that reads an element written before and one from before the region, ``G[i] + G[n - 1 - i]``,
    does not count as written)."""
    reads = model.reads.get(array)
    if reads is None:
        return True
    writes = model.must_writes.get(array)
    return writes is not None and reads.is_subset(flows.reverse().apply_range(writes))


def _no_write_in_between(schedule: isl.Schedule, writes: isl.UnionSet, flows: isl.UnionMap) -> bool:
    timing = schedule.get_map()
    before = timing.lex_lt_union_map(timing)
    around = before.intersect_range(writes).apply_range(before.intersect_domain(writes))
    return flows.intersect(around).is_empty()


def _private_to_marked_loops(schedule: isl.Schedule, flows: isl.UnionMap) -> bool:
    for _, band in band_nodes(schedule):
        mark = parent_mark(band)
        if mark is None or mark.kind not in (PARALLEL_MARK, SIMD_MARK):
            continue
        inside = band.get_domain()
        within = flows.intersect_domain(inside).intersect_range(inside)
        if not flows.intersect_domain(inside).is_subset(within) or not flows.intersect_range(inside).is_subset(within):
            return False
        if carries(band, 0, within):
            return False
    return True


def plan_contractions(
    model: PolyModel,
    deps: Dependences,
    schedule: isl.Schedule,
    dead: frozenset[str],
    reductions: tuple[Reduction, ...],
) -> tuple[Contraction, ...]:
    """The dead arrays of ``model`` that ``schedule`` lets become scalars (``deps``: value-based flows),
    none that an opaque statement touches."""
    found: list[Contraction] = []
    reduced = {r.array for r in reductions}
    for array in sorted(dead & set(model.writes) - reduced - opaque_arrays(model.scop)):
        if all(ref.relation.dim(isl.dim_type.out) == 0 for ref in model.references if ref.array == array):
            continue
        flows = _array_flows(deps, array)
        if not _all_read_values_written(model, flows, array):
            continue
        if not _no_write_in_between(schedule, model.writes[array].domain(), flows):
            continue
        if not _private_to_marked_loops(schedule, flows):
            continue
        name = f"{array}_c"
        while name in model.scop.identifiers:
            name += "_"
        found.append(Contraction(array, name))
    return tuple(found)
