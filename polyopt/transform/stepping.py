"""Schedules stepped along an outer loop: a group's original outer (time) loop, or the rows of a matrix
its nests share (``polyopt.transform.fusion``), with one step scheduled by isl inside it.

Public: ``NestGroup``, ``top_level_nests``, ``outer_parallel``, ``stepwise_schedule``, ``plane_tiled_schedule``,
``streaming``, ``row_fused``.
"""

from __future__ import annotations

from typing import Protocol

import islpy as isl

from polyopt.analysis.parallel_loops import has_parallel_member
from polyopt.frontend.scop import Loop, Node, Scop, Var
from polyopt.model import PolyModel
from polyopt.options import SchedulerOptions
from polyopt.schedule_tree import anchor_of, band_statements, outermost_bands, rewrite_bands
from polyopt.transform.scheduling import original_group_schedule, schedule_group


class NestGroup(Protocol):
    """Top-level nests (0-based, in source order) scheduled as one unit, and their statements."""

    @property
    def nests(self) -> tuple[int, ...]: ...

    @property
    def statements(self) -> frozenset[str]: ...


def _statements(node: Node) -> frozenset[str]:
    if isinstance(node, Loop):
        return frozenset(name for child in node.body for name in _statements(child))
    return frozenset({node.name})


def top_level_nests(scop: Scop) -> list[frozenset[str]]:
    """The statements of each top-level loop nest (or lone statement), in source order."""
    return [_statements(node) for node in scop.tree]


def outer_parallel(schedule: isl.Schedule, dependences: isl.UnionMap) -> bool:
    """Whether every outermost band has a member that carries no dependence."""
    return all(has_parallel_member(band, dependences) for band in outermost_bands(schedule))


def stepwise_schedule(
    model: PolyModel, group: NestGroup, dependences: isl.UnionMap, options: SchedulerOptions
) -> isl.Schedule | None:
    """The group's original outer (time) loop, with one step scheduled by isl inside it.

    Only for a group that is a single loop nest.
    """
    if len(group.nests) != 1:
        return None
    original = original_group_schedule(model, group.statements)
    outer = original.get_root().child(0)
    if outer.get_type() != isl.schedule_node_type.band:
        return None
    return _stepped(model, group.statements, outer.band_get_partial_schedule(), dependences, options)


def plane_tiled_schedule(
    model: PolyModel,
    statements: frozenset[str],
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    options: SchedulerOptions,
) -> isl.Schedule | None:
    """Time skewing along one space dimension (PolyMage multigrid thesis, Sec. 3.2: parallelogram tiles): the first two
    members of isl's permutable band (the time loop and the skewed outermost space loop) as the
    outer band, permutable so that tiling makes parallelogram tiles of whole planes, with each plane
    (the instances of one value of both members) scheduled by isl inside it.

    The planes' own loops keep the original unit-stride order and a parallel loop, where isl's
    band, tiled in all its members, runs skewed inner loops under guards.  The plane member is
    generated ``separate``: each statement's range of planes gets loops of its own, without guards.
    None when ``schedule`` is not one permutable band of three members or more, or a dependence
    runs backwards along either member.
    """
    bands = outermost_bands(schedule)
    if len(bands) != 1 or bands[0].band_n_member() < 3 or not bands[0].band_get_permutable():
        return None
    partial = bands[0].band_get_partial_schedule()
    steps = partial.drop_dims(isl.dim_type.set, 2, bands[0].band_n_member() - 2)
    for member in range(2):
        if not _forward(isl.MultiUnionPwAff.from_union_pw_aff(steps.get_union_pw_aff(member)), dependences):
            return None
    planes = _stepped(model, statements, steps, dependences, options)
    if planes is None:
        return None
    band = planes.get_root().child(0).band_set_permutable(1)
    return band.band_member_set_ast_loop_type(1, isl.ast_loop_type.separate).get_schedule()


def _stepped(
    model: PolyModel,
    statements: frozenset[str],
    steps: isl.MultiUnionPwAff,
    dependences: isl.UnionMap,
    options: SchedulerOptions,
) -> isl.Schedule | None:
    """An outer loop over ``steps`` with one step scheduled by isl inside it.

    Dependences between different steps are respected by running the steps
    in order (the caller checks that none goes backwards); isl sees only
    those within a step, which keeps its problem small.
    """
    step = isl.UnionMap.from_multi_union_pw_aff(steps)
    within = dependences.intersect(step.apply_range(step.reverse()))
    inner = schedule_group(model, statements, within, options, outer_parallel=True)
    if inner is None:
        return None
    return _without_step_members(inner, step).insert_partial_schedule(steps)


def streaming(model: PolyModel, statements: frozenset[str]) -> bool:
    """Whether no statement has more loops than the arrays it touches have dimensions."""
    for statement in model.scop.statements:
        if statement.name in statements:
            ranks = [len(a.subscripts) for a in statement.reads + statement.writes]
            if len(statement.iterators) > max(ranks, default=0):
                return False
    return True


def _matrices(model: PolyModel, statements: frozenset[str]) -> set[str]:
    """The arrays of two or more dimensions that ``statements`` touch."""
    return {
        access.array
        for statement in model.scop.statements
        if statement.name in statements
        for access in statement.reads + statement.writes
        if len(access.subscripts) >= 2
    }


def _row_depth(model: PolyModel, nest: frozenset[str], matrix: str) -> int | None:
    """The loop depth whose iterator is the row subscript of every ``matrix`` reference in ``nest``."""
    depths: set[int] = set()
    for statement in model.scop.statements:
        if statement.name not in nest:
            continue
        for access in statement.reads + statement.writes:
            if access.array != matrix:
                continue
            row = access.subscripts[0]
            if not isinstance(row, Var) or row.name not in statement.iterators:
                return None
            depths.add(statement.iterators.index(row.name))
    return depths.pop() if len(depths) == 1 else None


def _row_steps(model: PolyModel, group: NestGroup, matrix: str) -> isl.MultiUnionPwAff | None:
    """Each statement's iterator at its nest's row depth for ``matrix``, as one schedule dimension."""
    nests = top_level_nests(model.scop)
    steps: isl.UnionPwAff | None = None
    for index in group.nests:
        depth = _row_depth(model, nests[index], matrix)
        if depth is None:
            return None
        for statement in model.scop.statements:
            if statement.name not in nests[index]:
                continue
            if len(statement.iterators) <= depth:
                return None
            domain = model.domains[statement.name]
            value = isl.PwAff.var_on_domain(isl.LocalSpace.from_space(domain.get_space()), isl.dim_type.set, depth)
            piece = isl.UnionPwAff.from_pw_aff(value.intersect_domain(domain))
            steps = piece if steps is None else steps.union_add(piece)
    return None if steps is None else isl.MultiUnionPwAff.from_union_pw_aff(steps)


def _forward(steps: isl.MultiUnionPwAff, dependences: isl.UnionMap) -> bool:
    """Whether no dependence between the stepped statements goes from a later step to an earlier one."""
    step = isl.UnionMap.from_multi_union_pw_aff(steps)
    local = dependences.intersect_domain(step.domain()).intersect_range(step.domain())
    return local.is_subset(step.lex_le_union_map(step))


def row_fused(
    model: PolyModel, group: NestGroup, dependences: isl.UnionMap, options: SchedulerOptions
) -> isl.Schedule | None:
    """The group's nests fused along the rows of a shared matrix (``polyopt.transform.fusion``), when it pays."""
    if not streaming(model, group.statements):
        return None
    nests = top_level_nests(model.scop)
    shared = set.intersection(*(_matrices(model, nests[index]) for index in group.nests))
    for matrix in sorted(shared):
        steps = _row_steps(model, group, matrix)
        if steps is None or not _forward(steps, dependences):
            continue
        fused = _stepped(model, group.statements, steps, dependences, options)
        if fused is None or not outer_parallel(fused, dependences):
            continue
        if _streams(model, fused) < _streams_apart(model, group, dependences, options):
            return fused
    return None


def _streams_apart(model: PolyModel, group: NestGroup, dependences: isl.UnionMap, options: SchedulerOptions) -> int:
    """The matrix streams of isl's schedule of a one-nest group, or of each nest of a group on its own."""
    nests = top_level_nests(model.scop)
    parts = [group.statements] if len(group.nests) == 1 else [nests[index] for index in group.nests]
    total = 0
    for part in parts:
        schedule = schedule_group(model, part, dependences, options)
        total += len(_matrices(model, part)) if schedule is None else _streams(model, schedule)
    return total


def _streams(model: PolyModel, schedule: isl.Schedule) -> int:
    """How many times matrices are streamed: per outermost band, the matrices its statements touch."""
    total = 0
    for band in outermost_bands(schedule):
        total += len(_matrices(model, frozenset(band_statements(band))))
    return total


def _without_step_members(schedule: isl.Schedule, step: isl.UnionMap) -> isl.Schedule:
    """Drop from the outermost bands the members that only repeat the step (constant within a step)."""
    planned = [(anchor_of(band), step) for band in outermost_bands(schedule)]
    return rewrite_bands(schedule, planned, _drop_step_members)


def _drop_step_members(band: isl.ScheduleNode, step: isl.UnionMap) -> isl.ScheduleNode:
    domain = band.get_domain()
    same_step = step.apply_range(step.reverse()).intersect_domain(domain).intersect_range(domain)
    partial = band.band_get_partial_schedule()
    for member in reversed(range(band.band_n_member())):
        value = isl.UnionMap.from_union_pw_aff(partial.get_union_pw_aff(member))
        if same_step.is_subset(value.apply_range(value.reverse())):
            partial = partial.drop_dims(isl.dim_type.set, member, 1)
    if partial.dim(isl.dim_type.set) == band.band_n_member():
        return band
    permutable = band.band_get_permutable()
    node = band.delete()
    if partial.dim(isl.dim_type.set) > 0:
        node = node.insert_partial_schedule(partial).band_set_permutable(permutable)
    return node
