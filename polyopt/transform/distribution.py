"""Distribute the innermost loop of a band by statement group when that makes vector loops:
PolyMage dense-matrix thesis, Sec. 4.5, Alg. 5.

Public: ``Distribution``, ``DistributionPlan``, ``plan_distribution``, ``apply_distribution``.

An innermost band's inner loop often runs statements that depend on each other
at one point of the outer loops: cholesky's ``A[i][j] -= A[i][k] * A[j][k]``
over ``k``, then ``A[i][j] /= A[j][j]``.  That loop then carries the dependence
between them, and the stride-1 reduction never becomes a vector loop.  Giving
each group of statements its own loop at that level (Allen-Kennedy
distribution: the strongly connected components of the dependences at one
outer point, in a topological order) is legal by construction.  It is chosen
for a candidate innermost member when a group with a reduction statement then
gets a vector loop, or when the band's loop is not a vector loop and every group's
loop is one (the point band of a skewed stencil tile, jacobi-2d: both sweeps share one guarded
row whose dependences keep it scalar), and the Alg. 5 scores of the groups' loops add up to more
than the band's best undistributed score, and when no group writes an array that
the region declares dead (``--assume-dead``) and another group reads: such a
temporary is contracted to a scalar when its producer and consumer share the
loop (BTO), which saves more than the split gains.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.reductions import Reduction
from polyopt.analysis.vector_loops import candidate_members, innermost_member
from polyopt.isl_util import maps_of
from polyopt.marks import PARALLEL_MARK
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    Anchor,
    anchor_of,
    band_has_inner_band,
    band_nodes,
    band_statements,
    mark_parent,
    member_expressions,
    moved_innermost,
    rewrite_bands,
    same_outer,
)

Groups = tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Distribution:
    """The ``band`` runs ``member`` innermost as one loop per statement group, in the
    order of ``groups``; ``before`` is the band's best Alg. 5 score, ``after`` the groups' sum."""

    band: Anchor
    member: int
    chosen: str
    groups: Groups
    before: int
    after: int

    def describe(self) -> str:
        loops = "; ".join(", ".join(group) for group in self.groups)
        score = f"score {self.before} -> {self.after}"
        return f"{self.band.describe()}: innermost {self.chosen} split into loops over {{{loops}}} ({score})"


@dataclass(frozen=True)
class DistributionPlan:
    distributions: tuple[Distribution, ...]


def _reachable(edges: set[tuple[str, str]], names: list[str]) -> dict[str, set[str]]:
    """Each statement's set of statements reachable from it (itself included)."""
    reach = {name: {name} | {b for a, b in edges if a == name} for name in names}
    for middle in names:
        for name in names:
            if middle in reach[name]:
                reach[name] |= reach[middle]
    return reach


def _groups(band: isl.ScheduleNode, dependences: isl.UnionMap, order: list[str]) -> Groups:
    """The strongly connected components of the dependences between the band's statements at one
    point of every loop but its last member, in a topological order (earlier statements first)."""
    names = [name for name in order if name in band_statements(band)]
    local = same_outer(band, band.band_n_member() - 1, dependences)
    edges = {(m.get_tuple_name(isl.dim_type.in_), m.get_tuple_name(isl.dim_type.out)) for m in maps_of(local)}
    reach = _reachable(edges, names)
    components: list[tuple[str, ...]] = []
    for name in names:
        if not any(name in component for component in components):
            components.append(tuple(n for n in names if n in reach[name] and name in reach[n]))
    ordered: list[tuple[str, ...]] = []
    while components:
        ready = next(c for c in components if not any(o is not c and c[0] in _after(o, reach) for o in components))
        ordered.append(ready)
        components.remove(ready)
    return tuple(ordered)


def _after(component: tuple[str, ...], reach: dict[str, set[str]]) -> set[str]:
    """The statements that must follow ``component``."""
    return set().union(*(reach[name] for name in component)) - set(component)


def _distributed(band: isl.ScheduleNode, member: int, groups: Groups, model: PolyModel) -> isl.ScheduleNode:
    """``band`` with ``member`` innermost, split off, and copied under a sequence with one filter
    per group; return the sequence node."""
    node = moved_innermost(band, member)
    count = node.band_n_member()
    if count > 1:
        node = node.band_split(count - 1).child(0)
    filters = isl.UnionSetList.alloc(node.get_ctx(), len(groups))
    for group in groups:
        instances = isl.UnionSet.empty(model.param_space())
        for name in group:
            instances = instances.union(isl.UnionSet.from_set(model.domains[name]))
        filters = filters.add(instances)
    return node.insert_sequence(filters)


def _score(
    model: PolyModel,
    sequence: isl.ScheduleNode,
    dependences: isl.UnionMap,
    reductions: tuple[Reduction, ...],
    vector_before: bool,
) -> int | None:
    """The sum of the Alg. 5 scores of the loops under ``sequence`` (one band per filter), or None
    when no loop over a reduction statement is a vector loop and, unless all of them are vector
    loops where the band's was not (``vector_before``), distribution gains none."""
    bands = [sequence.child(position).child(0) for position in range(sequence.n_children())]
    loops = [(band, innermost_member(model, band, dependences, reductions)) for band in bands]
    updates = {reduction.statement for reduction in reductions}
    vector_update = any(loop.simd and band_statements(band) & updates for band, loop in loops)
    if not vector_update and (vector_before or not all(loop.simd for _, loop in loops)):
        return None
    return sum(loop.score().score for _, loop in loops)


def _separates(model: PolyModel, groups: Groups, dead: frozenset[str]) -> bool:
    """Whether one of ``groups`` writes a ``dead`` array that another one reads."""
    owner = {name: index for index, group in enumerate(groups) for name in group}
    writers = {(ref.array, owner[ref.statement]) for ref in model.references if ref.is_write and ref.statement in owner}
    return any(
        ref.array in dead and any(array == ref.array and group != owner[ref.statement] for array, group in writers)
        for ref in model.references
        if not ref.is_write and ref.statement in owner
    )


def _distribution(
    model: PolyModel,
    band: isl.ScheduleNode,
    dependences: isl.UnionMap,
    reductions: tuple[Reduction, ...],
    dead: frozenset[str],
) -> Distribution | None:
    """The best distribution of ``band``'s innermost loop, when it scores above the band as it is."""
    if band.band_n_member() == 1 and mark_parent(band) == PARALLEL_MARK:
        return None  # the parallel mark must stay on the band
    undistributed = innermost_member(model, band, dependences, reductions)
    before = undistributed.score().score
    order = [statement.name for statement in model.scop.statements]
    best: Distribution | None = None
    for member in candidate_members(band):
        groups = _groups(moved_innermost(band, member), dependences, order)
        if len(groups) < 2 or _separates(model, groups, dead):
            continue
        sequence = _distributed(band, member, groups, model)
        after = _score(model, sequence, dependences, reductions, undistributed.simd)
        if after is not None and after > (best.after if best else before):
            chosen = " / ".join(sorted(set(member_expressions(band, member).values())))
            best = Distribution(anchor_of(band), member, chosen, groups, before, after)
    return best


def plan_distribution(
    model: PolyModel,
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    reductions: tuple[Reduction, ...] = (),
    dead: frozenset[str] = frozenset(),
) -> DistributionPlan:
    """For each innermost band, the distribution of its innermost loop that Alg. 5 prefers, if any.

    ``dependences`` may be relaxed for ``reductions``; ``dead`` arrays stay with their readers.
    """
    found = [
        _distribution(model, band, dependences, reductions, dead)
        for _, band in band_nodes(schedule)
        if not band_has_inner_band(band)
    ]
    return DistributionPlan(tuple(d for d in found if d is not None))


def apply_distribution(schedule: isl.Schedule, plan: DistributionPlan, model: PolyModel) -> isl.Schedule:
    """Distribute the planned bands."""
    planned = [(distribution.band, distribution) for distribution in plan.distributions]
    return rewrite_bands(schedule, planned, lambda band, d: _distributed(band, d.member, d.groups, model))
