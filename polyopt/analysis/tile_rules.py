"""The named rules the tile-size model applies, in order, after Alg. 3 (``polyopt.analysis.tile_sizes``).

Public: ``Rule``, ``RULES``, ``MIN_TILE``, ``line_elements``, ``busiest_share``, and one
function per rule.  The numbers the rules were fitted with are keys of the target profile
(``tile-scalar-inner-lines``, ``tile-balance-slack``, ``tile-reduction-min``: ``polyopt.target_keys``).

Each rule is a function ``(facts, tiles) -> (tiles, note)``: ``note`` is None when the rule leaves
the band as it is, else its words for the model's line in ``--report`` ('' when the rule's name,
listed at the line's end, says all).  ``--tile-rule=-NAME`` switches a rule off; the rules' names, in this order,
are ``polyopt.options.TILE_RULE_NAMES``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from polyopt.analysis.tile_facts import BandFacts, Solve, Tiles, resident_level

MIN_TILE = 4


@dataclass(frozen=True)
class Rule:
    """A rule of the tile-size model, switched off by ``--tile-rule=-NAME``."""

    name: str
    apply: Callable[[BandFacts, Tiles], tuple[Tiles, str | None]]


def resident(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """A band whose outer member runs outermost untiled, one iteration of which touches no more
    lines than a cache keeps (``resident_level``; a scalar inner loop does not stream), is left
    untiled: its reuse stays in cache, and tiles would only shorten the loops (Sec. 4.3)."""
    if facts.iteration is None:
        return tiles, None
    member, touched = facts.iteration
    held = resident_level(facts.machine, touched, facts.streams and not facts.scalar)
    if held is None:
        return tiles, None
    level, capacity = held
    whole = tuple(extent or 0 for extent in facts.extents)
    note = (
        f"one iteration of member {member} touches {touched // 1024} KiB of lines "
        f"<= {level} {capacity // 1024} KiB, so its reuse stays in cache untiled"
    )
    return Tiles(whole, Solve(level, capacity, 0.0, ""), tiles.again, tiles.fired, untiled=True), note


def no_reuse(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """A band none of whose members carries reuse (every element is touched by one iteration) and whose
    vector loop walks every access with stride 0 or 1 is left untiled: there is nothing for a tile to keep
    in cache, not even lines that a walk across rows would come back to, and tiles would only shorten its
    rows."""
    if any(facts.reuse) or not facts.streams:
        return tiles, None
    whole = tuple(extent or 0 for extent in facts.extents)
    note = "no member carries reuse, so tiles would only shorten its rows"
    return Tiles(whole, tiles.solve, tiles.again, tiles.fired, untiled=True), note


def streamed_rows(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """A vector member along which no access is reused (each of its iterations touches elements of its
    own) gains nothing from a short tile, while its rows are what the hardware prefetcher streams:
    it spans its extent, shared out among the cores when it is also the parallel member, and the
    other members are sized around it (doc/cost-models.md, 'Rows that stream')."""
    inner = facts.inner
    if inner is None or facts.scalar or not facts.streams or facts.reuse[inner] or facts.extents[inner] is None:
        return tiles, None
    extent = facts.extents[inner]
    cores = facts.machine.cores if inner == facts.parallel else 1
    line = line_elements(facts)
    length = max(tiles.sizes[inner], min(extent, -(-extent // (cores * line)) * line))
    if length == tiles.sizes[inner]:
        return tiles, None
    return tiles.again(length, f"member {inner} spans its rows (no reuse along it: rows stream), "), ""


def scalar_inner(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """An inner member that carries a dependence of a statement on itself (it never becomes a vector
    loop) is held at ``tile-scalar-inner-lines`` cache lines' worth of elements, not at vectors' worth:
    long rows pay only for vectors, and in a skewed wavefront tile they widen every other member's
    footprint (bench/RESULTS.md, 'Scalar inner members')."""
    if not facts.scalar or facts.inner is None:
        return tiles, None
    length = max(1, facts.machine.tile_scalar_inner_lines * facts.machine.line // facts.footprint.element_bytes)
    return tiles.again(
        length, f"member {facts.inner} fixed (scalar loop: it carries a statement's own dependence), "
    ), ""


def min_tile(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """Every member but the held inner one gets a tile of at least ``MIN_TILE``: a member without
    reuse still needs a tile long enough to amortize its loop."""
    return _changed(tiles, [max(MIN_TILE, size) for size in tiles.sizes], facts.inner)


def whole_lines(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """Every member but the held inner one is rounded down to whole cache lines of its elements
    (``line_elements``) once it spans one: tiles that start on line boundaries neither split lines
    between threads nor misalign the vector loop."""
    line = line_elements(facts)
    return _changed(tiles, [aligned(size, line) for size in tiles.sizes], facts.inner)


def within_extent(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """Every member but the held inner one (held within its extent already) keeps a tile no longer
    than its known extent: a tile longer than the loop is the loop."""
    sizes = [clamp(size, extent) for size, extent in zip(tiles.sizes, facts.extents, strict=True)]
    return _changed(tiles, sizes, facts.inner)


def scalar_square(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """In a band whose inner member is a scalar loop every other member is capped at the inner
    tile (square tiles; doc/cost-models.md: tile sizes), unless the inner member runs a recurrence and a
    parallel member takes its place innermost in the tile (``polyopt.analysis.vector_loops``)."""
    if not facts.scalar or (facts.parallel is not None and facts.recurrence):
        return tiles, None
    return _capped(facts, tiles, range(facts.members), "inner tile (a scalar loop)")


def triangle_cap(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """A member whose range the domain couples to the vector member's (a triangle such as j >= i)
    keeps a tile no longer than the vector member's: a row of longer tiles crosses the diagonal in
    more, mostly empty tiles, whose vector loops run short (bench/RESULTS.md, 'Triangle cap')."""
    return _capped(facts, tiles, facts.coupled, "vector tile (range coupled to it)")


def per_core(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """The outermost parallel member keeps at least one tile per core, and so does every member of
    a band without one (its tiles run as a wavefront); the held inner member keeps its length."""
    shared = [facts.parallel] if facts.parallel is not None else range(facts.members)
    cores = facts.machine.cores
    sizes = [
        _one_per_core(size, extent, cores) if member in shared else size
        for member, (size, extent) in enumerate(zip(tiles.sizes, facts.extents, strict=True))
    ]
    return _changed(tiles, sizes, facts.inner)


def even_out(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """When the band's parallel loop starts threads and deals its tiles out in blocks, and its
    busiest core (``busiest_share``) would run more than ``tile-balance-slack`` over an even share, the
    parallel member's tile is shortened, by half at most, to the one that loads that core least
    (PolyMage multigrid thesis, Sec. 3.5; bench/RESULTS.md, 'Even-out')."""
    member = facts.parallel
    if not facts.threads or member is None:
        return tiles, None
    extent, cores = facts.extents[member], facts.machine.cores
    before = tiles.sizes[member]
    after = _balanced(before, extent, cores, facts.machine.tile_balance_slack, line_elements(facts))
    if extent is None or after == before:
        return tiles, None
    sizes = list(tiles.sizes)
    sizes[member] = after
    note = (
        f"member {member} evened out over the cores ({before} -> {after}: the busiest core runs "
        f"{busiest_share(after, extent, cores)} of {extent} iterations, not {busiest_share(before, extent, cores)}), "
    )
    return tiles.with_sizes(sizes), note


def reduction_whole_row(facts: BandFacts, tiles: Tiles) -> tuple[Tiles, str | None]:
    """A vector reduction pays a horizontal sum of its partial sums, and a load and store of the
    reduced element, once per tile row, so it runs over its whole extent when every other member's
    tile, sized by the rules before this one, still reaches ``tile-reduction-min``
    (bench/RESULTS.md, 'Whole vector reductions')."""
    inner = facts.inner
    if not facts.reduction or inner is None or facts.extents[inner] is None:
        return tiles, None
    whole = tiles.again(
        facts.extents[inner], f"member {inner} whole (vector reduction: one horizontal sum per tile row), "
    )
    if any(size < facts.machine.tile_reduction_min for member, size in enumerate(whole.sizes) if member != inner):
        return tiles, None
    return whole, ""


RULES = (
    Rule("resident", resident),
    Rule("no-reuse", no_reuse),
    Rule("streamed-rows", streamed_rows),
    Rule("scalar-inner", scalar_inner),
    Rule("min-tile", min_tile),
    Rule("whole-lines", whole_lines),
    Rule("within-extent", within_extent),
    Rule("scalar-square", scalar_square),
    Rule("triangle-cap", triangle_cap),
    Rule("per-core", per_core),
    Rule("even-out", even_out),
    Rule("reduction-whole-row", reduction_whole_row),
)


def _changed(tiles: Tiles, sizes: list[int], held: int | None) -> tuple[Tiles, str | None]:
    """``tiles`` with ``sizes`` for every member but ``held``; fired ('') when that changes one."""
    kept = [
        before if member == held else after
        for member, (before, after) in enumerate(zip(tiles.sizes, sizes, strict=True))
    ]
    if tuple(kept) == tiles.sizes:
        return tiles, None
    return tiles.with_sizes(kept), ""


def _capped(facts: BandFacts, tiles: Tiles, members: Iterable[int], why: str) -> tuple[Tiles, str | None]:
    """``members`` longer than the held inner member's tile, capped at it."""
    inner = facts.inner
    if inner is None:
        return tiles, None
    sizes = list(tiles.sizes)
    capped = [member for member in members if member != inner and sizes[member] > sizes[inner]]
    if not capped:
        return tiles, None
    for member in capped:
        sizes[member] = sizes[inner]
    return tiles.with_sizes(sizes), f"member(s) {capped} capped at the {why}, "


def line_elements(facts: BandFacts) -> int:
    """The elements of one cache line, of the widest element the band's statements access."""
    return max(1, facts.machine.line // facts.footprint.element_bytes)


def aligned(size: int, line: int) -> int:
    """``size`` rounded down to whole cache lines of ``line`` elements once it spans one."""
    return size - size % line if size >= line else size


def clamp(size: int, extent: int | None) -> int:
    """``size`` within [1, ``extent``] (when known)."""
    return max(1, min(size, extent)) if extent is not None else size


def _one_per_core(size: int, extent: int | None, cores: int) -> int:
    """``size``, shrunk so that ``extent`` holds at least one tile per core."""
    if extent is None or extent < cores * MIN_TILE:
        return size
    return min(size, max(MIN_TILE, extent // cores))


def _balanced(size: int, extent: int | None, cores: int, slack: float, line: int) -> int:
    """``size``, or, when its tiles leave the busiest core more than ``slack`` over an even
    share of ``extent``, the tile that loads it least (the longest among equals), at least half of
    ``size`` and in whole lines once it spans one (``aligned``)."""
    if extent is None or size >= extent or cores < 2:
        return size
    if busiest_share(size, extent, cores) <= extent / cores * (1 + slack):
        return size
    candidates = {aligned(tile, line) for tile in range(max(MIN_TILE, size // 2), size + 1)}
    return min(candidates, key=lambda tile: (busiest_share(tile, extent, cores), -tile))


def busiest_share(tile: int, extent: int, cores: int) -> int:
    """The iterations of a loop of ``extent`` that the busiest core runs when its tiles of
    ``tile`` are dealt out by OpenMP's static schedule: the first cores take one more tile."""
    tiles = -(-extent // tile)
    return min(extent, -(-tiles // cores) * tile)
