"""Rectangular tiling of permutable bands.

Public: ``TilingOptions``, ``TiledBand``, ``TilePlan``, ``plan_tiling``,
``apply_tiling``, ``member_extent``, ``tile_band_paths``.

Every permutable band of two or more members is tiled; a member whose extent
is a known constant no larger than its tile keeps a single tile.  Sizes come
from ``TilingOptions.sizes`` (consumed member by member across the bands in
tree order, as Pluto reads ``tile.sizes``) or the default size.  With
``second_level`` (``--l2tile``) each tiled band whose extents are not all known
to fit in one second-level tile is tiled again, grouping ``l2_factor`` tiles per
member into an outer (L2) tile.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt.schedule_tree import band_nodes, node_at, parallel_outermost


@dataclass(frozen=True)
class TilingOptions:
    """``enabled`` is cleared by ``--notile``; ``sizes`` come from ``--tile-sizes``."""

    enabled: bool = True
    sizes: tuple[int, ...] = ()
    default_size: int = 32
    second_level: bool = False
    l2_factor: int = 8


@dataclass(frozen=True)
class TiledBand:
    """The band at ``path`` is tiled with ``sizes`` (one per member); ``outer_sizes``,
    when not empty, tile the resulting tile band again (counted in tiles)."""

    path: tuple[int, ...]
    sizes: tuple[int, ...]
    reason: str
    outer_sizes: tuple[int, ...] = ()


@dataclass(frozen=True)
class TilePlan:
    bands: tuple[TiledBand, ...]


def member_extent(band: isl.ScheduleNode, member: int) -> int | None:
    """The number of values band ``member`` takes, when it is a known constant."""
    values = band.get_domain().apply(
        isl.UnionMap.from_union_pw_aff(band.band_get_partial_schedule().get_union_pw_aff(member))
    )
    values = isl.Set.from_union_set(values) if not values.is_empty() else None
    if values is None:
        return 0
    low, high = values.dim_min(0), values.dim_max(0)
    if not (low.is_cst() and high.is_cst()):
        return None
    low_val, high_val = _constant(low), _constant(high)
    if low_val is None or high_val is None:
        return None
    return high_val - low_val + 1


def _constant(value: isl.PwAff) -> int | None:
    pieces = value.get_pieces()
    if len(pieces) != 1:
        return None
    return pieces[0][1].get_constant_val().to_python()


def plan_tiling(schedule: isl.Schedule, options: TilingOptions, dependences: isl.UnionMap) -> TilePlan:
    """Which bands to tile and with which sizes.

    A band none of whose members is parallel (a skewed time band, run as a
    wavefront) gets no second level: two-level wavefronts cost far more code
    generation than they return.
    """
    if not options.enabled:
        return TilePlan(())
    queue = list(options.sizes)
    chosen: list[TiledBand] = []
    for path, band in band_nodes(schedule):
        members = band.band_n_member()
        if members < 2 or not band.band_get_permutable():
            continue
        sizes: list[int] = []
        small = True
        given = len(queue)
        for member in range(members):
            size = queue.pop(0) if queue else options.default_size
            extent = member_extent(band, member)
            if extent is not None and extent <= size:
                size = max(extent, 1)
            small = small and extent is not None and extent <= size * options.l2_factor
            sizes.append(size)
        reason = _reason(given, members, options.default_size)
        wavefront = not any(parallel_outermost(band, m, dependences) for m in range(members))
        outer = (options.l2_factor,) * members if options.second_level and not small and not wavefront else ()
        chosen.append(TiledBand(path, tuple(sizes), reason, outer))
    return TilePlan(tuple(chosen))


def _reason(given: int, members: int, default: int) -> str:
    if given >= members:
        return "from --tile-sizes"
    if given:
        return f"from --tile-sizes, then default size {default}"
    return f"default size {default}"


def apply_tiling(schedule: isl.Schedule, plan: TilePlan) -> isl.Schedule:
    """Tile the planned bands; deepest first, so that earlier paths stay valid."""
    for tiled in sorted(plan.bands, key=lambda band: band.path, reverse=True):
        band = _tile(node_at(schedule, tiled.path), tiled.sizes)
        if tiled.outer_sizes:
            band = _tile(band, tiled.outer_sizes)
        schedule = band.get_schedule()
    return schedule


def _tile(band: isl.ScheduleNode, sizes: tuple[int, ...]) -> isl.ScheduleNode:
    """Tile ``band``; return the new tile band (the point band is its child)."""
    values = isl.MultiVal.zero(band.band_get_space())
    for member, size in enumerate(sizes):
        values = values.set_val(member, isl.Val.int_from_si(band.get_ctx(), size))
    return band.band_tile(values)


def tile_band_paths(plan: TilePlan) -> frozenset[tuple[int, ...]]:
    """Paths of the outermost tile bands once the plan is applied.

    A tiled ancestor gains one band below it (the point band), or two with a
    second level (tile and point bands below the L2 band).
    """
    paths: set[tuple[int, ...]] = set()
    for tiled in plan.bands:
        path = tiled.path
        ancestors = sorted(
            (o for o in plan.bands if o.path != path and path[: len(o.path)] == o.path),
            key=lambda o: len(o.path),
            reverse=True,
        )
        for ancestor in ancestors:
            below = (0, 0) if ancestor.outer_sizes else (0,)
            path = ancestor.path + below + path[len(ancestor.path) :]
        paths.add(path)
    return frozenset(paths)
