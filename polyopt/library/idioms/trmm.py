"""Triangular products: TRMM, in place.

Public: ``Trmm``.

TRMM ``B[r][c] += A[.][.] * B[k][c]`` with ``A`` indexed by ``r`` and ``k``, over exactly
``0 <= r < k < M, 0 <= c < N`` (or ``k < r``), when every read of ``B[k][c]`` comes before the
statement writes that element (so it reads the original ``B``, as the in-place BLAS routine does):
``B = op(A) * B`` with a unit diagonal.  The microkernel computes it as a GEMM on blocks: the product of
``op(A)``'s strict triangle and ``B`` added to ``B``, every row of ``B`` packed before it is written.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.library import shapes
from polyopt.library.cblas import Call, CblasCode, matrix, trans, uplo
from polyopt.library.operands import COL, DEPTH, ROW, KernelOperands, element
from polyopt.library.protocol import BLOCKS, SquareOperand, half, transposed
from polyopt.library.statements import Ref, Update, product
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Trmm(SquareOperand):
    """``B = op(A) * B`` with ``A`` M x M unit triangular (``lower`` or upper) and ``B`` M x N."""

    b: str
    a: str
    lower: bool
    trans: bool

    ROUTINE = "trmm"
    PROBE = "trmm"
    MICROKERNEL = BLOCKS

    @classmethod
    def match_update(cls, model: PolyModel, update: Update) -> Trmm | None:
        """TRMM: ``B[r][c] += A * B[k][c]`` over a strict triangle of ``r`` and ``k``, reading the original ``B``."""
        if len(update.iterators) != 3 or len(update.target.indices) != 2 or len(update.terms) != 1:
            return None
        r, c = update.target.indices
        rest = set(update.iterators) - {r, c}
        term = update.terms[0]
        if len(rest) != 1 or term.scale != "1.0":
            return None
        (k,) = rest
        pair = product(term, (r, k), (k, c))
        if pair is None or pair[0].array == update.target.array or pair[1] != Ref(update.target.array, (k, c)):
            return None
        names = {"r": r, "c": c, "k": k}
        for above in (True, False):
            constraints = shapes.HALVES[not above]
            sizes = shapes.sized(update.domain, constraints, {**names, "m": k if above else r, "n": c}, ("m", "n"))
            if sizes and shapes.reads_original(model, update):
                a_trans = pair[0].indices == (k, r)
                return Trmm(
                    (update.name,), sizes, update.target.array, pair[0].array, lower=above == a_trans, trans=a_trans
                )
        return None

    def microkernel(self, sizes: list[str]) -> KernelOperands:
        """``B += op(A) * B`` with ``op(A)``'s strict triangle (zeros outside it), the depth blocks run in the
        order that packs each block of rows of ``B`` before any other block writes them."""
        above = self.lower == self.trans  # op(A) upper triangular: its strict triangle is depth > row
        inside = f"{DEPTH} {'>' if above else '<'} {ROW}"
        a = f"({inside} ? {element(self.a, ROW, DEPTH, self.trans)} : 0)"
        shape = f", {'upper' if above else 'lower'} strict op({self.a}) added to {self.b} in place"
        b = element(self.b, DEPTH, COL, False)
        order = "above" if above else "below"
        return KernelOperands(self.b, a, b, sizes[0], sizes[1], sizes[0], (self.b, self.a), "1.0", shape, order=order)

    def formula(self) -> str:
        return f"{self.b} = {transposed(self.a, self.trans)} * {self.b} ({self.a} unit {half(self.lower)} triangular)"

    def cblas(self, sizes: list[str]) -> CblasCode:
        flags = ("CblasLeft", uplo(self.lower), trans(self.trans), "CblasUnit")
        return CblasCode((Call("trmm", (*flags, *sizes, "1.0", *matrix(self.a), *matrix(self.b))),))
