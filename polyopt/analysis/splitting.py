"""Index-set splitting: where a loop carries dependences only through one hyperplane.

Public: ``Hyperplane``, ``Split``, ``plan_splits``, ``plan_inner_splits``.

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

A second round (``plan_inner_splits``, after scheduling) splits the innermost loop the same way,
for the vector loop rather than for parallelism: when the innermost loop of a statement carries no
dependence between it and the other statements of that loop's body, and every dependence of its own
that the loop carries starts or ends on a hyperplane ``x_in == f(outer iterators, parameters)``, the
statement is split on it.  In Floyd-Warshall's ``i < k`` piece the loop ``j`` carries dependences only
through ``j == k``, where ``path[i][k]``, read by every ``j``, is written: in the pieces ``j < k`` and
``j > k`` that element is not written, so the loop has no carried dependence and runs as a vector loop.
(The pieces of the first round share the loop ``j`` but never an iteration of the loops around it.)
The same payoff condition applies.  The pieces take their statement's schedule
(``polyopt.transform.splitting.pulled_back``), so they stay in its loops, one after the other.
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


def _own(deps: Dependences, name: str, space: isl.Space) -> isl.Map:
    """The dependences between instances of statement ``name`` (whose domain space is ``space``)."""
    own = isl.Map.empty(space.map_from_set())
    for dep in deps.items:
        if dep.source == name and dep.sink == name:
            own = own.union(dep.relation)
    return own


def _split(name: str, domain: isl.Set, hyperplane: Hyperplane, level: int, taken: set[str]) -> Split | None:
    """The split of statement ``name`` (instances ``domain``) on ``hyperplane`` of the iterator at
    ``level``, with fresh piece names (added to ``taken``); None when it does not pay."""
    space = domain.get_space()
    sides = zip(SIDES, ("lt", "eq", "gt"), strict=True)
    present = [(side, part) for side, part in sides if not domain.intersect(_side(hyperplane, space, side)).is_empty()]
    outer_pieces = [domain.intersect(_side(hyperplane, space, side)) for side in ("<", ">")]
    if len(present) < 2 or not any(_spans(piece, level) for piece in outer_pieces):
        return None
    pieces = []
    for side, part in present:
        pieces.append((_fresh(f"{name}_{part}", taken), side))
        taken.add(pieces[-1][0])
    return Split(name, hyperplane, tuple(pieces))


def plan_splits(model: PolyModel, deps: Dependences) -> tuple[Split, ...]:
    """The statements to split, by the precondition in the module docstring."""
    sole = _sole_statement_levels(model.scop.tree)
    taken = {statement.name for statement in model.scop.statements}
    splits: list[Split] = []
    for statement in model.scop.statements:
        name = statement.name
        own = _own(deps, name, model.domains[name].get_space())
        hyperplane = _hyperplane(model, name, own, sole[name]) if not own.is_empty() else None
        if hyperplane is None:
            continue
        level = statement.iterators.index(hyperplane.iterator)
        found = _split(name, model.domains[name], hyperplane, level, taken)
        if found is not None:
            splits.append(found)
    return tuple(splits)


def _inner_hyperplane(model: PolyModel, name: str, carried: isl.Map) -> Hyperplane | None:
    """A hyperplane of the innermost iterator of ``name`` on which every pair of ``carried`` starts or ends."""
    iterators = model.scop.statement(name).iterators
    outer = set(iterators[:-1]) | set(model.scop.parameters)
    space = carried.get_space().domain()
    for hyperplane in _candidates(carried, iterators[-1], outer):
        on = _side(hyperplane, space, "==")
        if carried.subtract_domain(on).subtract_range(on).is_empty():
            return hyperplane
    return None


def _innermost_siblings(nodes: tuple[Node, ...]) -> dict[str, frozenset[str]]:
    """Per statement directly in a loop's body, the statements directly in that body (itself included)."""
    siblings: dict[str, frozenset[str]] = {}
    for node in nodes:
        if isinstance(node, Loop):
            direct = frozenset(child.name for child in node.body if not isinstance(child, Loop))
            siblings.update(dict.fromkeys(direct, direct))
            siblings.update(_innermost_siblings(node.body))
    return siblings


def _carried_with_others(deps: Dependences, name: str, others: frozenset[str], level: int) -> bool:
    """Whether a dependence between ``name`` and one of ``others`` (statements in the same loop body)
    joins two instances that agree on the loops outside ``level`` and differ at it."""
    for dep in deps.items:
        if {dep.source, dep.sink} & others and name in (dep.source, dep.sink):
            same = isl_util.equate_prefix(dep.relation, level)
            if not same.subtract(isl_util.equate_prefix(same, level + 1)).is_empty():
                return True
    return False


def plan_inner_splits(model: PolyModel, deps: Dependences) -> tuple[Split, ...]:
    """The statements to split on their innermost loop for the vector loop (the second round in the
    module docstring): that loop carries no dependence between the statement and the others in its
    body, and all those of its own start or end on one hyperplane."""
    siblings = _innermost_siblings(model.scop.tree)
    taken = {statement.name for statement in model.scop.statements}
    splits: list[Split] = []
    for statement in model.scop.statements:
        name, level = statement.name, len(statement.iterators) - 1
        if name not in siblings or _carried_with_others(deps, name, siblings[name] - {name}, level):
            continue
        domain = model.domains[name]
        own = _own(deps, name, domain.get_space())
        carried = isl_util.equate_prefix(own, level).subtract(isl_util.equate_prefix(own, level + 1))
        hyperplane = None if carried.is_empty() else _inner_hyperplane(model, name, carried)
        found = None if hyperplane is None else _split(name, domain, hyperplane, level, taken)
        if found is not None:
            splits.append(found)
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
