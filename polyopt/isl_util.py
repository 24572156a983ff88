"""The one place where isl dimensions are handled by position.

Everything else in polyopt names dimensions; these helpers translate.
Public: ``statement_space``, ``var``, ``const``, ``extent``, ``constant``, ``at_parameters``, ``total``,
``extended``, ``equate_prefix``,
``maps_of``, ``sets_of``, ``union_of``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import islpy as isl


def statement_space(ctx: isl.Context, name: str, iterators: Iterable[str], params: Iterable[str]) -> isl.Space:
    """The set space ``[params] -> { name[iterators] }``."""
    space = isl.Space.create_from_names(ctx, set=list(iterators), params=list(params))
    return space.set_tuple_name(isl.dim_type.set, name)


def var(space: isl.Space, name: str) -> isl.PwAff:
    """The value of the iterator or parameter ``name`` on ``space``."""
    local = isl.LocalSpace.from_space(space)
    for kind in (isl.dim_type.set, isl.dim_type.param):
        position = space.find_dim_by_name(kind, name)
        if position >= 0:
            return isl.PwAff.from_aff(isl.Aff.var_on_domain(local, kind, position))
    raise KeyError(f"no dimension named {name!r} in {space}")


def const(space: isl.Space, value: int) -> isl.PwAff:
    """The constant ``value`` on ``space``."""
    aff = isl.Aff.zero_on_domain(isl.LocalSpace.from_space(space))
    return isl.PwAff.from_aff(aff.set_constant_val(isl.Val.int_from_si(space.get_ctx(), value)))


def extended(value: isl.PwAff) -> isl.PwAff:
    """``value`` extended everywhere: its expression when it has one piece, else 0 where it is undefined."""
    pieces: list[isl.Aff] = []
    value.foreach_piece(lambda _, aff: pieces.append(aff))
    return isl.PwAff.from_aff(pieces[0]) if len(pieces) == 1 else total(value)


def extent(values: isl.Set, position: int) -> isl.PwAff:
    """How many values dimension ``position`` of ``values`` spans (its largest minus its smallest value,
    plus one), as a function of the parameters, where ``values`` is not empty."""
    high = values.dim_max(position)
    return high.sub(values.dim_min(position)).add(const(high.get_domain_space(), 1))


def constant(value: isl.PwAff) -> int | None:
    """The integer ``value`` always takes, when it is a single constant piece."""
    pieces: list[isl.Aff] = []
    value.foreach_piece(lambda _, aff: pieces.append(aff))
    if len(pieces) != 1 or not pieces[0].is_cst():
        return None
    number = pieces[0].get_constant_val()
    return number.to_python() if number.is_int() else None


def at_parameters(values: isl.Set, parameters: Mapping[str, int]) -> isl.Set:
    """``values`` with each parameter it names fixed at its value in ``parameters``."""
    for name, value in parameters.items():
        position = values.find_dim_by_name(isl.dim_type.param, name)
        if position >= 0:
            values = values.fix_val(isl.dim_type.param, position, isl.Val.int_from_si(values.get_ctx(), value))
    return values


def total(value: isl.PwAff) -> isl.PwAff:
    """``value`` extended with 0 where it is undefined."""
    zero = const(value.get_domain_space(), 0).intersect_domain(value.domain().complement())
    return value.union_add(zero)


def equate_prefix(relation: isl.Map, depth: int) -> isl.Map:
    """Restrict ``relation`` to pairs whose first ``depth`` input and output dims agree."""
    for position in range(depth):
        relation = relation.equate(isl.dim_type.in_, position, isl.dim_type.out, position)
    return relation


def sets_of(union: isl.UnionSet) -> list[isl.Set]:
    """The sets of a union set, one per tuple."""
    sets: list[isl.Set] = []
    union.foreach_set(sets.append)
    return sets


def maps_of(union: isl.UnionMap) -> list[isl.Map]:
    """The maps of a union map, one per pair of tuples."""
    maps: list[isl.Map] = []
    union.foreach_map(maps.append)
    return maps


Union = isl.UnionMap | isl.UnionSet


def union_of(items: Iterable[isl.Map | isl.Set | Union], empty: Union) -> Union:
    """The union of ``items``, starting from ``empty``."""
    result = empty
    for item in items:
        result = result.union(item)
    return result
