"""Analytic tile sizes: seed 000, Sec. 4.3, Alg. 3.

Public: ``INNER_VECTORS``, ``MIN_TILE``, ``REDUCTION_MIN_TILE``, ``SCALAR_INNER_LINES``, ``BALANCE_SLACK``,
``Evening``, ``TileChoice``, ``busiest_share``, ``choose_tile_sizes``, ``choose_reduction_tile_sizes``,
``resident_level``, ``positive_root``.

Each member d gets τd = γd·τ, where γd is its dimensional reuse divided by
the largest one; the vector (innermost) member instead gets a fixed, long
size: ``INNER_VECTORS`` vector registers' worth of elements, or its whole
extent when shorter.  τ is the positive root of footprint(τ) = capacity,
floored.  The capacity is the L1 data cache; when even a tile of the largest
reuse dimension would be shorter than ``MIN_TILE`` there (the vector
dimension's rows leave no room), it is the L2 cache, as the thesis falls back
to L2 (Ch. 3, Alg. 2).  Sizes are clamped to [``MIN_TILE``, extent]: a member
without reuse still needs a tile long enough to amortize its loop, and a tile
longer than the loop is the loop.  Finally the outermost parallel member keeps
at least one tile per core, and so does every member of a band without one
(its tiles run as a wavefront); when the band's work starts threads, the
parallel member's tiles are then evened out over the cores: when the busiest
core under the static schedule would run more than ``BALANCE_SLACK`` over an
even share, the tile is shortened (by half at most) to the one that loads it
least (doitgen: 3 tiles of 64 on 2 cores run 128 of 160 iterations on one,
4 tiles of 40 run 80 on each).  A smaller excess is left alone: the other
core's share of memory bandwidth goes to the late one (gemm's 21 tiles of 48
rows against 22 of 46: no measured difference; bench/RESULTS.md, entry 13).
For ``--l2tile`` the L1 tiles are grouped into L2 tiles: every member but the
vector one scaled by the factor that makes the footprint fill L2, when that
factor is at least 2.

A vector loop that is a reduction (``simd reduction``) pays a horizontal sum of
its partial sums, and a load and store of the reduced element, once per tile
row; it runs over its whole extent when the other members' tiles still reach
``REDUCTION_MIN_TILE`` (syr2k: 16x1000x16 instead of 40x32x40).

A member outside the vector member whose range the domain couples to it (a
triangle such as j >= i) keeps a tile no longer than the vector member's: a
row of longer tiles crosses the diagonal in more, mostly empty tiles, whose
vector loops run short (covariance 40x32x88 -> 32x32x88, ludcmp 72x48x32 ->
32x48x32; measured in bench/RESULTS.md, entry 11).

An inner member that carries a dependence of a statement on itself never becomes
a vector loop; it is held at ``SCALAR_INNER_LINES`` cache lines' worth of
elements instead (seidel-2d: 48x48x64 -> 32x32x32; bench/RESULTS.md, entry 12); in a band with no
parallel member the other members are capped at it (floyd-warshall: 32x32).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from polyopt.analysis.footprint import TileFootprint
from polyopt.machine import Machine

INNER_VECTORS = 8  # vector registers' worth of elements in the innermost tile dimension
MIN_TILE = 4
GAMMA_FLOOR = 0.5  # no member's tile below half the largest-reuse member's (measured, see module docstring)
L2_SHARE = 8  # a tile may fill this fraction of L2 (measured: bench/RESULTS.md, entry 3)
ALIGNMENT = 8  # elements per 64-byte line of doubles
REDUCTION_MIN_TILE = 16  # smallest other tile for a whole vector reduction (measured: bench/RESULTS.md, entry 10)
SCALAR_INNER_LINES = 4  # cache lines' worth of elements in an innermost tile dimension that cannot vectorize
BALANCE_SLACK = 0.10  # a parallel loop whose busiest core runs more than this over an even share is evened out


@dataclass(frozen=True)
class Evening:
    """The parallel ``member``'s tile, shortened from ``before`` to ``after`` so that its loop
    of ``extent`` iterations splits evenly over ``cores``."""

    member: int
    before: int
    after: int
    extent: int
    cores: int

    def describe(self) -> str:
        busiest, before = (busiest_share(tile, self.extent, self.cores) for tile in (self.after, self.before))
        return (
            f"member {self.member} evened out over the cores ({self.before} -> {self.after}: the busiest core "
            f"runs {busiest} of {self.extent} iterations, not {before}), "
        )


@dataclass(frozen=True)
class TileChoice:
    """The chosen ``sizes`` and the numbers behind them, for ``--report``."""

    sizes: tuple[int, ...]
    level: str
    capacity: int
    reuse: tuple[int, ...]
    gamma: tuple[float, ...]
    inner: int | None
    footprint: str
    root: float
    outer: tuple[int, ...] = ()
    resident: tuple[int, int] | None = None
    whole_reduction: bool = False
    capped: tuple[int, ...] = ()
    scalar: bool = False
    square: bool = False
    evened: Evening | None = None

    @property
    def untiled(self) -> bool:
        """Whether the band is better left untiled (``resident``: its outer member and the
        bytes of lines one of its iterations touches, within the capacity)."""
        return self.resident is not None

    def describe(self) -> str:
        if self.resident is not None:
            member, touched = self.resident
            return (
                f"model: one iteration of member {member} touches {touched // 1024} KiB of lines "
                f"<= {self.level} {self.capacity // 1024} KiB, so its reuse stays in cache untiled"
            )
        gamma = ", ".join(f"{g:.2g}" for g in self.gamma)
        inner = ""
        if self.whole_reduction:
            inner = f"member {self.inner} whole (vector reduction: one horizontal sum per tile row), "
        elif self.scalar:
            inner = f"member {self.inner} fixed (scalar loop: it carries a statement's own dependence), "
        elif self.inner is not None:
            inner = f"member {self.inner} fixed (vector loop), "
        if self.capped:
            why = "inner tile (a scalar loop)" if self.square else "vector tile (range coupled to it)"
            inner += f"member(s) {list(self.capped)} capped at the {why}, "
        if self.evened is not None:
            inner += self.evened.describe()
        return (
            f"model: reuse {list(self.reuse)}, γ ({gamma}); footprint {self.footprint} = {self.level} "
            f"{self.capacity // 1024} KiB; {inner}root τ = {self.root:.2f}"
        )


def tile_capacity(machine: Machine) -> tuple[str, int]:
    """The cache share a tile's footprint may fill: L1, or ``L2_SHARE`` of L2 when larger."""
    if machine.l2 // L2_SHARE > machine.l1:
        return f"L2/{L2_SHARE}", machine.l2 // L2_SHARE
    return "L1", machine.l1


def resident_level(machine: Machine, touched: int, streams: bool) -> tuple[str, int] | None:
    """The cache that keeps the ``touched`` bytes of lines of one outer iteration until the
    next one, or None.  A vector loop that ``streams`` is fed from L2 by the prefetcher, so
    the lines need only fit L2; a loop that strides across lines (a column walk) reuses each
    line in the next outer iteration, one element over, only while it stays in L1 (adi's
    column sweeps: 78 KiB per column, measured in bench/RESULTS.md, entry 12)."""
    level, capacity = tile_capacity(machine)
    if not streams:
        level, capacity = "L1", machine.l1
    elif touched > capacity:
        level, capacity = "L2", machine.l2
    return (level, capacity) if touched <= capacity else None


def positive_root(function: Callable[[float], float], target: float, high: float = 1 << 20) -> float:
    """The τ ≥ 0 where the increasing ``function`` reaches ``target`` (``high`` if it never does)."""
    low = 0.0
    if function(high) <= target:
        return high
    for _ in range(100):
        middle = (low + high) / 2
        if function(middle) <= target:
            low = middle
        else:
            high = middle
    return low


def choose_tile_sizes(
    footprint: TileFootprint,
    extents: Sequence[int | None],
    machine: Machine,
    inner: int | None,
    parallel: int | None,
    inner_size: int | None = None,
    carried: Sequence[int] = (),
    threads: bool = True,
    iteration: tuple[int, int] | None = None,
    coupled: Sequence[int] = (),
    streams: bool = False,
    scalar: bool = False,
    recurrence: bool = False,
) -> TileChoice:
    """Alg. 3 for one band: ``extents`` per member at the parameter values (None: unknown),
    ``inner`` the member held at ``inner_size`` (default ``INNER_VECTORS`` vectors) or None,
    ``parallel`` the outermost parallel member; ``coupled`` the members outside ``inner``
    whose range the domain couples to it, capped at its tile; ``carried`` adds reuse along
    dependences (``dependence_reuse``) to the accesses' own; ``threads`` says whether the parallel loop
    starts threads and deals its tiles out in blocks (only then are they evened out over the cores).  ``iteration`` is
    the band's outer member and the bytes of cache lines one of its iterations touches
    (``iteration_bytes``): when they fit the tile capacity, whatever the outer loop reuses
    stays in cache untiled, and tiles would only shorten the loops and break the streams
    (Sec. 4.3: tiles serve the reuse the cache cannot hold), so the band is left untiled.
    When the vector loop ``streams`` (walks every access with stride 0 or 1), the hardware
    prefetcher feeds it from L2, and the iteration need only fit the whole L2 (``resident_level``).
    A ``scalar`` inner member (one that can never be a vector loop) is held at
    ``SCALAR_INNER_LINES`` lines' worth of elements instead: long rows pay only for vectors,
    and in a skewed wavefront tile they widen every other member's footprint (seidel-2d).
    Its band's iteration must fit L1 to stay untiled, as a column walk's must; the other
    members are capped at it (square tiles: a tall 488x32 tile lost to 32x32 on floyd-warshall,
    1 thread, N = 1600: 4.2-5.2 s against 2.4-2.7 s), unless it runs a ``recurrence`` and a
    parallel member takes its place innermost in the tile (``polyopt.transform.vector``)."""
    reuse = tuple(
        own + extra for own, extra in zip(footprint.reuse(), [*carried] or [0] * footprint.members, strict=True)
    )
    most = max(reuse, default=0)
    gamma = tuple(max(r / most, GAMMA_FLOOR) if most else 1.0 for r in reuse)
    fixed: dict[int, int] = {}
    if inner is not None:
        held_bytes = SCALAR_INNER_LINES * machine.line if scalar else INNER_VECTORS * machine.simd_bytes
        length = inner_size or max(1, held_bytes // footprint.element_bytes)
        fixed[inner] = _clamp(length, extents[inner])

    def sizes_at(tau: float) -> list[float]:
        return [fixed.get(m, g * tau) for m, g in enumerate(gamma)]

    def touched(tau: float) -> float:
        return footprint.bytes([max(size, 1.0) for size in sizes_at(tau)])

    held = None if iteration is None else resident_level(machine, iteration[1], streams and not scalar)
    if held is not None:
        whole = tuple(extent or 0 for extent in extents)
        return TileChoice(whole, *held, reuse, gamma, inner, footprint.describe(), 0.0, resident=iteration)
    level, capacity = tile_capacity(machine)
    root = math.floor(positive_root(touched, capacity))
    if root < MIN_TILE and machine.l2 > machine.l1:
        level, capacity, root = "L2", machine.l2, math.floor(positive_root(touched, machine.l2))
    sizes = [
        fixed.get(m, _clamp(_aligned(max(MIN_TILE, math.floor(g * root))), extents[m])) for m, g in enumerate(gamma)
    ]
    square = scalar and (parallel is None or not recurrence)
    if square:
        coupled = range(len(sizes))
    capped = tuple(m for m in coupled if inner is not None and m not in fixed and sizes[m] > sizes[inner])
    for member in capped:
        sizes[member] = sizes[inner]
    shared = [parallel] if parallel is not None else range(len(sizes))  # a wavefront shares out every member
    for member in shared:
        if member not in fixed:
            sizes[member] = _per_core(sizes[member], extents[member], machine.cores)
    evened = None
    if threads and parallel is not None:
        evened = _even_out(sizes, parallel, extents[parallel], machine.cores)
    outer = _second_level(footprint, sizes, extents, machine, inner) if level != "L2" else ()
    return TileChoice(
        tuple(sizes),
        level,
        capacity,
        reuse,
        gamma,
        inner,
        footprint.describe(),
        float(root),
        outer,
        capped=capped,
        scalar=scalar,
        square=square,
        evened=evened,
    )


def choose_reduction_tile_sizes(
    footprint: TileFootprint,
    extents: Sequence[int | None],
    machine: Machine,
    inner: int,
    parallel: int | None,
    **options: Any,
) -> TileChoice:
    """``choose_tile_sizes`` for a band whose vector member ``inner`` is a reduction: the
    member runs over its whole extent when every other member's tile still reaches
    ``REDUCTION_MIN_TILE``, else it is held at its usual length."""
    extent = extents[inner]
    if extent is not None:
        whole = choose_tile_sizes(footprint, extents, machine, inner, parallel, extent, **options)
        if not whole.untiled and all(size >= REDUCTION_MIN_TILE for m, size in enumerate(whole.sizes) if m != inner):
            return replace(whole, whole_reduction=True)
    return choose_tile_sizes(footprint, extents, machine, inner, parallel, **options)


def _second_level(
    footprint: TileFootprint, sizes: list[int], extents: Sequence[int | None], machine: Machine, inner: int | None
) -> tuple[int, ...]:
    """L1 tiles per member of an L2 tile: every member but the vector one scaled by the f
    with footprint(f·sizes) = L2, floored; none when f < 2 (it would not pay)."""

    def scaled(factor: float) -> list[float]:
        return [size if member == inner else size * factor for member, size in enumerate(sizes)]

    factor = math.floor(positive_root(lambda f: footprint.bytes(scaled(max(f, 1.0))), machine.l2))
    if factor < 2:
        return ()
    counts = [1 if member == inner else factor for member in range(len(sizes))]
    return tuple(_clamp(count, _tiles(extents[m], sizes[m])) for m, count in enumerate(counts))


def _tiles(extent: int | None, size: int) -> int | None:
    return None if extent is None else -(-extent // size)


def _aligned(size: int) -> int:
    """``size`` rounded down to whole cache lines of doubles (``ALIGNMENT``) once it spans one:
    tiles that start on line boundaries neither split lines between threads nor misalign
    the vector loop."""
    return size - size % ALIGNMENT if size >= ALIGNMENT else size


def _clamp(size: int, extent: int | None) -> int:
    return max(1, min(size, extent)) if extent is not None else size


def _per_core(size: int, extent: int | None, cores: int) -> int:
    """``size``, shrunk so that ``extent`` holds at least one tile per core."""
    if extent is None or extent < cores * MIN_TILE:
        return size
    return min(size, max(MIN_TILE, extent // cores))


def _even_out(sizes: list[int], member: int, extent: int | None, cores: int) -> Evening | None:
    """Even out ``member``'s tiles in ``sizes`` over the cores (``_balanced``); the change, or None."""
    before = sizes[member]
    sizes[member] = _balanced(before, extent, cores)
    if extent is None or sizes[member] == before:
        return None
    return Evening(member, before, sizes[member], extent, cores)


def _balanced(size: int, extent: int | None, cores: int) -> int:
    """``size``, or, when its tiles leave the busiest core (``busiest_share``) more than
    ``BALANCE_SLACK`` over an even share of ``extent``, the tile that loads it least (the
    longest among equals), at least half of ``size`` and in whole lines once it spans one
    (``_aligned``: tiles that start on line boundaries split no line between threads).
    Seed 003, Sec. 3.5 (parallel loops chunked so that the threads' loads balance)."""
    if extent is None or size >= extent or cores < 2:
        return size
    if busiest_share(size, extent, cores) <= extent / cores * (1 + BALANCE_SLACK):
        return size
    candidates = {_aligned(tile) for tile in range(max(MIN_TILE, size // 2), size + 1)}
    return min(candidates, key=lambda tile: (busiest_share(tile, extent, cores), -tile))


def busiest_share(tile: int, extent: int, cores: int) -> int:
    """The iterations of a loop of ``extent`` that the busiest core runs when its tiles of
    ``tile`` are dealt out by OpenMP's static schedule: the first cores take one more tile."""
    tiles = -(-extent // tile)
    return min(extent, -(-tiles // cores) * tile)
