"""What the tile-size model knows about a band, and the sizes it carries from rule to rule.

Public: ``BandFacts``, ``Solve``, ``Tiles``, ``tile_capacity``, ``resident_level``.

``BandFacts`` are computed once per band (``polyopt.transform.tiling.band_facts``); the model
(``polyopt.analysis.tile_sizes``) is a pure function of them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from polyopt.analysis.footprint import TileFootprint
from polyopt.machine import Machine


@dataclass(frozen=True)
class BandFacts:
    """One permutable band as the tile-size model sees it.

    ``footprint``: its tile footprint; ``extents``: per member at the parameter values (None:
    unknown); ``reuse``: per member, the accesses' dimensional reuse plus the reuse along flow
    dependences; ``inner``: the member Alg. 5 runs innermost when it is a vector loop or walks some
    array with stride 1, held at a fixed length (None: no such member); ``parallel``: the outermost
    parallel member; ``coupled``: the members outside ``inner`` whose range the domain couples to
    its range (a triangle j >= i); ``scalar``: ``inner`` carries a dependence of a statement on
    itself, so it never becomes a vector loop; ``recurrence``: it runs a recurrence, so a parallel
    member takes its place innermost in the tile; ``reduction``: ``inner`` is a vector reduction;
    ``streams``: the vector loop walks every access with stride 0 or 1; ``threads``: the parallel
    loop starts threads and deals its tiles out in blocks; ``iteration``: the band's outer member
    and the bytes of cache lines one of its iterations touches, when that member runs outermost
    untiled (None otherwise).
    """

    footprint: TileFootprint
    extents: tuple[int | None, ...]
    machine: Machine
    reuse: tuple[int, ...]
    inner: int | None = None
    parallel: int | None = None
    coupled: tuple[int, ...] = ()
    scalar: bool = False
    recurrence: bool = False
    reduction: bool = False
    streams: bool = False
    threads: bool = True
    iteration: tuple[int, int] | None = None

    @property
    def gamma(self) -> tuple[float, ...]:
        """γd: member d's reuse over the largest one, at least the profile's ``tile-gamma-floor`` (1 without reuse)."""
        most = max(self.reuse, default=0)
        return tuple(max(r / most, self.machine.tile_gamma_floor) if most else 1.0 for r in self.reuse)

    @property
    def capacity(self) -> tuple[str, int]:
        """The cache share a tile's footprint may fill (``tile_capacity``)."""
        return tile_capacity(self.machine)

    @property
    def members(self) -> int:
        return len(self.extents)


@dataclass(frozen=True)
class Solve:
    """Alg. 3's solution: ``root`` τ of footprint(τ) = the ``capacity`` bytes of cache ``level``;
    ``held``: how the inner member was held, in the report's words ('' without one)."""

    level: str
    capacity: int
    root: float
    held: str


@dataclass(frozen=True)
class Tiles:
    """The sizes between two rules: one per member, from the Alg. 3 solve ``solve``; ``fired``:
    the rules that changed them, with their notes, in order; ``untiled``: the band is better left
    untiled.  ``again(length, held)`` is the model up to the current rule with the inner member held
    at ``length`` elements (``held``: the report's words for it)."""

    sizes: tuple[int, ...]
    solve: Solve
    again: Callable[[int, str], Tiles] = field(compare=False, repr=False)
    fired: tuple[tuple[str, str], ...] = ()
    untiled: bool = False

    def with_sizes(self, sizes: list[int]) -> Tiles:
        return Tiles(tuple(sizes), self.solve, self.again, self.fired, self.untiled)


def tile_capacity(machine: Machine) -> tuple[str, int]:
    """The cache share a tile's footprint may fill: L1, or L2 over the profile's ``tile-l2-share`` when larger."""
    share = machine.tile_l2_share
    if machine.l2 // share > machine.l1:
        return f"L2/{share}", machine.l2 // share
    return "L1", machine.l1


def resident_level(machine: Machine, touched: int, streams: bool) -> tuple[str, int] | None:
    """The cache that keeps the ``touched`` bytes of lines of one outer iteration until the
    next one, or None.  A vector loop that ``streams`` is fed from L2 by the prefetcher, so
    the lines need only fit L2; a loop that strides across lines (a column walk) reuses each
    line in the next outer iteration, one element over, only while it stays in L1
    (bench/RESULTS.md, entry 12)."""
    level, capacity = tile_capacity(machine)
    if not streams:
        level, capacity = "L1", machine.l1
    elif touched > capacity:
        level, capacity = "L2", machine.l2
    return (level, capacity) if touched <= capacity else None
