"""Matrix-vector products: GEMV, over an M x N box.

Public: ``Gemv``.

GEMV ``y[a] += alpha * A[a][k] * x[k]`` (or ``A[k][a]``: transposed) over a box.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.library import shapes
from polyopt.library.cblas import Call, CblasCode, matrix, trans, vector
from polyopt.library.protocol import MatrixVector, transposed
from polyopt.library.statements import Update, product
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Gemv(MatrixVector):
    """``y += alpha * op(A) * x`` with ``A`` stored as M x N."""

    y: str
    a: str
    x: str
    trans: bool
    alpha: str

    ROUTINE = "gemv"

    @classmethod
    def match_update(cls, _: PolyModel, update: Update) -> Gemv | None:
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

    def shared_matrix(self) -> str:
        return self.a

    def formula(self) -> str:
        return f"{self.y} += {self.alpha} * {transposed(self.a, self.trans)} * {self.x}"

    def cblas(self, sizes: list[str]) -> CblasCode:
        operands = (*matrix(self.a), *vector(self.x), "1.0", *vector(self.y))
        return CblasCode((Call("gemv", (trans(self.trans), *sizes, self.alpha, *operands)),))
