"""Matrix-matrix products: GEMM.

Public: ``Gemm``.

GEMM ``C[r][c] += alpha * A[r][k] * B[k][c]`` (either operand transposed), over the box
``0 <= r < M, 0 <= c < N, 0 <= k < K``: one ``cblas_?gemm``, or the microkernel.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.library import shapes
from polyopt.library.cblas import Call, CblasCode, matrix, trans
from polyopt.library.operands import COL, DEPTH, ROW, KernelOperands, element
from polyopt.library.protocol import BLOCKS, Idiom, transposed
from polyopt.library.statements import Update, matrix_operands
from polyopt.model import PolyModel


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
    PROBE = "gemm"
    MICROKERNEL = BLOCKS

    @classmethod
    def match_update(cls, _: PolyModel, update: Update) -> Gemm | None:
        """GEMM: one product per update, over a box."""
        operands = matrix_operands(update)
        if operands is None or len(operands[3]) != 1:
            return None
        r, c, k, [(first, second, scale)] = operands
        sizes = shapes.box(update.domain, {"r": r, "c": c, "k": k})
        if not sizes:
            return None
        trans_a, trans_b = first.indices == (k, r), second.indices == (c, k)
        return Gemm((update.name,), sizes, update.target.array, first.array, second.array, trans_a, trans_b, scale)

    def microkernel(self, sizes: list[str]) -> KernelOperands:
        a, b = element(self.a, ROW, DEPTH, self.trans_a), element(self.b, DEPTH, COL, self.trans_b)
        return KernelOperands(self.c, a, b, sizes[0], sizes[1], sizes[2], (self.c, self.a, self.b), self.alpha)

    def formula(self) -> str:
        return f"{self.c} += {self.alpha} * {transposed(self.a, self.trans_a)} * {transposed(self.b, self.trans_b)}"

    def cblas(self, sizes: list[str]) -> CblasCode:
        operands = (*matrix(self.a), *matrix(self.b), "1.0", *matrix(self.c))
        return CblasCode((Call("gemm", (trans(self.trans_a), trans(self.trans_b), *sizes, self.alpha, *operands)),))
