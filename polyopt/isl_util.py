"""The one place where isl dimensions are handled by position.

Everything else in polyopt names dimensions; these helpers translate.
Public: ``statement_space``, ``var``, ``const``, ``extent``, ``size``, ``shaped``, ``value_at``, ``constant``,
``at_parameters``, ``total``, ``extended``, ``equate_prefix``, ``solutions_for``,
``maps_of``, ``sets_of``, ``union_of``, ``has_local_variables``, ``coalesced``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TypeVar

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
    plus one), as a function of the parameters, where ``values`` is not empty; undefined everywhere when
    the dimension is unbounded (the elements an unknown subscript may touch)."""
    if not values.dim_is_bounded(isl.dim_type.set, position):
        params = values.get_space().params()
        return const(params, 0).intersect_domain(isl.Set.empty(params))
    high = values.dim_max(position)
    return high.sub(values.dim_min(position)).add(const(high.get_domain_space(), 1))


def size(values: isl.Set, name: str) -> isl.PwAff:
    """One more than the largest value of iterator ``name`` in ``values`` (the size of a range that starts
    at 0), as a function of the parameters, where ``values`` is not empty."""
    high = values.dim_max(values.find_dim_by_name(isl.dim_type.set, name))
    return high.add(const(high.get_domain_space(), 1))


def shaped(like: isl.Set, constraints: str, names: Mapping[str, str], sizes: Mapping[str, isl.PwAff]) -> isl.Set:
    """The points of ``like``'s space that satisfy ``constraints``, isl text with ``{key}`` fields: the keys of
    ``names`` stand for those iterators, and the keys of ``sizes`` for those values (functions of the parameters)."""
    space = like.get_space()
    params = [space.get_dim_name(isl.dim_type.param, p) for p in range(space.dim(isl.dim_type.param))]
    iterators = [space.get_dim_name(isl.dim_type.set, d) for d in range(space.dim(isl.dim_type.set))]
    fresh: dict[str, str] = {}
    for key in sizes:
        fresh[key] = f"size_{key}"
        while fresh[key] in params or fresh[key] in iterators:
            fresh[key] += "_"
    text = constraints.format(**names, **fresh)
    tuple_name = like.get_tuple_name() if like.has_tuple_name() else ""
    header = f"[{', '.join(params + list(fresh.values()))}] -> {{ {tuple_name}[{', '.join(iterators)}]"
    values = isl.Set.read_from_str(like.get_ctx(), f"{header} : {text} }}")
    for key, value in sizes.items():
        parameter = var(values.get_space().params(), fresh[key])
        values = values.intersect_params(value.align_params(values.get_space().params()).eq_set(parameter))
        values = values.project_out(isl.dim_type.param, values.find_dim_by_name(isl.dim_type.param, fresh[key]), 1)
    return values


def value_at(value: isl.PwAff, parameters: Mapping[str, int]) -> int | None:
    """``value`` (a function of the parameters) where they take ``parameters``; None where it is undefined
    or a parameter has no value."""
    space = value.get_domain_space()
    names = [space.get_dim_name(isl.dim_type.param, p) for p in range(space.dim(isl.dim_type.param))]
    if any(name not in parameters for name in names):
        return None
    point = at_parameters(isl.Set.universe(space), parameters).sample_point()
    result = value.eval(point)
    return None if result.is_nan() else result.to_python()


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


def solutions_for(values: isl.Set, name: str) -> list[tuple[tuple[tuple[str, int], ...], int]]:
    """Each way the affine hull of ``values`` fixes the dimension ``name`` as an integer affine function of
    its other named dimensions and parameters: ``(terms, constant)``, ``name = Σ coefficient·term + constant``."""
    space = values.get_space()
    solutions: list[tuple[tuple[tuple[str, int], ...], int]] = []
    for constraint in values.affine_hull().get_constraints():
        own = constraint.get_coefficient_val(isl.dim_type.set, space.find_dim_by_name(isl.dim_type.set, name))
        if not constraint.is_equality() or abs(own.to_python()) != 1:
            continue
        sign = -own.to_python()
        terms = tuple(
            (space.get_dim_name(kind, position), sign * value)
            for kind in (isl.dim_type.param, isl.dim_type.set)
            for position in range(space.dim(kind))
            if space.get_dim_name(kind, position) != name
            and (value := constraint.get_coefficient_val(kind, position).to_python())
        )
        solutions.append((terms, sign * constraint.get_constant_val().to_python()))
    return solutions


def sets_of(union: isl.UnionSet) -> list[isl.Set]:
    """The sets of a union set, one per tuple."""
    sets: list[isl.Set] = []
    union.foreach_set(sets.append)
    return sets


Coalescible = TypeVar("Coalescible", isl.Set, isl.Map, isl.UnionSet, isl.UnionMap, isl.PwAff)


def coalesced(value: Coalescible) -> Coalescible:
    """``value`` with its pieces merged where isl can (``coalesce``), else ``value`` itself: the same points
    either way, and isl's coalescing fails on some inputs ("cannot relax redundant constraint")."""
    try:
        return value.coalesce()
    except isl.Error:
        return value


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


def has_local_variables(union: Union) -> bool:
    """Whether a piece of ``union`` has existentially quantified variables (a stride or a modulo condition)."""
    pieces = union.wrap() if isinstance(union, isl.UnionMap) else union
    return any(part.dim(isl.dim_type.div) > 0 for piece in sets_of(pieces) for part in piece.get_basic_sets())
