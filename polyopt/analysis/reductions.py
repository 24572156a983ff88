"""Reductions and the dependences they relax: BTO per-thread copies, PolyMage dense-matrix thesis, Sec. 4.6.

Public: ``Reduction``, ``NonReduction``, ``find_reductions``, ``non_reductions``, ``relax``,
``chain_operands``.

A statement ``X[f] = X[f] op e`` (also ``X[f] op= e``; op ``+``, ``-`` or
``*``) whose ``e`` does not read ``X[f]`` is a reduction: its instances that
update one element may run in any order, or in parallel with private
partial results, because ``+`` and ``*`` are associative and commutative.
Floating-point sums then round differently, which ``--no-reassociate``
forbids.  ``e`` may read other elements of ``X`` (``A[i][j] -= A[i][k] * A[j][k]``
with ``k < j < i``) when no instance reads the element it updates and some
element is updated more than once; such a reduction is not ``pure``.

The operation must also be associative in the type it is computed and stored in (C's usual
arithmetic conversions, ``polyopt.frontend.declarations``): an integer accumulator needs integer
terms (integer sums wrap, so any order gives the same value), as ``int s; s += (float)a / b``
truncates at every store; a floating accumulator takes any term (reordering only rounds
differently); a ``_Bool`` one is never a sum, and a pointer one has no OpenMP reduction.  An
accumulator whose type is declared elsewhere (PolyBench's ``DATA_TYPE``) is taken to be
arithmetic; an integer one with a term of unknown type (a call) is not reordered.  Such updates
are ``non_reductions``: they keep their order, and ``--report`` says why.

Relaxing drops each reduction statement's dependences between its updates of
one element.  Reads of ``X`` by other statements, and by the statement's own
``e``, must then wait for every update before them, not only for the last one
in the original order, so their value-based flow dependences are replaced by
memory-based ones.  The scheduler's ``reduced`` dependences are relaxed for
pure reductions only: an impure one (cholesky, lu) keeps its order there, and is
reordered only inside the loops marked parallel or simd (freeing it let isl pick
a slower tiling for lu, 0.85 s -> 1.25 s at LARGE).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import partial

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt.analysis.dependences import FLOW, Dependence, Dependences, flow_relation
from polyopt.frontend.declarations import BOOLEAN, FLOATING, INTEGER, UNKNOWN, CType, expression_type
from polyopt.frontend.scop import opaque_arrays
from polyopt.isl_util import coalesced, maps_of
from polyopt.model import PolyModel

_COMPOUND = {"+=": "+", "-=": "+", "*=": "*"}


@dataclass(frozen=True, eq=False)
class Reduction:
    """``statement`` folds values into ``array`` with ``op``; ``access`` maps its instances to elements;
    ``pure`` when its added value reads nothing of ``array`` (only then may a loop privatize the
    whole array: a scalar or a section clause)."""

    statement: str
    array: str
    op: str
    rank: int
    access: isl.Map
    pure: bool = True

    def describe(self) -> str:
        return f"{self.statement}: {self.op} into {self.array}"


def _text(node: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(node)


def _contains(node: c_ast.Node, text: str) -> bool:
    """Whether ``node`` or one of its subexpressions prints as ``text``."""
    return _text(node) == text or any(_contains(child, text) for _, child in node.children())


def chain_operands(node: c_ast.Node, op: str, positive: bool = True) -> list[tuple[c_ast.Node, bool]]:
    """The operands of a chain of ``op`` (``+`` chains include ``-``), with their signs."""
    if isinstance(node, c_ast.BinaryOp) and (node.op == op or (op == "+" and node.op == "-")):
        right_positive = positive if node.op == op else not positive
        return chain_operands(node.left, op, positive) + chain_operands(node.right, op, right_positive)
    return [(node, positive)]


def _reduction_op(body: c_ast.Node) -> tuple[str, list[c_ast.Node]] | None:
    """``+`` or ``*``, and the terms it adds, when ``body`` updates its left-hand side element as a
    reduction; the added value may read other elements (the caller checks with isl that they never
    are the updated one)."""
    if not isinstance(body, c_ast.Assignment):
        return None
    target = _text(body.lvalue)
    if body.op in _COMPOUND:
        return None if _contains(body.rvalue, target) else (_COMPOUND[body.op], [body.rvalue])
    if body.op != "=":
        return None
    for op in ("+", "*"):
        terms = chain_operands(body.rvalue, op)
        own = [(term, positive) for term, positive in terms if _text(term) == target]
        others = [term for term, _ in terms if _text(term) != target]
        if len(terms) > 1 and len(own) == 1 and own[0][1] and not any(_contains(t, target) for t in others):
            return op, others
    return None


def _not_associative(accumulator: CType, terms: list[CType]) -> str | None:
    """Why updating an ``accumulator`` with ``terms`` is no associative operation in its type, or None."""
    if accumulator.pointer:
        return "pointer accumulator (OpenMP has no reduction on pointers)"
    if accumulator.kind == BOOLEAN:
        return "_Bool accumulator (storing a sum into it is not modular)"
    if any(term.pointer for term in terms):
        return "pointer term"
    kinds = {term.kind for term in terms}
    if accumulator.kind == INTEGER and FLOATING in kinds:
        return "integer accumulator with a floating term (every update truncates)"
    if accumulator.kind == INTEGER and UNKNOWN in kinds:
        return "integer accumulator with a term of unknown type (it may be floating)"
    return None


def _same_element(access: isl.Map) -> isl.Map:
    """Pairs of instances that ``access`` maps to one element."""
    return access.apply_range(access.reverse())


def _other_reads(model: PolyModel, statement: str, array: str) -> list[isl.Map]:
    """The reads of ``array`` by ``statement`` other than its read of the updated element, told apart
    by their subscripts: on a domain such as ``j == 2i + 1`` the term ``B[2i + 1]`` of ``B[j] -= B[2i + 1]``
    has the same access relation as ``B[j]``, and is still a read of the updated element."""
    found = next(s for s in model.scop.statements if s.name == statement)
    reads = [r for r in model.references if r.statement == statement and not r.is_write]
    pairs = zip(reads, found.reads, strict=True)
    return [ref.relation for ref, access in pairs if ref.array == array and access != found.writes[0]]


def _reorderable(access: isl.Map, others: list[isl.Map]) -> bool:
    """Whether no instance reads, through ``others``, the element it updates, and (when there are
    other reads) some element is updated by more than one instance."""
    if any(not read.intersect(access).is_empty() for read in others):
        return False
    pairs = _same_element(access)
    return not others or not pairs.subtract(isl.Map.identity(pairs.get_space())).is_empty()


@dataclass(frozen=True)
class NonReduction:
    """``statement`` updates ``array`` in the form of a reduction, but its updates keep their order: ``reason``."""

    statement: str
    array: str
    reason: str

    def describe(self) -> str:
        return f"{self.statement}: {self.array}: not a reduction: {self.reason}"


def _updates(model: PolyModel) -> Iterator[tuple[Reduction, str | None]]:
    """Each statement of ``model`` that updates an element in the form of a reduction (one write,
    whose element it reads once), and why its operation is not associative (None when it is).  An opaque
    statement is never one, nor is an update of an array that an opaque statement touches."""
    declarations = model.scop.declarations
    opaque = opaque_arrays(model.scop)
    for statement in model.scop.statements:
        if len(statement.writes) != 1 or statement.opaque or statement.writes[0].array in opaque:
            continue
        target = statement.writes[0]
        if [a for a in statement.reads if a == target] != [target]:
            continue
        found = _reduction_op(statement.body)
        if found is None:
            continue
        op, terms = found
        access = next(r.relation for r in model.references if r.statement == statement.name and r.is_write)
        others = _other_reads(model, statement.name, target.array)
        if not _reorderable(access, others):
            continue
        accumulator = expression_type(statement.body.lvalue, declarations)
        reason = _not_associative(accumulator, [expression_type(term, declarations) for term in terms])
        if target.array in model.scop.members:
            reason = "structure member (an OpenMP reduction clause cannot name one)"
        yield Reduction(statement.name, target.array, op, len(target.subscripts), access, not others), reason


def find_reductions(model: PolyModel) -> tuple[Reduction, ...]:
    """Every statement of ``model`` that is a reduction (see the module docstring)."""
    return tuple(reduction for reduction, reason in _updates(model) if reason is None)


def non_reductions(model: PolyModel) -> tuple[NonReduction, ...]:
    """The updates of ``model`` in the form of a reduction whose operation is not associative in their types."""
    return tuple(NonReduction(r.statement, r.array, reason) for r, reason in _updates(model) if reason is not None)


def _updates_of_one_element(reductions: tuple[Reduction, ...]) -> isl.UnionMap:
    pairs = isl.UnionMap.empty(reductions[0].access.get_space().params())  # reductions is not empty
    for reduction in reductions:
        pairs = pairs.union(isl.UnionMap.from_map(_same_element(reduction.access)))
    return pairs


def _reads_after_updates(model: PolyModel, reduction: Reduction) -> list[Dependence]:
    """Memory-based flow from every update of ``reduction`` to later reads by other statements
    and by its own added value."""
    reads = model.reads[reduction.array].subtract_domain(isl.UnionSet(model.domains[reduction.statement]))
    for other in _other_reads(model, reduction.statement, reduction.array):
        reads = reads.union(isl.UnionMap.from_map(other))
    union = flow_relation(reads, model.schedule, None, isl.UnionMap.from_map(reduction.access))
    return [
        Dependence(FLOW, reduction.array, reduction.statement, piece.get_tuple_name(isl.dim_type.out), piece)
        for piece in maps_of(coalesced(union))
    ]


def _without(dependence: Dependence, pairs: isl.UnionMap) -> Dependence | None:
    """``dependence`` without ``pairs`` (when it links a statement to itself), None when nothing is left."""
    if dependence.source != dependence.sink:
        return dependence
    left = isl.UnionMap.from_map(dependence.relation).subtract(pairs)
    return None if left.is_empty() else replace(dependence, relation=isl.Map.from_union_map(left))


def relax(model: PolyModel, deps: Dependences, reductions: tuple[Reduction, ...]) -> Dependences:
    """``deps`` without the reductions' self-dependences (see the module docstring)."""
    if not reductions:
        return deps
    names = {r.statement for r in reductions}
    chains = _updates_of_one_element(reductions)
    remaining = (_without(d, chains) for d in deps.items if not (d.kind == FLOW and d.source in names))
    kept = [d for d in remaining if d is not None]
    added = [dep for reduction in reductions for dep in _reads_after_updates(model, reduction)]
    pure = tuple(r for r in reductions if r.pure)
    freed = {r.statement for r in pure}
    around = [d for d in kept + added if d.source in freed or d.sink in freed]
    return replace(deps, items=tuple(kept + added), compute_reduced=partial(_relaxed, deps, pure, tuple(around)))


def _relaxed(deps: Dependences, pure: tuple[Reduction, ...], around: tuple[Dependence, ...]) -> isl.UnionMap:
    """``deps.reduced`` without the pure reductions' updates of one element, with the dependences ``around`` them."""
    reduced = deps.reduced.subtract(_updates_of_one_element(pure)) if pure else deps.reduced
    for dep in around:
        reduced = reduced.union(isl.UnionMap.from_map(dep.relation))
    return reduced
