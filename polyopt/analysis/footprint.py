"""Reuse and footprint of a tile, from the access relations (PolyMage dense-matrix thesis, Sec. 4.3, Table 4.3).

Public: ``AccessGroup``, ``TileFootprint``, ``band_footprint``, ``dependence_reuse``.

A tile of a band spans τd values of each member d; the loops below the band run
in full (their extent at the parameter values) and the loops above it are
fixed.  Written in these coordinates every array reference is affine:
subscript row r moves by a_rd when member d advances.  References to one
array with the same rows (uniformly generated) form a group.  A row along one
coordinate covers τ elements of its dimension (``a[i]``, ``a[2*i]``), a row
along several covers their combined span (``a[i+j]``, ``a[i-j]``:
τi + τj − 1), and the constant offsets between a group's references widen a
row by their spread.  A group's footprint is the product over its distinct
rows; the tile's is the sum over groups, in bytes.

Dimensional reuse (Wolf and Lam, counted as the PolyMage dense-matrix thesis, Sec. 4.3, does): along
member d, each reference that does not move with d has temporal reuse (the C
read and the C write of a matrix product count twice along k), and each extra
offset of a group that d's motion reaches has group-temporal reuse.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.rational_rows import column_of, dot, extend_basis, inverse, unit_row
from polyopt.frontend.declarations import DEFAULT_ELEMENT_BYTES
from polyopt.model import PolyModel
from polyopt.schedule_tree import band_statements

Row = tuple[Fraction, ...]


@dataclass(frozen=True)
class AccessGroup:
    """Uniformly generated references to ``array``: ``rows`` per subscript (coefficients per
    coordinate: band members, then loops below the band), the offsets of each reference, and
    per reference the coordinates along which its statement runs; ``element_bytes``: the size of one
    element of ``array``, and ``line_elements`` the elements of a cache line: a row of the last subscript
    that moves with the tile touches at least one line."""

    array: str
    rows: tuple[Row, ...]
    offsets: tuple[tuple[Fraction, ...], ...]
    runs: tuple[frozenset[int], ...]
    element_bytes: int = DEFAULT_ELEMENT_BYTES
    line_elements: int = 1

    def spreads(self) -> tuple[Fraction, ...]:
        """Per row, the largest minus the smallest offset."""
        return tuple(max(o[r] for o in self.offsets) - min(o[r] for o in self.offsets) for r in range(len(self.rows)))

    @functools.cached_property
    def _distinct_rows(self) -> tuple[tuple[Row, Fraction], ...]:
        """Each row once, with its spread: a diagonal a[i][i] walks one line, not a square.  Kept because
        the tile-size search asks ``elements`` of many sizes."""
        spreads: dict[Row, Fraction] = {}
        for row, spread in zip(self.rows, self.spreads(), strict=True):
            spreads.setdefault(row, spread)
        return tuple(spreads.items())

    def elements(self, sizes: Sequence[float]) -> float:
        """Distinct elements in a tile whose coordinates span ``sizes``."""
        count = 1.0
        for row, spread in self._distinct_rows:
            span = _row_span(row, sizes, spread)
            count *= max(span, self.line_elements) if row == self.rows[-1] and any(row) else span
        return count

    def reuse(self, coordinate: int) -> int:
        """Temporal plus group-temporal reuse of the group's references along ``coordinate``."""
        column = tuple(row[coordinate] for row in self.rows)
        if not any(column):
            return sum(coordinate in runs for runs in self.runs)
        distinct = sorted(set(self.offsets))
        classes: list[list[tuple[Fraction, ...]]] = []
        for offset in distinct:
            home = next((c for c in classes if _along(offset, c[0], column)), None)
            if home is None:
                classes.append([offset])
            else:
                home.append(offset)
        return sum(len(c) - 1 for c in classes)


def _along(offset: tuple[Fraction, ...], other: tuple[Fraction, ...], column: tuple[Fraction, ...]) -> bool:
    """Whether ``offset - other`` is an integer multiple of ``column``."""
    pivot = next(r for r, value in enumerate(column) if value)
    factor = (offset[pivot] - other[pivot]) / column[pivot]
    return factor.denominator == 1 and all(o - p == factor * c for o, p, c in zip(offset, other, column, strict=True))


def _row_span(row: Row, sizes: Sequence[float], spread: Fraction) -> float:
    moving = [(abs(float(a)), size) for a, size in zip(row, sizes, strict=True) if a]
    if not moving:
        return 1 + float(spread)
    if len(moving) == 1:
        step, size = moving[0]
        return size + float(spread) / step
    return sum(step * (size - 1) for step, size in moving) + 1 + float(spread)


@dataclass(frozen=True)
class TileFootprint:
    """The working set of one tile of a band with ``members`` members; ``fixed`` are the
    extents of the loops below the band, which a tile runs in full."""

    members: int
    fixed: tuple[int, ...]
    groups: tuple[AccessGroup, ...]

    @property
    def element_bytes(self) -> int:
        """The widest element of its groups: it sets how many elements a vector or a line of the tile holds."""
        return max((group.element_bytes for group in self.groups), default=DEFAULT_ELEMENT_BYTES)

    def bytes(self, sizes: Sequence[float]) -> float:
        """Bytes a tile of ``sizes`` (one per member) touches."""
        full = list(sizes) + list(self.fixed)
        return sum(group.element_bytes * group.elements(full) for group in self.groups)

    def reuse(self) -> tuple[int, ...]:
        """Per member, its dimensional reuse: temporal plus group-temporal reuse counts."""
        return tuple(sum(group.reuse(member) for group in self.groups) for member in range(self.members))

    def describe(self) -> str:
        """The footprint as an expression of the tile sizes τ0, τ1, ..."""
        names = [f"τ{m}" for m in range(self.members)] + [str(size) for size in self.fixed]
        terms = [_group_text(group, names) for group in self.groups]
        if len({group.element_bytes for group in self.groups}) > 1:
            return (
                " + ".join(f"{group.element_bytes}·{term}" for group, term in zip(self.groups, terms, strict=True))
                + " bytes"
            )
        return f"{self.element_bytes}·(" + " + ".join(terms) + ") bytes"


def _group_text(group: AccessGroup, names: list[str]) -> str:
    factors: list[str] = []
    for row, spread in sorted(set(zip(group.rows, group.spreads(), strict=True))):
        moving = [(a, names[c]) for c, a in enumerate(row) if a]
        extra = f"+{spread}" if spread else ""
        if not moving:
            factors.append(f"{1 + spread}")
        elif len(moving) == 1:
            factors.append(f"{moving[0][1]}{extra}" if not extra else f"({moving[0][1]}{extra})")
        else:
            text = "+".join(f"{abs(a) if abs(a) != 1 else ''}{name}" for a, name in moving)
            factors.append(f"({text}-{len(moving) - 1}{extra})")
    return f"{group.array}:" + "·".join(factors)


def band_footprint(
    model: PolyModel, band: isl.ScheduleNode, parameters: Mapping[str, int], line: int
) -> TileFootprint | None:
    """The footprint of a tile of ``band`` (module docstring) with cache lines of ``line`` bytes, or None when
    a schedule or access of its statements is not a single affine expression."""
    members = band.band_n_member()
    fixed: list[int] = []
    keyed: dict[
        tuple[str, tuple[Row, ...], tuple[Fraction, ...]], list[tuple[tuple[Fraction, ...], frozenset[int]]]
    ] = {}
    for statement in sorted(band_statements(band)):
        frame = _frame(model, band, statement, parameters)
        if frame is None:
            return None
        directions, inner = frame
        first = members + len(fixed)
        fixed.extend(inner)
        runs = frozenset(m for m in range(members) if any(directions[m])) | frozenset(range(first, first + len(inner)))
        for ref in model.references:
            if ref.statement != statement or ref.relation.dim(isl.dim_type.out) == 0:
                continue  # scalars live in registers
            rows = _subscripts(ref.relation)
            if rows is None:
                return None
            coordinates = [tuple(dot(linear, d) for d in directions) for linear, _, _ in rows]
            widened = [c[:members] + (Fraction(0),) * (first - members) + c[members:] for c in coordinates]
            key = (ref.array, tuple(widened), tuple(p for _, p, _ in rows))
            keyed.setdefault(key, []).append((tuple(const for _, _, const in rows), runs))
    width = members + len(fixed)
    groups = tuple(
        AccessGroup(
            array,
            tuple(row + (Fraction(0),) * (width - len(row)) for row in rows),
            tuple(offset for offset, _ in references),
            tuple(runs for _, runs in references),
            model.element_bytes(array),
            max(1, line // model.element_bytes(array)),
        )
        for (array, rows, _), references in keyed.items()
    )
    return TileFootprint(members, tuple(fixed), groups)


Affine = tuple[tuple[Fraction, ...], tuple[Fraction, ...], Fraction]  # iterators, parameters, constant


def dependence_reuse(band: isl.ScheduleNode, dependences: isl.UnionMap) -> tuple[int, ...]:
    """Per member, the dependences inside the band whose distance along it stays within a
    constant range other than {0}: values produced (or used) in one iteration and used again
    a bounded number of iterations later, which a tile along the member keeps in cache
    (producer-consumer reuse, as PolyDL's working sets count it, Alg. 1).  In a
    time-skewed stencil band this is the reuse along time, which no access alone shows."""
    count = band.band_n_member()
    domain = band.get_domain()
    prefix = band.get_prefix_schedule_union_map()
    inside = (
        dependences.intersect_domain(domain).intersect_range(domain).intersect(prefix.apply_range(prefix.reverse()))
    )
    partial = isl.UnionMap.from_multi_union_pw_aff(band.band_get_partial_schedule())
    found = [0] * count
    for dependence in isl_util.maps_of(inside):
        distances = isl.UnionMap.from_map(dependence).apply_domain(partial).apply_range(partial).deltas()
        for distance in isl_util.sets_of(distances):
            for member in range(count):
                low, high = (isl_util.constant(bound) for bound in (distance.dim_min(member), distance.dim_max(member)))
                if low is not None and high is not None and (low, high) != (0, 0):
                    found[member] += 1
    return tuple(found)


def _affine(aff: isl.Aff) -> Affine:
    def coefficients(kind: isl.dim_type) -> tuple[Fraction, ...]:
        return tuple(Fraction(str(aff.get_coefficient_val(kind, k))) for k in range(aff.dim(kind)))

    return coefficients(isl.dim_type.in_), coefficients(isl.dim_type.param), Fraction(str(aff.get_constant_val()))


def _single(value: isl.PwMultiAff) -> isl.MultiAff | None:
    pieces: list[isl.MultiAff] = []
    value.foreach_piece(lambda _, piece: pieces.append(piece))
    return pieces[0] if len(pieces) == 1 else None


def _subscripts(relation: isl.Map) -> list[Affine] | None:
    """Each subscript of an access as an affine expression of the statement's iterators."""
    if not relation.is_single_valued():
        return None
    piece = _single(isl.PwMultiAff.from_map(relation))
    if piece is None:
        return None
    return [_affine(piece.get_at(r)) for r in range(piece.dim(isl.dim_type.out))]


def _statement_map(union: isl.UnionMap, statement: str) -> isl.Map:
    return next(m for m in isl_util.maps_of(union) if m.get_tuple_name(isl.dim_type.in_) == statement)


def _schedule_rows(union: isl.UnionMap, statement: str) -> list[tuple[Fraction, ...]] | None:
    """The iterator coefficients of each schedule dimension of ``statement``."""
    rows = _subscripts(_statement_map(union, statement))
    return None if rows is None else [linear for linear, _, _ in rows]


def _frame(
    model: PolyModel, band: isl.ScheduleNode, statement: str, parameters: Mapping[str, int]
) -> tuple[list[tuple[Fraction, ...]], list[int]] | None:
    """How the statement's iterators move per coordinate (band members, then the loops below
    the band), and the extents of the loops below it at ``parameters``.

    The schedule rows above the band, the band's rows and unit rows for the remaining
    iterators form an invertible matrix; its inverse's columns are the directions.  A
    member that does not move the statement (it repeats an outer row) gets direction 0.
    """
    outer = _schedule_rows(band.get_prefix_schedule_union_map(), statement)
    own = _schedule_rows(isl.UnionMap.from_multi_union_pw_aff(band.band_get_partial_schedule()), statement)
    if outer is None or own is None:
        return None
    depth = model.domains[statement].dim(isl.dim_type.set)
    basis: list[tuple[Fraction, ...]] = []
    for row in outer:
        extend_basis(basis, row)
    used = [extend_basis(basis, row) for row in own]
    units = [k for k in range(depth) if extend_basis(basis, unit_row(depth, k))]
    inverted = inverse(basis)
    zero = (Fraction(0),) * depth
    directions: list[tuple[Fraction, ...]] = []
    index = len(basis) - len(units) - sum(used)
    for is_used in used:
        directions.append(column_of(inverted, index) if is_used else zero)
        index += is_used
    for offset in range(len(units)):
        directions.append(column_of(inverted, len(basis) - len(units) + offset))
    domain = isl_util.at_parameters(model.domains[statement], parameters)
    inner = [_extent_at(domain, k) for k in units]
    return directions, inner


def _extent_at(domain: isl.Set, position: int) -> int:
    """The extent of dimension ``position`` of ``domain`` (1 when it is not a known constant)."""
    if domain.is_empty():
        return 1
    return max(1, isl_util.constant(isl_util.extent(domain, position)) or 1)
