"""Rectangular tiling of permutable bands.

Public: ``TiledBand``, ``UntiledBand``, ``TilePlan``, ``plan_tiling``,
``apply_tiling``, ``tile_band``, ``tiled_band``, ``member_extent``, ``model_sizer``, ``band_facts``, ``tile_bands``,
``FALLBACK_SIZE``.

Every permutable band of two or more members is tiled, unless the tile-size
model finds that the data one iteration of its outer loop touches already stays
in cache (``TileChoice.untiled``); a member whose extent is a known constant no
larger than its tile keeps a single tile.  Sizes come
from ``TilingOptions.sizes`` (``polyopt.options``; consumed member by member across the bands in
tree order, as Pluto reads ``tile.sizes``), ``--fixed-tile-size``, or the
tile-size model (``polyopt.analysis.tile_sizes``, on the ``band_facts`` of ``model_sizer``).  With
``second_level`` (``--l2tile``) each tiled band whose extents are not all known
to fit in one second-level tile is tiled again, grouping ``l2_factor`` tiles per
member into an outer (L2) tile.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.footprint import band_footprint, dependence_reuse
from polyopt.analysis.iteration_lines import iteration_bytes
from polyopt.analysis.parallel_loops import uneven_work
from polyopt.analysis.reductions import Reduction
from polyopt.analysis.residency import worth_threads
from polyopt.analysis.tile_facts import BandFacts
from polyopt.analysis.tile_sizes import TileChoice, choose_tile_sizes
from polyopt.analysis.vector_loops import carries_own_dependence, innermost_member, runs_recurrence
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.options import TilingOptions
from polyopt.schedule_tree import (
    Anchor,
    BandText,
    anchor_of,
    band_has_inner_band,
    band_nodes,
    band_statements,
    band_text,
    member_map,
    moved_outermost,
    parallel_outermost_members,
    rewrite_bands,
)

FALLBACK_SIZE = 32  # when the tile-size model cannot describe a band
Sizer = Callable[[isl.ScheduleNode], BandFacts | None]


@dataclass(frozen=True)
class TiledBand:
    """The ``band`` is tiled with ``sizes`` (one per member); ``outer_sizes``, when not empty, tile the
    resulting tile band again (counted in tiles); ``tiles`` is the outermost tile band it becomes, by its
    ``band_text`` (the later loop steps find it in schedules whose positions have moved)."""

    band: Anchor
    sizes: tuple[int, ...]
    reason: str
    outer_sizes: tuple[int, ...]
    tiles: BandText


@dataclass(frozen=True)
class UntiledBand:
    """The permutable ``band`` is left untiled, for ``reason``."""

    band: Anchor
    reason: str

    def describe(self) -> str:
        return f"{self.band.describe()}: left untiled ({self.reason})"


@dataclass(frozen=True)
class TilePlan:
    bands: tuple[TiledBand, ...]
    untiled: tuple[UntiledBand, ...] = ()


def member_extent(band: isl.ScheduleNode, member: int, parameters: Mapping[str, int] | None = None) -> int | None:
    """The number of values band ``member`` takes, when it is a known constant (at
    ``parameters``, when given)."""
    values = band.get_domain().apply(member_map(band, member))
    if values.is_empty():
        return 0
    values = isl_util.at_parameters(isl.Set.from_union_set(values), parameters or {})
    if values.is_empty():
        return 0
    return isl_util.constant(isl_util.extent(values, 0))


def plan_tiling(
    schedule: isl.Schedule, options: TilingOptions, dependences: isl.UnionMap, sizer: Sizer | None = None
) -> TilePlan:
    """Which bands to tile and with which sizes.

    Sizes come from ``--tile-sizes``, then ``--fixed-tile-size``, then the tile-size model
    (``choose_tile_sizes`` on the ``sizer``'s facts, without ``options.disabled_rules``), then
    ``FALLBACK_SIZE``.  A band none of
    whose members is parallel (a skewed time band, run as a wavefront) gets no
    second level: two-level wavefronts cost far more code generation than they
    return.
    """
    if not options.enabled:
        return TilePlan(())
    queue = list(options.sizes)
    chosen: list[TiledBand] = []
    untiled: list[UntiledBand] = []
    for _, band in band_nodes(schedule):
        members = band.band_n_member()
        if members < 2 or not band.band_get_permutable():
            continue
        given, queue = queue[:members], queue[members:]
        facts = sizer(band) if sizer and options.default_size is None and len(given) < members else None
        choice = choose_tile_sizes(facts, options.disabled_rules) if facts is not None else None
        if choice is not None and choice.untiled and not given:
            untiled.append(UntiledBand(anchor_of(band), choice.describe()))
            continue
        default = options.default_size or FALLBACK_SIZE
        planned = given + list(choice.sizes[len(given) :] if choice else [default] * (members - len(given)))
        extents = [member_extent(band, m) for m in range(members)]
        sizes = tuple(_within(size, extent) for size, extent in zip(planned, extents, strict=True))
        reason = _reason(len(given), members, choice.describe() if choice else _fixed_reason(options))
        outer = _second_level(options, choice, band, sizes, extents, dependences)
        chosen.append(tiled_band(band, sizes, reason, outer))
    return TilePlan(tuple(chosen), tuple(untiled))


def _within(size: int, extent: int | None) -> int:
    """A tile no longer than its loop (a loop with a known constant extent)."""
    return size if extent is None else max(min(size, extent), 1)


def _second_level(
    options: TilingOptions,
    choice: TileChoice | None,
    band: isl.ScheduleNode,
    sizes: tuple[int, ...],
    extents: list[int | None],
    dependences: isl.UnionMap,
) -> tuple[int, ...]:
    """Tiles per member of an L2 tile (the model's, else ``l2_factor``), or none: without
    ``--l2tile``, where one L2 tile covers the band, or for a wavefront band."""
    if not options.second_level:
        return ()
    factors = choice.outer if choice is not None else (options.l2_factor,) * len(sizes)
    if not factors or all(e is not None and e <= s * f for e, s, f in zip(extents, sizes, factors, strict=True)):
        return ()
    if next(parallel_outermost_members(band, range(len(sizes)), dependences), None) is None:
        return ()
    return factors


def model_sizer(
    model: PolyModel,
    dependences: isl.UnionMap,
    flow: isl.UnionMap,
    reductions: tuple[Reduction, ...],
    machine: Machine,
    parameters: Mapping[str, int],
) -> Sizer:
    """The tile-size model's facts of each band (``band_facts``); ``plan_tiling`` sizes it."""
    return lambda band: band_facts(model, band, dependences, flow, reductions, machine, parameters)


def band_facts(
    model: PolyModel,
    band: isl.ScheduleNode,
    dependences: isl.UnionMap,
    flow: isl.UnionMap,
    reductions: tuple[Reduction, ...],
    machine: Machine,
    parameters: Mapping[str, int],
) -> BandFacts | None:
    """What the tile-size model needs of ``band`` (None: its footprint is beyond the model).

    The member that Alg. 5 runs innermost is held at a long fixed size when it is a vector loop or
    walks some array with stride 1 (a wavefront band's innermost loop is not parallel, but gcc still
    streams, and often vectorizes, its stride-1 accesses).  ``dependences`` decide legality; the
    value-based ``flow`` dependences add their reuse (``dependence_reuse``).  The parallel loop
    starts threads when the band's instances reach ``Machine.parallel_work``, and deals its tiles
    out in blocks when its iterations do equal work (``uneven_work``).  The outer member whose
    iteration may keep its reuse in cache untiled (``iteration_bytes``) is the first one Alg. 5
    does not put innermost, and it must be the parallel member if the band has one, which runs
    outermost when the band is not tiled."""
    footprint = band_footprint(model, band, parameters, machine.line)
    if footprint is None:
        return None
    count = band.band_n_member()
    extents = tuple(member_extent(band, m, parameters) for m in range(count))
    inner, reduction, streams, scalar, recurrence = None, False, False, False, False
    if not band_has_inner_band(band):
        vector = innermost_member(model, band, dependences, reductions)
        inner = vector.member if vector.simd or vector.score().spatial else None
        reduction = vector.simd and bool(vector.reductions)
        streams = vector.score().streams
        scalar = inner is not None and not vector.simd and carries_own_dependence(band, inner, dependences)
        recurrence = scalar and runs_recurrence(band, inner, dependences)
    parallel = next(parallel_outermost_members(band, range(count), dependences), None)
    reuse = tuple(own + extra for own, extra in zip(footprint.reuse(), dependence_reuse(band, flow), strict=True))
    threads = worth_threads(model, frozenset(band_statements(band)), machine, parameters)
    blocks = parallel is not None and not uneven_work(moved_outermost(band, parallel))
    outer = next(m for m in range(count) if m != inner)
    iteration = None
    if parallel in (None, outer):  # untiled, the parallel member runs outermost
        touched = iteration_bytes(model, band, outer, parameters, machine.line)
        iteration = None if touched is None else (outer, touched)
    return BandFacts(
        footprint,
        extents,
        machine,
        reuse,
        inner,
        parallel,
        coupled=_coupled_outer(band, inner, parameters) if inner is not None else (),
        scalar=scalar,
        recurrence=recurrence,
        reduction=reduction,
        streams=streams,
        threads=threads and blocks,
        iteration=iteration,
    )


def _coupled_outer(band: isl.ScheduleNode, inner: int, parameters: Mapping[str, int]) -> tuple[int, ...]:
    """The members outside member ``inner`` whose range the domain couples to its range:
    the band's values projected on the pair are not a box (a triangle j >= i)."""
    partial = band.band_get_partial_schedule_union_map()
    values = isl_util.at_parameters(isl.Set.from_union_set(band.get_domain().apply(partial)), parameters)
    count = band.band_n_member()

    def pair(member: int) -> isl.Set:
        kept = values.project_out(isl.dim_type.set, inner + 1, count - inner - 1)
        kept = kept.project_out(isl.dim_type.set, member + 1, inner - member - 1)
        return kept.project_out(isl.dim_type.set, 0, member)

    def is_box(points: isl.Set) -> bool:
        first = points.project_out(isl.dim_type.set, 1, 1)
        second = points.project_out(isl.dim_type.set, 0, 1)
        return points.is_equal(first.flat_product(second))

    return tuple(m for m in range(inner) if not is_box(pair(m)))


def _fixed_reason(options: TilingOptions) -> str:
    if options.default_size:
        return f"fixed size {options.default_size} (--fixed-tile-size)"
    return f"default size {FALLBACK_SIZE}"


def _reason(given: int, members: int, rest: str) -> str:
    if given >= members:
        return "from --tile-sizes"
    if given:
        return f"from --tile-sizes, then {rest}"
    return rest


def apply_tiling(schedule: isl.Schedule, plan: TilePlan) -> isl.Schedule:
    """Tile the planned bands."""
    planned = [(tiled.band, tiled) for tiled in plan.bands]
    return rewrite_bands(schedule, planned, lambda band, tiled: _tiled(band, tiled.sizes, tiled.outer_sizes))


def tiled_band(
    band: isl.ScheduleNode, sizes: tuple[int, ...], reason: str, outer_sizes: tuple[int, ...] = ()
) -> TiledBand:
    """The plan to tile ``band`` with ``sizes``, then its tile band with ``outer_sizes`` (when not empty)."""
    tiles = band_text(_tiled(band, sizes, outer_sizes))
    return TiledBand(anchor_of(band), sizes, reason, outer_sizes, tiles)


def _tiled(band: isl.ScheduleNode, sizes: tuple[int, ...], outer_sizes: tuple[int, ...]) -> isl.ScheduleNode:
    """``band`` tiled with ``sizes``, its tile band then with ``outer_sizes``; return the outermost tile band."""
    band = tile_band(band, sizes)
    return tile_band(band, outer_sizes) if outer_sizes else band


def tile_band(band: isl.ScheduleNode, sizes: tuple[int, ...]) -> isl.ScheduleNode:
    """Tile ``band``; return the new tile band (the point band is its child)."""
    values = isl.MultiVal.zero(band.band_get_space())
    for member, size in enumerate(sizes):
        values = values.set_val(member, isl.Val.int_from_si(band.get_ctx(), size))
    return band.band_tile(values)


def tile_bands(plan: TilePlan) -> frozenset[BandText]:
    """The outermost tile bands once the plan is applied, by their ``band_text``."""
    return frozenset(tiled.tiles for tiled in plan.bands)
