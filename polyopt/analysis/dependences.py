"""Exact dependences of a region, from isl's dataflow analysis.

Public: ``Dependence``, ``Dependences``, ``compute_dependences``,
``carrying_loops``, ``carried_by``, ``flow_relation``, ``loop_paths``.

Flow (read after write) dependences are value-based: each read depends on
the last write of the same cell only, and on the ``may`` writes after it (a
may-write kills nothing).  Anti (write after read) and output
(write after write) dependences are memory-based, which is what a new
schedule must respect when storage is not renamed.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property, partial

import islpy as isl

from polyopt import isl_util
from polyopt.frontend.scop import Loop, Node
from polyopt.model import PolyModel

FLOW, ANTI, OUTPUT = "flow", "anti", "output"


@dataclass(frozen=True, eq=False)
class Dependence:
    """Instances of ``sink`` that must follow instances of ``source`` because both touch ``array``."""

    kind: str
    array: str
    source: str
    sink: str
    relation: isl.Map


@dataclass(frozen=True, eq=False)
class Dependences:
    """Every dependence of a region, one entry per (kind, array, source, sink).

    ``reduced`` is a smaller relation with the same transitive closure for
    ordering purposes: flow dependences plus the anti and output dependences
    that no intermediate write kills.  It is what the scheduler is given; a
    schedule that respects it respects every dependence, and ``items`` stay
    the reference for verification.  It is deliberately not coalesced:
    isl's scheduler was measured 30x slower on heat-3d with the coalesced form.
    It is computed when first asked for: regenerating a region in its original order
    does not need it.
    """

    items: tuple[Dependence, ...]
    model: PolyModel
    compute_reduced: Callable[[], isl.UnionMap]

    @property
    def space(self) -> isl.Space:
        """The parameter space of the region."""
        return self.model.param_space()

    @cached_property
    def reduced(self) -> isl.UnionMap:
        """``compute_reduced()``, computed once."""
        return self.compute_reduced()

    @cached_property
    def full(self) -> isl.UnionMap:
        """Every dependence relation as one union map (computed once)."""
        return self.union()

    def union(self, kinds: tuple[str, ...] = (FLOW, ANTI, OUTPUT)) -> isl.UnionMap:
        """All dependence relations of the given kinds as one union map."""
        result = isl.UnionMap.empty(self.space)
        for dep in self.items:
            if dep.kind in kinds:
                result = result.union(isl.UnionMap.from_map(dep.relation))
        return result


def flow_relation(
    sink: isl.UnionMap, schedule: isl.Schedule, must: isl.UnionMap | None, may: isl.UnionMap | None
) -> isl.UnionMap:
    """Source -> sink pairs of dataflow analysis under ``schedule``: for each cell a sink instance accesses,
    the last ``must`` source of the cell before it and the ``may`` sources that run after that one.

    isl's ``compute_flow`` is used unless an access relation has existentially quantified variables
    (strided loops, modulo guards): there it was found to stop with an internal error, to crash, or to
    leave out dependences, so ``_last_sources`` computes the same relation from plain relation operations.
    """
    if any(isl_util.has_local_variables(access) for access in (sink, must, may) if access is not None):
        return _last_sources(sink, schedule.get_map(), must, may)
    info = isl.UnionAccessInfo.from_sink(sink)
    if must is not None:
        info = info.set_must_source(must)
    if may is not None:
        info = info.set_may_source(may)
    return info.set_schedule(schedule).compute_flow().get_may_dependence()


def _last_sources(
    sink: isl.UnionMap, timing: isl.UnionMap, must: isl.UnionMap | None, may: isl.UnionMap | None
) -> isl.UnionMap:
    """``flow_relation`` for the execution order ``timing`` (instances to times, one instance per time): per sink
    access ``[k -> c]``, the lexicographically last time among the earlier must sources of ``c``, mapped back to
    its instance, and the earlier may sources of ``c`` that no must source after them overwrites."""
    if not timing.is_injective():
        raise ValueError("dataflow analysis needs an execution order with one instance per time")

    def earlier(sources: isl.UnionMap) -> isl.UnionMap:
        before = timing.intersect_domain(sources.domain()).lex_lt_union_map(timing.intersect_domain(sink.domain()))
        same_cell = sink.range_map().apply_range(sources.reverse())
        return same_cell.intersect(sink.domain_map().apply_range(before.reverse()))

    chosen = isl.UnionMap.empty(sink.get_space())
    if must is not None:
        chosen = earlier(must).apply_range(timing).lexmax().apply_range(timing.reverse())
    if may is not None:
        overwritten = chosen.apply_range(timing.lex_gt_union_map(timing.intersect_domain(may.domain())))
        chosen = chosen.union(earlier(may).subtract(overwritten))
    return chosen.domain_factor_domain().reverse()


def compute_dependences(model: PolyModel) -> Dependences:
    """Flow, anti and output dependences of ``model`` under its original schedule."""
    items: list[Dependence] = []
    for array in model.arrays:
        writes = model.writes.get(array)
        if writes is None:
            continue
        reads = model.reads.get(array)
        must, may = model.must_writes.get(array), model.may_writes.get(array)
        relations = [(OUTPUT, flow_relation(writes, model.schedule, None, writes))]
        if reads is not None:
            relations.append((FLOW, flow_relation(reads, model.schedule, must, may)))
            relations.append((ANTI, flow_relation(writes, model.schedule, None, reads)))
        for kind, union in relations:
            for relation in isl_util.maps_of(isl_util.coalesced(union)):
                items.append(
                    Dependence(
                        kind=kind,
                        array=array,
                        source=relation.get_tuple_name(isl.dim_type.in_),
                        sink=relation.get_tuple_name(isl.dim_type.out),
                        relation=relation,
                    )
                )
    order = {FLOW: 0, ANTI: 1, OUTPUT: 2}
    items.sort(key=lambda d: (order[d.kind], d.array, d.source, d.sink))
    return Dependences(tuple(items), model, partial(_reduced, model))


def _reduced(model: PolyModel) -> isl.UnionMap:
    """Flow dependences and the anti and output dependences that no intermediate write kills
    (a may-write kills nothing)."""
    writes, reads = model.all_writes(), model.all_reads()
    must, may = model.all_must_writes(), model.all_may_writes()
    flow = flow_relation(reads, model.schedule, must, may)
    output = flow_relation(writes, model.schedule, must, may)
    anti = flow_relation(writes, model.schedule, must, reads.union(may))
    return flow.union(output).union(anti)


def loop_paths(nodes: tuple[Node, ...], outer: tuple[int, ...] = ()) -> dict[str, tuple[int, ...]]:
    """For each statement, the identities of its enclosing loops (outermost first)."""
    paths: dict[str, tuple[int, ...]] = {}
    for node in nodes:
        if isinstance(node, Loop):
            paths.update(loop_paths(node.body, outer + (id(node),)))
        else:
            paths[node.name] = outer
    return paths


def carrying_loops(model: PolyModel, dependence: Dependence) -> tuple[str, ...]:
    """Iterators of the original loops that carry ``dependence``, outermost first.

    An empty tuple means the dependence is loop-independent (it orders two
    statements inside the same iteration of all their common loops).
    """
    paths = loop_paths(model.scop.tree)
    source, sink = paths[dependence.source], paths[dependence.sink]
    common = 0
    while common < min(len(source), len(sink)) and source[common] == sink[common]:
        common += 1
    iterators = model.scop.statement(dependence.source).iterators
    return tuple(iterators[level] for level in range(common) if carried_by(dependence.relation, level))


def carried_by(relation: isl.Map, level: int) -> bool:
    """Whether pairs of ``relation`` agree on the first ``level`` dims and differ on the next."""
    same_outer = isl_util.equate_prefix(relation, level)
    return not same_outer.subtract(isl_util.equate_prefix(relation, level + 1)).is_empty()
