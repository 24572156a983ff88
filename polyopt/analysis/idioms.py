"""Idiom recognition on the polyhedral model: statements that BLAS calls compute (seed 000, Sec. 4.4).

Public: ``Tail``, ``Idiom``, ``Gemm``, ``Gemv``, ``Rank1``, ``Ger``, ``Syrk``, ``Syr2k``, ``Trmm``, ``Symm``,
``BatchedGemm``, ``find_idioms``.

One statement is an *update* ``T[..] += sum of terms`` (also ``-=``, ``T = T + ...``)
when each term is a product of elements ``X[x][y]`` subscripted by loop
iterators alone (unit stride, no offset) and of factors that read no array
element and no iterator (``alpha``), and the terms do not read ``T``.  Which
BLAS routine computes it follows from the subscripts and the domain:

- GEMM ``C[r][c] += alpha * A[r][k] * B[k][c]`` (either operand transposed),
  over the box ``0 <= r < M, 0 <= c < N, 0 <= k < K``;
- GEMV ``y[a] += alpha * A[a][k] * x[k]`` (or ``A[k][a]``: transposed) over a box;
- GER ``A[r][c] += alpha * x[r] * y[c] + ...``, one rank-1 update per term, over a box;
- SYRK ``C[r][c] += alpha * A[r][k] * A[c][k]`` (or ``A[k][r] * A[k][c]``) over
  exactly the triangle ``0 <= c <= r < N, 0 <= k < K`` (lower) or ``0 <= r <= c < N`` (upper),
  or exactly the strict one (``c < r``, ``r < c``: ``strict``, the diagonal left alone, as
  PolyBench's correlation computes it);
- SYR2K ``C[r][c] += alpha * A[r][k] * B[c][k] + alpha * B[r][k] * A[c][k]`` over the same triangles;
- TRMM ``B[r][c] += A[.][.] * B[k][c]`` with ``A`` indexed by ``r`` and ``k``, over
  exactly ``0 <= r < k < M, 0 <= c < N`` (or ``k < r``), when every read of
  ``B[k][c]`` comes before the statement writes that element (so it reads the
  original ``B``, as the in-place BLAS routine does): ``B = op(A) * B`` with a
  unit diagonal.

Several statements form one idiom:

- SYMM ``C = alpha * A * B + beta * C`` (``A`` symmetric) as PolyBench's symm computes
  it, with four statements over ``0 <= r < M, 0 <= c < N``: a scalar accumulator
  ``t = 0``; over exactly the strict triangle ``0 <= k < r`` (or ``r < k < M``),
  ``C[k][c] += alpha * B[r][c] * A[r][k]`` and ``t += B[k][c] * A[r][k]``; then
  ``C[r][c] = beta * C[r][c] + alpha * B[r][c] * A[r][r] + alpha * t``.  ``A`` is read
  in one triangle only (``A[r][k]`` below the diagonal: the lower one; ``A[k][r]``: the
  upper one), ``C`` is neither ``A`` nor ``B``, and the original order must compute the
  product: each ``(r, c)`` starts its own accumulation and combines it before any
  other one writes ``t``, and reads ``C[r][c]`` before the updates add to it.  The
  accumulator's last value is left by the idiom's ``Tail``.
- A batched in-place GEMM ``X[b] = alpha * X[b] * op(W)`` for each ``b`` as PolyBench's doitgen
  computes it, with three statements over ``0 <= b < B, 0 <= r < M, 0 <= c < N``: a row buffer
  ``t[c] = 0``; ``t[c] += alpha * X[b][r][k] * W[k][c]`` (or ``W[c][k]``) over ``0 <= k < K``; then
  the copy back ``X[b][r][c] = t[c]``.  ``W`` is neither ``X`` nor ``t``, and the original order must
  compute the product: each ``(b, r, c)`` accumulates its element of ``t`` before it is copied and
  before another one writes that element, and every read of ``X`` comes before the copy writes
  that element.  The buffer's last values are left by the idiom's ``Tail``.

Domains are compared with isl for equality (``isl_util.shaped``), and every
range starts at 0, so the calls work on whole arrays from their first element.
The match is on subscripts, domains and the original order, never on array names.

The calls compute in the type of the updated elements (they run only on ``float`` or
``double`` arrays, ``polyopt.emit.blas``), and must compute what the statements compute in
their declared types (``polyopt.frontend.declarations``): an accumulator (SYMM's ``t``, the
batched GEMM's buffer) is declared of the type of the elements it is combined into, and of a
term's factors other than elements (multiplied together into the call's ``alpha``) at most one
is neither floating nor of the updated elements' type, so that no two are multiplied in integer
arithmetic where the statement multiplied each into a floating product
(``A[i][k] * B[k][j] * n * n`` would overflow in ``n * n``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import ClassVar, TypeVar

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt import isl_util
from polyopt.analysis.reductions import chain_operands
from polyopt.frontend.declarations import FLOATING, UNKNOWN, CType, Declarations, expression_type
from polyopt.frontend.scop import Statement, opaque_arrays
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Tail:
    """The ``instances`` of the idiom's statements that leave the temporary ``array`` (an accumulator the
    calls do not compute) as the original program leaves it: run in the original order before the calls,
    they read what the original read (the calls change only elements that the original reads first)."""

    array: str
    instances: isl.UnionSet


@dataclass(frozen=True, eq=False)
class Idiom:
    """Statements that CBLAS computes: ``sizes`` are the call's sizes (named ``SIZE_NAMES``) as functions
    of the parameters; the work that decides whether the call pays is the product of the sizes at ``WORK``;
    ``tail``, when the statements leave a temporary that the calls do not compute."""

    statements: tuple[str, ...]
    sizes: tuple[isl.PwAff, ...]
    tail: Tail | None = field(default=None, kw_only=True)

    ROUTINE: ClassVar[str]  # the CBLAS routine without its type letter: ``gemm`` for cblas_dgemm/cblas_sgemm
    LEVEL: ClassVar[int]  # the BLAS level: 3 for matrix-matrix, 2 for matrix-vector routines
    SIZE_NAMES: ClassVar[tuple[str, ...]]
    WORK: ClassVar[tuple[int, ...]]

    def formula(self) -> str:
        raise NotImplementedError

    def work(self, sizes: list[str]) -> list[str]:
        """The factors of the work, given the sizes printed as C."""
        return [sizes[index] for index in self.WORK]

    def describe(self, sizes: list[str], threshold: int, expected: int | None = None) -> str:
        """One line of ``--report``: the routine, what it computes, its sizes and when it is called;
        with ``expected``, the work at the assumed parameter values, below the threshold."""
        named = ", ".join(f"{name} = {text}" for name, text in zip(self.SIZE_NAMES, sizes, strict=True))
        work = " * ".join(self.SIZE_NAMES[index] for index in self.WORK)
        line = (
            f"{', '.join(self.statements)}: cblas_?{self.ROUTINE} {self.formula()} ({named}) when {work} >= {threshold}"
        )
        return line if expected is None else f"{line}; left to the loops: {work} = {expected} at the assumed values"


def _half(lower: bool) -> str:
    return "lower" if lower else "upper"


def _t(array: str, transposed: bool) -> str:
    return f"{array}^T" if transposed else array


@dataclass(frozen=True, eq=False)
class Gemm(Idiom):
    """``C += alpha * op(A) * op(B)``, ``op(A)`` of size M x K and ``op(B)`` K x N."""

    c: str
    a: str
    b: str
    trans_a: bool
    trans_b: bool
    alpha: str

    ROUTINE = "gemm"
    LEVEL = 3
    SIZE_NAMES = ("M", "N", "K")
    WORK = (0, 1, 2)

    def formula(self) -> str:
        return f"{self.c} += {self.alpha} * {_t(self.a, self.trans_a)} * {_t(self.b, self.trans_b)}"


@dataclass(frozen=True, eq=False)
class _MatrixVector(Idiom):
    """A level-2 routine on an M x N matrix: its work is M·N."""

    LEVEL = 2
    SIZE_NAMES = ("M", "N")
    WORK = (0, 1)


@dataclass(frozen=True, eq=False)
class Gemv(_MatrixVector):
    """``y += alpha * op(A) * x`` with ``A`` stored as M x N."""

    y: str
    a: str
    x: str
    trans: bool
    alpha: str

    ROUTINE = "gemv"

    def formula(self) -> str:
        return f"{self.y} += {self.alpha} * {_t(self.a, self.trans)} * {self.x}"


@dataclass(frozen=True)
class Rank1:
    """One term ``alpha * x * y^T`` of a GER update."""

    x: str
    y: str
    alpha: str


@dataclass(frozen=True, eq=False)
class Ger(_MatrixVector):
    """``A += sum of alpha * x * y^T`` (M x N), one call per term."""

    a: str
    terms: tuple[Rank1, ...]

    ROUTINE = "ger"

    def formula(self) -> str:
        return f"{self.a} += " + " + ".join(f"{term.alpha} * {term.x} * {term.y}^T" for term in self.terms)


@dataclass(frozen=True, eq=False)
class _RankK(Idiom):
    """A rank-k update of the ``lower`` (or upper) triangle of the N x N ``c`` by ``op(a)``, N x K
    (``a^T`` when ``trans``), without the diagonal when ``strict``; the work is N·N·K."""

    c: str
    a: str
    lower: bool
    trans: bool
    alpha: str
    strict: bool = field(default=False, kw_only=True)

    LEVEL = 3
    SIZE_NAMES = ("N", "K")
    WORK = (0, 0, 1)

    def _target(self) -> str:
        return f"{self.c} ({'strict ' if self.strict else ''}{_half(self.lower)})"


@dataclass(frozen=True, eq=False)
class Syrk(_RankK):
    """``C += alpha * op(A) * op(A)^T``."""

    ROUTINE = "syrk"

    def formula(self) -> str:
        return f"{self._target()} += {self.alpha} * {_t(self.a, self.trans)} * {_t(self.a, not self.trans)}"


@dataclass(frozen=True, eq=False)
class Syr2k(_RankK):
    """``C += alpha * (op(A) * op(B)^T + op(B) * op(A)^T)``."""

    b: str

    ROUTINE = "syr2k"

    def formula(self) -> str:
        a, at, b, bt = (_t(x, flag) for x in (self.a, self.b) for flag in (self.trans, not self.trans))
        return f"{self._target()} += {self.alpha} * ({a} * {bt} + {b} * {at})"


@dataclass(frozen=True, eq=False)
class _SquareOperand(Idiom):
    """A level-3 routine that applies an M x M operand, of which one triangle (``lower`` or upper) is
    read, to an M x N matrix: its work is M·M·N."""

    LEVEL = 3
    SIZE_NAMES = ("M", "N")
    WORK = (0, 0, 1)


@dataclass(frozen=True, eq=False)
class Trmm(_SquareOperand):
    """``B = op(A) * B`` with ``A`` M x M unit triangular (``lower`` or upper) and ``B`` M x N."""

    b: str
    a: str
    lower: bool
    trans: bool

    ROUTINE = "trmm"

    def formula(self) -> str:
        return f"{self.b} = {_t(self.a, self.trans)} * {self.b} ({self.a} unit {_half(self.lower)} triangular)"


@dataclass(frozen=True, eq=False)
class Symm(_SquareOperand):
    """``C = alpha * A * B + beta * C`` with ``A`` M x M symmetric, only its ``lower`` (or upper) triangle
    read, and ``B``, ``C`` M x N."""

    c: str
    a: str
    b: str
    lower: bool
    alpha: str
    beta: str

    ROUTINE = "symm"

    def formula(self) -> str:
        product = f"{self.alpha} * {self.a} * {self.b} + {self.beta} * {self.c}"
        return f"{self.c} = {product} ({self.a} symmetric, {_half(self.lower)})"


@dataclass(frozen=True, eq=False)
class BatchedGemm(Idiom):
    """``X[b] = alpha * X[b] * op(W)`` for each of the B matrices ``X[b]``, read as M x K and overwritten
    as M x N, with ``op(W)`` K x N (``W^T`` when ``trans``)."""

    x: str
    w: str
    trans: bool
    alpha: str

    ROUTINE = "gemm"
    LEVEL = 3
    SIZE_NAMES = ("B", "M", "N", "K")
    WORK = (0, 1, 2, 3)

    def formula(self) -> str:
        return f"{self.x}[b] = {self.alpha} * {self.x}[b] * {_t(self.w, self.trans)} (in place, for each b)"


_T = TypeVar("_T")


@dataclass(frozen=True)
class _Ref:
    """An element ``array[indices[0]][indices[1]]...`` subscripted by iterators alone."""

    array: str
    indices: tuple[str, ...]


@dataclass(frozen=True)
class _Term:
    """``refs[0] * refs[1] * ...`` times the ``scalars`` (C text of the factors that read no array element
    and no iterator), added when ``positive``, else subtracted."""

    refs: tuple[_Ref, ...]
    scalars: tuple[str, ...]
    positive: bool = True

    @property
    def scale(self) -> str:
        """The signed product of the scalars as C text (``1.0`` when there is none)."""
        scale = " * ".join(f"({text})" for text in self.scalars) or "1.0"
        return scale if self.positive else f"-({scale})"


@dataclass(frozen=True, eq=False)
class _Update:
    """Statement ``name`` adds ``terms`` to ``target`` over ``domain``, in its loops ``iterators``."""

    name: str
    iterators: tuple[str, ...]
    domain: isl.Set
    target: _Ref
    terms: tuple[_Term, ...]


def _text(node: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(node)


def _factors(node: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(node, c_ast.BinaryOp) and node.op == "*":
        return _factors(node.left) + _factors(node.right)
    return [node]


def _reads_data(node: c_ast.Node, iterators: tuple[str, ...]) -> bool:
    """Whether ``node`` reads an array element or an iterator."""
    if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.ID) and node.name in iterators):
        return True
    return any(_reads_data(child, iterators) for _, child in node.children())


def _ref(node: c_ast.Node, iterators: tuple[str, ...]) -> _Ref | None:
    indices: list[str] = []
    while isinstance(node, c_ast.ArrayRef):
        if not isinstance(node.subscript, c_ast.ID) or node.subscript.name not in iterators:
            return None
        indices.insert(0, node.subscript.name)
        node = node.name
    return _Ref(node.name, tuple(indices)) if isinstance(node, c_ast.ID) and indices else None


def _target(node: c_ast.Node, iterators: tuple[str, ...]) -> _Ref | None:
    """The element that ``node`` (a left-hand side) names: an array element as for ``_ref``, or a scalar."""
    if isinstance(node, c_ast.ID) and node.name not in iterators:
        return _Ref(node.name, ())
    return _ref(node, iterators)


def _floating_in_calls(factor: c_ast.Node, element: CType, declarations: Declarations) -> bool:
    """Whether ``factor`` is floating wherever a call runs: of a floating type, or declared of the type of
    the updated ``element`` (the calls run only on ``float`` or ``double`` arrays)."""
    ctype = expression_type(factor, declarations)
    return (ctype.kind == FLOATING and not ctype.pointer) or ctype.same(element)


def _term(
    node: c_ast.Node, positive: bool, iterators: tuple[str, ...], target: c_ast.Node, declarations: Declarations
) -> _Term | None:
    """``node`` as a term added to ``target``, when the product of its factors other than elements is
    floating wherever a call runs (at most one of them is not: ``_floating_in_calls``)."""
    refs: list[_Ref] = []
    factors: list[c_ast.Node] = []
    for factor in _factors(node):
        if not _reads_data(factor, iterators):
            factors.append(factor)
            continue
        ref = _ref(factor, iterators)
        if ref is None:
            return None
        refs.append(ref)
    element = expression_type(target, declarations)
    if sum(not _floating_in_calls(factor, element, declarations) for factor in factors) > 1:
        return None
    return _Term(tuple(refs), tuple(_text(factor) for factor in factors), positive)


def _added(body: c_ast.Assignment) -> list[tuple[c_ast.Node, bool]] | None:
    """The signed terms that ``body`` adds to its left-hand side."""
    if body.op in ("+=", "-="):
        return [(term, positive == (body.op == "+=")) for term, positive in chain_operands(body.rvalue, "+")]
    if body.op != "=":
        return None
    target = _text(body.lvalue)
    terms = chain_operands(body.rvalue, "+")
    own = [positive for term, positive in terms if _text(term) == target]
    return [(t, p) for t, p in terms if _text(t) != target] if own == [True] and len(terms) > 1 else None


def _update(model: PolyModel, statement: Statement) -> _Update | None:
    body = statement.body
    if len(statement.writes) != 1 or not isinstance(body, c_ast.Assignment):
        return None
    target = _target(body.lvalue, statement.iterators)
    added = _added(body)
    if target is None or added is None:
        return None
    declarations = model.scop.declarations
    terms = [_term(node, positive, statement.iterators, body.lvalue, declarations) for node, positive in added]
    if any(term is None for term in terms):
        return None
    domain = model.domains[statement.name]
    return _Update(statement.name, statement.iterators, domain, target, tuple(t for t in terms if t is not None))


def _reads_target(update: _Update) -> bool:
    return any(ref.array == update.target.array for term in update.terms for ref in term.refs)


def _shaped(domain: isl.Set, constraints: str, names: dict[str, str], sizes: dict[str, isl.PwAff]) -> bool:
    """Whether ``domain`` is exactly ``constraints`` (``isl_util.shaped``)."""
    return isl_util.shaped(domain, constraints, names, sizes).is_equal(domain)


def _sized(domain: isl.Set, constraints: str, names: dict[str, str], sized: tuple[str, ...]) -> tuple[isl.PwAff, ...]:
    """The sizes of the iterators ``sized`` (keys of ``names``) when ``domain`` is exactly ``constraints``,
    where ``{X}`` stands for the size of ``{x}``; empty otherwise."""
    sizes = {key.upper(): isl_util.size(domain, names[key]) for key in sized}
    return tuple(sizes[key.upper()] for key in sized) if _shaped(domain, constraints, names, sizes) else ()


def _box(update: _Update, names: dict[str, str]) -> tuple[isl.PwAff, ...]:
    """The sizes of the iterators in ``names`` when the domain is the box ``0 <= x < X`` over them."""
    constraints = " and ".join(f"0 <= {{{key}}} < {{{key.upper()}}}" for key in names)
    return _sized(update.domain, constraints, names, tuple(names))


def _product(term: _Term, first: tuple[str, ...], second: tuple[str, ...]) -> tuple[_Ref, _Ref] | None:
    """The two elements of ``term``, the first subscripted by ``first`` (in some order), the other by ``second``."""
    if len(term.refs) != 2:
        return None
    for one, other in (term.refs, term.refs[::-1]):
        if sorted(one.indices) == sorted(first) and sorted(other.indices) == sorted(second):
            return one, other
    return None


def _matrix_operands(update: _Update) -> tuple[str, str, str, list[tuple[_Ref, _Ref, str]]] | None:
    """For ``T[r][c]`` updated in loops ``r``, ``c``, ``k``: ``r``, ``c``, ``k`` and each term's
    ``(X over r and k, Y over k and c, scale)``."""
    if len(update.iterators) != 3 or len(update.target.indices) != 2 or _reads_target(update):
        return None
    r, c = update.target.indices
    rest = set(update.iterators) - {r, c}
    if len(rest) != 1:
        return None
    (k,) = rest
    products = [(_product(term, (r, k), (k, c)), term.scale) for term in update.terms]
    found = [(pair[0], pair[1], scale) for pair, scale in products if pair is not None]
    return (r, c, k, found) if len(found) == len(products) else None


def _gemm(update: _Update) -> Gemm | None:
    operands = _matrix_operands(update)
    if operands is None or len(operands[3]) != 1:
        return None
    r, c, k, [(first, second, scale)] = operands
    sizes = _box(update, {"r": r, "c": c, "k": k})
    if not sizes:
        return None
    trans_a, trans_b = first.indices == (k, r), second.indices == (c, k)
    return Gemm((update.name,), sizes, update.target.array, first.array, second.array, trans_a, trans_b, scale)


_TRIANGLES = {
    (True, False): "0 <= {c} <= {r} < {N} and 0 <= {k} < {K}",
    (False, False): "0 <= {r} <= {c} < {N} and 0 <= {k} < {K}",
    (True, True): "0 <= {c} < {r} < {N} and 0 <= {k} < {K}",
    (False, True): "0 <= {r} < {c} < {N} and 0 <= {k} < {K}",
}


def _triangle(update: _Update, r: str, c: str, k: str) -> tuple[bool, bool, tuple[isl.PwAff, ...]] | None:
    """Whether the domain is exactly the lower (``c <= r``) or the upper triangle of the target, whether
    without the diagonal (strict), and N, K."""
    for (lower, strict), constraints in _TRIANGLES.items():
        names = {"r": r, "c": c, "k": k, "n": r if lower else c}
        sizes = _sized(update.domain, constraints, names, ("n", "k"))
        if sizes:
            return lower, strict, sizes
    return None


def _symmetric(update: _Update) -> Syrk | Syr2k | None:
    """SYRK or SYR2K: the second operand of each term is ``op(X)^T`` for the first operand's ``op(X)``."""
    operands = _matrix_operands(update)
    if operands is None:
        return None
    r, c, k, found = operands
    trans = found[0][0].indices == (k, r)
    expected = (k, c) if trans else (c, k)
    if any(first.indices != ((k, r) if trans else (r, k)) or second.indices != expected for first, second, _ in found):
        return None
    triangle = _triangle(update, r, c, k)
    if triangle is None:
        return None
    lower, strict, sizes = triangle
    target, name = update.target.array, (update.name,)
    if len(found) == 1 and found[0][0].array == found[0][1].array:
        return Syrk(name, sizes, target, found[0][0].array, lower, trans, found[0][2], strict=strict)
    if len(found) != 2 or found[0][2] != found[1][2]:
        return None
    (a, b, scale), (b2, a2, _) = found
    if a.array == b.array or (a.array, b.array) != (a2.array, b2.array):
        return None
    return Syr2k(name, sizes, target, a.array, lower, trans, scale, b.array, strict=strict)


def _gemv(update: _Update) -> Gemv | None:
    if len(update.iterators) != 2 or len(update.target.indices) != 1 or len(update.terms) != 1:
        return None
    if _reads_target(update):
        return None
    (a,) = update.target.indices
    (k,) = set(update.iterators) - {a}
    pair = _product(update.terms[0], (a, k), (k,))
    if pair is None:
        return None
    matrix, vector = pair
    sizes = _box(update, {"a": a, "k": k})
    if not sizes:
        return None
    trans = matrix.indices == (k, a)
    shape = sizes[::-1] if trans else sizes
    return Gemv((update.name,), shape, update.target.array, matrix.array, vector.array, trans, update.terms[0].scale)


def _ger(update: _Update) -> Ger | None:
    if len(update.iterators) != 2 or len(update.target.indices) != 2 or _reads_target(update):
        return None
    r, c = update.target.indices
    pairs = [(_product(term, (r,), (c,)), term.scale) for term in update.terms]
    terms = tuple(Rank1(pair[0].array, pair[1].array, scale) for pair, scale in pairs if pair is not None)
    if len(terms) != len(pairs) or r == c:
        return None
    sizes = _box(update, {"r": r, "c": c})
    return Ger((update.name,), sizes, update.target.array, terms) if sizes else None


def _earlier(model: PolyModel, instances: isl.UnionSet) -> isl.UnionMap:
    """Every pair of ``instances``, the first one before the second in the original order."""
    order = model.schedule.get_map().intersect_domain(instances)
    return order.lex_lt_union_map(order)


def _read_first(write: isl.Map, read: isl.Map, earlier: isl.UnionMap) -> bool:
    """Whether every instance of ``read`` reads its element before each instance of ``write`` writes it."""
    same = isl.UnionMap.from_map(write.apply_range(read.reverse()))
    return same.intersect(earlier).is_empty()


def _reads_original(model: PolyModel, update: _Update) -> bool:
    """Whether each read of the target's array, other than of the updated element, comes before
    every write of that element by the statement (in the original order)."""
    references = [ref for ref in model.references if ref.statement == update.name and ref.array == update.target.array]
    write = next(ref.relation for ref in references if ref.is_write)
    earlier = _earlier(model, isl.UnionSet.from_set(update.domain))
    return all(_read_first(write, ref.relation, earlier) for ref in references if not ref.relation.is_equal(write))


_STRICT_TRIANGLES = {True: "0 <= {r} < {k} < {M} and 0 <= {c} < {N}", False: "0 <= {k} < {r} < {M} and 0 <= {c} < {N}"}


def _trmm(model: PolyModel, update: _Update) -> Trmm | None:
    if len(update.iterators) != 3 or len(update.target.indices) != 2 or len(update.terms) != 1:
        return None
    r, c = update.target.indices
    rest = set(update.iterators) - {r, c}
    term = update.terms[0]
    if len(rest) != 1 or term.scale != "1.0":
        return None
    (k,) = rest
    pair = _product(term, (r, k), (k, c))
    if pair is None or pair[0].array == update.target.array or pair[1] != _Ref(update.target.array, (k, c)):
        return None
    names = {"r": r, "c": c, "k": k}
    for above, constraints in _STRICT_TRIANGLES.items():
        sizes = _sized(update.domain, constraints, {**names, "m": k if above else r, "n": c}, ("m", "n"))
        if sizes and _reads_original(model, update):
            trans = pair[0].indices == (k, r)
            return Trmm((update.name,), sizes, update.target.array, pair[0].array, lower=above == trans, trans=trans)
    return None


_BOX = "0 <= {r} < {M} and 0 <= {c} < {N}"
_HALVES = {True: "0 <= {k} < {r} < {M} and 0 <= {c} < {N}", False: "0 <= {r} < {k} < {M} and 0 <= {c} < {N}"}


@dataclass(frozen=True)
class _Combination:
    """``target = beta * target + alpha * B[r][c] * A[r][r] + alpha * t`` (terms and factors in any order):
    ``own`` is the term of the target, ``diagonal`` the product, ``alpha`` the factors of ``t``'s term."""

    target: _Ref
    own: _Term
    diagonal: _Term
    accumulator: str
    alpha: tuple[str, ...]


def _combination(statement: Statement, scalars: frozenset[str], declarations: Declarations) -> _Combination | None:
    """``statement`` as a combination of one of the ``scalars`` (written in the region) into ``T[r][c]``."""
    body = statement.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or len(statement.iterators) != 2:
        return None
    target = _ref(body.lvalue, statement.iterators)
    if target is None or sorted(target.indices) != sorted(statement.iterators):
        return None
    terms = [
        _term(node, positive, statement.iterators, body.lvalue, declarations)
        for node, positive in chain_operands(body.rvalue, "+")
    ]
    own = [t for t in terms if t is not None and t.positive and t.refs == (target,)]
    diagonal = [t for t in terms if t is not None and t.positive and len(t.refs) == 2]
    sums = [t for t in terms if t is not None and t.positive and not t.refs and len(scalars & set(t.scalars)) == 1]
    if len(terms) != 3 or not len(own) == len(diagonal) == len(sums) == 1:
        return None
    (accumulator,) = scalars & set(sums[0].scalars)
    alpha = list(sums[0].scalars)
    alpha.remove(accumulator)
    return _Combination(target, own[0], diagonal[0], accumulator, tuple(alpha))


def _zero(node: c_ast.Node) -> bool:
    """Whether ``node`` is the constant 0 (also cast, or in PolyBench's ``SCALAR_VAL``)."""
    if isinstance(node, c_ast.Cast):
        return _zero(node.expr)
    if (
        isinstance(node, c_ast.FuncCall)
        and _text(node.name) == "SCALAR_VAL"
        and node.args
        and len(node.args.exprs) == 1
    ):
        return _zero(node.args.exprs[0])
    try:
        return isinstance(node, c_ast.Constant) and float(node.value.rstrip("fFlLuU")) == 0
    except ValueError:
        return False


def _only(items: list[_T]) -> _T | None:
    return items[0] if len(items) == 1 else None


@dataclass(frozen=True)
class _Accumulation:
    """The statements of an accumulator ``array`` (a scalar or a row): ``init`` sets an element to 0,
    ``accumulate`` adds to it and ``final`` reads it."""

    array: str
    init: Statement
    accumulate: _Update
    final: Statement


@dataclass(frozen=True)
class _SymmStatements:
    """The four statements of a SYMM: ``t = 0`` (``init``), ``t += B[k][c] * A[r][k]`` (``accumulate``),
    ``C[k][c] += alpha * B[r][c] * A[r][k]`` (``update``) and the combination ``final`` of ``t`` into ``C[r][c]``."""

    init: Statement
    accumulate: _Update
    update: _Update
    final: Statement
    combination: _Combination

    @property
    def accumulation(self) -> _Accumulation:
        return _Accumulation(self.combination.accumulator, self.init, self.accumulate, self.final)


def _symm_statements(model: PolyModel, final: Statement, updates: dict[str, _Update]) -> _SymmStatements | None:
    """The statements of a SYMM whose combination is ``final``, found by the accumulator they share."""
    scalars = frozenset(
        ref.array for ref in model.references if ref.is_write and ref.relation.range().dim(isl.dim_type.set) == 0
    )
    combination = _combination(final, scalars, model.scop.declarations)
    if combination is None:
        return None
    t, (r, c) = combination.accumulator, combination.target.indices
    users = {ref.statement for ref in model.references if ref.array == t}
    accumulate = _only([u for u in updates.values() if u.target == _Ref(t, ())])
    writers = [s for s in model.scop.statements if any(w.array == t for w in s.writes)]
    init = _only([s for s in writers if accumulate is None or s.name != accumulate.name])
    c_updates = [u for u in updates.values() if u.target.array == combination.target.array and u.name != final.name]
    update = _only([u for u in c_updates if len(u.target.indices) == 2 and u.target.indices[1] == c])
    if accumulate is None or update is None or init is None:
        return None
    body = init.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or not _zero(body.rvalue) or len(init.writes) != 1:
        return None
    if init.iterators != final.iterators or users != {init.name, accumulate.name, final.name} or r == c:
        return None
    return _SymmStatements(init, accumulate, update, final, combination)


def _symm_operands(found: _SymmStatements) -> tuple[str, _Ref, str] | None:
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
    pair = _product(accumulate.terms[0], (r, k), (k, c)) if len(accumulate.terms) == 1 else None
    if pair is None or accumulate.terms[0].scale != "1.0" or pair[1].indices != (k, c):
        return None
    a, b = pair[0], pair[1].array
    diagonal = (_Ref(a.array, (r, r)), _Ref(b, (r, c)))
    if _product(update.terms[0], (r, k), (r, c)) != (a, _Ref(b, (r, c))):
        return None
    alpha = sorted(found.combination.alpha)
    term, product = update.terms[0], _product(found.combination.diagonal, (r, r), (r, c))
    if product != diagonal or not term.positive or sorted(term.scalars) != alpha:
        return None
    if sorted(found.combination.diagonal.scalars) != alpha or update.target.array in (a.array, b):
        return None
    return k, a, b


def _same_key(model: PolyModel, statements: list[Statement], key: tuple[str, ...]) -> isl.UnionMap:
    """The pairs of instances of ``statements`` with the same values of the iterators ``key``."""
    keys = isl.UnionMap.empty(model.param_space())
    for statement in statements:
        text = f"{{ {statement.name}[{', '.join(statement.iterators)}] -> [{', '.join(key)}] }}"
        projection = isl.Map.read_from_str(model.ctx, text).intersect_domain(model.domains[statement.name])
        keys = keys.union(isl.UnionMap.from_map(projection))
    return keys.apply_range(keys.reverse())


def _instances(model: PolyModel, *statements: Statement | _Update) -> isl.UnionSet:
    return isl_util.union_of(
        (isl.UnionSet.from_set(model.domains[s.name]) for s in statements), isl.UnionSet.empty(model.param_space())
    )


def _accumulates(model: PolyModel, found: _Accumulation, same: isl.UnionMap, earlier: isl.UnionMap) -> bool:
    """Whether the ``final`` of each key (``same``) reads the accumulator that ``init`` of its key set
    and only the updates of its key added to: each key's accumulation of an element starts and ends
    before another one writes that element."""
    init, accumulate, final = (_instances(model, s) for s in (found.init, found.accumulate, found.final))
    steps = ((init, accumulate), (accumulate, final), (init, final))
    if not all(same.intersect_domain(x).intersect_range(y).is_subset(earlier) for x, y in steps):
        return False
    written = _written(model, found)
    writes = init.union(accumulate)
    element = written.apply_range(written.reverse())
    started = earlier.intersect_domain(init).intersect_range(writes).intersect(element).subtract(same)
    between = started.apply_range(earlier.intersect_domain(writes).intersect_range(final))
    return between.intersect(same).is_empty()


def _written(model: PolyModel, found: _Accumulation) -> isl.UnionMap:
    """The elements of the accumulator that ``init`` and ``accumulate`` write."""
    relations = (_reference(model, s.name, found.array, is_write=True) for s in (found.init, found.accumulate))
    return isl_util.union_of((isl.UnionMap.from_map(r) for r in relations), isl.UnionMap.empty(model.param_space()))


def _last(model: PolyModel, found: _Accumulation, same: isl.UnionMap) -> isl.UnionSet:
    """The instances of ``init`` and ``accumulate`` that leave each element of the accumulator its value:
    the last ``init`` of the element and the updates of its key."""
    placed = model.schedule.get_map().intersect_domain(_instances(model, found.init))
    timing = isl.UnionMap.from_map(_reference(model, found.init.name, found.array, is_write=True))
    last = timing.reverse().apply_range(placed).lexmax().apply_range(placed.reverse()).range()
    return last.union(last.apply(same).intersect(_instances(model, found.accumulate)))


def _same_type(model: PolyModel, accumulator: _Ref, target: _Ref) -> bool:
    """Whether the elements of ``accumulator`` are declared of the type of ``target``'s."""
    objects = model.scop.declarations.objects
    types = [objects.get(ref.array, CType(UNKNOWN)).element(len(ref.indices)) for ref in (accumulator, target)]
    return types[0].same(types[1])


def _invariant(model: PolyModel, texts: list[str]) -> bool:
    """Whether the factors ``texts`` name nothing that the region writes."""
    written = set(model.writes)
    return not any(written & set(re.findall(r"[A-Za-z_]\w*", text)) for text in texts)


def _reference(model: PolyModel, statement: str, array: str, is_write: bool) -> isl.Map:
    return next(
        ref.relation
        for ref in model.references
        if (ref.statement, ref.array, ref.is_write) == (statement, array, is_write)
    )


def _symm_shape(model: PolyModel, found: _SymmStatements, k: str) -> tuple[tuple[isl.PwAff, ...], bool] | None:
    """M and N, and whether ``k`` runs below ``r``, when the combination and ``init`` run over exactly the box
    ``0 <= r < M, 0 <= c < N`` and the two updates over exactly one strict triangle of ``k``."""
    r, c = found.combination.target.indices
    names = {"r": r, "c": c, "k": k, "m": r, "n": c}
    sizes = _sized(model.domains[found.final.name], _BOX, names, ("m", "n"))
    if not sizes:
        return None
    values = {"M": sizes[0], "N": sizes[1]}
    if not _shaped(model.domains[found.init.name], _BOX, names, values):
        return None
    domains = (found.accumulate.domain, found.update.domain)
    halves = [below for below, text in _HALVES.items() if all(_shaped(d, text, names, values) for d in domains)]
    return (sizes, halves[0]) if halves else None


def _symm_order(model: PolyModel, found: _SymmStatements) -> isl.UnionMap | None:
    """The pairs of instances of the accumulator's statements with the same ``(r, c)``, when the original order
    computes the product: each combination reads ``C[r][c]`` before the updates write it, and reads the
    accumulator as its own ``(r, c)`` left it (``_accumulates``)."""
    array = found.combination.target.array
    earlier = _earlier(model, _instances(model, found.init, found.accumulate, found.update, found.final))
    write = _reference(model, found.update.name, array, is_write=True)
    if not _read_first(write, _reference(model, found.final.name, array, is_write=False), earlier):
        return None
    accumulate = model.scop.statement(found.accumulate.name)
    same = _same_key(model, [found.init, accumulate, found.final], found.combination.target.indices)
    return same if _accumulates(model, found.accumulation, same, earlier) else None


def _symm(model: PolyModel, final: Statement, updates: dict[str, _Update]) -> Symm | None:
    """SYMM: ``C = alpha * A * B + beta * C`` computed as PolyBench's symm does, with an accumulator ``t``
    that each ``(r, c)`` sets to 0, adds ``B[k][c] * A[r][k]`` to over the strict triangle of ``k`` (below
    ``r``: ``A``'s lower triangle; or above), and combines into ``C[r][c]``, while the update adds
    ``alpha * B[r][c] * A[r][k]`` to ``C[k][c]`` after that combination."""
    found = _symm_statements(model, final, updates)
    operands = None if found is None else _symm_operands(found)
    shape = None if found is None or operands is None else _symm_shape(model, found, operands[0])
    if found is None or operands is None or shape is None:
        return None
    (k, a, b), (sizes, below) = operands, shape
    combination, term = found.combination, found.update.terms[0]
    if not _invariant(model, [*term.scalars, *combination.own.scalars]):
        return None
    if not _same_type(model, _Ref(combination.accumulator, ()), combination.target):
        return None
    same = _symm_order(model, found)
    if same is None:
        return None
    names = {found.init.name, found.accumulate.name, found.update.name, final.name}
    statements = tuple(s.name for s in model.scop.statements if s.name in names)
    lower = (a.indices == combination.target.indices[:1] + (k,)) == below
    tail = Tail(combination.accumulator, _last(model, found.accumulation, same))
    return Symm(
        statements, sizes, combination.target.array, a.array, b, lower, term.scale, combination.own.scale, tail=tail
    )


def _copy(statement: Statement) -> tuple[_Ref, _Ref] | None:
    """``statement`` as a copy ``X[b][r][c] = t[c]`` in its loops ``b``, ``r``, ``c``: the two elements."""
    body, iterators = statement.body, statement.iterators
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or len(statement.writes) != 1:
        return None
    target, source = _ref(body.lvalue, iterators), _ref(body.rvalue, iterators)
    if target is None or source is None or target.indices != iterators or len(iterators) != 3:
        return None
    return (target, source) if source.indices == iterators[2:] and len(set(iterators)) == 3 else None


def _batched_statements(model: PolyModel, copy: Statement, updates: dict[str, _Update]) -> _Accumulation | None:
    """The statements of a batched in-place GEMM whose copy back is ``copy``, found by the row buffer
    they share: ``t[c] = 0`` in the same loops, and ``t[c] += ...`` in them and one more."""
    copied = _copy(copy)
    if copied is None:
        return None
    buffer = copied[1]
    accumulate = _only([u for u in updates.values() if u.target == buffer and u.iterators[:3] == copy.iterators])
    writers = [s for s in model.scop.statements if any(w.array == buffer.array for w in s.writes)]
    init = _only([s for s in writers if accumulate is None or s.name != accumulate.name])
    if accumulate is None or init is None or init.iterators != copy.iterators or len(accumulate.iterators) != 4:
        return None
    body = init.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or not _zero(body.rvalue) or len(init.writes) != 1:
        return None
    if _target(body.lvalue, init.iterators) != buffer:
        return None
    users = {ref.statement for ref in model.references if ref.array == buffer.array}
    if users != {init.name, accumulate.name, copy.name}:
        return None
    return _Accumulation(buffer.array, init, accumulate, copy)


def _batched_operands(found: _Accumulation, target: _Ref) -> tuple[_Ref, _Term] | None:
    """For a batched GEMM into ``target`` (``X[b][r][c]``): the element ``W[k][c]`` (or ``W[c][k]``) and the
    term of the product, when the update adds ``alpha * X[b][r][k] * W`` with ``W`` neither ``X`` nor ``t``."""
    b, r, c = target.indices
    k = found.accumulate.iterators[3]
    terms = found.accumulate.terms
    pair = _product(terms[0], (b, r, k), (k, c)) if len(terms) == 1 else None
    if pair is None or pair[0] != _Ref(target.array, (b, r, k)):
        return None
    w = pair[1]
    return (w, terms[0]) if w.array not in (target.array, found.array) else None


def _batched_order(model: PolyModel, found: _Accumulation, target: _Ref) -> isl.UnionMap | None:
    """The pairs of instances of the buffer's statements with the same ``(b, r, c)``, when the original order
    computes the product: each element of the buffer is accumulated and copied before another ``(b, r, c)``
    writes it (``_accumulates``), and every read of ``X`` comes before the copy writes that element."""
    accumulate = model.scop.statement(found.accumulate.name)
    earlier = _earlier(model, _instances(model, found.init, accumulate, found.final))
    write = _reference(model, found.final.name, target.array, is_write=True)
    if not _read_first(write, _reference(model, accumulate.name, target.array, is_write=False), earlier):
        return None
    same = _same_key(model, [found.init, accumulate, found.final], target.indices)
    return same if _accumulates(model, found, same, earlier) else None


def _batched(model: PolyModel, copy: Statement, updates: dict[str, _Update]) -> BatchedGemm | None:
    """A batched in-place GEMM: ``X[b] = alpha * X[b] * op(W)`` computed row by row into the buffer ``t``
    (``t[c] = 0``, ``t[c] += alpha * X[b][r][k] * W[k][c]``) and copied back (``X[b][r][c] = t[c]``)."""
    found = _batched_statements(model, copy, updates)
    copied = _copy(copy)
    operands = None if found is None or copied is None else _batched_operands(found, copied[0])
    if found is None or copied is None or operands is None:
        return None
    (w, term), (target, buffer) = operands, copied
    sizes = _batched_shape(model, found, target)
    if sizes is None or not _invariant(model, list(term.scalars)) or not _same_type(model, buffer, target):
        return None
    same = _batched_order(model, found, target)
    if same is None:
        return None
    names = {found.init.name, found.accumulate.name, copy.name}
    statements = tuple(s.name for s in model.scop.statements if s.name in names)
    trans = w.indices == target.indices[2:] + found.accumulate.iterators[3:]
    tail = Tail(found.array, _last(model, found, same))
    return BatchedGemm(statements, sizes, target.array, w.array, trans, term.scale, tail=tail)


_BATCH = "0 <= {b} < {B} and 0 <= {r} < {R} and 0 <= {c} < {C}"


def _batched_shape(model: PolyModel, found: _Accumulation, target: _Ref) -> tuple[isl.PwAff, ...] | None:
    """B, M, N and K when the copy and ``init`` run over exactly the box ``0 <= b < B, 0 <= r < M,
    0 <= c < N`` of ``target``'s subscripts and the update over exactly that box times ``0 <= k < K``."""
    names = dict(zip("brck", (*target.indices, found.accumulate.iterators[3]), strict=True))
    deep = f"{_BATCH} and 0 <= {{k}} < {{K}}"
    sizes = _sized(model.domains[found.final.name], _BATCH, names, ("b", "r", "c"))
    depth = _sized(found.accumulate.domain, deep, names, ("b", "r", "c", "k"))
    if not sizes or not depth:
        return None
    values = dict(zip("BRC", sizes, strict=True))
    if not _shaped(model.domains[found.init.name], _BATCH, names, values):
        return None
    return (*sizes, depth[3]) if _shaped(found.accumulate.domain, deep, names, values | {"K": depth[3]}) else None


_MATCHERS: tuple[Callable[[PolyModel, _Update], Idiom | None], ...] = (
    lambda _, update: _gemm(update),
    lambda _, update: _symmetric(update),
    lambda _, update: _gemv(update),
    lambda _, update: _ger(update),
    _trmm,
)


_COMBINED: tuple[Callable[[PolyModel, Statement, dict[str, _Update]], Idiom | None], ...] = (_symm, _batched)


def _single(model: PolyModel, update: _Update) -> Idiom | None:
    """The idiom that the one statement ``update`` computes, if any."""
    return next((idiom for matcher in _MATCHERS if (idiom := matcher(model, update)) is not None), None)


def find_idioms(model: PolyModel) -> tuple[Idiom, ...]:
    """Every set of statements of ``model`` that a BLAS routine computes, in source order (of their first);
    none that touches an array that an opaque statement touches."""
    opaque = opaque_arrays(model.scop)
    statements = model.scop.statements
    clear = {s.name for s in statements if not {access.array for access in s.reads + s.writes} & opaque}
    updates = {s.name: update for s in statements if s.name in clear and (update := _update(model, s)) is not None}
    combined = [idiom for s in statements for match in _COMBINED if (idiom := match(model, s, updates)) is not None]
    combined = [idiom for idiom in combined if set(idiom.statements) <= clear]
    taken = {name for idiom in combined for name in idiom.statements}
    single = [idiom for name, u in updates.items() if name not in taken and (idiom := _single(model, u)) is not None]
    order = {s.name: index for index, s in enumerate(statements)}
    return tuple(sorted([*combined, *single], key=lambda idiom: order[idiom.statements[0]]))
