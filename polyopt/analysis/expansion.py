"""Scalar expansion: which scalars to give one element per iteration of their loops
(PolyMage dense-matrix thesis, Sec. 5.3).

Public: ``Expansion``, ``plan_expansions``.

A scalar such as symm's ``temp2`` is rewritten in every iteration of the
loops around all its uses; the reuse of its one memory cell orders all
those iterations (anti and output dependences) although no value flows
from one iteration to the next.  It can be expanded along those loops,
``temp2`` becoming ``temp2_x[i][j]``, when

- every read of it gets its value from a write in the same iteration of
  the common loops (its flow dependences are not carried by them), and
- no read gets its value from before the region;

and it is worth it when one of the common loops carries an anti or output
dependence on it and no flow of a value (other than a reduction's updates of
itself): expanded, the scalar no longer keeps that loop from running in
parallel.  After the region the scalar gets the value of the last
write in the original order, as if it had not been expanded.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.dependences import ANTI, FLOW, OUTPUT, Dependences, carried_by, loop_paths
from polyopt.analysis.reductions import find_reductions
from polyopt.frontend.scop import opaque_arrays
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Expansion:
    """``scalar`` becomes the array ``name`` indexed by ``loops`` (iterator names, outermost first)
    minus ``lows``; ``sizes`` are the extents, ``last`` the index of the last write (with its domain:
    the parameter values for which the region writes the scalar at all)."""

    scalar: str
    name: str
    loops: tuple[str, ...]
    lows: tuple[int, ...]
    sizes: tuple[isl.PwAff, ...]
    last: tuple[isl.PwAff, ...]

    def describe(self) -> str:
        return f"{self.scalar} -> {self.name}[{']['.join(self.loops)}] (one element per iteration)"


def _common_depth(model: PolyModel, statements: list[str]) -> int:
    paths = loop_paths(model.scop.tree)
    first = paths[statements[0]]
    depth = len(first)
    for name in statements[1:]:
        path = paths[name]
        depth = min(depth, len(path))
        while depth and path[:depth] != first[:depth]:
            depth -= 1
    return depth


def _prefix_set(domain: isl.Set, depth: int) -> isl.Set:
    """The first ``depth`` dimensions of ``domain``, as an unnamed set (comparable across statements)."""
    count = domain.dim(isl.dim_type.set)
    return domain.project_out(isl.dim_type.set, depth, count - depth).reset_tuple_id()


def _bounds(prefixes: isl.Set, depth: int) -> tuple[tuple[int, ...], tuple[isl.PwAff, ...]] | None:
    lows: list[int] = []
    sizes: list[isl.PwAff] = []
    for position in range(depth):
        low = prefixes.dim_min_val(position)
        if not low.is_int():
            return None
        value = low.to_python()
        high = prefixes.dim_max(position)  # indices run from the smallest value for any parameters
        lows.append(value)
        sizes.append(high.add(isl_util.const(high.get_domain_space(), 1 - value)))
    return tuple(lows), tuple(sizes)


def _last_write(model: PolyModel, writers: isl.UnionSet, depth: int) -> tuple[isl.PwAff, ...]:
    """Per common loop, its value at the last write in the original order (a function of the parameters)."""
    last = model.last_instances(writers)
    values: list[isl.PwAff | None] = [None] * depth
    for instance in isl_util.sets_of(last):
        prefix = _prefix_set(instance, depth)
        for position in range(depth):
            piece = prefix.dim_max(position)
            current = values[position]
            values[position] = piece if current is None else current.union_add(piece)
    return tuple(isl_util.coalesced(value) for value in values if value is not None)


def _worth_it(model: PolyModel, deps: Dependences, scalar: str, users: list[str], depth: int) -> bool:
    """Whether some common loop carries the scalar's false dependences and no flow of values."""
    paths = loop_paths(model.scop.tree)
    updates = {r.statement for r in find_reductions(model)}
    false = [d for d in deps.items if d.array == scalar and d.kind in (ANTI, OUTPUT)]
    for level in range(depth):
        loop = paths[users[0]][: level + 1]
        inside = {name for name, path in paths.items() if path[: level + 1] == loop}
        flows = [
            d
            for d in deps.items
            if d.kind == FLOW and {d.source, d.sink} <= inside and not (d.source == d.sink and d.source in updates)
        ]
        if any(carried_by(d.relation, level) for d in false) and not any(carried_by(d.relation, level) for d in flows):
            return True
    return False


def _legal(model: PolyModel, deps: Dependences, scalar: str, depth: int) -> bool:
    flows = [d for d in deps.items if d.array == scalar and d.kind == FLOW]
    if any(not isl_util.equate_prefix(d.relation, depth).is_equal(d.relation) for d in flows):
        return False
    reads = model.reads.get(scalar)
    if reads is None:
        return True
    fed = isl.UnionSet.empty(reads.get_space().params())
    for flow in flows:
        fed = fed.union(isl.UnionSet.from_set(flow.relation.range()))
    return reads.domain().is_subset(fed)


def _expansion(model: PolyModel, deps: Dependences, scalar: str, name: str) -> Expansion | None:
    users = sorted({r.statement for r in model.references if r.array == scalar})
    depth = _common_depth(model, users)
    if depth == 0 or not _worth_it(model, deps, scalar, users, depth) or not _legal(model, deps, scalar, depth):
        return None
    prefixes = _prefix_set(model.domains[users[0]], depth)
    for user in users[1:]:
        prefixes = prefixes.union(_prefix_set(model.domains[user], depth))
    bounds = _bounds(prefixes, depth)
    if bounds is None:
        return None
    loops = model.scop.statement(users[0]).iterators[:depth]
    writers = model.writes[scalar].domain()
    return Expansion(scalar, name, loops, *bounds, _last_write(model, writers, depth))


def plan_expansions(model: PolyModel, deps: Dependences, taken: frozenset[str]) -> tuple[Expansion, ...]:
    """The scalars of ``model`` to expand (none that an opaque statement touches); new names avoid ``taken``."""
    found: list[Expansion] = []
    scalars = {r.array for r in model.references if r.is_write and r.relation.dim(isl.dim_type.out) == 0}
    scalars -= opaque_arrays(model.scop)
    scalars -= set(model.scop.members)  # a structure member is not a variable of its own
    for scalar in sorted(scalars):
        name = f"{scalar}_x"
        while name in taken:
            name += "_"
        expansion = _expansion(model, deps, scalar, name)
        if expansion is not None:
            found.append(expansion)
    return tuple(found)
