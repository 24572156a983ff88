"""Rank-1 updates: GER, over an M x N box.

Public: ``Rank1``, ``Ger``.

GER ``A[r][c] += alpha * x[r] * y[c] + ...``, one rank-1 update (one call) per term, over a box.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.library import shapes
from polyopt.library.cblas import Call, CblasCode, matrix, vector
from polyopt.library.protocol import MatrixVector
from polyopt.library.statements import Update, product
from polyopt.model import PolyModel


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

    @classmethod
    def match_update(cls, _: PolyModel, update: Update) -> Ger | None:
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

    def shared_matrix(self) -> str:
        return self.a

    def formula(self) -> str:
        return f"{self.a} += " + " + ".join(f"{term.alpha} * {term.x} * {term.y}^T" for term in self.terms)

    def cblas(self, sizes: list[str]) -> CblasCode:
        return CblasCode(
            tuple(Call("ger", (*sizes, t.alpha, *vector(t.x), *vector(t.y), *matrix(self.a))) for t in self.terms)
        )
