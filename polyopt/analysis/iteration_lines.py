"""The cache lines one iteration of a loop touches, counted in isl at the parameter values: whether the reuse
of the loops below it stays in cache without tiling (PolyDL's working sets per cache level, Sec. 4.1).

Public: ``iteration_bytes``, ``reused_bytes``.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping

import islpy as isl

from polyopt import isl_util
from polyopt.model import PolyModel, Reference


def iteration_bytes(
    model: PolyModel,
    band: isl.ScheduleNode,
    member: int,
    parameters: Mapping[str, int],
    line: int,
) -> int | None:
    """Bytes of the ``line``-byte cache lines that one iteration of band ``member`` touches
    (everything below it runs in full; per array, the box around its elements, the last
    subscript filling whole lines), the most over its first, middle and last value at
    ``parameters`` in a middle iteration of the loops around the band (reuse across the
    member's iterations happens within one of theirs); None when a count is not known.
    A box over-counts, never under-counts.  Elements count at their declared sizes
    (``PolyModel.element_bytes``)."""
    found = _iterations(model, band, member, parameters)
    if found is None:
        return None
    timing, values, (low, high) = found
    last = values.dim(isl.dim_type.set) - 1
    references = [ref for ref in model.references if ref.relation.dim(isl.dim_type.out)]
    per_line = {ref.array: max(1, line // model.element_bytes(ref.array)) for ref in references}
    counts: list[int] = []
    for value in sorted({low, (low + high) // 2, high}):
        point = values.fix_val(isl.dim_type.set, last, isl.Val.int_from_si(model.ctx, value))
        instances = timing.intersect_range(isl.UnionSet.from_set(point)).domain()
        count = _touched_lines(instances, references, parameters, per_line)
        if count is None:
            return None
        counts.append(count)
    return line * max(counts, default=0)


def _iterations(
    model: PolyModel, band: isl.ScheduleNode, member: int, parameters: Mapping[str, int]
) -> tuple[isl.UnionMap, isl.Set, tuple[int, int]] | None:
    """Each instance below ``band`` to its iteration of the loops around it and of ``member`` at
    ``parameters``, the iterations of ``member`` in a middle iteration of the loops around, and its first and
    last value there; None when not known."""
    fixed = isl_util.at_parameters(isl.Set.universe(model.param_space()), parameters)
    timing = _enclosing_and_member(band, member).intersect_domain(band.get_domain().intersect_params(fixed))
    if timing.is_empty():
        return None
    values = isl.Set.from_union_set(timing.range())
    last = values.dim(isl.dim_type.set) - 1
    for position in range(last):
        values = _fixed_inside(values, position, parameters)
        if values is None:
            return None
    bounds = _bounds(values, last, parameters)
    return None if bounds is None else (timing, values, bounds)


def reused_bytes(
    model: PolyModel,
    band: isl.ScheduleNode,
    member: int,
    parameters: Mapping[str, int],
    line: int,
) -> int | None:
    """Bytes of the ``line``-byte cache lines that a middle iteration of band ``member`` touches and another
    of its iterations touches too (in the same iteration of the loops around the band), at ``parameters``:
    the most that keeping its reuse in cache can save per iteration (per array, the box around those lines);
    None when a count is not known."""
    found = _iterations(model, band, member, parameters)
    if found is None:
        return None
    timing, values, (low, high) = found
    last = values.dim(isl.dim_type.set) - 1
    middle = values.fix_val(isl.dim_type.set, last, isl.Val.int_from_si(model.ctx, (low + high) // 2))
    others = isl.UnionSet.from_set(values.subtract(middle))
    touched: dict[str, isl.UnionMap] = {}
    for ref in model.references:
        if ref.relation.dim(isl.dim_type.out):
            per_line = max(1, line // model.element_bytes(ref.array))
            lines = ref.relation.apply_range(_line_of(ref.relation, per_line))
            reached = timing.reverse().apply_range(isl.UnionMap.from_map(lines))
            touched[ref.array] = touched[ref.array].union(reached) if ref.array in touched else reached
    total = 0
    for lines in touched.values():
        shared = lines.intersect_domain(isl.UnionSet.from_set(middle)).range()
        shared = shared.intersect(lines.intersect_domain(others).range())
        if shared.is_empty():
            continue
        count = _lines(isl.Set.from_union_set(shared), parameters, 1)
        if count is None:
            return None
        total += count
    return line * total


def _line_of(relation: isl.Map, per_line: int) -> isl.Map:
    """The map from the elements of ``relation``'s range to their cache lines of ``per_line`` elements (rows
    as they are, the last subscript divided)."""
    count = relation.dim(isl.dim_type.out)
    name = relation.get_tuple_name(isl.dim_type.out)
    rows = [f"e{position}" for position in range(count - 1)]
    last = f"e{count - 1}"
    text = (
        f"{{ {name}[{', '.join([*rows, last])}] -> {name}[{', '.join([*rows, 'l'])}] : "
        f"{per_line} l <= {last} < {per_line} l + {per_line} }}"
    )
    return isl.Map(text, context=relation.get_ctx()).align_params(relation.get_space())


def _touched_lines(
    instances: isl.UnionSet, references: list[Reference], parameters: Mapping[str, int], per_line: Mapping[str, int]
) -> int | None:
    """Cache lines the ``references`` touch in ``instances``: per array, the box around all its
    elements or the sum of the boxes of its distinct references' elements, whichever is smaller
    (both bound the lines from above; one box over rows i and k spans every row between them).  A
    reference whose elements are not known (a subscript read from memory) touches at most one line
    per instance.  ``per_line``: the elements of a line of each array."""
    touched: dict[str, list[tuple[isl.Set, int | None]]] = {}
    for ref in references:
        elements = instances.apply(isl.UnionMap.from_map(ref.relation))
        if elements.is_empty():
            continue
        distinct = touched.setdefault(ref.array, [])
        reached = isl.Set.from_union_set(elements)
        if not any(reached.is_equal(other) for other, _ in distinct):
            lines = _lines(reached, parameters, per_line[ref.array])
            distinct.append((reached, lines if lines is not None else _instances(instances, ref, parameters)))
    total = 0
    for array, distinct in touched.items():
        parts = [count for _, count in distinct]
        if None in parts:
            return None
        union = functools.reduce(isl.Set.union, [reached for reached, _ in distinct])
        whole = _lines(union, parameters, per_line[array])
        total += min(whole if whole is not None else math.inf, sum(count or 0 for count in parts))
    return int(total)


def _instances(instances: isl.UnionSet, ref: Reference, parameters: Mapping[str, int]) -> int | None:
    """The instances of ``ref``'s statement in ``instances`` (the points of their box)."""
    own = instances.intersect(isl.UnionSet.from_set(ref.relation.domain()))
    return 0 if own.is_empty() else _lines(isl.Set.from_union_set(own), parameters, 1)


def _enclosing_and_member(band: isl.ScheduleNode, member: int) -> isl.UnionMap:
    """Each instance below ``band`` to the iteration of the loops around the band and of ``member``."""
    own = isl.MultiUnionPwAff.from_union_pw_aff(band.band_get_partial_schedule().get_union_pw_aff(member))
    enclosing = band.get_prefix_schedule_multi_union_pw_aff()
    if enclosing.dim(isl.dim_type.out):
        own = enclosing.flat_range_product(own)
    return isl.UnionMap.from_multi_union_pw_aff(own)


def _bounds(values: isl.Set, position: int, parameters: Mapping[str, int]) -> tuple[int, int] | None:
    """The smallest and largest value of dimension ``position`` at ``parameters``; None when not known."""
    low, high = (isl_util.value_at(bound, parameters) for bound in (values.dim_min(position), values.dim_max(position)))
    return None if low is None or high is None else (low, high)


def _fixed_inside(values: isl.Set, position: int, parameters: Mapping[str, int]) -> isl.Set | None:
    """``values`` with dimension ``position`` fixed at its middle value (its first where the middle
    falls in a gap); None when the bounds are not known."""
    bounds = _bounds(values, position, parameters)
    if bounds is None:
        return None
    low, high = bounds
    for value in ((low + high) // 2, low):
        fixed = values.fix_val(isl.dim_type.set, position, isl.Val.int_from_si(values.get_ctx(), value))
        if not fixed.is_empty():
            return fixed
    return None


def _lines(elements: isl.Set, parameters: Mapping[str, int], per_line: int) -> int | None:
    """Cache lines of ``per_line`` elements in the box around ``elements``."""
    extents: list[int] = []
    for dimension in range(elements.dim(isl.dim_type.set)):
        extent = isl_util.value_at(isl_util.extent(elements, dimension), parameters)
        if extent is None:
            return None
        extents.append(extent)
    *rows, last = extents
    return math.prod(rows) * -(-last // per_line)
