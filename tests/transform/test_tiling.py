"""Tests for ``polyopt.transform.tiling``: which bands are tiled with which sizes, the tiled tree, and
the tile-band paths handed to the parallel pass."""

from __future__ import annotations

from typing import Any

import islpy as isl
import pytest

from polyopt.analysis.dependences import FLOW
from polyopt.analysis.tile_sizes import choose_tile_sizes
from polyopt.schedule_tree import (
    BandText,
    anchor_of,
    band_nodes,
    band_text,
    node_at,
    nodes_of_type,
    parallel_outermost,
    schedule_respects,
)
from polyopt.transform.tiling import (
    TilePlan,
    TilingOptions,
    UntiledBand,
    apply_tiling,
    band_facts,
    member_extent,
    plan_tiling,
    tile_bands,
    tiled_band,
)
from tests.analysis.tile_cases import MATMUL as MATMUL_FOOTPRINT
from tests.analysis.tile_cases import SEED_MACHINE, TWO_CORES, facts
from tests.transform.kernels import ATAX, JACOBI_1D
from tests.transform.support import Kernel, KernelOf

MATMUL = (
    "for (i = 0; i < n; i++)\n"
    "  for (j = 0; j < n; j++)\n"
    "    for (k = 0; k < n; k++)\n"
    "      C[i][j] += A[i][k] * B[k][j];\n"
)
PREFIX_SUM = "for (i = 1; i < n; i++)\n  a[i] = a[i - 1] + b[i];\n"


def _copy(rows: str, columns: str) -> str:
    return f"for (i = 0; i < {rows}; i++)\n  for (j = 0; j < {columns}; j++)\n    b[i][j] = a[i][j];\n"


def _plan(kernel: Kernel, schedule: isl.Schedule | None = None, **options: Any) -> TilePlan:
    if schedule is None:
        _, schedule = kernel.scheduled()
    return plan_tiling(schedule, TilingOptions(**options), kernel.full)


def _partial(band: isl.ScheduleNode) -> isl.UnionMap:
    return band.band_get_partial_schedule_union_map().intersect_domain(band.get_domain())


def test_permutable_band_gets_the_default_size(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)

    plan = _plan(kernel)

    assert plan == TilePlan((tiled_band(node_at(kernel.scheduled()[1], (0,)), (32, 32, 32), "default size 32"),))


def test_default_size_is_an_option(kernel_of: KernelOf) -> None:
    plan = _plan(kernel_of(MATMUL), default_size=16)

    assert [band.sizes for band in plan.bands] == [(16, 16, 16)]


def test_single_member_bands_are_not_tiled(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PREFIX_SUM)
    _, schedule = kernel.scheduled()
    assert [band.band_n_member() for _, band in band_nodes(schedule)] == [1]

    assert _plan(kernel, schedule) == TilePlan(())


def test_non_permutable_bands_are_not_tiled(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)
    schedule = kernel.band_schedule("{ S0[i, j, k] -> [i, j, k] }", permutable=False)

    assert _plan(kernel, schedule) == TilePlan(())


def test_tile_sizes_are_consumed_member_by_member_across_bands(kernel_of: KernelOf) -> None:
    kernel = kernel_of(ATAX)
    _, schedule = kernel.scheduled()
    default = _plan(kernel, schedule)
    assert [band.sizes for band in default.bands] == [(32, 32), (32, 32)]

    plan = _plan(kernel, schedule, sizes=(4, 8, 16))

    assert [band.band for band in plan.bands] == [band.band for band in default.bands]
    assert [band.sizes for band in plan.bands] == [(4, 8), (16, 32)]
    assert plan.bands[0].reason == "from --tile-sizes"


@pytest.mark.parametrize(("columns", "size"), [("3", 3), ("32", 32), ("33", 32)])
def test_member_with_a_small_constant_extent_keeps_one_tile(kernel_of: KernelOf, columns: str, size: int) -> None:
    kernel = kernel_of(_copy("n", columns))
    _, schedule = kernel.scheduled()
    ((_, band),) = band_nodes(schedule)
    assert member_extent(band, 0) is None
    assert member_extent(band, 1) == int(columns)

    plan = _plan(kernel, schedule)

    assert [band.sizes for band in plan.bands] == [(32, size)]


def test_small_extent_overrides_a_given_size_but_still_consumes_it(kernel_of: KernelOf) -> None:
    kernel = kernel_of(_copy("n", "3"))

    plan = _plan(kernel, sizes=(16, 64))

    assert [band.sizes for band in plan.bands] == [(16, 3)]


RESIDENT = facts(MATMUL_FOOTPRINT, [100, 100, 100], SEED_MACHINE, inner=2, parallel=0, iteration=(0, 4096))


def test_a_band_the_model_keeps_resident_is_left_untiled_and_reported(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)

    plan = plan_tiling(kernel.scheduled()[1], TilingOptions(), kernel.full, lambda _: RESIDENT)

    assert plan.bands == ()
    assert plan.untiled == (
        UntiledBand(anchor_of(node_at(kernel.scheduled()[1], (0,))), choose_tile_sizes(RESIDENT).describe()),
    )
    assert plan.untiled[0].describe().startswith("band at [0]: left untiled (model: one iteration of member 0")


def test_given_sizes_tile_a_band_the_model_would_leave_untiled(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)

    plan = plan_tiling(kernel.scheduled()[1], TilingOptions(sizes=(8, 8, 8)), kernel.full, lambda _: RESIDENT)

    assert [band.sizes for band in plan.bands] == [(8, 8, 8)] and plan.untiled == ()


def test_a_rule_switched_off_in_the_options_is_not_applied(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)
    options = TilingOptions(disabled_rules=frozenset({"resident"}))

    plan = plan_tiling(kernel.scheduled()[1], options, kernel.full, lambda _: RESIDENT)

    assert [band.sizes for band in plan.bands] == [choose_tile_sizes(RESIDENT, {"resident"}).sizes]
    assert plan.untiled == () and "rules: resident" not in plan.bands[0].reason


def test_disabled_tiling_plans_nothing(kernel_of: KernelOf) -> None:
    plan = _plan(kernel_of(MATMUL), enabled=False, sizes=(8, 8, 8), second_level=True)

    assert plan == TilePlan(())


def test_second_level_adds_outer_sizes(kernel_of: KernelOf) -> None:
    plan = _plan(kernel_of(MATMUL), second_level=True)

    assert [(band.sizes, band.outer_sizes) for band in plan.bands] == [((32, 32, 32), (8, 8, 8))]


@pytest.mark.parametrize(("rows", "outer"), [("100", ()), ("256", ()), ("300", (8, 8))])
def test_second_level_only_where_an_extent_may_exceed_it(
    kernel_of: KernelOf, rows: str, outer: tuple[int, ...]
) -> None:
    plan = _plan(kernel_of(_copy(rows, "100")), second_level=True)

    assert [band.outer_sizes for band in plan.bands] == [outer]


def test_second_level_skips_wavefront_bands(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_1D)
    schedule = kernel.isl_schedule()
    ((path, band),) = band_nodes(schedule)
    assert band.band_n_member() == 2 and band.band_get_permutable()
    assert not any(parallel_outermost(band, m, kernel.full) for m in range(2)), "expected a time-skewed band"

    plan = _plan(kernel, schedule, second_level=True)

    assert plan == TilePlan((tiled_band(band, (32, 32), "default size 32", ()),))


def test_apply_tiling_puts_a_tile_band_above_a_point_band(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)
    _, schedule = kernel.scheduled()
    plan = _plan(kernel, schedule, sizes=(32, 16, 8))

    tiled = apply_tiling(schedule, plan)

    (tile,) = _tile_bands(tiled, frozenset({plan.bands[0].tiles})).values()
    point = tile.child(0)
    assert point.get_type() == isl.schedule_node_type.band
    domain = kernel.model.domain
    expected_tile = kernel.union_map("[n] -> { S0[i, j, k] -> [floor(i/32), floor(j/16), floor(k/8)] }")
    assert _partial(tile).is_equal(expected_tile.intersect_domain(domain))
    assert _partial(point).is_equal(kernel.union_map("[n] -> { S0[i, j, k] -> [i, j, k] }").intersect_domain(domain))
    assert tile.band_get_permutable() and point.band_get_permutable()
    assert schedule_respects(tiled, kernel.full)


def test_apply_tiling_with_a_second_level(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)
    _, schedule = kernel.scheduled()
    plan = _plan(kernel, schedule, second_level=True)

    tiled = apply_tiling(schedule, plan)

    (outer,) = _tile_bands(tiled, frozenset({plan.bands[0].tiles})).values()
    tile, point = outer.child(0), outer.child(0).child(0)
    domain = kernel.model.domain
    tiles_of = "[n] -> {{ S0[i, j, k] -> [floor(i/{0}), floor(j/{0}), floor(k/{0})] }}"
    assert _partial(outer).is_equal(kernel.union_map(tiles_of.format(256)).intersect_domain(domain))
    assert _partial(tile).is_equal(kernel.union_map(tiles_of.format(32)).intersect_domain(domain))
    assert point.get_type() == isl.schedule_node_type.band and point.band_n_member() == 3
    assert schedule_respects(tiled, kernel.full)


@pytest.mark.parametrize("body", [MATMUL, ATAX, JACOBI_1D], ids=["matmul", "atax", "jacobi-1d"])
def test_tiled_schedules_respect_every_dependence(kernel_of: KernelOf, body: str) -> None:
    kernel = kernel_of(body)
    schedule = kernel.isl_schedule()
    plan = _plan(kernel, schedule, sizes=(5, 7, 3))
    assert plan.bands

    assert schedule_respects(apply_tiling(schedule, plan), kernel.full)


def _tile_bands(schedule: isl.Schedule, tiles: frozenset[BandText]) -> dict[tuple[int, ...], isl.ScheduleNode]:
    """The bands of ``schedule`` that ``tiles`` name, by their paths."""
    return {path: band for path, band in band_nodes(schedule) if band_text(band) in tiles}


def _where(schedule: isl.Schedule, tiles: frozenset[BandText]) -> set[tuple[int, ...]]:
    """Where the bands ``tiles`` name are in ``schedule``."""
    return set(_tile_bands(schedule, tiles))


def test_tile_bands_of_flat_plans_are_at_the_planned_paths(kernel_of: KernelOf) -> None:
    kernel = kernel_of(ATAX)
    _, schedule = kernel.scheduled()
    plan = _plan(kernel, schedule)

    tiles = tile_bands(plan)

    tiled = apply_tiling(schedule, plan)
    assert _where(tiled, tiles) == {band.band.where for band in plan.bands}
    for band in _tile_bands(tiled, tiles).values():
        assert band.child(0).get_type() == isl.schedule_node_type.band


COPY_4D = (
    "for (i = 0; i < n; i++)\n"
    "  for (j = 0; j < n; j++)\n"
    "    for (k = 0; k < n; k++)\n"
    "      for (l = 0; l < n; l++)\n"
    "        a[i][j][k][l] = b[i][j][k][l];\n"
)
NESTED_BANDS = ("{ S0[i, j, k, l] -> [i, j] }", "{ S0[i, j, k, l] -> [k, l] }")


def test_tile_bands_of_nested_tiled_bands(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COPY_4D)
    schedule = kernel.band_schedule(*NESTED_BANDS)
    plan = _plan(kernel, schedule)
    assert [band.band.where for band in plan.bands] == [(0,), (0, 0)]

    tiled = apply_tiling(schedule, plan)

    # The outer band's point band is inserted between it and the inner band.
    assert _where(tiled, tile_bands(plan)) == {(0,), (0, 0, 0)}
    domain = kernel.model.domain
    inner_tile = node_at(tiled, (0, 0, 0))
    expected = kernel.union_map("[n] -> { S0[i, j, k, l] -> [floor(k/32), floor(l/32)] }").intersect_domain(domain)
    assert _partial(inner_tile).is_equal(expected)
    assert inner_tile.child(0).get_type() == isl.schedule_node_type.band


def test_an_apply_tiles_a_band_that_tiling_the_band_above_moved_and_leaves_no_pin(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COPY_4D)
    schedule = kernel.band_schedule(*NESTED_BANDS)
    outer, inner = _plan(kernel, schedule).bands

    tiled = apply_tiling(schedule, TilePlan((outer, inner)))

    # Tiling the outer band first puts its point band where the inner band was planned.
    domain = kernel.model.domain
    expected = kernel.union_map("[n] -> { S0[i, j, k, l] -> [floor(k/32), floor(l/32)] }").intersect_domain(domain)
    assert _partial(node_at(tiled, (0, 0, 0))).is_equal(expected)
    assert _partial(node_at(tiled, (0, 0))).is_equal(_partial(node_at(schedule, (0,))))
    assert not nodes_of_type(tiled, isl.schedule_node_type.mark)


def test_a_plan_whose_band_is_gone_fails_loudly(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COPY_4D)
    schedule = kernel.band_schedule(*NESTED_BANDS)
    plan = _plan(kernel, schedule)

    with pytest.raises(ValueError, match="no band of the schedule at the planned band at"):
        apply_tiling(kernel.band_schedule(NESTED_BANDS[0]), plan)


def test_a_plan_that_names_a_band_twice_fails_loudly(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COPY_4D)
    schedule = kernel.band_schedule(*NESTED_BANDS)
    outer, _ = _plan(kernel, schedule).bands

    with pytest.raises(ValueError, match="no band of the schedule at the planned band at \\[0\\]"):
        apply_tiling(schedule, TilePlan((outer, outer)))


def test_tile_bands_of_nested_tiled_bands_with_a_second_level(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COPY_4D)
    schedule = kernel.band_schedule(*NESTED_BANDS)
    plan = _plan(kernel, schedule, second_level=True)
    assert [(band.band.where, band.outer_sizes) for band in plan.bands] == [((0,), (8, 8)), ((0, 0), (8, 8))]
    tiled = apply_tiling(schedule, plan)
    inner_l2 = kernel.union_map("[n] -> { S0[i, j, k, l] -> [floor(k/256), floor(l/256)] }")
    assert _partial(node_at(tiled, (0, 0, 0, 0))).is_equal(inner_l2.intersect_domain(kernel.model.domain))

    assert _where(tiled, tile_bands(plan)) == {(0,), (0, 0, 0, 0)}


TRIANGLE = (
    "for (i = 0; i < n; i++)\n"
    "  for (j = i; j < n; j++)\n"
    "    for (k = 0; k < n; k++)\n"
    "      C[i][j] += A[k][i] * A[k][j];\n"
)


def test_band_facts_of_a_triangle_couple_the_outer_member_to_the_vector_member(kernel_of: KernelOf) -> None:
    kernel = kernel_of(TRIANGLE)
    band = next(band for _, band in band_nodes(kernel.scheduled()[1]) if band.band_n_member() == 3)

    facts = band_facts(kernel.model, band, kernel.full, kernel.deps.union((FLOW,)), (), TWO_CORES, {"n": 1000})

    assert facts is not None and facts.extents == (1000, 1000, 1000)
    assert (facts.inner, facts.parallel, facts.coupled) == (1, 0, (0,))
    assert not facts.scalar and not facts.reduction
    assert not facts.threads  # the triangle's rows do unequal work: not dealt out in blocks
    assert facts.footprint.reuse() == (1, 1, 2) and facts.reuse == (1, 1, 3)  # C's value flows along k


def test_anchors_name_every_band_by_its_path(kernel_of: KernelOf) -> None:
    kernel = kernel_of(MATMUL)
    _, schedule = kernel.scheduled()
    tiled = apply_tiling(schedule, _plan(kernel, schedule, sizes=(32, 32, 32), second_level=True))

    assert [anchor_of(band).where for _, band in band_nodes(tiled)] == [path for path, _ in band_nodes(tiled)]
