"""The isl shape layer of idiom recognition (PolyMage dense-matrix thesis, Sec. 4.4): which iterator
runs over which range of a domain (boxes and triangles, every range from 0), and what the original order does with the
elements that the access relations name.

Public: ``BOX``, ``BATCH``, ``HALVES``, ``Accumulation``, ``shaped``, ``sized``,
``box``, ``triangle``, ``reference``, ``instances``, ``earlier``, ``read_first``, ``reads_original``,
``same_key``, ``accumulates``, ``last``.

Domains are compared with isl for equality (``isl_util.shaped``), and every range starts at 0, so the
calls work on whole arrays from their first element.  In a constraint text ``{x}`` stands for an
iterator and ``{X}`` for its size.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt import isl_util
from polyopt.frontend.scop import Statement
from polyopt.library.statements import Update
from polyopt.model import PolyModel

BOX = "0 <= {r} < {M} and 0 <= {c} < {N}"
BATCH = "0 <= {b} < {B} and 0 <= {r} < {R} and 0 <= {c} < {C}"
# whether ``k`` runs below ``r``: the strict triangle of an M x M operand, times the N columns
HALVES = {True: "0 <= {k} < {r} < {M} and 0 <= {c} < {N}", False: "0 <= {r} < {k} < {M} and 0 <= {c} < {N}"}
_TRIANGLES = {  # (lower, strict): the triangle of an N x N target, times the K steps of the sum
    (True, False): "0 <= {c} <= {r} < {N} and 0 <= {k} < {K}",
    (False, False): "0 <= {r} <= {c} < {N} and 0 <= {k} < {K}",
    (True, True): "0 <= {c} < {r} < {N} and 0 <= {k} < {K}",
    (False, True): "0 <= {r} < {c} < {N} and 0 <= {k} < {K}",
}


def shaped(domain: isl.Set, constraints: str, names: dict[str, str], sizes: dict[str, isl.PwAff]) -> bool:
    """Whether ``domain`` is exactly ``constraints`` (``isl_util.shaped``)."""
    return isl_util.shaped(domain, constraints, names, sizes).is_equal(domain)


def sized(domain: isl.Set, constraints: str, names: dict[str, str], keys: tuple[str, ...]) -> tuple[isl.PwAff, ...]:
    """The sizes of the iterators ``keys`` (keys of ``names``) when ``domain`` is exactly ``constraints``,
    where ``{X}`` stands for the size of ``{x}``; empty otherwise."""
    sizes = {key.upper(): isl_util.size(domain, names[key]) for key in keys}
    return tuple(sizes[key.upper()] for key in keys) if shaped(domain, constraints, names, sizes) else ()


def box(domain: isl.Set, names: dict[str, str]) -> tuple[isl.PwAff, ...]:
    """The sizes of the iterators in ``names`` when ``domain`` is the box ``0 <= x < X`` over them."""
    constraints = " and ".join(f"0 <= {{{key}}} < {{{key.upper()}}}" for key in names)
    return sized(domain, constraints, names, tuple(names))


def triangle(domain: isl.Set, r: str, c: str, k: str) -> tuple[bool, bool, tuple[isl.PwAff, ...]] | None:
    """Whether ``domain`` is exactly the lower (``c <= r``) or the upper triangle of ``r`` and ``c``, whether
    without the diagonal (strict), and N, K."""
    for (lower, strict), constraints in _TRIANGLES.items():
        names = {"r": r, "c": c, "k": k, "n": r if lower else c}
        sizes = sized(domain, constraints, names, ("n", "k"))
        if sizes:
            return lower, strict, sizes
    return None


def reference(model: PolyModel, statement: str, array: str, is_write: bool) -> isl.Map:
    """The access relation of ``statement`` to ``array`` (its write or its read)."""
    return next(
        ref.relation
        for ref in model.references
        if (ref.statement, ref.array, ref.is_write) == (statement, array, is_write)
    )


def instances(model: PolyModel, *statements: Statement | Update) -> isl.UnionSet:
    """The instances of ``statements``."""
    return isl_util.union_of(
        (isl.UnionSet.from_set(model.domains[s.name]) for s in statements), isl.UnionSet.empty(model.param_space())
    )


def earlier(model: PolyModel, among: isl.UnionSet) -> isl.UnionMap:
    """Every pair of instances ``among``, the first one before the second in the original order."""
    order = model.schedule.get_map().intersect_domain(among)
    return order.lex_lt_union_map(order)


def read_first(write: isl.Map, read: isl.Map, before: isl.UnionMap) -> bool:
    """Whether every instance of ``read`` reads its element before (``before``) each instance of ``write``
    writes it."""
    same = isl.UnionMap.from_map(write.apply_range(read.reverse()))
    return same.intersect(before).is_empty()


def reads_original(model: PolyModel, update: Update) -> bool:
    """Whether each read of the target's array, other than of the updated element, comes before
    every write of that element by the statement (in the original order)."""
    references = [ref for ref in model.references if ref.statement == update.name and ref.array == update.target.array]
    write = next(ref.relation for ref in references if ref.is_write)
    before = earlier(model, isl.UnionSet.from_set(update.domain))
    return all(read_first(write, ref.relation, before) for ref in references if not ref.relation.is_equal(write))


def same_key(model: PolyModel, statements: list[Statement], key: tuple[str, ...]) -> isl.UnionMap:
    """The pairs of instances of ``statements`` with the same values of the iterators ``key``."""
    keys = isl.UnionMap.empty(model.param_space())
    for statement in statements:
        text = f"{{ {statement.name}[{', '.join(statement.iterators)}] -> [{', '.join(key)}] }}"
        projection = isl.Map.read_from_str(model.ctx, text).intersect_domain(model.domains[statement.name])
        keys = keys.union(isl.UnionMap.from_map(projection))
    return keys.apply_range(keys.reverse())


@dataclass(frozen=True)
class Accumulation:
    """The statements of an accumulator ``array`` (a scalar or a row): ``init`` sets an element to 0,
    ``accumulate`` adds to it and ``final`` reads it."""

    array: str
    init: Statement
    accumulate: Update
    final: Statement


def accumulates(model: PolyModel, found: Accumulation, same: isl.UnionMap, before: isl.UnionMap) -> bool:
    """Whether the ``final`` of each key (``same``) reads the accumulator that ``init`` of its key set
    and only the updates of its key added to: each key's accumulation of an element starts and ends
    before another one writes that element (``before``: the original order)."""
    init, accumulate, final = (instances(model, s) for s in (found.init, found.accumulate, found.final))
    steps = ((init, accumulate), (accumulate, final), (init, final))
    if not all(same.intersect_domain(x).intersect_range(y).is_subset(before) for x, y in steps):
        return False
    written = _written(model, found)
    writes = init.union(accumulate)
    element = written.apply_range(written.reverse())
    started = before.intersect_domain(init).intersect_range(writes).intersect(element).subtract(same)
    between = started.apply_range(before.intersect_domain(writes).intersect_range(final))
    return between.intersect(same).is_empty()


def _written(model: PolyModel, found: Accumulation) -> isl.UnionMap:
    """The elements of the accumulator that ``init`` and ``accumulate`` write."""
    relations = (reference(model, s.name, found.array, is_write=True) for s in (found.init, found.accumulate))
    return isl_util.union_of((isl.UnionMap.from_map(r) for r in relations), isl.UnionMap.empty(model.param_space()))


def last(model: PolyModel, found: Accumulation, same: isl.UnionMap) -> isl.UnionSet:
    """The instances of ``init`` and ``accumulate`` that leave each element of the accumulator its value:
    the last ``init`` of the element and the updates of its key."""
    placed = model.schedule.get_map().intersect_domain(instances(model, found.init))
    timing = isl.UnionMap.from_map(reference(model, found.init.name, found.array, is_write=True))
    final = timing.reverse().apply_range(placed).lexmax().apply_range(placed.reverse()).range()
    return final.union(final.apply(same).intersect(instances(model, found.accumulate)))
