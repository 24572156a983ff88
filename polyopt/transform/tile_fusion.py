"""Fuse the outer tile loops of sibling tiled bands: PolyMage dense-matrix thesis, Sec. 4.6 (fuse the dimensions that
carry no dependence, leave the reduction distributed) and BTO (fusion chosen with the parallel loop).

Public: ``TileFusion``, ``TileFusionPlan``, ``plan_tile_fusion``, ``apply_tile_fusion``.

Inside one step of an outer loop, the scheduler often gives a reduction and the statement that
reads its result two bands of their own (gramschmidt: ``R[k][j] += Q[i][k] * A[i][j]`` over all
rows ``i``, then ``A[i][j] -= Q[i][k] * R[k][j]``), each tiled and each a parallel loop over tiles
of ``j``.  The second band then reads the matrix again after the first has streamed all of it.
When the first member of consecutive sibling tile bands carries no dependence once the bands share
it (every dependence between their instances stays within one value of it), one loop over that
member can run the bands' remaining loops one after the other in each iteration: legal (the
sequence below keeps the original order within an iteration) and still parallel.  It is chosen
when the bands share data and one iteration's working set fits in a smaller cache level than the
data the first band touches before the second one reuses it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.iteration_lines import iteration_bytes
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.schedule_tree import (
    Anchor,
    BandText,
    anchor_of,
    band_statements,
    band_text,
    carries,
    member_expressions,
    nodes_of_type,
    rewrite_bands,
)
from polyopt.transform.tiling import member_extent

_NODE = isl.schedule_node_type


@dataclass(frozen=True)
class TileFusion:
    """The tile ``band`` and the ``count - 1`` tile bands of the next children of its sequence share
    their outer member; one iteration touches ``fused`` bytes, the bands apart ``apart``, and the first
    band touches ``distance`` bytes before the next one reuses its data."""

    band: Anchor
    count: int
    loop: str
    statements: tuple[str, ...]
    fused: int
    apart: int
    distance: int
    levels: tuple[str, str]

    def describe(self) -> str:
        return (
            f"tile loops {self.loop} of {{{', '.join(self.statements)}}} fused: one iteration touches "
            f"{self.fused // 1024} KiB ({self.levels[0]}; {self.apart // 1024} KiB by the bands apart); unfused, "
            f"their shared data is reused after {self.distance // 1024} KiB ({self.levels[1]})"
        )


@dataclass(frozen=True)
class TileFusionPlan:
    fusions: tuple[TileFusion, ...]


@dataclass(frozen=True)
class _Setting:
    model: PolyModel
    dependences: isl.UnionMap
    machine: Machine
    parameters: Mapping[str, int]


def plan_tile_fusion(
    model: PolyModel,
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    tile_bands: frozenset[BandText],
    machine: Machine,
    parameters: Mapping[str, int],
) -> TileFusionPlan:
    """The runs of sibling tile bands (``tile_bands``: the tiled schedule's) whose outer tile loops are fused."""
    setting = _Setting(model, dependences, machine, parameters)
    fusions: list[TileFusion] = []
    for _, sequence in nodes_of_type(schedule, _NODE.sequence):
        position = 0
        while position < sequence.n_children():
            fusion = _longest_run(setting, sequence, position, tile_bands)
            fusions.extend([fusion] if fusion else [])
            position += fusion.count if fusion else 1
    return TileFusionPlan(tuple(fusions))


def apply_tile_fusion(schedule: isl.Schedule, plan: TileFusionPlan) -> isl.Schedule:
    """Fuse the planned runs."""

    def fused(band: isl.ScheduleNode, fusion: TileFusion) -> isl.ScheduleNode:
        child = band.parent()
        return _fused(child.parent(), child.get_child_position(), fusion.count)

    return rewrite_bands(schedule, [(fusion.band, fusion) for fusion in plan.fusions], fused)


def _tile_band(sequence: isl.ScheduleNode, position: int, tile_bands: frozenset[BandText]) -> bool:
    child = sequence.child(position)
    return (
        child.n_children() == 1 and child.child(0).get_type() == _NODE.band and band_text(child.child(0)) in tile_bands
    )


def _longest_run(
    setting: _Setting, sequence: isl.ScheduleNode, first: int, tile_bands: frozenset[BandText]
) -> TileFusion | None:
    """The longest run of tile bands from child ``first`` whose fusion is legal and pays."""
    best: TileFusion | None = None
    end = first
    while end < sequence.n_children() and _tile_band(sequence, end, tile_bands):
        end += 1
        if end - first >= 2:
            candidate = _fusion(setting, sequence, first, end - first)
            if candidate is None:
                break
            best = candidate
    return best


def _fusion(setting: _Setting, sequence: isl.ScheduleNode, first: int, count: int) -> TileFusion | None:
    """The fusion of ``count`` children from ``first``, when it keeps a parallel loop and pays."""
    bands = [sequence.child(position).child(0) for position in range(first, first + count)]
    if any(carries(band, 0, setting.dependences) for band in bands):
        return None
    fused = _fused(sequence, first, count)
    if carries(fused, 0, setting.dependences):
        return None
    touched = iteration_bytes(setting.model, fused, 0, setting.parameters, setting.machine.line)
    apart = [iteration_bytes(setting.model, band, 0, setting.parameters, setting.machine.line) for band in bands]
    extent = member_extent(fused, 0, setting.parameters)
    if touched is None or extent is None or any(bytes_ is None for bytes_ in apart):
        return None
    separate = sum(bytes_ for bytes_ in apart if bytes_ is not None)
    machine = setting.machine
    own = _level(touched, (machine.l1, machine.l2, machine.l3 // max(machine.cores, 1)))
    distance = touched * extent
    shared = _level(distance, (machine.l1, machine.l2, machine.l3))
    if touched >= separate or own >= shared:
        return None
    statements = tuple(sorted(band_statements(fused)))
    loop = " / ".join(sorted(set(member_expressions(fused, 0).values())))
    levels = (_LEVELS[own], _LEVELS[shared])
    return TileFusion(anchor_of(bands[0]), count, loop, statements, touched, separate, distance, levels)


_LEVELS = ("L1", "L2", "L3", "memory")


def _level(size: int, capacities: tuple[int, int, int]) -> int:
    """The first cache level of ``capacities`` (L1, L2, L3) that holds ``size`` bytes; 3 for memory."""
    return next((level for level, capacity in enumerate(capacities) if capacity and size <= capacity), 3)


def _fused(sequence: isl.ScheduleNode, first: int, count: int) -> isl.ScheduleNode:
    """The sequence with children ``first`` to ``first + count - 1`` under one band over the outer
    member of their bands (each band keeps its other members); return the new band."""
    outer: isl.UnionPwAff | None = None
    node = sequence
    for position in range(first, first + count):
        band = node.child(position).child(0)
        member = band.band_get_partial_schedule().get_union_pw_aff(0)
        outer = member if outer is None else outer.union_add(member)
        if band.band_n_member() > 1:
            band = band.band_split(1)
        node = band.delete().parent().parent()
    if count < node.n_children():
        node = _grouped(node, first, count).child(first).child(0)
    assert outer is not None
    return node.insert_partial_schedule(isl.MultiUnionPwAff.from_union_pw_aff(outer))


def _grouped(sequence: isl.ScheduleNode, first: int, count: int) -> isl.ScheduleNode:
    """The sequence with children ``first`` to ``first + count - 1`` moved under one child (a sequence
    of their own)."""
    filters = [sequence.child(position).filter_get_filter() for position in range(sequence.n_children())]
    run = filters[first : first + count]
    union = run[0]
    for piece in run[1:]:
        union = union.union(piece)
    grouped = isl.UnionSetList.alloc(sequence.get_ctx(), len(filters) - count + 1)
    for piece in [*filters[:first], union, *filters[first + count :]]:
        grouped = grouped.add(piece)
    return sequence.insert_sequence(grouped)
