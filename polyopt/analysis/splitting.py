"""Index-set splitting: where a loop carries dependences only through one hyperplane.

Public: ``Hyperplane``, ``Split``, ``plan_splits``.

In Floyd-Warshall's ``for k, for i, for j`` the loop ``i`` carries dependences
only through row ``k``: every dependence that ``i`` carries starts or ends at an
instance with ``i == k``.  Splitting the statement's domain into ``i < k``,
``i == k`` and ``i > k`` (three statements printed alike) leaves ``i`` parallel
in the outer pieces, and the scheduler orders the pieces.

A statement is split at loop level ``p`` when (the precondition):
- the loop at level ``p`` encloses no other statement, so every dependence it carries is one of the
  statement's own;
- each loop outside it carries one of them too (none is parallel already), and so does ``p``;
- some hyperplane ``x_p == f(outer iterators, parameters)`` (integer coefficients, read off the
  affine hull of the dependences' sources or sinks) holds the source or the sink of every pair
  of instances that loop ``p`` carries, by the exact dependences.
Then no dependence joins two instances of the same outer piece at different ``x_p``: the pieces'
loop ``p`` is parallel.  The split is only made where that pays: in an outer piece, ``x_p`` takes
two values or more for some values of the loops outside it (a loop of two iterations, one on each
side of the hyperplane, gains nothing, and a split reduction is no longer a reduction).
Only the outermost such level of a statement is split.  The split keeps
every instance and the original order, so the split model's dependences are the same pairs;
the pipeline re-proves the schedule against them.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.dependences import Dependences
from polyopt.frontend.scop import Loop, Node, statement_names
from polyopt.model import PolyModel


@dataclass(frozen=True)
class Hyperplane:
    """``iterator == Σ coefficient·name + constant`` over outer iterators and parameters."""

    iterator: str
    terms: tuple[tuple[str, int], ...]
    constant: int

    def describe(self) -> str:
        parts = [name if c == 1 else f"-{name}" if c == -1 else f"{c}*{name}" for name, c in self.terms]
        if self.constant or not parts:
            parts.append(str(self.constant))
        return f"{self.iterator} == " + " + ".join(parts).replace("+ -", "- ")


SIDES = ("<", "==", ">")


@dataclass(frozen=True)
class Split:
    """Statement ``statement`` becomes ``pieces``: ``(name, side)`` with ``side`` in ``SIDES`` the
    comparison of its iterator with ``hyperplane``'s value (the pieces whose domain is not empty)."""

    statement: str
    hyperplane: Hyperplane
    pieces: tuple[tuple[str, str], ...]

    def describe(self) -> str:
        pieces = ", ".join(f"{name} ({side})" for name, side in self.pieces)
        return (
            f"{self.statement} split on {self.hyperplane.describe()} into {pieces}: "
            f"every dependence loop {self.hyperplane.iterator} carries starts or ends on it"
        )


def _sole_statement_levels(nodes: tuple[Node, ...], depth: int = 0) -> dict[str, set[int]]:
    """Per statement, the levels of its enclosing loops that enclose no other statement."""
    levels: dict[str, set[int]] = {}
    for node in nodes:
        if isinstance(node, Loop):
            inner = _sole_statement_levels(node.body, depth + 1)
            names = statement_names(node)
            for name, found in inner.items():
                levels[name] = found | ({depth} if len(names) == 1 else set())
        else:
            levels[node.name] = set()
    return levels


def _side(hyperplane: Hyperplane, space: isl.Space, side: str) -> isl.Set:
    """The points of ``space`` whose iterator compares to ``hyperplane``'s value as ``side`` says."""
    value = isl_util.const(space, hyperplane.constant)
    for name, coefficient in hyperplane.terms:
        value = value.add(isl_util.var(space, name).scale_val(isl.Val.int_from_si(space.get_ctx(), coefficient)))
    compare = {"<": "lt_set", "==": "eq_set", ">": "gt_set"}[side]
    return getattr(isl_util.var(space, hyperplane.iterator), compare)(value)


def _candidates(carried: isl.Map, iterator: str, outer: set[str]) -> list[Hyperplane]:
    """Hyperplanes ``iterator == f(outer)`` that hold all sources or all sinks of a piece of ``carried``."""
    found: list[Hyperplane] = []
    for piece in carried.get_basic_maps():
        for ends in (piece.domain(), piece.range()):
            for terms, constant in isl_util.solutions_for(isl.Set.from_basic_set(ends), iterator):
                hyperplane = Hyperplane(iterator, terms, constant)
                if {name for name, _ in terms} <= outer and hyperplane not in found:
                    found.append(hyperplane)
    return found


def _hyperplane(model: PolyModel, name: str, own: isl.Map, levels: set[int]) -> Hyperplane | None:
    """The hyperplane to split ``name`` on (its own dependences: ``own``), or None."""
    iterators = model.scop.statement(name).iterators
    space = model.domains[name].get_space()
    for level, iterator in enumerate(iterators):
        carried = isl_util.equate_prefix(own, level).subtract(isl_util.equate_prefix(own, level + 1))
        if carried.is_empty():
            return None
        if level not in levels:
            continue
        outer = set(iterators[:level]) | set(model.scop.parameters)
        for hyperplane in _candidates(carried, iterator, outer):
            on = _side(hyperplane, space, "==")
            if carried.subtract_domain(on).subtract_range(on).is_empty():
                return hyperplane
    return None


def plan_splits(model: PolyModel, deps: Dependences) -> tuple[Split, ...]:
    """The statements to split, by the precondition in the module docstring."""
    sole = _sole_statement_levels(model.scop.tree)
    taken = {statement.name for statement in model.scop.statements}
    splits: list[Split] = []
    for statement in model.scop.statements:
        name = statement.name
        space = model.domains[name].get_space()
        own = isl.Map.empty(space.map_from_set())
        for dep in deps.items:
            if dep.source == name and dep.sink == name:
                own = own.union(dep.relation)
        hyperplane = _hyperplane(model, name, own, sole[name]) if not own.is_empty() else None
        if hyperplane is None:
            continue
        pieces: list[tuple[str, str]] = []
        for side, part in zip(SIDES, ("lt", "eq", "gt"), strict=True):
            if not model.domains[name].intersect(_side(hyperplane, space, side)).is_empty():
                pieces.append((_fresh(f"{name}_{part}", taken), side))
                taken.add(pieces[-1][0])
        level = statement.iterators.index(hyperplane.iterator)
        outer_pieces = [model.domains[name].intersect(_side(hyperplane, space, side)) for side in ("<", ">")]
        if len(pieces) > 1 and any(_spans(piece, level) for piece in outer_pieces):
            splits.append(Split(name, hyperplane, tuple(pieces)))
    return tuple(splits)


def _spans(domain: isl.Set, level: int) -> bool:
    """Whether two points of ``domain`` agree on the dimensions before ``level`` and differ at it."""
    pairs = isl.Map.from_domain_and_range(domain, domain)
    for dim in range(level):
        pairs = pairs.equate(isl.dim_type.in_, dim, isl.dim_type.out, dim)
    return not pairs.order_lt(isl.dim_type.in_, level, isl.dim_type.out, level).is_empty()


def _fresh(name: str, taken: set[str]) -> str:
    """``name``, with underscores appended until no statement is called so."""
    while name in taken:
        name += "_"
    return name
