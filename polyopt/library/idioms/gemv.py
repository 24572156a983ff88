"""Matrix-vector routines (seed 000, Sec. 4.4): GEMV and GER, over an M x N box.

Public: ``MatrixVector``, ``Gemv``, ``Rank1``, ``Ger``, ``match_gemv``, ``match_ger``.

- GEMV ``y[a] += alpha * A[a][k] * x[k]`` (or ``A[k][a]``: transposed) over a box;
- GER ``A[r][c] += alpha * x[r] * y[c] + ...``, one rank-1 update (one call) per term, over a box.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.library import shapes
from polyopt.library.cblas import Call, CblasCode, matrix, trans, vector
from polyopt.library.protocol import Idiom, transposed
from polyopt.library.statements import Update, product
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class MatrixVector(Idiom):
    """A level-2 routine on an M x N matrix: its work is M·N."""

    LEVEL = 2
    SIZE_NAMES = ("M", "N")
    WORK = (0, 1)


@dataclass(frozen=True, eq=False)
class Gemv(MatrixVector):
    """``y += alpha * op(A) * x`` with ``A`` stored as M x N."""

    y: str
    a: str
    x: str
    trans: bool
    alpha: str

    ROUTINE = "gemv"

    def formula(self) -> str:
        return f"{self.y} += {self.alpha} * {transposed(self.a, self.trans)} * {self.x}"

    def cblas(self, sizes: list[str]) -> CblasCode:
        operands = (*matrix(self.a), *vector(self.x), "1.0", *vector(self.y))
        return CblasCode((Call("gemv", (trans(self.trans), *sizes, self.alpha, *operands)),))


@dataclass(frozen=True)
class Rank1:
    """One term ``alpha * x * y^T`` of a GER update."""

    x: str
    y: str
    alpha: str


@dataclass(frozen=True, eq=False)
class Ger(MatrixVector):
    """``A += sum of alpha * x * y^T`` (M x N), one call per term."""

    a: str
    terms: tuple[Rank1, ...]

    ROUTINE = "ger"

    def formula(self) -> str:
        return f"{self.a} += " + " + ".join(f"{term.alpha} * {term.x} * {term.y}^T" for term in self.terms)

    def cblas(self, sizes: list[str]) -> CblasCode:
        return CblasCode(
            tuple(Call("ger", (*sizes, t.alpha, *vector(t.x), *vector(t.y), *matrix(self.a))) for t in self.terms)
        )


def match_gemv(_: PolyModel, update: Update) -> Gemv | None:
    """GEMV: one product of a matrix and a vector per update, over a box."""
    if len(update.iterators) != 2 or len(update.target.indices) != 1 or len(update.terms) != 1:
        return None
    if update.reads_target():
        return None
    (a,) = update.target.indices
    (k,) = set(update.iterators) - {a}
    pair = product(update.terms[0], (a, k), (k,))
    if pair is None:
        return None
    matrix_ref, vector_ref = pair
    sizes = shapes.box(update.domain, {"a": a, "k": k})
    if not sizes:
        return None
    trans_a = matrix_ref.indices == (k, a)
    shape = sizes[::-1] if trans_a else sizes
    target, scale = update.target.array, update.terms[0].scale
    return Gemv((update.name,), shape, target, matrix_ref.array, vector_ref.array, trans_a, scale)


def match_ger(_: PolyModel, update: Update) -> Ger | None:
    """GER: products of two vectors, one over each subscript of the target, over a box."""
    if len(update.iterators) != 2 or len(update.target.indices) != 2 or update.reads_target():
        return None
    r, c = update.target.indices
    pairs = [(product(term, (r,), (c,)), term.scale) for term in update.terms]
    terms = tuple(Rank1(pair[0].array, pair[1].array, scale) for pair, scale in pairs if pair is not None)
    if len(terms) != len(pairs) or r == c:
        return None
    sizes = shapes.box(update.domain, {"r": r, "c": c})
    return Ger((update.name,), sizes, update.target.array, terms) if sizes else None
