"""Small helpers on isl schedule trees, and the handle by which plans name their bands.

A plan names the band it concerns by its ``Anchor``: the band's child positions from the root in the schedule the
plan was made on, which is the schedule the plan is applied to.  Looking a band up is then a walk down one path,
not a comparison with every band.  An apply that rewrites several bands (``rewrite_bands``) first pins each one by
an isl mark above it, as PPCG carries its decisions on marks: a mark survives the rewrites of the other bands (an
outer band tiled, a sibling fused), a position does not.  The pins live only while the apply runs, so no planning
step and no code generation ever sees one.  A tile band that later steps must recognise in a schedule rewritten
since is known by its ``band_text``.

Public: ``Anchor``, ``anchor_of``, ``anchored``, ``rewrite_bands``, ``band_text``, ``band_nodes``, ``nodes_of_type``,
``node_at``, ``member_expressions``, ``member_map``, ``carries``, ``schedule_respects``, ``members``, ``replace_band``,
``band_has_inner_band``, ``has_below``, ``mark_parent``, ``parent_mark``, ``insert_loop_mark``, ``describe_schedule``,
``moved_outermost``, ``moved_innermost``, ``same_outer``, ``parallel_outermost``, ``parallel_outermost_members``,
``outermost_bands``, ``invariant_along``, ``band_statements``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

import islpy as isl

from polyopt.marks import LoopMark, ReductionClause

_NODE = isl.schedule_node_type


Paths = list[tuple[tuple[int, ...], isl.ScheduleNode]]
BandText = tuple[tuple[str, ...], str]
T = TypeVar("T")


def band_nodes(schedule: isl.Schedule) -> Paths:
    """Every band node with its path (child positions from the root), top-down."""
    return nodes_of_type(schedule, _NODE.band)


def nodes_of_type(schedule: isl.Schedule, kind: isl.schedule_node_type) -> Paths:
    """Every node of type ``kind`` with its path (child positions from the root), top-down."""
    found: Paths = []

    def walk(node: isl.ScheduleNode, path: tuple[int, ...]) -> None:
        if node.get_type() == kind:
            found.append((path, node))
        for position in range(node.n_children()):
            walk(node.child(position), path + (position,))

    walk(schedule.get_root(), ())
    return found


def node_at(schedule: isl.Schedule, path: tuple[int, ...]) -> isl.ScheduleNode:
    """The node at ``path`` (child positions from the root)."""
    node = schedule.get_root()
    for position in path:
        node = node.child(position)
    return node


@dataclass(frozen=True)
class Anchor:
    """The band a plan concerns, named by its child positions from the root (``where``) in the schedule the plan
    was made on.  A plan is applied to that same schedule (``polyopt.passes.steps``), so its anchors find their
    bands at once (``anchored``); an apply that rewrites several bands pins them first (``rewrite_bands``), since
    each rewrite moves the positions of the bands below and after it."""

    where: tuple[int, ...]

    def describe(self) -> str:
        return f"band at {list(self.where)}"


def anchor_of(band: isl.ScheduleNode) -> Anchor:
    """The anchor of ``band``."""
    above = [band.ancestor(up) for up in range(band.get_tree_depth() - 1, 0, -1)]
    return Anchor(tuple(node.get_child_position() for node in [*above, band]))


def anchored(schedule: isl.Schedule, anchor: Anchor) -> isl.ScheduleNode:
    """The band of ``schedule`` that ``anchor`` names; a plan that names no band is an internal error."""
    node = schedule.get_root()
    for position in anchor.where:
        if position >= node.n_children():
            raise ValueError(f"no node of the schedule at the planned {anchor.describe()}")
        node = node.child(position)
    if node.get_type() != _NODE.band:
        raise ValueError(f"no band of the schedule at the planned {anchor.describe()}")
    return node


def rewrite_bands(
    schedule: isl.Schedule,
    planned: Sequence[tuple[Anchor, T]],
    rewrite: Callable[[isl.ScheduleNode, T], isl.ScheduleNode],
) -> isl.Schedule:
    """``schedule`` with each planned band rewritten in turn by ``rewrite`` (given its plan ``T``, it returns a node
    of the rewritten schedule).  Each band is first pinned by a mark above it whose id names its anchor, so that
    it is found after the rewrites before it have moved it (an outer band tiled, a sibling fused); its mark is
    removed before its own rewrite, so no rewrite and no later stage sees one."""
    for anchor, _ in sorted(planned, key=lambda item: item[0].where, reverse=True):  # the deepest and last first
        pin = isl.Id(_pin(anchor), context=schedule.get_ctx())
        schedule = anchored(schedule, anchor).insert_mark(pin).get_schedule()
    for anchor, plan in planned:
        schedule = rewrite(_unpinned(schedule, anchor), plan).get_schedule()
    return schedule


def _pin(anchor: Anchor) -> str:
    return f"pin@{','.join(str(position) for position in anchor.where)}"


def _unpinned(schedule: isl.Schedule, anchor: Anchor) -> isl.ScheduleNode:
    """The band pinned for ``anchor`` (``rewrite_bands``), its pin removed."""
    name = _pin(anchor)
    pins = [mark for _, mark in nodes_of_type(schedule, _NODE.mark) if mark.mark_get_id().get_name() == name]
    if len(pins) != 1:
        raise ValueError(f"{len(pins)} bands of the schedule pinned for the planned {anchor.describe()}")
    return pins[0].delete()


def band_text(band: isl.ScheduleNode) -> BandText:
    """The statements below ``band`` and its partial schedule as text: how the tile band a tiling plans is known
    in the schedules of the later steps (``polyopt.transform.tiling.tile_bands``), where its position has moved."""
    return tuple(sorted(band_statements(band))), band.band_get_partial_schedule().to_str()


def band_statements(band: isl.ScheduleNode) -> set[str]:
    """The names of the statements below ``band``."""
    names: set[str] = set()
    band.get_domain().foreach_set(lambda domain: names.add(domain.get_tuple_name()))
    return names


def member_expressions(band: isl.ScheduleNode, member: int) -> dict[str, str]:
    """For each statement in the band, its schedule expression of ``member`` as text."""
    partial = band.band_get_partial_schedule().get_union_pw_aff(member)
    expressions: dict[str, str] = {}

    def visit(piece: isl.PwAff) -> None:
        name = piece.get_domain_space().get_tuple_name(isl.dim_type.set)
        match = re.search(r"->\s*\[\((.*?)\)\]", piece.to_str())
        expressions[name] = match[1] if match else piece.to_str()

    partial.foreach_pw_aff(visit)
    return expressions


def _same_value(schedule: isl.UnionMap) -> isl.UnionMap:
    return schedule.apply_range(schedule.reverse())


def same_outer(band: isl.ScheduleNode, member: int, pairs: isl.UnionMap) -> isl.UnionMap:
    """The ``pairs`` between instances below the band that agree on every schedule
    dimension outside ``member``: outer bands and the band's earlier members."""
    domain = band.get_domain()
    local = pairs.intersect_domain(domain).intersect_range(domain)
    local = local.intersect(_same_value(band.get_prefix_schedule_union_map()))
    partial = band.band_get_partial_schedule()
    for earlier in range(member):
        local = local.intersect(_same_value(isl.UnionMap.from_union_pw_aff(partial.get_union_pw_aff(earlier))))
    return local


def member_map(band: isl.ScheduleNode, member: int) -> isl.UnionMap:
    """Band ``member``'s schedule as a map from statement instances to its values."""
    return isl.UnionMap.from_union_pw_aff(band.band_get_partial_schedule().get_union_pw_aff(member))


def carries(band: isl.ScheduleNode, member: int, dependences: isl.UnionMap) -> bool:
    """Whether band ``member`` carries a dependence between instances below the band.

    A member carries a dependence if some dependent pair agrees on every outer
    schedule dimension (outer bands and the band's earlier members) and
    differs on this member: the loop cannot run its iterations in parallel.
    """
    local = same_outer(band, member, dependences)
    this = member_map(band, member)
    return not local.subtract(_same_value(this)).is_empty()


def invariant_along(band: isl.ScheduleNode, member: int, access: isl.UnionMap) -> bool:
    """Whether ``access`` reaches one element in each run of the loop of ``member``:
    instances that agree on every schedule dimension outside it access the same element."""
    domain = access.domain()
    pairs = same_outer(band, member, isl.UnionMap.from_domain_and_range(domain, domain))
    return pairs.is_subset(_same_value(access))


def schedule_respects(schedule: isl.Schedule, dependences: isl.UnionMap) -> bool:
    """Whether every dependence source runs strictly before its sink under ``schedule``."""
    order = schedule.get_map()
    before = order.lex_lt_union_map(order)
    return dependences.is_subset(before)


def members(band: isl.ScheduleNode) -> list[isl.UnionPwAff]:
    """The band's members, outermost first."""
    partial = band.band_get_partial_schedule()
    return [partial.get_union_pw_aff(m) for m in range(band.band_n_member())]


def replace_band(band: isl.ScheduleNode, new_members: list[isl.UnionPwAff], permutable: bool) -> isl.ScheduleNode:
    """Replace the band's partial schedule by ``new_members``; return the new band node."""
    partial = band.band_get_partial_schedule()
    for position, member in enumerate(new_members):
        partial = partial.set_union_pw_aff(position, member)
    node = band.delete().insert_partial_schedule(partial)
    return node.band_set_permutable(int(permutable))


def band_has_inner_band(band: isl.ScheduleNode) -> bool:
    """Whether another band lies below ``band``."""
    return has_below(band, _NODE.band)


def bands_below(top: isl.ScheduleNode) -> list[isl.ScheduleNode]:
    """The band nodes below ``top`` (``top`` left out), top-down."""
    found: list[isl.ScheduleNode] = []

    def visit(node: isl.ScheduleNode) -> bool:
        if node.get_type() == _NODE.band and not node.is_equal(top):
            found.append(node.copy())
        return True

    top.foreach_descendant_top_down(visit)
    return found


def has_below(top: isl.ScheduleNode, kind: isl.schedule_node_type) -> bool:
    """Whether a node of type ``kind`` other than ``top`` lies below ``top``."""
    found = [False]

    def visit(node: isl.ScheduleNode) -> bool:
        if node.get_type() == kind and not node.is_equal(top):
            found[0] = True
        return not found[0]

    top.foreach_descendant_top_down(visit)
    return found[0]


def moved_outermost(band: isl.ScheduleNode, member: int) -> isl.ScheduleNode:
    """The band with ``member`` moved to the front (legal when the band is permutable)."""
    if member == 0:
        return band
    current = members(band)
    order = [current[member]] + current[:member] + current[member + 1 :]
    return replace_band(band, order, permutable=True)


def moved_innermost(band: isl.ScheduleNode, member: int) -> isl.ScheduleNode:
    """The band with ``member`` moved to the end (legal when the band is permutable)."""
    current = members(band)
    order = [m for m in range(len(current)) if m != member] + [member]
    return replace_band(band, [current[m] for m in order], band.band_get_permutable())


def parallel_outermost(band: isl.ScheduleNode, member: int, dependences: isl.UnionMap) -> bool:
    """Whether ``member``, moved to the front of its permutable band, carries no dependence.

    ``carries(band, member, ...)`` alone is not enough for ``member > 0``: it
    holds the earlier members fixed, and moving the member outward frees them.
    """
    return next(parallel_outermost_members(band, (member,), dependences), None) is not None


def parallel_outermost_members(
    band: isl.ScheduleNode, candidates: Iterable[int], dependences: isl.UnionMap
) -> Iterator[int]:
    """The ``candidates`` that are ``parallel_outermost``, in order, found lazily.  Moved to the front, a member
    carries no dependence when no pair that agrees on the outer bands differs on it: those pairs are the same
    for every member, so they are computed once, at the first candidate."""
    outer: isl.UnionMap | None = None
    for member in candidates:
        if outer is None:
            outer = same_outer(band, 0, dependences)
        if outer.subtract(_same_value(member_map(band, member))).is_empty():
            yield member


def outermost_bands(schedule: isl.Schedule) -> list[isl.ScheduleNode]:
    """The first band on every path from the root."""
    found: list[isl.ScheduleNode] = []

    def walk(node: isl.ScheduleNode) -> None:
        if node.get_type() == _NODE.band:
            found.append(node)
            return
        for position in range(node.n_children()):
            walk(node.child(position))

    walk(schedule.get_root())
    return found


def parent_mark(node: isl.ScheduleNode) -> LoopMark | None:
    """The loop mark directly above ``node`` (``polyopt.marks``), if any."""
    if not node.has_parent():
        return None
    parent = node.parent()
    if parent.get_type() != _NODE.mark:
        return None
    return LoopMark.parse(parent.mark_get_id().get_name())


def mark_parent(node: isl.ScheduleNode) -> str | None:
    """The kind of the mark directly above ``node``, if any."""
    mark = parent_mark(node)
    return mark.kind if mark else None


def insert_loop_mark(
    band: isl.ScheduleNode,
    kind: str,
    reductions: tuple[ReductionClause, ...] = (),
    cyclic: bool = False,
    factor: int = 0,
    work: int = 0,
) -> isl.ScheduleNode:
    """Mark the band's first member with ``kind``, its reductions, whether its iterations
    are dealt out cyclically, its unroll-and-jam ``factor`` and the instances from which its threads
    start (0: the machine's); return the mark node."""
    name = LoopMark(kind, band.get_schedule_depth(), reductions, cyclic, factor, work).name()
    return band.insert_mark(isl.Id(name, context=band.get_ctx()))


def describe_schedule(schedule: isl.Schedule) -> list[str]:
    """One line per band: its members' expressions (per statement where they differ)."""
    lines: list[str] = []
    for path, band in band_nodes(schedule):
        parts = []
        for member in range(band.band_n_member()):
            expressions = sorted(set(member_expressions(band, member).values()))
            parts.append(" | ".join(expressions))
        kind = "permutable band" if band.band_get_permutable() or band.band_n_member() == 1 else "band"
        mark = mark_parent(band)
        suffix = f" [{mark}]" if mark else ""
        lines.append(f"{'  ' * len(path)}{kind} ({', '.join(parts)}){suffix}")
    return lines
