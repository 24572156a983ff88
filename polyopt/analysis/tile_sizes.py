"""Analytic tile sizes: PolyMage dense-matrix thesis, Sec. 4.3, Alg. 3, followed by named rules.

Public: ``TileChoice``, ``choose_tile_sizes``, ``solve``, ``positive_root``.

Alg. 3 (``solve``): each member d gets τd = γd·τ, where γd is its dimensional reuse divided by
the largest one (``BandFacts.gamma``); the inner member (``BandFacts.inner``) instead gets a fixed,
long size: the profile's ``tile-inner-vectors`` vector registers' worth of elements, or its whole
extent when shorter.  τ is the positive root of footprint(τ) = capacity, floored.  The capacity is L1, or a share of L2
when larger (``tile_capacity``); when even a tile of the largest reuse dimension would be shorter
than ``MIN_TILE`` there (the inner member's rows leave no room), it is the L2 cache, as the thesis
falls back to L2 (Ch. 3, Alg. 2), and when that still holds, the L3 cache (a time tile of whole
planes of a 3-D stencil), shared by the cores that run tiles at once.

The rules of ``polyopt.analysis.tile_rules`` then run in order (``RULES``), each switchable off;
``--report`` names those that fired.  For ``--l2tile`` the L1 tiles are grouped into L2 tiles:
every member but the inner one scaled by the factor that makes the footprint fill L2, when that
factor is at least 2.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from functools import partial

from polyopt.analysis.tile_facts import BandFacts, Solve, Tiles
from polyopt.analysis.tile_rules import MIN_TILE, RULES, Rule, clamp


@dataclass(frozen=True)
class TileChoice:
    """The model's ``tiles`` for the band of ``facts``, and ``outer``: L1 tiles per member of an L2 tile."""

    facts: BandFacts
    tiles: Tiles
    outer: tuple[int, ...] = ()

    @property
    def sizes(self) -> tuple[int, ...]:
        return self.tiles.sizes

    @property
    def untiled(self) -> bool:
        """Whether the band is better left untiled (the ``resident`` rule)."""
        return self.tiles.untiled

    @property
    def fired(self) -> tuple[str, ...]:
        """The names of the rules that fired, in order."""
        return tuple(name for name, _ in self.tiles.fired)

    def describe(self) -> str:
        notes = "".join(note for _, note in self.tiles.fired)
        if self.untiled:
            text = f"model: {notes}"
        else:
            solved = self.tiles.solve
            gamma = ", ".join(f"{g:.2g}" for g in self.facts.gamma)
            text = (
                f"model: reuse {list(self.facts.reuse)}, γ ({gamma}); footprint {self.facts.footprint.describe()} = "
                f"{solved.level} {solved.capacity // 1024} KiB; {solved.held}{notes}root τ = {solved.root:.2f}"
            )
        return text + (f"; rules: {', '.join(self.fired)}" if self.fired else "")


def choose_tile_sizes(facts: BandFacts, disabled: Collection[str] = ()) -> TileChoice:
    """Alg. 3 for the band of ``facts``, then the rules of ``RULES`` not named in ``disabled``."""
    rules = tuple(rule for rule in RULES if rule.name not in disabled)
    length = max(1, facts.machine.tile_inner_vectors * facts.machine.simd_bytes // facts.footprint.element_bytes)
    tiles = _sized(facts, rules, length, f"member {facts.inner} fixed (vector loop), ")
    if tiles.untiled or tiles.solve.level == "L2":
        return TileChoice(facts, tiles)
    return TileChoice(facts, tiles, _second_level(facts, tiles.sizes))


def _sized(facts: BandFacts, rules: tuple[Rule, ...], length: int, held: str) -> Tiles:
    """Alg. 3 with the inner member held at ``length`` (``held``: the report's words for it), then
    ``rules`` in order; a band left untiled takes no further rule."""
    solved, sizes = solve(facts, length, held)
    tiles = Tiles(tuple(sizes), solved, partial(_sized, facts, ()))
    for position, rule in enumerate(rules):
        tiles, note = rule.apply(facts, replace(tiles, again=partial(_sized, facts, rules[:position])))
        if note is not None:
            tiles = replace(tiles, fired=(*tiles.fired, (rule.name, note)))
        if tiles.untiled:
            break
    return tiles


def solve(facts: BandFacts, length: int, held: str) -> tuple[Solve, list[int]]:
    """Alg. 3: τ from footprint(τ) = capacity, with the inner member held at ``length`` (within its
    extent); the sizes ⌊γd·τ⌋ (at least 1) and ``length`` for the inner member."""
    fixed = {} if facts.inner is None else {facts.inner: clamp(length, facts.extents[facts.inner])}
    gamma = facts.gamma

    def touched(tau: float) -> float:
        return facts.footprint.bytes([max(fixed.get(m, g * tau), 1.0) for m, g in enumerate(gamma)])

    level, capacity = facts.capacity
    machine = facts.machine
    root = math.floor(positive_root(touched, capacity))
    if root < MIN_TILE and machine.l2 > machine.l1:
        level, capacity, root = "L2", machine.l2, math.floor(positive_root(touched, machine.l2))
    if root < MIN_TILE and machine.l3 > machine.l2:
        level, capacity = _last_level(facts)
        root = math.floor(positive_root(touched, capacity))
    sizes = [fixed.get(m, max(1, math.floor(g * root))) for m, g in enumerate(gamma)]
    return Solve(level, capacity, float(root), held if fixed else ""), sizes


def _last_level(facts: BandFacts) -> tuple[str, int]:
    """The L3 cache a tile may fill: all of it when the band runs its tiles on one core at a time
    (its parallel loop, if any, is inside the tile), else an equal share per core."""
    machine = facts.machine
    if facts.parallel is None or machine.cores < 2:
        return "L3", machine.l3
    return f"L3/{machine.cores}", machine.l3 // machine.cores


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


def _second_level(facts: BandFacts, sizes: Sequence[int]) -> tuple[int, ...]:
    """L1 tiles per member of an L2 tile: every member but the inner one scaled by the f
    with footprint(f·sizes) = L2, floored; none when f < 2 (it would not pay)."""
    inner = facts.inner

    def scaled(factor: float) -> list[float]:
        return [size if member == inner else size * factor for member, size in enumerate(sizes)]

    factor = math.floor(positive_root(lambda f: facts.footprint.bytes(scaled(max(f, 1.0))), facts.machine.l2))
    if factor < 2:
        return ()
    counts = [1 if member == inner else factor for member in range(len(sizes))]
    return tuple(clamp(count, _tiles(facts.extents[m], sizes[m])) for m, count in enumerate(counts))


def _tiles(extent: int | None, size: int) -> int | None:
    return None if extent is None else -(-extent // size)
