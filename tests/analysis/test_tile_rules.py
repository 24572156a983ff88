"""Each rule of the tile-size model on its own: on a band built by hand it changes the sizes as its
docstring states, and with the rule switched off (``choose_tile_sizes(facts, {name})``) they differ."""

from __future__ import annotations

from polyopt.analysis.footprint import TileFootprint
from polyopt.analysis.tile_facts import BandFacts, tile_capacity
from polyopt.analysis.tile_rules import (
    MIN_TILE,
    busiest_share,
)
from polyopt.analysis.tile_sizes import TileChoice, choose_tile_sizes, solve
from polyopt.machine import Machine
from polyopt.target_keys import DEFAULTS
from tests.analysis.tile_cases import (
    AVX2_512K,
    AVX512_1M,
    COLUMNS,
    COVARIANCE,
    MATMUL,
    SEED_MACHINE,
    SYR2K,
    SYRK,
    TWO_CORES,
    facts,
    group,
)


def _with_and_without(band: BandFacts, rule: str) -> tuple[TileChoice, TileChoice]:
    """The model's choice for ``band`` with every rule, and with ``rule`` switched off."""
    return choose_tile_sizes(band), choose_tile_sizes(band, {rule})


def test_resident_leaves_a_band_untiled_when_an_outer_iteration_fits_the_capacity() -> None:
    level, capacity = tile_capacity(SEED_MACHINE)
    extents = [2000, 2300, 2600]
    band = facts(MATMUL, extents, SEED_MACHINE, inner=1, parallel=0, iteration=(0, capacity))

    kept, tiled = _with_and_without(band, "resident")
    beyond = choose_tile_sizes(facts(MATMUL, extents, SEED_MACHINE, inner=1, parallel=0, iteration=(0, capacity + 1)))

    assert kept.untiled and kept.sizes == tuple(extents) and kept.fired == ("resident",) and kept.outer == ()
    assert kept.describe() == (
        f"model: one iteration of member 0 touches {capacity // 1024} KiB of lines <= {level} "
        f"{capacity // 1024} KiB, so its reuse stays in cache untiled; rules: resident"
    )
    assert not tiled.untiled and tiled.sizes != kept.sizes and tiled.sizes == beyond.sizes
    assert not beyond.untiled


def test_streamed_rows_spans_a_vector_member_without_reuse_shared_out_among_the_cores() -> None:
    band = facts(COLUMNS, [1000, 1000], AVX512_1M, inner=0, parallel=0, streams=True)
    alone = facts(COLUMNS, [1000, 1000], AVX512_1M, inner=0, parallel=1, streams=True)

    rows, held = _with_and_without(band, "streamed-rows")

    assert COLUMNS.reuse() == (0, 1)
    assert rows.sizes[0] == 504 and "streamed-rows" in rows.fired  # 1000 / 2 cores, up to whole lines of doubles
    assert "member 0 spans its rows" in rows.describe()
    assert held.sizes[0] == DEFAULTS["tile_inner_vectors"] * 64 // 8
    assert choose_tile_sizes(alone).sizes[0] == 1000
    assert "streamed-rows" not in choose_tile_sizes(facts(MATMUL, [1000] * 3, AVX512_1M, inner=1, streams=True)).fired


def test_scalar_inner_holds_a_scalar_inner_member_at_a_few_lines() -> None:
    band = facts(COVARIANCE, [2000] * 3, AVX512_1M, inner=2, parallel=0, scalar=True, recurrence=True)

    scalar, vector = _with_and_without(band, "scalar-inner")

    assert scalar.sizes[2] == DEFAULTS["tile_scalar_inner_lines"] * 64 // 8 == 32 and "scalar-inner" in scalar.fired
    assert vector.sizes[2] == DEFAULTS["tile_inner_vectors"] * 64 // 8 == 64
    assert "member 2 fixed (scalar loop" in scalar.describe() and "member 2 fixed (vector loop)" in vector.describe()


def test_min_tile_raises_a_short_tile_to_the_minimum() -> None:
    small = Machine(512, 512, 0, 64, 1, 64, "test")  # 10·τ² = 512: τ = 7, tiles (3, 3, 7)
    band = facts(MATMUL, [2000, 2300, 2600], small, parallel=0)

    raised, short = _with_and_without(band, "min-tile")

    assert short.sizes == (3, 3, 7) and raised.sizes == (MIN_TILE, MIN_TILE, 7) and "min-tile" in raised.fired


def test_whole_lines_rounds_a_tile_down_to_whole_lines() -> None:
    band = facts(MATMUL, [2000, 2300, 2600], SEED_MACHINE, inner=1, parallel=0)

    lines, free = _with_and_without(band, "whole-lines")

    assert free.sizes == (5, 256, 10) and lines.sizes == (5, 256, 8)  # 8 doubles a line; 5 spans none; 256 is held


def test_within_extent_cuts_a_tile_to_its_loop() -> None:
    band = facts(MATMUL, [3, 2300, 2600], SEED_MACHINE)

    cut, longer = _with_and_without(band, "within-extent")

    assert cut.sizes[0] == 3 and longer.sizes[0] > 3 and cut.sizes[1:] == longer.sizes[1:]


def test_scalar_square_caps_every_member_at_a_scalar_inner_tile() -> None:
    extents = [2800] * 3
    band = facts(COVARIANCE, extents, AVX512_1M, inner=2, scalar=True)
    chained = facts(COVARIANCE, extents, AVX512_1M, inner=2, parallel=0, scalar=True, recurrence=True)

    square, tall = _with_and_without(band, "scalar-square")

    assert square.sizes == (32, 32, 32) and min(tall.sizes[:2]) > 32
    assert "member(s) [0, 1] capped at the inner tile (a scalar loop)" in square.describe()
    assert "scalar-square" not in choose_tile_sizes(chained).fired  # a parallel member runs innermost instead


def test_triangle_cap_caps_a_coupled_member_at_the_vector_tile() -> None:
    band = facts(COVARIANCE, [1200, 1200, 1400], AVX2_512K, inner=1, parallel=0, coupled=(0,))

    capped, free = _with_and_without(band, "triangle-cap")

    assert free.sizes[0] > free.sizes[1]
    assert capped.sizes == (free.sizes[1], free.sizes[1], free.sizes[2])
    assert "member(s) [0] capped at the vector tile (range coupled to it)" in capped.describe()


def test_triangle_cap_keeps_a_coupled_member_shorter_than_the_vector_tile() -> None:
    long_vectors = Machine(32 * 1024, 512 * 1024, 0, 64, 2, 256, "test")  # the inner member held at 256

    choice = choose_tile_sizes(facts(COVARIANCE, [1200, 1200, 1400], long_vectors, inner=1, parallel=0, coupled=(0,)))

    assert choice.sizes[0] < choice.sizes[1] == 256 and "triangle-cap" not in choice.fired


def test_per_core_keeps_a_tile_per_core_on_the_parallel_member_or_on_every_member_of_a_wavefront() -> None:
    many = Machine(32 * 1024, 1024 * 1024, 0, 64, 16, 64, "test")
    square = TileFootprint(2, (), (group("A", [0, 1], members=2), group("x", [1], members=2)))

    shared, whole = _with_and_without(facts(square, [160, 2000], many, parallel=0), "per-core")
    wavefront, wide = _with_and_without(facts(square, [160, 160], many), "per-core")

    assert shared.sizes[0] * many.cores <= 160 < whole.sizes[0] * many.cores
    assert all(size * many.cores <= 160 for size in wavefront.sizes)
    assert all(size * many.cores > 160 for size in wide.sizes)


def test_even_out_shortens_a_parallel_tile_that_leaves_one_core_far_busier() -> None:
    for inner, extent, before in ((0, 160, 64), (2, 150, 72)):
        band = facts(MATMUL, [extent, 1100, 1200], TWO_CORES, inner=inner, parallel=0)

        even, uneven = _with_and_without(band, "even-out")
        blocks = choose_tile_sizes(
            facts(MATMUL, [extent, 1100, 1200], TWO_CORES, inner=inner, parallel=0, threads=False)
        )

        # doitgen's case: 3 tiles of 64 run 128 of 160 iterations on one core; 4 tiles of 40 run 80 on each.
        assert (uneven.sizes[0], even.sizes[0]) == (before, 40) and even.sizes[1:] == uneven.sizes[1:]
        assert busiest_share(before, extent, 2) > extent / 2 * (1 + DEFAULTS["tile_balance_slack"])
        assert busiest_share(40, extent, 2) == 80
        assert f"evened out over the cores ({before} -> 40: the busiest core runs 80 of {extent}" in even.describe()
        assert blocks.sizes == uneven.sizes and "even-out" not in blocks.fired  # no threads, or cyclic tiles


def test_reduction_whole_row_runs_a_vector_reduction_whole_when_the_other_tiles_stay_long() -> None:
    band = facts(SYR2K, [1000] * 3, AVX2_512K, inner=1, parallel=0, reduction=True)

    whole, held = _with_and_without(band, "reduction-whole-row")

    assert whole.sizes[1] == 1000 and min(whole.sizes[0], whole.sizes[2]) >= DEFAULTS["tile_reduction_min"]
    assert held.sizes[1] == DEFAULTS["tile_inner_vectors"] * 32 // 8
    assert SYR2K.bytes(whole.sizes) <= AVX2_512K.l2
    assert "member 1 whole (vector reduction" in whole.describe() and "reduction-whole-row" in whole.fired


def test_reduction_whole_row_keeps_the_usual_length_when_the_other_tiles_would_shrink() -> None:
    band = facts(SYRK, [1000] * 3, AVX2_512K, inner=1, parallel=0, reduction=True)
    _, whole_row = solve(band, 1000, "")

    choice = choose_tile_sizes(band)

    assert min(whole_row[0], whole_row[2]) < DEFAULTS["tile_reduction_min"]  # no later rule lengthens a tile
    assert choice.sizes == choose_tile_sizes(band, {"reduction-whole-row"}).sizes
    assert "reduction-whole-row" not in choice.fired and "fixed (vector loop)" in choice.describe()


def test_reduction_whole_row_keeps_the_usual_length_of_an_unknown_extent() -> None:
    band = facts(SYR2K, [1000, None, 1000], AVX2_512K, inner=1, parallel=0, reduction=True)

    assert "reduction-whole-row" not in choose_tile_sizes(band).fired
