"""Footprints and machines shared by the tile-size model's tests, and ``facts`` to build a band's facts."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from polyopt.analysis.footprint import AccessGroup, TileFootprint
from polyopt.analysis.tile_facts import BandFacts
from polyopt.machine import Machine

ONE, ZERO = Fraction(1), Fraction(0)


def _unit(position: int, size: int = 3) -> tuple[Fraction, ...]:
    return tuple(ONE if d == position else ZERO for d in range(size))


def group(array: str, rows: list[int], references: int = 1, members: int = 3) -> AccessGroup:
    offsets = tuple((ZERO,) * len(rows) for _ in range(references))
    runs = (frozenset(range(members)),) * references
    return AccessGroup(array, tuple(_unit(r, members) for r in rows), offsets, runs)


def facts(footprint: TileFootprint, extents: Sequence[int | None], machine: Machine, **known: Any) -> BandFacts:
    """The facts of a band with ``footprint`` (its own reuse only), ``extents`` and ``known`` facts."""
    return BandFacts(footprint, tuple(extents), machine, footprint.reuse(), **known)


# C[i][j] += A[i][k]·B[k][j], members (i, j, k).
MATMUL = TileFootprint(3, (), (group("C", [0, 1], references=2), group("A", [0, 2]), group("B", [2, 1])))
# Members (i, k, j); k is the vector reduction: C[i][j] += A[j][k]·B[i][k] + B[j][k]·A[i][k] (syr2k),
# and C[i][j] += A[i][k]·A[j][k] (syrk).
SYR2K = TileFootprint(
    3,
    (),
    (
        group("C", [0, 2], references=2),
        group("A", [2, 1]),
        group("B", [0, 1]),
        group("B", [2, 1]),
        group("A", [0, 1]),
    ),
)
SYRK = TileFootprint(3, (), (group("C", [0, 2], references=2), group("A", [0, 1]), group("A", [2, 1])))
# Members (i, j, k) of cov[i][j] += data[k][i]·data[k][j] over the triangle j >= i; j is the vector member.
COVARIANCE = TileFootprint(3, (), (group("cov", [1, 0], references=2), group("data", [2, 0]), group("data", [2, 1])))

# Members (j, i) of aa[i][j] = aa[i - 1][j]·cc[i][j] + mean[j]: every access moves with the vector member j,
# mean[j] is reused along i.
COLUMNS = TileFootprint(
    2, (), (group("aa", [1, 0], references=2, members=2), group("cc", [1, 0], members=2), group("mean", [0], members=2))
)


def _plane_group(array: str, references: int) -> AccessGroup:
    """``array[2t + p][j][k]`` read by ``references`` statements: members (t, p), whole planes (j, k) below."""
    rows = tuple(tuple(Fraction(c) for c in row) for row in ((2, 1, 0, 0), (0, 0, 1, 0), (0, 0, 0, 1)))
    offsets = tuple((ZERO, ZERO, ZERO) for _ in range(references))
    return AccessGroup(array, rows, offsets, (frozenset(range(4)),) * references)


# A time tile of a 3-D stencil: members (t, p), each instance a 200 × 200 plane of A and of B.
PLANES = TileFootprint(2, (200, 200), (_plane_group("A", 2), _plane_group("B", 2)))

# The PolyMage dense-matrix thesis's example: L1 = 32 KiB is the capacity (L2 / tile-l2-share is not
# larger); 256-byte vectors hold the inner member at the thesis's 256 elements.
SEED_MACHINE = Machine(l1=32 * 1024, l2=256 * 1024, l3=0, line=64, cores=1, simd_bytes=256, origin="test")
TWO_CORES = Machine(32 * 1024, 1024 * 1024, 0, 64, 2, 64, "test")
AVX2_512K = Machine(32 * 1024, 512 * 1024, 0, 64, 2, 32, "test")
AVX512_1M = Machine(32 * 1024, 1024 * 1024, 0, 64, 2, 64, "test")
