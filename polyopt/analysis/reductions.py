"""Reductions and the dependences they relax: seed 002 (BTO) per-thread copies, seed 000 Sec. 4.6.

Public: ``Reduction``, ``find_reductions``, ``relax``, ``chain_operands``.

A statement ``X[f] = X[f] op e`` (also ``X[f] op= e``; op ``+``, ``-`` or
``*``) whose ``e`` does not touch ``X`` is a reduction: its instances that
update one element may run in any order, or in parallel with private
partial results, because ``+`` and ``*`` are associative and commutative.
Floating-point sums then round differently, which ``--no-reassociate``
forbids.

Relaxing drops each reduction statement's dependences on itself.  Reads of
``X`` by other statements must then wait for every update before them, not
only for the last one in the original order, so their value-based flow
dependences are replaced by memory-based ones.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt.analysis.dependences import FLOW, Dependence, Dependences, flow_relation
from polyopt.isl_util import maps_of
from polyopt.model import PolyModel

_COMPOUND = {"+=": "+", "-=": "+", "*=": "*"}


@dataclass(frozen=True, eq=False)
class Reduction:
    """``statement`` folds values into ``array`` with ``op``; ``access`` maps its instances to elements."""

    statement: str
    array: str
    op: str
    rank: int
    access: isl.Map

    def describe(self) -> str:
        return f"{self.statement}: {self.op} into {self.array}"


def _text(node: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(node)


def _mentions(node: c_ast.Node, name: str) -> bool:
    if isinstance(node, c_ast.ID) and node.name == name:
        return True
    return any(_mentions(child, name) for _, child in node.children())


def chain_operands(node: c_ast.Node, op: str, positive: bool = True) -> list[tuple[c_ast.Node, bool]]:
    """The operands of a chain of ``op`` (``+`` chains include ``-``), with their signs."""
    if isinstance(node, c_ast.BinaryOp) and (node.op == op or (op == "+" and node.op == "-")):
        right_positive = positive if node.op == op else not positive
        return chain_operands(node.left, op, positive) + chain_operands(node.right, op, right_positive)
    return [(node, positive)]


def _reduction_op(body: c_ast.Node, array: str) -> str | None:
    """``+`` or ``*`` when ``body`` updates its left-hand side ``array`` element as a reduction."""
    if not isinstance(body, c_ast.Assignment):
        return None
    if body.op in _COMPOUND:
        return None if _mentions(body.rvalue, array) else _COMPOUND[body.op]
    if body.op != "=":
        return None
    target = _text(body.lvalue)
    for op in ("+", "*"):
        terms = chain_operands(body.rvalue, op)
        own = [(term, positive) for term, positive in terms if _text(term) == target]
        others = [term for term, _ in terms if _text(term) != target]
        if len(terms) > 1 and len(own) == 1 and own[0][1] and not any(_mentions(t, array) for t in others):
            return op
    return None


def find_reductions(model: PolyModel) -> tuple[Reduction, ...]:
    """Every statement of ``model`` that is a reduction (one write, read once, at the same element)."""
    found: list[Reduction] = []
    for statement in model.scop.statements:
        if len(statement.writes) != 1:
            continue
        target = statement.writes[0]
        if [a for a in statement.reads if a.array == target.array] != [target]:
            continue
        op = _reduction_op(statement.body, target.array)
        if op is None:
            continue
        access = next(r.relation for r in model.references if r.statement == statement.name and r.is_write)
        found.append(Reduction(statement.name, target.array, op, len(target.subscripts), access))
    return tuple(found)


def _self_pairs(model: PolyModel, reductions: tuple[Reduction, ...]) -> isl.UnionMap:
    pairs = isl.UnionMap.empty(model.param_space())
    for reduction in reductions:
        domain = model.domains[reduction.statement]
        pairs = pairs.union(isl.UnionMap.from_map(isl.Map.from_domain_and_range(domain, domain)))
    return pairs


def _reads_after_updates(model: PolyModel, reduction: Reduction) -> list[Dependence]:
    """Memory-based flow from every update of ``reduction`` to later reads by other statements."""
    reads = model.reads[reduction.array].subtract_domain(isl.UnionSet(model.domains[reduction.statement]))
    union = flow_relation(reads, model.schedule, None, isl.UnionMap.from_map(reduction.access))
    return [
        Dependence(FLOW, reduction.array, reduction.statement, piece.get_tuple_name(isl.dim_type.out), piece)
        for piece in maps_of(union.coalesce())
    ]


def relax(model: PolyModel, deps: Dependences, reductions: tuple[Reduction, ...]) -> Dependences:
    """``deps`` without the reductions' self-dependences (see the module docstring)."""
    if not reductions:
        return deps
    names = {r.statement for r in reductions}
    kept = [d for d in deps.items if not (d.source == d.sink and d.source in names)]
    kept = [d for d in kept if not (d.kind == FLOW and d.source in names)]
    added = [dep for reduction in reductions for dep in _reads_after_updates(model, reduction)]
    around = [d for d in kept + added if d.source in names or d.sink in names]
    reduced = deps.reduced.subtract(_self_pairs(model, reductions))
    for dep in around:
        reduced = reduced.union(isl.UnionMap.from_map(dep.relation))
    return replace(deps, items=tuple(kept + added), reduced=reduced)
