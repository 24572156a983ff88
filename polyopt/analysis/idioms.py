"""Idiom recognition on the polyhedral model: statements that a BLAS call computes (seed 000, Sec. 4.4).

Public: ``Idiom``, ``Gemm``, ``Gemv``, ``Rank1``, ``Ger``, ``Syrk``, ``Syr2k``, ``Trmm``, ``find_idioms``.

A statement is an *update* ``T[..] += sum of terms`` (also ``-=``, ``T = T + ...``)
when each term is a product of elements ``X[x][y]`` subscripted by loop
iterators alone (unit stride, no offset) and of factors that read no array
element and no iterator (``alpha``), and the terms do not read ``T``.  Which
BLAS routine computes it follows from the subscripts and the domain:

- GEMM ``C[r][c] += alpha * A[r][k] * B[k][c]`` (either operand transposed),
  over the box ``0 <= r < M, 0 <= c < N, 0 <= k < K``;
- GEMV ``y[a] += alpha * A[a][k] * x[k]`` (or ``A[k][a]``: transposed) over a box;
- GER ``A[r][c] += alpha * x[r] * y[c] + ...``, one rank-1 update per term, over a box;
- SYRK ``C[r][c] += alpha * A[r][k] * A[c][k]`` (or ``A[k][r] * A[k][c]``) over
  exactly the triangle ``0 <= c <= r < N, 0 <= k < K`` (lower) or ``0 <= r <= c < N`` (upper);
- SYR2K ``C[r][c] += alpha * A[r][k] * B[c][k] + alpha * B[r][k] * A[c][k]`` over the same triangles;
- TRMM ``B[r][c] += A[.][.] * B[k][c]`` with ``A`` indexed by ``r`` and ``k``, over
  exactly ``0 <= r < k < M, 0 <= c < N`` (or ``k < r``), when every read of
  ``B[k][c]`` comes before the statement writes that element (so it reads the
  original ``B``, as the in-place BLAS routine does): ``B = op(A) * B`` with a
  unit diagonal.

Domains are compared with isl for equality (``isl_util.shaped``), and every
range starts at 0, so the calls work on whole arrays from their first element.
The match is on subscripts and domains, never on array names.  SYMM is not
recognized: PolyBench's symm computes it with four statements (a scalar
accumulator, two updates and a combination), which a one-statement match
does not cover.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import ClassVar

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt import isl_util
from polyopt.analysis.reductions import chain_operands
from polyopt.frontend.scop import Statement
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Idiom:
    """A statement that CBLAS computes: ``sizes`` are the call's sizes (named ``SIZE_NAMES``) as functions
    of the parameters; the work that decides whether the call pays is the product of the sizes at ``WORK``."""

    statement: str
    sizes: tuple[isl.PwAff, ...]

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
        line = f"{self.statement}: cblas_?{self.ROUTINE} {self.formula()} ({named}) when {work} >= {threshold}"
        return line if expected is None else f"{line}; left to the loops: {work} = {expected} at the assumed values"


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
    (``a^T`` when ``trans``); the work is N·N·K."""

    c: str
    a: str
    lower: bool
    trans: bool
    alpha: str

    LEVEL = 3
    SIZE_NAMES = ("N", "K")
    WORK = (0, 0, 1)

    def _target(self) -> str:
        return f"{self.c} ({'lower' if self.lower else 'upper'})"


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
class Trmm(Idiom):
    """``B = op(A) * B`` with ``A`` M x M unit triangular (``lower`` or upper) and ``B`` M x N."""

    b: str
    a: str
    lower: bool
    trans: bool

    ROUTINE = "trmm"
    LEVEL = 3
    SIZE_NAMES = ("M", "N")
    WORK = (0, 0, 1)

    def formula(self) -> str:
        half = "lower" if self.lower else "upper"
        return f"{self.b} = {_t(self.a, self.trans)} * {self.b} ({self.a} unit {half} triangular)"


@dataclass(frozen=True)
class _Ref:
    """An element ``array[indices[0]][indices[1]]...`` subscripted by iterators alone."""

    array: str
    indices: tuple[str, ...]


@dataclass(frozen=True)
class _Term:
    """``scale * refs[0] * refs[1] * ...``; ``scale`` is C text (``1.0`` when there is no other factor)."""

    refs: tuple[_Ref, ...]
    scale: str


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


def _term(node: c_ast.Node, positive: bool, iterators: tuple[str, ...]) -> _Term | None:
    refs: list[_Ref] = []
    scalars: list[str] = []
    for factor in _factors(node):
        if not _reads_data(factor, iterators):
            scalars.append(_text(factor))
            continue
        ref = _ref(factor, iterators)
        if ref is None:
            return None
        refs.append(ref)
    scale = " * ".join(f"({text})" for text in scalars) or "1.0"
    return _Term(tuple(refs), scale if positive else f"-({scale})")


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
    target = _ref(body.lvalue, statement.iterators)
    added = _added(body)
    if target is None or added is None:
        return None
    terms = [_term(node, positive, statement.iterators) for node, positive in added]
    if any(term is None for term in terms):
        return None
    domain = model.domains[statement.name]
    return _Update(statement.name, statement.iterators, domain, target, tuple(t for t in terms if t is not None))


def _reads_target(update: _Update) -> bool:
    return any(ref.array == update.target.array for term in update.terms for ref in term.refs)


def _sized(update: _Update, constraints: str, names: dict[str, str], sized: tuple[str, ...]) -> tuple[isl.PwAff, ...]:
    """The sizes of the iterators ``sized`` (keys of ``names``) when the domain is exactly ``constraints``,
    where ``{X}`` stands for the size of ``{x}``; empty otherwise."""
    sizes = {key.upper(): isl_util.size(update.domain, names[key]) for key in sized}
    expected = isl_util.shaped(update.domain, constraints, names, sizes)
    return tuple(sizes[key.upper()] for key in sized) if expected.is_equal(update.domain) else ()


def _box(update: _Update, names: dict[str, str]) -> tuple[isl.PwAff, ...]:
    """The sizes of the iterators in ``names`` when the domain is the box ``0 <= x < X`` over them."""
    constraints = " and ".join(f"0 <= {{{key}}} < {{{key.upper()}}}" for key in names)
    return _sized(update, constraints, names, tuple(names))


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
    return Gemm(update.name, sizes, update.target.array, first.array, second.array, trans_a, trans_b, scale)


_TRIANGLES = {True: "0 <= {c} <= {r} < {N} and 0 <= {k} < {K}", False: "0 <= {r} <= {c} < {N} and 0 <= {k} < {K}"}


def _triangle(update: _Update, r: str, c: str, k: str) -> tuple[bool, tuple[isl.PwAff, ...]] | None:
    """Whether the domain is exactly the lower (``c <= r``) or the upper triangle of the target, and N, K."""
    for lower, constraints in _TRIANGLES.items():
        names = {"r": r, "c": c, "k": k, "n": r if lower else c}
        sizes = _sized(update, constraints, names, ("n", "k"))
        if sizes:
            return lower, sizes
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
    lower, sizes = triangle
    if len(found) == 1 and found[0][0].array == found[0][1].array:
        return Syrk(update.name, sizes, update.target.array, found[0][0].array, lower, trans, found[0][2])
    if len(found) != 2 or found[0][2] != found[1][2]:
        return None
    (a, b, scale), (b2, a2, _) = found
    if a.array == b.array or (a.array, b.array) != (a2.array, b2.array):
        return None
    return Syr2k(update.name, sizes, update.target.array, a.array, lower, trans, scale, b.array)


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
    return Gemv(update.name, shape, update.target.array, matrix.array, vector.array, trans, update.terms[0].scale)


def _ger(update: _Update) -> Ger | None:
    if len(update.iterators) != 2 or len(update.target.indices) != 2 or _reads_target(update):
        return None
    r, c = update.target.indices
    pairs = [(_product(term, (r,), (c,)), term.scale) for term in update.terms]
    terms = tuple(Rank1(pair[0].array, pair[1].array, scale) for pair, scale in pairs if pair is not None)
    if len(terms) != len(pairs) or r == c:
        return None
    sizes = _box(update, {"r": r, "c": c})
    return Ger(update.name, sizes, update.target.array, terms) if sizes else None


def _reads_original(model: PolyModel, update: _Update) -> bool:
    """Whether each read of the target's array, other than of the updated element, comes before
    every write of that element by the statement (in the original order)."""
    references = [ref for ref in model.references if ref.statement == update.name and ref.array == update.target.array]
    write = next(ref.relation for ref in references if ref.is_write)
    order = model.schedule.get_map().intersect_domain(isl.UnionSet.from_set(update.domain))
    earlier = order.lex_lt_union_map(order)
    for ref in references:
        if ref.is_write or ref.relation.is_equal(write):
            continue
        same = isl.UnionMap.from_map(write.apply_range(ref.relation.reverse()))
        if not same.intersect(earlier).is_empty():
            return False
    return True


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
        sizes = _sized(update, constraints, {**names, "m": k if above else r, "n": c}, ("m", "n"))
        if sizes and _reads_original(model, update):
            trans = pair[0].indices == (k, r)
            return Trmm(update.name, sizes, update.target.array, pair[0].array, lower=above == trans, trans=trans)
    return None


_MATCHERS: tuple[Callable[[PolyModel, _Update], Idiom | None], ...] = (
    lambda _, update: _gemm(update),
    lambda _, update: _symmetric(update),
    lambda _, update: _gemv(update),
    lambda _, update: _ger(update),
    _trmm,
)


def find_idioms(model: PolyModel) -> tuple[Idiom, ...]:
    """Every statement of ``model`` that a BLAS routine computes, in source order."""
    found: list[Idiom] = []
    for statement in model.scop.statements:
        update = _update(model, statement)
        matches = () if update is None else (matcher(model, update) for matcher in _MATCHERS)
        match = next((idiom for idiom in matches if idiom is not None), None)
        if match is not None:
            found.append(match)
    return tuple(found)
