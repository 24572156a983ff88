"""Analytic tile sizes (PolyMage dense-matrix thesis, Sec. 4.3, Alg. 3) on the thesis's worked example, the L2 fallback,
and the whole model (Alg. 3 and its rules) on bands where several rules meet; each rule alone is
tested in ``test_tile_rules.py``."""

from __future__ import annotations

import pytest

from polyopt.analysis.footprint import TileFootprint
from polyopt.analysis.tile_facts import resident_level, tile_capacity
from polyopt.analysis.tile_rules import MIN_TILE, RULES, busiest_share
from polyopt.analysis.tile_sizes import choose_tile_sizes, positive_root
from polyopt.machine import Machine
from polyopt.options import TILE_RULE_NAMES
from polyopt.target_keys import DEFAULTS
from tests.analysis.tile_cases import (
    AVX2_512K,
    AVX512_1M,
    COVARIANCE,
    MATMUL,
    PLANES,
    SEED_MACHINE,
    TWO_CORES,
    facts,
    group,
)


def test_the_seed_equation_has_root_15() -> None:
    # Sec. 4.3 as printed: 0.5·τ² + 256·τ = 32768 / 8, roots 15.52 and -527.52.
    root = positive_root(lambda tau: 0.5 * tau * tau + 256 * tau, 4096)

    assert root == pytest.approx(15.52, abs=0.01)
    assert [int(gamma * int(root)) for gamma in (0.5, 1.0)] == [7, 15]  # τi = 7, τk = 15


def test_matmul_tiles_for_a_32k_l1() -> None:
    choice = choose_tile_sizes(facts(MATMUL, [2000, 2300, 2600], SEED_MACHINE, inner=1, parallel=0))

    assert choice.facts.reuse == (1, 1, 2)
    assert choice.facts.gamma == (0.5, 0.5, 1.0)
    # The thesis's printed equation counts B's tile as 256·γi·τ; counting it as τk·τj = 256·τ
    # gives 0.5·τ² + 384·τ = 4096, root 10.52: (5, 256, 10) instead of (7, 256, 15).
    assert choice.tiles.solve.root == 10 and choice.sizes == (5, 256, 8)  # 10 rounded down to a whole line
    assert choice.tiles.solve.level == "L1"
    assert MATMUL.bytes(choice.sizes) <= SEED_MACHINE.l1
    assert choice.describe().endswith("member 1 fixed (vector loop), root τ = 10.00; rules: whole-lines")


def test_the_inner_size_is_a_multiple_of_the_vector_length() -> None:
    avx2 = Machine(32 * 1024, 1024 * 1024, 0, 64, 1, 32, "test")
    length = DEFAULTS["tile_inner_vectors"] * 4  # doubles per 32-byte vector

    assert choose_tile_sizes(facts(MATMUL, [2000, 2300, 2600], avx2, inner=1, parallel=0)).sizes[1] == length
    assert choose_tile_sizes(facts(MATMUL, [2000, length // 2, 2600], avx2, inner=1, parallel=0)).sizes[1] == (
        length // 2
    )


def test_l2_when_the_vector_rows_fill_l1() -> None:
    tiny = Machine(4 * 1024, 32 * 1024, 0, 64, 1, 256, "test")

    choice = choose_tile_sizes(facts(MATMUL, [2000, 2300, 2600], tiny, inner=1, parallel=0))

    assert choice.tiles.solve.level == "L2" and choice.outer == ()
    assert min(choice.sizes) >= MIN_TILE
    assert MATMUL.bytes(choice.sizes) <= tiny.l2


@pytest.mark.parametrize(("parallel", "level", "share"), [(None, "L3", 1), (0, "L3/2", 2)])
def test_l3_when_not_even_a_minimal_tile_of_whole_planes_fits_l2(parallel: int | None, level: str, share: int) -> None:
    server = Machine(32 * 1024, 1024 * 1024, 32 * 1024 * 1024, 64, 2, 64, "test")

    choice = choose_tile_sizes(facts(PLANES, [1000, 2400], server, parallel=parallel))

    assert choice.tiles.solve.level == level
    assert min(choice.sizes) >= MIN_TILE and "min-tile" not in choice.fired
    assert PLANES.bytes(choice.sizes) <= server.l3 // share < PLANES.bytes([size * 2 for size in choice.sizes])


def test_without_l3_a_tile_of_whole_planes_takes_the_minimal_size() -> None:
    choice = choose_tile_sizes(facts(PLANES, [1000, 2400], TWO_CORES))

    assert choice.tiles.solve.level == "L2" and choice.sizes == (MIN_TILE, MIN_TILE)
    assert choice.fired == ("min-tile",)


def test_the_capacity_is_a_share_of_l2_when_larger_than_l1() -> None:
    big_l2 = Machine(32 * 1024, 2048 * 1024, 0, 64, 1, 64, "test")

    assert tile_capacity(big_l2) == (f"L2/{DEFAULTS['tile_l2_share']}", 2048 * 1024 // DEFAULTS["tile_l2_share"])
    assert tile_capacity(SEED_MACHINE) == ("L1", 32 * 1024)


def test_the_parallel_member_fills_whole_rounds_on_the_cores() -> None:
    one, two = (Machine(32 * 1024, 1024 * 1024, 0, 64, cores, 64, "test") for cores in (1, 2))
    rows = TileFootprint(2, (), tuple(group(array, [0, 1], members=2) for array in "uvw"))

    alone = choose_tile_sizes(facts(rows, [998, 998], one, inner=1, parallel=0))
    shared = choose_tile_sizes(facts(rows, [998, 998], two, inner=1, parallel=0))

    # 80-row tiles: 13 tiles, 7 rounds on 2 cores, one core idle in the last; 72-row tiles: 14, the same 7 rounds, full.
    assert alone.sizes == (80, 64) and shared.sizes == (72, 64)


@pytest.mark.parametrize(
    ("tile", "extent", "cores", "busiest"),
    [
        (48, 1000, 2, 528),  # 21 tiles: the first core takes 11
        (46, 1000, 2, 506),  # 22 tiles, 11 each, the last one 34 long
        (40, 1200, 2, 600),  # 30 tiles, 15 each
        (64, 1200, 3, 448),  # 19 tiles: 7, 6, 6
        (700, 1000, 2, 700),
        (2000, 1000, 2, 1000),  # one tile: one core runs the whole loop
    ],
)
def test_the_busiest_core_takes_the_first_block_of_whole_tiles(
    tile: int, extent: int, cores: int, busiest: int
) -> None:
    assert busiest_share(tile, extent, cores) == busiest


def test_a_parallel_member_a_little_over_an_even_share_keeps_its_tile() -> None:
    extents = [1100, 1100, 1200]

    alone = choose_tile_sizes(facts(MATMUL, extents, TWO_CORES, inner=2, parallel=0, threads=False))
    shared = choose_tile_sizes(facts(MATMUL, extents, TWO_CORES, inner=2, parallel=0))

    assert (
        550 < busiest_share(alone.sizes[0], 1100, 2) <= 550 * (1 + DEFAULTS["tile_balance_slack"])
    )  # 16 tiles of 72: 576
    assert shared.sizes == alone.sizes and "even-out" not in shared.fired


def test_a_streaming_band_whose_outer_iteration_fits_l2_is_left_untiled() -> None:
    level, capacity = tile_capacity(AVX2_512K)
    extents = [118, 118, 118]
    beyond = (0, capacity + 1)  # more than the tile capacity, less than L2

    streaming = choose_tile_sizes(
        facts(COVARIANCE, extents, AVX2_512K, inner=2, parallel=0, iteration=beyond, streams=True)
    )
    strided = choose_tile_sizes(facts(COVARIANCE, extents, AVX2_512K, inner=2, parallel=0, iteration=beyond))
    too_big = choose_tile_sizes(
        facts(COVARIANCE, extents, AVX2_512K, inner=2, parallel=0, iteration=(0, AVX2_512K.l2 + 1), streams=True)
    )

    assert capacity < AVX2_512K.l2
    assert streaming.untiled and "<= L2 512 KiB" in streaming.describe()
    assert not strided.untiled and not too_big.untiled


def test_an_iteration_that_strides_across_lines_must_fit_l1_to_stay_untiled() -> None:
    level, capacity = tile_capacity(AVX512_1M)
    between = AVX512_1M.l1 + 1  # more than L1, within the tile capacity (L2/8)

    assert capacity > between
    assert resident_level(AVX512_1M, between, streams=True) == (level, capacity)
    assert resident_level(AVX512_1M, between, streams=False) is None
    assert resident_level(AVX512_1M, AVX512_1M.l1, streams=False) == ("L1", AVX512_1M.l1)
    assert resident_level(AVX512_1M, capacity + 1, streams=True) == ("L2", AVX512_1M.l2)
    assert resident_level(AVX512_1M, AVX512_1M.l2 + 1, streams=True) is None


def test_a_scalar_inner_member_keeps_its_band_untiled_only_within_l1() -> None:
    extents = [2800, 2800, 2800]
    streaming = (0, AVX512_1M.l1 + 1)  # a streaming iteration beyond L1, within L2/8
    known = {"inner": 2, "parallel": 0, "iteration": streaming, "streams": True}

    vector = choose_tile_sizes(facts(COVARIANCE, extents, AVX512_1M, **known))
    scalar = choose_tile_sizes(facts(COVARIANCE, extents, AVX512_1M, scalar=True, **known))

    assert vector.untiled and not scalar.untiled


def test_a_scalar_band_with_a_parallel_member_reports_a_coupled_cap_as_coupling() -> None:
    extents = [2800, 2800, 2800]
    known = {"inner": 2, "parallel": 0, "coupled": (1,), "scalar": True, "recurrence": True}

    choice = choose_tile_sizes(facts(COVARIANCE, extents, AVX512_1M, **known))

    assert "triangle-cap" in choice.fired and "scalar-square" not in choice.fired
    assert "member(s) [1] capped at the vector tile (range coupled to it)" in choice.describe()


def test_a_square_scalar_band_reports_its_cap_once_even_where_members_are_coupled() -> None:
    choice = choose_tile_sizes(facts(COVARIANCE, [2800] * 3, AVX512_1M, inner=2, coupled=(1,), scalar=True))

    assert choice.sizes == (32, 32, 32)
    assert "member(s) [0, 1] capped at the inner tile (a scalar loop)" in choice.describe()
    assert "scalar-square" in choice.fired and "triangle-cap" not in choice.fired


def test_the_rules_apply_in_the_order_and_under_the_names_the_options_list() -> None:
    assert tuple(rule.name for rule in RULES) == TILE_RULE_NAMES


def test_the_report_keeps_the_model_sentence_and_names_the_rules_that_fired_in_order() -> None:
    known = {"inner": 2, "parallel": 0, "coupled": (1,)}

    choice = choose_tile_sizes(facts(MATMUL, [160, 1100, 1200], TWO_CORES, **known))

    assert choice.fired == ("whole-lines", "triangle-cap", "even-out")
    assert choice.describe().endswith(
        "member 2 fixed (vector loop), member(s) [1] capped at the vector tile (range coupled to it), "
        "member 0 evened out over the cores (72 -> 40: the busiest core runs 80 of 160 iterations, not 144), "
        "root τ = 158.00; rules: whole-lines, triangle-cap, even-out"
    )
    assert choose_tile_sizes(choice.facts, TILE_RULE_NAMES).fired == ()
