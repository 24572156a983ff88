"""Apply index-set splits to a region: one statement becomes several, each on a part of its domain.

Public: ``split``, ``pulled_back``.  The result is a new ``Scop``, modelled and analysed again like any region;
the decision of what to split is ``polyopt.analysis.splitting``'s.  The pieces take the
statement's place in its loop, one after the other: their domains are disjoint, so the
original order of the instances is unchanged.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import reduce

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.splitting import SIDES, Hyperplane, Split
from polyopt.frontend.scop import Affine, BinOp, Compare, Const, Loop, Node, Scop, StmtRef, Var


def _value(hyperplane: Hyperplane) -> Affine:
    terms: list[Affine] = [
        Var(name) if coefficient == 1 else BinOp("*", Const(coefficient), Var(name))
        for name, coefficient in hyperplane.terms
    ]
    return reduce(lambda left, right: BinOp("+", left, right), terms, Const(hyperplane.constant))


def _replaced(nodes: tuple[Node, ...], pieces: dict[str, tuple[str, ...]]) -> tuple[Node, ...]:
    result: list[Node] = []
    for node in nodes:
        if isinstance(node, Loop):
            result.append(replace(node, body=_replaced(node.body, pieces)))
        else:
            result.extend(StmtRef(name) for name in pieces.get(node.name, (node.name,)))
    return tuple(result)


def split(scop: Scop, splits: tuple[Split, ...]) -> Scop:
    """``scop`` with each split statement replaced by its pieces."""
    planned = {plan.statement: plan for plan in splits}
    statements = []
    for statement in scop.statements:
        plan = planned.get(statement.name)
        if plan is None:
            statements.append(statement)
            continue
        value = _value(plan.hyperplane)
        for name, side in plan.pieces:
            bound = Compare(side, Var(plan.hyperplane.iterator), value)
            statements.append(replace(statement, name=name, constraints=(*statement.constraints, bound)))
    pieces = {plan.statement: tuple(name for name, _ in plan.pieces) for plan in splits}
    return replace(scop, statements=tuple(statements), tree=_replaced(scop.tree, pieces))


def pulled_back(schedule: isl.Schedule, splits: tuple[Split, ...], domains: Mapping[str, isl.Set]) -> isl.Schedule:
    """``schedule`` of the statements before ``splits``, given to the pieces (whose instances are
    ``domains``): each piece runs where its statement's instances ran, and a band member that
    walks the split iterator of pieces only becomes a sequence of one loop per side (``_by_side``)."""
    parent = {piece: split.statement for split in splits for piece, _ in split.pieces}
    pieces = isl.UnionMap.empty(schedule.get_domain().get_space())
    for name, domain in domains.items():
        if name in parent:
            identity = isl.Map.identity(domain.get_space().map_from_set()).intersect_domain(domain)
            pieces = pieces.union(isl.UnionMap.from_map(identity.set_tuple_name(isl.dim_type.out, parent[name])))
    unchanged = schedule.get_domain()
    for statement in isl_util.sets_of(schedule.get_domain()):
        if statement.get_tuple_name() in parent.values():
            unchanged = unchanged.subtract(isl.UnionSet.from_set(statement))
    mapping = pieces.union(isl.UnionSet.identity(unchanged))
    pulled = schedule.pullback_union_pw_multi_aff(isl.UnionPwMultiAff.from_union_map(mapping))
    sides = {piece: (split, side) for split in splits for piece, side in split.pieces}
    return pulled.map_schedule_node_bottom_up(lambda node: _by_side(node, sides, domains))


def _walks(band: isl.ScheduleNode, member: int, domain: isl.Set, iterator: str) -> bool:
    """Whether member ``member`` of ``band`` is the dimension ``iterator`` on the instances ``domain``."""
    position = domain.find_dim_by_name(isl.dim_type.set, iterator)
    values = isl.UnionMap.from_union_pw_aff(band.band_get_partial_schedule().get_at(member))
    walked = isl.Map.from_domain_and_range(domain, isl.Set.universe(isl.Space.set_alloc(domain.get_ctx(), 0, 1)))
    walked = walked.equate(isl.dim_type.in_, position, isl.dim_type.out, 0)
    return values.intersect_domain(isl.UnionSet.from_set(domain)).is_equal(isl.UnionMap.from_map(walked))


def _by_side(
    node: isl.ScheduleNode, sides: Mapping[str, tuple[Split, str]], domains: Mapping[str, isl.Set]
) -> isl.ScheduleNode:
    """A band whose statements are pieces of one split and whose last member walks its iterator, with
    that member run as a sequence: the pieces before the hyperplane, on it, after it (``SIDES`` order),
    so each side's loop carries none of the dependences through the hyperplane."""
    if node.get_type() != isl.schedule_node_type.band:
        return node
    names = {piece.get_tuple_name() for piece in isl_util.sets_of(node.get_domain())}
    member = node.band_n_member() - 1
    if not names or not names <= sides.keys() or len({id(sides[name][0]) for name in names}) != 1:
        return node
    iterator = sides[next(iter(names))][0].hyperplane.iterator
    if not all(_walks(node, member, domains[name], iterator) for name in names):
        return node
    filters = isl.UnionSetList.alloc(node.get_ctx(), len(SIDES))
    for side in SIDES:
        chosen = [isl.UnionSet.from_set(domains[name]) for name in sorted(names) if sides[name][1] == side]
        if chosen:
            filters = filters.add(reduce(isl.UnionSet.union, chosen))
    if filters.n_union_set() < 2:
        return node
    if member == 0:
        return node.insert_sequence(filters)
    return node.band_split(member).child(0).insert_sequence(filters).parent()
