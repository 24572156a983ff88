"""Choose the innermost (vector) loop of each innermost band: PolyMage dense-matrix thesis, Sec. 4.5, Alg. 5.

Public: ``VectorPlan``, ``plan_vector``, ``apply_vector``.

The member that ``polyopt.analysis.vector_loops`` scores best is moved innermost;
when it is vectorizable it is split off and marked ``omp simd``.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.reductions import Reduction
from polyopt.analysis.vector_loops import VectorLoop, vector_loop
from polyopt.marks import SIMD_MARK
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    band_has_inner_band,
    band_nodes,
    insert_loop_mark,
    members,
    replace_band,
    rewrite_bands,
)


@dataclass(frozen=True)
class VectorPlan:
    loops: tuple[VectorLoop, ...]


def plan_vector(
    model: PolyModel, schedule: isl.Schedule, dependences: isl.UnionMap, reductions: tuple[Reduction, ...] = ()
) -> VectorPlan:
    """For each innermost band, the member to run innermost and whether it is a simd loop.

    ``dependences`` may be relaxed for ``reductions``; a simd loop that carries
    one gets its clauses, or is not vectorizable.
    """
    chosen = [
        vector_loop(model, band, dependences, reductions)
        for _, band in band_nodes(schedule)
        if not band_has_inner_band(band)
    ]
    return VectorPlan(tuple(chosen))


def apply_vector(schedule: isl.Schedule, plan: VectorPlan) -> isl.Schedule:
    """Move each chosen member innermost; split it off and mark it when it is a simd loop."""

    def moved(band: isl.ScheduleNode, loop: VectorLoop) -> isl.ScheduleNode:
        count = band.band_n_member()
        if loop.member != count - 1:
            current = members(band)
            order = [current[m] for m in range(count) if m != loop.member] + [current[loop.member]]
            band = replace_band(band, order, permutable=True)
        if loop.simd:
            if count > 1:
                band = band.band_split(count - 1).child(0)
            band = insert_loop_mark(band, SIMD_MARK, loop.reductions)
        return band

    return rewrite_bands(schedule, [(loop.band, loop) for loop in plan.loops], moved)
