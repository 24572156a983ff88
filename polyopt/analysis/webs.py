"""Scalar webs: the separate lives of one scalar in a region, each to be named on its own.

Public: ``Web``, ``plan_webs``.

A scalar reused by several loop nests for unrelated values (deriche's ``ym1`` in its row and its
column pass) orders all of them through its one memory cell, and scalar expansion (PolyMage dense-matrix thesis,
Sec. 5.3, ``polyopt.analysis.expansion``) cannot give it one element per iteration of any loop: no
loop surrounds all its uses.  Its statements fall into webs: two statements are in one web when
a value of the scalar flows between them by the exact dependences (or one statement both reads and
writes it).  No value flows between two webs, so each can use a scalar of its own.

The webs whose reads get a value from before the region, and the webs that hold the region's last
write of the scalar (its value after the region, unless nothing reads it after the region:
``Scop.dead_scalars``), keep the scalar's name; every other web is
renamed to a fresh scalar of the same type, declared by the region.  Expansion then sees each web
on its own.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.dependences import FLOW, Dependences
from polyopt.frontend.scop import opaque_arrays
from polyopt.model import PolyModel


@dataclass(frozen=True)
class Web:
    """The statements of one web of ``scalar``, renamed to ``name``."""

    scalar: str
    name: str
    statements: frozenset[str]

    def describe(self) -> str:
        return f"{self.scalar} -> {self.name} in {', '.join(sorted(self.statements))} (no value flows from the others)"


def _components(users: list[str], links: list[tuple[str, str]]) -> list[frozenset[str]]:
    """The connected components of ``users`` joined by ``links``, in the order of their first user."""
    parent = {user: user for user in users}

    def root(name: str) -> str:
        while parent[name] != name:
            name = parent[name]
        return name

    for source, sink in links:
        parent[root(source)] = root(sink)
    groups: dict[str, set[str]] = {}
    for user in users:
        groups.setdefault(root(user), set()).add(user)
    return [frozenset(group) for group in groups.values()]


def _kept(model: PolyModel, deps: Dependences, scalar: str) -> set[str]:
    """The statements whose web keeps the scalar's name: a read fed from before the region, or a last write
    of a scalar read after the region."""
    fed = isl.UnionSet.empty(model.param_space())
    for dep in deps.items:
        if dep.array == scalar and dep.kind == FLOW:
            fed = fed.union(isl.UnionSet.from_set(dep.relation.range()))
    kept: set[str] = set()
    reads = model.reads.get(scalar)
    if reads is not None:
        outside = reads.domain().subtract(fed)
        kept |= {piece.get_tuple_name() for piece in isl_util.sets_of(outside)}
    if scalar in model.scop.dead_scalars:
        return kept
    last = model.last_instances(model.writes[scalar].domain())
    return kept | {piece.get_tuple_name() for piece in isl_util.sets_of(last)}


def plan_webs(model: PolyModel, deps: Dependences, taken: frozenset[str]) -> tuple[Web, ...]:
    """The webs to rename (see the module docstring); fresh names avoid ``taken``."""
    scalars = {r.array for r in model.references if r.is_write and r.relation.dim(isl.dim_type.out) == 0}
    scalars -= opaque_arrays(model.scop) | set(model.scop.members)
    used = set(taken)
    webs: list[Web] = []
    for scalar in sorted(scalars):
        users = sorted({r.statement for r in model.references if r.array == scalar})
        links = [(d.source, d.sink) for d in deps.items if d.array == scalar and d.kind == FLOW]
        components = _components(users, links)
        if len(components) < 2:
            continue
        kept = _kept(model, deps, scalar)
        renamed = [component for component in components if not component & kept]
        for number, component in enumerate(renamed, start=2):
            name = f"{scalar}_{number}"
            while name in used:
                name += "_"
            used.add(name)
            webs.append(Web(scalar, name, component))
    return tuple(webs)
