"""Analytic tile sizes (seed 000, Sec. 4.3, Alg. 3) on the seed's worked example and on
the rules around it: the L2 fallback, clamping to extents, one tile per core."""

from __future__ import annotations

from fractions import Fraction

import pytest

from polyopt.analysis.footprint import AccessGroup, TileFootprint
from polyopt.analysis.tile_sizes import (
    BALANCE_SLACK,
    INNER_VECTORS,
    L2_SHARE,
    MIN_TILE,
    REDUCTION_MIN_TILE,
    SCALAR_INNER_LINES,
    busiest_share,
    choose_reduction_tile_sizes,
    choose_tile_sizes,
    positive_root,
    resident_level,
    tile_capacity,
)
from polyopt.machine import Machine

# The seed's example: L1 = 32 KiB is the capacity (L2 / L2_SHARE is not larger), inner size 256.
SEED_MACHINE = Machine(l1=32 * 1024, l2=256 * 1024, l3=0, line=64, cores=1, simd_bytes=64, origin="test")
SEED_INNER = 256
ONE, ZERO = Fraction(1), Fraction(0)


def _unit(position: int, size: int = 3) -> tuple[Fraction, ...]:
    return tuple(ONE if d == position else ZERO for d in range(size))


def _group(array: str, rows: list[int], references: int = 1, members: int = 3) -> AccessGroup:
    offsets = tuple((ZERO,) * len(rows) for _ in range(references))
    runs = (frozenset(range(members)),) * references
    return AccessGroup(array, tuple(_unit(r, members) for r in rows), offsets, runs)


MATMUL = TileFootprint(3, (), (_group("C", [0, 1], references=2), _group("A", [0, 2]), _group("B", [2, 1])))


def test_the_seed_equation_has_root_15() -> None:
    # Sec. 4.3 as printed: 0.5·τ² + 256·τ = 32768 / 8, roots 15.52 and -527.52.
    root = positive_root(lambda tau: 0.5 * tau * tau + 256 * tau, 4096)

    assert root == pytest.approx(15.52, abs=0.01)
    assert [int(gamma * int(root)) for gamma in (0.5, 1.0)] == [7, 15]  # τi = 7, τk = 15


def test_matmul_tiles_for_a_32k_l1() -> None:
    choice = choose_tile_sizes(MATMUL, [2000, 2300, 2600], SEED_MACHINE, inner=1, parallel=0, inner_size=SEED_INNER)

    assert choice.reuse == (1, 1, 2)
    assert choice.gamma == (0.5, 0.5, 1.0)
    # The seed's printed equation counts B's tile as 256·γi·τ; counting it as τk·τj = 256·τ
    # gives 0.5·τ² + 384·τ = 4096, root 10.52: (5, 256, 10) instead of (7, 256, 15).
    assert choice.root == 10 and choice.sizes == (5, 256, 8)  # 10 rounded down to a whole line of doubles
    assert choice.level == "L1"
    assert MATMUL.bytes(choice.sizes) <= SEED_MACHINE.l1


def test_the_inner_size_is_a_multiple_of_the_vector_length() -> None:
    avx2 = Machine(32 * 1024, 1024 * 1024, 0, 64, 1, 32, "test")
    length = INNER_VECTORS * 4  # doubles per 32-byte vector

    assert choose_tile_sizes(MATMUL, [2000, 2300, 2600], avx2, inner=1, parallel=0).sizes[1] == length
    assert choose_tile_sizes(MATMUL, [2000, length // 2, 2600], avx2, inner=1, parallel=0).sizes[1] == length // 2


def test_sizes_never_exceed_the_extent() -> None:
    choice = choose_tile_sizes(MATMUL, [3, 2300, 2600], SEED_MACHINE, inner=None, parallel=None)

    assert choice.sizes[0] == 3


def test_l2_when_the_vector_rows_fill_l1() -> None:
    tiny = Machine(4 * 1024, 32 * 1024, 0, 64, 1, 64, "test")

    choice = choose_tile_sizes(MATMUL, [2000, 2300, 2600], tiny, inner=1, parallel=0, inner_size=SEED_INNER)

    assert choice.level == "L2"
    assert min(choice.sizes) >= MIN_TILE
    assert MATMUL.bytes(choice.sizes) <= tiny.l2


def test_the_parallel_member_keeps_a_tile_per_core() -> None:
    many = Machine(32 * 1024, 1024 * 1024, 0, 64, 16, 64, "test")
    square = TileFootprint(2, (), (_group("A", [0, 1], members=2), _group("x", [1], members=2)))

    choice = choose_tile_sizes(square, [160, 2000], many, inner=None, parallel=0)

    assert choice.sizes[0] * many.cores <= 160


def test_the_capacity_is_a_share_of_l2_when_larger_than_l1() -> None:
    big_l2 = Machine(32 * 1024, 2048 * 1024, 0, 64, 1, 64, "test")

    assert tile_capacity(big_l2) == (f"L2/{L2_SHARE}", 2048 * 1024 // L2_SHARE)
    assert tile_capacity(SEED_MACHINE) == ("L1", 32 * 1024)


def test_sizes_are_whole_cache_lines_of_doubles() -> None:
    choice = choose_tile_sizes(MATMUL, [2000, 2300, 2600], SEED_MACHINE, inner=None, parallel=0)

    assert all(size % 8 == 0 for size in choice.sizes if size >= 8)


def test_the_parallel_member_fills_whole_rounds_on_the_cores() -> None:
    one, two = (Machine(32 * 1024, 1024 * 1024, 0, 64, cores, 64, "test") for cores in (1, 2))
    rows = TileFootprint(2, (), tuple(_group(array, [0, 1], members=2) for array in "uvw"))

    alone = choose_tile_sizes(rows, [998, 998], one, inner=1, parallel=0)
    shared = choose_tile_sizes(rows, [998, 998], two, inner=1, parallel=0)

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


TWO_CORES = Machine(32 * 1024, 1024 * 1024, 0, 64, 2, 64, "test")


@pytest.mark.parametrize(("inner", "extent", "sizes"), [(0, 160, (64, 40)), (2, 150, (72, 40))])
def test_a_parallel_member_that_leaves_one_core_far_busier_is_evened_out(
    inner: int, extent: int, sizes: tuple[int, int]
) -> None:
    extents = [extent, 1100, 1200]

    alone = choose_tile_sizes(MATMUL, extents, TWO_CORES, inner=inner, parallel=0, threads=False)
    shared = choose_tile_sizes(MATMUL, extents, TWO_CORES, inner=inner, parallel=0)

    # doitgen's case: 3 tiles of 64 run 128 of 160 iterations on one core; 4 tiles of 40 run 80 on each.
    assert (alone.sizes[0], shared.sizes[0]) == sizes and shared.sizes[1:] == alone.sizes[1:]
    assert busiest_share(sizes[0], extent, 2) > extent / 2 * (1 + BALANCE_SLACK)
    assert busiest_share(sizes[1], extent, 2) == 80
    assert shared.evened is not None and alone.evened is None
    assert f"evened out over the cores ({sizes[0]} -> {sizes[1]}: the busiest core runs 80 of {extent}" in (
        shared.describe()
    )


def test_a_parallel_member_a_little_over_an_even_share_keeps_its_tile() -> None:
    extents = [1100, 1100, 1200]

    alone = choose_tile_sizes(MATMUL, extents, TWO_CORES, inner=2, parallel=0, threads=False)
    shared = choose_tile_sizes(MATMUL, extents, TWO_CORES, inner=2, parallel=0)

    assert 550 < busiest_share(alone.sizes[0], 1100, 2) <= 550 * (1 + BALANCE_SLACK)  # 16 tiles of 72: 576
    assert shared.sizes == alone.sizes and shared.evened is None


def test_a_band_whose_outer_iteration_fits_the_capacity_is_left_untiled() -> None:
    level, capacity = tile_capacity(SEED_MACHINE)

    extents = [2000, 2300, 2600]

    kept = choose_tile_sizes(MATMUL, extents, SEED_MACHINE, inner=1, parallel=0, iteration=(0, capacity))
    tiled = choose_tile_sizes(MATMUL, extents, SEED_MACHINE, inner=1, parallel=0, iteration=(0, capacity + 1))

    assert kept.untiled and kept.sizes == tuple(extents)
    assert f"member 0 touches {capacity // 1024} KiB of lines <= {level}" in kept.describe()
    assert not tiled.untiled and tiled.sizes == choose_tile_sizes(MATMUL, extents, SEED_MACHINE, 1, 0).sizes


# Members (i, k, j); k is the vector reduction: C[i][j] += A[j][k]·B[i][k] + B[j][k]·A[i][k] (syr2k),
# and C[i][j] += A[i][k]·A[j][k] (syrk).
SYR2K = TileFootprint(
    3,
    (),
    (
        _group("C", [0, 2], references=2),
        _group("A", [2, 1]),
        _group("B", [0, 1]),
        _group("B", [2, 1]),
        _group("A", [0, 1]),
    ),
)
SYRK = TileFootprint(3, (), (_group("C", [0, 2], references=2), _group("A", [0, 1]), _group("A", [2, 1])))
AVX2_512K = Machine(32 * 1024, 512 * 1024, 0, 64, 2, 32, "test")


def test_a_vector_reduction_runs_whole_when_the_other_tiles_stay_long() -> None:
    choice = choose_reduction_tile_sizes(SYR2K, [1000, 1000, 1000], AVX2_512K, inner=1, parallel=0)

    assert choice.whole_reduction and choice.sizes[1] == 1000
    assert min(choice.sizes[0], choice.sizes[2]) >= REDUCTION_MIN_TILE
    assert SYR2K.bytes(choice.sizes) <= AVX2_512K.l2
    assert "member 1 whole (vector reduction" in choice.describe()


def test_a_vector_reduction_keeps_its_usual_length_when_the_other_tiles_would_shrink() -> None:
    extents = [1000, 1000, 1000]
    whole = choose_tile_sizes(SYRK, extents, AVX2_512K, inner=1, parallel=0, inner_size=1000)

    choice = choose_reduction_tile_sizes(SYRK, extents, AVX2_512K, inner=1, parallel=0)

    assert min(whole.sizes[0], whole.sizes[2]) < REDUCTION_MIN_TILE
    assert not choice.whole_reduction
    assert choice.sizes == choose_tile_sizes(SYRK, extents, AVX2_512K, inner=1, parallel=0).sizes
    assert "fixed (vector loop)" in choice.describe()


def test_a_vector_reduction_of_unknown_extent_keeps_its_usual_length() -> None:
    extents = [1000, None, 1000]

    choice = choose_reduction_tile_sizes(SYR2K, extents, AVX2_512K, inner=1, parallel=0)

    assert not choice.whole_reduction
    assert choice.sizes == choose_tile_sizes(SYR2K, extents, AVX2_512K, inner=1, parallel=0).sizes


# Members (i, j, k) of cov[i][j] += data[k][i]·data[k][j] over the triangle j >= i; j is the vector member.
COVARIANCE = TileFootprint(3, (), (_group("cov", [1, 0], references=2), _group("data", [2, 0]), _group("data", [2, 1])))


def test_a_member_coupled_to_the_vector_member_is_capped_at_its_tile() -> None:
    extents = [1200, 1200, 1400]
    free = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, inner=1, parallel=0)

    coupled = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, inner=1, parallel=0, coupled=(0,))

    assert free.sizes[0] > free.sizes[1]
    assert coupled.sizes == (free.sizes[1], free.sizes[1], free.sizes[2])
    assert coupled.capped == (0,) and "member(s) [0] capped at the vector tile" in coupled.describe()


def test_a_coupled_member_shorter_than_the_vector_tile_keeps_its_size() -> None:
    extents = [1200, 1200, 1400]
    long_inner = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, inner=1, parallel=0, inner_size=256)

    coupled = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, 1, 0, inner_size=256, coupled=(0,))

    assert long_inner.sizes[0] < 256
    assert coupled.sizes == long_inner.sizes and coupled.capped == ()


def test_a_streaming_band_whose_outer_iteration_fits_l2_is_left_untiled() -> None:
    level, capacity = tile_capacity(AVX2_512K)
    extents = [118, 118, 118]
    beyond = (0, capacity + 1)  # more than the tile capacity, less than L2

    streaming = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, 2, 0, iteration=beyond, streams=True)
    strided = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, 2, 0, iteration=beyond)
    too_big = choose_tile_sizes(COVARIANCE, extents, AVX2_512K, 2, 0, iteration=(0, AVX2_512K.l2 + 1), streams=True)

    assert capacity < AVX2_512K.l2
    assert streaming.untiled and "<= L2 512 KiB" in streaming.describe()
    assert not strided.untiled and not too_big.untiled


AVX512_1M = Machine(32 * 1024, 1024 * 1024, 0, 64, 2, 64, "test")


def test_a_scalar_inner_member_is_held_at_a_few_lines_not_at_the_vector_length() -> None:
    extents = [2000, 2000, 2000]
    vector = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, inner=2, parallel=None)
    scalar = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, inner=2, parallel=None, scalar=True)

    assert vector.sizes[2] == INNER_VECTORS * 64 // 8 == 64
    assert scalar.sizes[2] == SCALAR_INNER_LINES * 64 // 8 == 32
    assert "member 2 fixed (scalar loop" in scalar.describe() and "scalar" not in vector.describe()


def test_an_iteration_that_strides_across_lines_must_fit_l1_to_stay_untiled() -> None:
    level, capacity = tile_capacity(AVX512_1M)
    between = AVX512_1M.l1 + 1  # more than L1, within the tile capacity (L2/8)

    assert capacity > between
    assert resident_level(AVX512_1M, between, streams=True) == (level, capacity)
    assert resident_level(AVX512_1M, between, streams=False) is None
    assert resident_level(AVX512_1M, AVX512_1M.l1, streams=False) == ("L1", AVX512_1M.l1)
    assert resident_level(AVX512_1M, capacity + 1, streams=True) == ("L2", AVX512_1M.l2)
    assert resident_level(AVX512_1M, AVX512_1M.l2 + 1, streams=True) is None


def test_a_band_with_a_scalar_inner_member_takes_square_tiles_unless_a_parallel_member_replaces_it() -> None:
    extents = [2800, 2800, 2800]
    sequential = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, inner=2, parallel=None, scalar=True)
    shared = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, inner=2, parallel=0, scalar=True)
    chained = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, inner=2, parallel=0, scalar=True, recurrence=True)

    assert sequential.sizes == (32, 32, 32) and sequential.capped == (0, 1)
    assert "capped at the inner tile (a scalar loop)" in sequential.describe()
    assert shared.sizes == (32, 32, 32) and shared.capped == (0, 1)
    assert chained.sizes[2] == 32 and chained.sizes[1] > 32 and chained.capped == ()


def test_a_scalar_inner_member_keeps_its_band_untiled_only_within_l1() -> None:
    extents = [2800, 2800, 2800]
    streaming = (0, AVX512_1M.l1 + 1)  # a streaming iteration beyond L1, within L2/8

    vector = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, 2, 0, iteration=streaming, streams=True)
    scalar = choose_tile_sizes(COVARIANCE, extents, AVX512_1M, 2, 0, iteration=streaming, streams=True, scalar=True)

    assert vector.untiled and not scalar.untiled


def test_a_scalar_band_with_a_parallel_member_reports_a_coupled_cap_as_coupling() -> None:
    extents = [2800, 2800, 2800]
    choice = choose_tile_sizes(
        COVARIANCE, extents, AVX512_1M, inner=2, parallel=0, coupled=(1,), scalar=True, recurrence=True
    )

    assert choice.capped == (1,) and not choice.square
    assert "capped at the vector tile (range coupled to it)" in choice.describe()
