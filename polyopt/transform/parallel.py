"""Decide and mark OpenMP parallel loops.

Public: ``ParallelLoop``, ``ParallelPlan``, ``plan_parallel``, ``apply_parallel``.

A band member is parallel when it carries no dependence; only the outermost
parallel loop of each nest is marked, since nested OpenMP regions only add
overhead.  The mark is re-proved by ``polyopt.pipeline`` before code is emitted.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.emit.isl_ast import PARALLEL_MARK
from polyopt.schedule_tree import band_nodes, carries, member_expressions, node_at


@dataclass(frozen=True)
class ParallelLoop:
    """The band at ``path`` in the schedule tree runs in parallel.

    ``expressions`` gives, per statement, the loop's schedule expression
    (its iterator, in the original schedule).
    """

    path: tuple[int, ...]
    expressions: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        names = sorted({expr for _, expr in self.expressions})
        statements = ", ".join(name for name, _ in self.expressions)
        return f"loop {' / '.join(names)} (statements {statements})"


@dataclass(frozen=True)
class ParallelPlan:
    loops: tuple[ParallelLoop, ...]


def plan_parallel(schedule: isl.Schedule, dependences: isl.UnionMap) -> ParallelPlan:
    """The outermost band of each nest whose first member carries no dependence."""
    chosen: list[ParallelLoop] = []
    for path, band in band_nodes(schedule):
        if any(path[: len(loop.path)] == loop.path for loop in chosen):
            continue
        if carries(band, 0, dependences):
            continue
        expressions = tuple(sorted(member_expressions(band, 0).items()))
        chosen.append(ParallelLoop(path, expressions))
    return ParallelPlan(tuple(chosen))


def apply_parallel(schedule: isl.Schedule, plan: ParallelPlan) -> isl.Schedule:
    """Insert a parallel mark above each planned band (deepest paths first)."""
    for loop in sorted(plan.loops, key=lambda loop: loop.path, reverse=True):
        node = node_at(schedule, loop.path)
        schedule = node.insert_mark(isl.Id(PARALLEL_MARK, context=schedule.get_ctx())).get_schedule()
    return schedule
