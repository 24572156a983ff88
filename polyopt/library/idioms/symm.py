"""The product SYMM of a symmetric matrix read in one triangle.

Public: ``Symm``.

SYMM ``C = alpha * A * B + beta * C`` (``A`` symmetric) as PolyBench's symm computes it, with four
statements over ``0 <= r < M, 0 <= c < N``: a scalar accumulator ``t = 0``; over exactly the strict
triangle ``0 <= k < r`` (or ``r < k < M``), ``C[k][c] += alpha * B[r][c] * A[r][k]`` and
``t += B[k][c] * A[r][k]``; then ``C[r][c] = beta * C[r][c] + alpha * B[r][c] * A[r][r] + alpha * t``.
``A`` is read in one triangle only (``A[r][k]`` below the diagonal: the lower one; ``A[k][r]``: the
upper one), ``C`` is neither ``A`` nor ``B``, and the original order must compute the product: each
``(r, c)`` starts its own accumulation and combines it before any other one writes ``t``, and reads
``C[r][c]`` before the updates add to it.  The accumulator's last value is left by the idiom's ``Tail``.
The microkernel computes it as a GEMM on blocks, ``A`` packed from the triangle it reads and each chunk
of ``C`` scaled by ``beta`` first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.dependences import loop_paths
from polyopt.frontend.declarations import Declarations
from polyopt.frontend.scop import Statement
from polyopt.library import shapes
from polyopt.library.cblas import Call, CblasCode, matrix, uplo
from polyopt.library.operands import COL, DEPTH, KernelOperands, element, symmetric
from polyopt.library.protocol import BLOCKS, SquareOperand, Tail, half
from polyopt.library.statements import (
    Ref,
    Term,
    Update,
    assignment,
    invariant,
    only,
    product,
    same_type,
    zeroed,
)
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Symm(SquareOperand):
    """``C = alpha * A * B + beta * C`` with ``A`` M x M symmetric, only its ``lower`` (or upper) triangle
    read, and ``B``, ``C`` M x N."""

    c: str
    a: str
    b: str
    lower: bool
    alpha: str
    beta: str

    ROUTINE = "symm"
    PROBE = "symm"
    MICROKERNEL = BLOCKS
    GROUPED = True

    @classmethod
    def match(cls, model: PolyModel, final: Statement, updates: Mapping[str, Update]) -> Symm | None:
        """SYMM: ``C = alpha * A * B + beta * C`` computed as PolyBench's symm does, with an accumulator ``t``
        that each ``(r, c)`` sets to 0, adds ``B[k][c] * A[r][k]`` to over the strict triangle of ``k`` (below
        ``r``: ``A``'s lower triangle; or above), and combines into ``C[r][c]`` (``final``), while the update adds
        ``alpha * B[r][c] * A[r][k]`` to ``C[k][c]`` after that combination."""
        found = _symm_statements(model, final, updates)
        operands = None if found is None else _symm_operands(found)
        shape = None if found is None or operands is None else _symm_shape(model, found, operands[0])
        if found is None or operands is None or shape is None:
            return None
        (k, a, b), (sizes, below) = operands, shape
        combination, term = found.combination, found.update.terms[0]
        if not invariant(model, [*term.scalars, *combination.own.scalars]):
            return None
        if not same_type(model, Ref(combination.accumulator, ()), combination.target):
            return None
        same = _symm_order(model, found)
        if same is None:
            return None
        names = {found.init.name, found.accumulate.name, found.update.name, final.name}
        statements = tuple(s.name for s in model.scop.statements if s.name in names)
        lower = (a.indices == combination.target.indices[:1] + (k,)) == below
        tail = Tail(combination.accumulator, shapes.last(model, found.accumulation, same))
        return Symm(
            statements, sizes, combination.target.array, a.array, b, lower, term.scale, combination.own.scale, tail=tail
        )

    def microkernel(self, sizes: list[str]) -> KernelOperands:
        """``A`` packed from the triangle it reads, each chunk of ``C`` scaled by ``beta`` first."""
        b = element(self.b, DEPTH, COL, False)
        shape = f", {self.a} symmetric ({half(self.lower)}), C scaled by beta first"
        beta = self.beta if self.beta != "1.0" else None
        arrays = (self.c, self.a, self.b)
        return KernelOperands(
            self.c, symmetric(self.a, self.lower), b, sizes[0], sizes[1], sizes[0], arrays, self.alpha, shape, beta
        )

    def formula(self) -> str:
        product = f"{self.alpha} * {self.a} * {self.b} + {self.beta} * {self.c}"
        return f"{self.c} = {product} ({self.a} symmetric, {half(self.lower)})"

    def cblas(self, sizes: list[str]) -> CblasCode:
        operands = (*matrix(self.a), *matrix(self.b), self.beta, *matrix(self.c))
        return CblasCode((Call("symm", ("CblasLeft", uplo(self.lower), *sizes, self.alpha, *operands)),))


@dataclass(frozen=True)
class _Combination:
    """``target = beta * target + alpha * B[r][c] * A[r][r] + alpha * t`` (terms and factors in any order):
    ``own`` is the term of the target, ``diagonal`` the product, ``alpha`` the factors of ``t``'s term."""

    target: Ref
    own: Term
    diagonal: Term
    accumulator: str
    alpha: tuple[str, ...]


def _combination(statement: Statement, scalars: frozenset[str], declarations: Declarations) -> _Combination | None:
    """``statement`` as a combination of one of the ``scalars`` (written in the region) into ``T[r][c]``."""
    assigned = assignment(statement, declarations) if len(statement.iterators) == 2 else None
    if assigned is None or sorted(assigned[0].indices) != sorted(statement.iterators):
        return None
    target, terms = assigned
    own = [t for t in terms if t is not None and t.positive and t.refs == (target,)]
    diagonal = [t for t in terms if t is not None and t.positive and len(t.refs) == 2]
    sums = [t for t in terms if t is not None and t.positive and not t.refs and len(scalars & set(t.scalars)) == 1]
    if len(terms) != 3 or not len(own) == len(diagonal) == len(sums) == 1:
        return None
    (accumulator,) = scalars & set(sums[0].scalars)
    alpha = list(sums[0].scalars)
    alpha.remove(accumulator)
    return _Combination(target, own[0], diagonal[0], accumulator, tuple(alpha))


@dataclass(frozen=True)
class _SymmStatements:
    """The four statements of a SYMM: ``t = 0`` (``init``), ``t += B[k][c] * A[r][k]`` (``accumulate``),
    ``C[k][c] += alpha * B[r][c] * A[r][k]`` (``update``) and the combination ``final`` of ``t`` into ``C[r][c]``."""

    init: Statement
    accumulate: Update
    update: Update
    final: Statement
    combination: _Combination

    @property
    def accumulation(self) -> shapes.Accumulation:
        return shapes.Accumulation(self.combination.accumulator, self.init, self.accumulate, self.final)


def _symm_statements(model: PolyModel, final: Statement, updates: Mapping[str, Update]) -> _SymmStatements | None:
    """The statements of a SYMM whose combination is ``final``, found by the accumulator they share."""
    scalars = frozenset(
        ref.array for ref in model.references if ref.is_write and ref.relation.range().dim(isl.dim_type.set) == 0
    )
    combination = _combination(final, scalars, model.scop.declarations)
    if combination is None:
        return None
    t, (r, c) = combination.accumulator, combination.target.indices
    users = {ref.statement for ref in model.references if ref.array == t}
    accumulate = only([u for u in updates.values() if u.target == Ref(t, ())])
    writers = [s for s in model.scop.statements if any(w.array == t for w in s.writes)]
    init = only([s for s in writers if accumulate is None or s.name != accumulate.name])
    nest = loop_paths(model.scop.tree)  # the updates of C in other nests are not the SYMM's
    c_updates = [
        u
        for u in updates.values()
        if u.target.array == combination.target.array and u.name != final.name and nest[u.name][:2] == nest[final.name]
    ]
    update = only([u for u in c_updates if len(u.target.indices) == 2 and u.target.indices[1] == c])
    if accumulate is None or update is None or init is None or zeroed(init) is None:
        return None
    if init.iterators != final.iterators or users != {init.name, accumulate.name, final.name} or r == c:
        return None
    return _SymmStatements(init, accumulate, update, final, combination)


def _symm_operands(found: _SymmStatements) -> tuple[str, Ref, str] | None:
    """For a SYMM's statements: the reduction iterator ``k``, the element ``A[r][k]`` (or ``A[k][r]``)
    that both updates read, and the array ``B``, when the diagonal term reads ``A[r][r]`` and ``B[r][c]``
    and the three ``alpha`` are the same factors."""
    r, c = found.combination.target.indices
    accumulate, update = found.accumulate, found.update
    if len(accumulate.iterators) != 3 or accumulate.iterators[:2] != found.final.iterators:
        return None
    k = accumulate.iterators[2]
    if update.iterators != accumulate.iterators or update.target.indices != (k, c) or len(update.terms) != 1:
        return None
    pair = product(accumulate.terms[0], (r, k), (k, c)) if len(accumulate.terms) == 1 else None
    if pair is None or accumulate.terms[0].scale != "1.0" or pair[1].indices != (k, c):
        return None
    a, b = pair[0], pair[1].array
    diagonal = (Ref(a.array, (r, r)), Ref(b, (r, c)))
    if product(update.terms[0], (r, k), (r, c)) != (a, Ref(b, (r, c))):
        return None
    alpha = sorted(found.combination.alpha)
    term, read = update.terms[0], product(found.combination.diagonal, (r, r), (r, c))
    if read != diagonal or not term.positive or sorted(term.scalars) != alpha:
        return None
    if sorted(found.combination.diagonal.scalars) != alpha or update.target.array in (a.array, b):
        return None
    return k, a, b


def _symm_shape(model: PolyModel, found: _SymmStatements, k: str) -> tuple[tuple[isl.PwAff, ...], bool] | None:
    """M and N, and whether ``k`` runs below ``r``, when the combination and ``init`` run over exactly the box
    ``0 <= r < M, 0 <= c < N`` and the two updates over exactly one strict triangle of ``k``."""
    r, c = found.combination.target.indices
    names = {"r": r, "c": c, "k": k, "m": r, "n": c}
    sizes = shapes.sized(model.domains[found.final.name], shapes.BOX, names, ("m", "n"))
    if not sizes:
        return None
    values = {"M": sizes[0], "N": sizes[1]}
    if not shapes.shaped(model.domains[found.init.name], shapes.BOX, names, values):
        return None
    domains = (found.accumulate.domain, found.update.domain)
    halves = [
        below for below, text in shapes.HALVES.items() if all(shapes.shaped(d, text, names, values) for d in domains)
    ]
    return (sizes, halves[0]) if halves else None


def _symm_order(model: PolyModel, found: _SymmStatements) -> isl.UnionMap | None:
    """The pairs of instances of the accumulator's statements with the same ``(r, c)``, when the original order
    computes the product: each combination reads ``C[r][c]`` before the updates write it, and reads the
    accumulator as its own ``(r, c)`` left it (``shapes.accumulates``)."""
    array = found.combination.target.array
    before = shapes.earlier(model, shapes.instances(model, found.init, found.accumulate, found.update, found.final))
    write = shapes.reference(model, found.update.name, array, is_write=True)
    if not shapes.read_first(write, shapes.reference(model, found.final.name, array, is_write=False), before):
        return None
    accumulate = model.scop.statement(found.accumulate.name)
    same = shapes.same_key(model, [found.init, accumulate, found.final], found.combination.target.indices)
    return same if shapes.accumulates(model, found.accumulation, same, before) else None
