"""Which reduction clauses a parallel or simd loop needs: BTO per-thread copies.

Public: ``reduction_clauses``.

A loop that carries a reduction's updates of one element runs them with
private partial results.  A scalar gets ``reduction(op:x)``; an array element
that stays the same during one run of the loop is kept in a local variable
that gets the clause; a 1-D array whose elements vary along the loop gets an
array-section clause (parallel loops only: gcc does not vectorize those) when
the statement reads no other element of it.
Scalars and sections privatize the whole array in the loop, so every
statement below the loop that touches it must be an update of the same kind.
"""

from __future__ import annotations

import islpy as isl

from polyopt.analysis.reductions import Reduction
from polyopt.marks import ELEMENT, SECTION, VARIABLE, ReductionClause
from polyopt.model import PolyModel
from polyopt.schedule_tree import band_statements, carries, invariant_along


def _same_element(access: isl.Map) -> isl.UnionMap:
    union = isl.UnionMap.from_map(access)
    return union.apply_range(union.reverse())


def _mode(band: isl.ScheduleNode, member: int, reduction: Reduction, allow_sections: bool) -> str | None:
    if reduction.rank == 0:
        return VARIABLE
    if invariant_along(band, member, isl.UnionMap.from_map(reduction.access)):
        return ELEMENT
    if reduction.rank == 1 and reduction.pure and allow_sections:
        return SECTION
    return None


def _privatizes_alone(
    model: PolyModel, statements: set[str], clause: ReductionClause, reductions: tuple[Reduction, ...]
) -> bool:
    """Whether every statement in ``statements`` that touches the clause's array updates it with its operator."""
    touching = {r.statement for r in model.references if r.array == clause.array and r.statement in statements}
    updates = {r.statement for r in reductions if r.array == clause.array and r.op == clause.op}
    return touching <= updates


def reduction_clauses(
    model: PolyModel,
    band: isl.ScheduleNode,
    member: int,
    reductions: tuple[Reduction, ...],
    allow_sections: bool,
) -> tuple[ReductionClause, ...] | None:
    """The clauses the loop of ``member`` needs, or None when no clause can express them."""
    statements = band_statements(band)
    clauses: set[ReductionClause] = set()
    for reduction in reductions:
        if reduction.statement not in statements or not carries(band, member, _same_element(reduction.access)):
            continue
        mode = _mode(band, member, reduction, allow_sections)
        if mode is None:
            return None
        clauses.add(ReductionClause(reduction.op, reduction.array, mode))
    if len({(c.array, c.mode) for c in clauses}) != len(clauses):
        return None  # one array updated with two operators
    for clause in clauses:
        if clause.mode != ELEMENT and not _privatizes_alone(model, statements, clause, reductions):
            return None
    return tuple(sorted(clauses, key=lambda c: (c.array, c.mode)))
