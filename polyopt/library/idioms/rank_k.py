"""Rank-k updates: SYRK and SYR2K on a triangle of the target.

Public: ``RankK``, ``Syrk``, ``Syr2k``.

- SYRK ``C[r][c] += alpha * A[r][k] * A[c][k]`` (or ``A[k][r] * A[k][c]``) over exactly the triangle
  ``0 <= c <= r < N, 0 <= k < K`` (lower) or ``0 <= r <= c < N`` (upper), or exactly the strict one
  (``c < r``, ``r < c``: ``strict``, the diagonal left alone, as PolyBench's correlation computes it);
- SYR2K ``C[r][c] += alpha * A[r][k] * B[c][k] + alpha * B[r][k] * A[c][k]`` over the same triangles.

A strict triangle is computed by the routine on the triangle with the diagonal, the diagonal saved
before into a heap temporary (N elements) and restored after.  The microkernel computes both on their
triangle: SYRK as the product of ``op(A)`` and its transpose, SYR2K as one product over twice the depth,
``[op(A) op(B)]`` times ``[op(B) op(A)]ᵀ``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from polyopt.emit.cast import CStmt
from polyopt.library import shapes
from polyopt.library.cblas import INDEX, SCRATCH, Call, CblasCode, Scratch, loop, matrix, trans, uplo
from polyopt.library.operands import COL, DEPTH, ROW, KernelOperands, element
from polyopt.library.protocol import TRIANGLE, Idiom, half, transposed
from polyopt.library.statements import Update, matrix_operands
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class RankK(Idiom):
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
    PROBE = "syrk"
    MICROKERNEL = TRIANGLE

    @classmethod
    def match_update(cls, _: PolyModel, update: Update) -> Syrk | Syr2k | None:
        """SYRK or SYR2K: the second operand of each term is ``op(X)^T`` for the first operand's ``op(X)``."""
        operands = matrix_operands(update)
        if operands is None:
            return None
        r, c, k, found = operands
        a_trans = found[0][0].indices == (k, r)
        first_indices, second_indices = ((k, r), (k, c)) if a_trans else ((r, k), (c, k))
        if any(first.indices != first_indices or second.indices != second_indices for first, second, _ in found):
            return None
        triangle = shapes.triangle(update.domain, r, c, k)
        if triangle is None:
            return None
        lower, strict, sizes = triangle
        target, name = update.target.array, (update.name,)
        if len(found) == 1 and found[0][0].array == found[0][1].array:
            return Syrk(name, sizes, target, found[0][0].array, lower, a_trans, found[0][2], strict=strict)
        if len(found) != 2 or found[0][2] != found[1][2]:
            return None
        (a, b, scale), (b2, a2, _) = found
        if a.array == b.array or (a.array, b.array) != (a2.array, b2.array):
            return None
        return Syr2k(name, sizes, target, a.array, lower, a_trans, scale, b.array, strict=strict)

    def _kernel(self, a: str, b: str, depth: str, arrays: tuple[str, ...], sizes: list[str]) -> KernelOperands:
        """The product of the elements ``a`` and ``b`` over ``depth`` on the triangle of ``c``."""
        shape = f", {'strict ' if self.strict else ''}{half(self.lower)} of C only"
        n = sizes[0]
        return KernelOperands(
            self.c, a, b, n, n, depth, arrays, self.alpha, shape, triangle=True, lower=self.lower, strict=self.strict
        )

    def _target(self) -> str:
        return f"{self.c} ({'strict ' if self.strict else ''}{half(self.lower)})"

    def _code(self, operands: tuple[str, ...], sizes: list[str]) -> CblasCode:
        """The call with the matrix ``operands``, around it the diagonal saved and restored when ``strict``."""
        flags = (uplo(self.lower), trans(self.trans), *sizes, self.alpha)
        call = (Call(self.ROUTINE, (*flags, *operands, "1.0", *matrix(self.c))),)
        if not self.strict:
            return CblasCode(call)
        diagonal = f"{self.c}[{INDEX}][{INDEX}]"
        save = loop(INDEX, sizes[0], (CStmt(f"{SCRATCH}[{INDEX}] = {diagonal};"),))
        restore = loop(INDEX, sizes[0], (CStmt(f"{diagonal} = {SCRATCH}[{INDEX}];"),))
        return CblasCode(call, scratch=Scratch(f"{self.c}[0][0]", sizes[0]), before=(save,), after=(restore,))


@dataclass(frozen=True, eq=False)
class Syrk(RankK):
    """``C += alpha * op(A) * op(A)^T``."""

    ROUTINE = "syrk"

    def formula(self) -> str:
        a, at = transposed(self.a, self.trans), transposed(self.a, not self.trans)
        return f"{self._target()} += {self.alpha} * {a} * {at}"

    def cblas(self, sizes: list[str]) -> CblasCode:
        return self._code(matrix(self.a), sizes)

    def microkernel(self, sizes: list[str]) -> KernelOperands:
        """The product of ``op(A)`` and its transpose."""
        a, b = (element(self.a, index, DEPTH, self.trans) for index in (ROW, COL))
        return self._kernel(a, b, sizes[1], (self.c, self.a), sizes)


@dataclass(frozen=True, eq=False)
class Syr2k(RankK):
    """``C += alpha * (op(A) * op(B)^T + op(B) * op(A)^T)``."""

    b: str

    ROUTINE = "syr2k"

    def formula(self) -> str:
        a, at, b, bt = (transposed(x, flag) for x in (self.a, self.b) for flag in (self.trans, not self.trans))
        return f"{self._target()} += {self.alpha} * ({a} * {bt} + {b} * {at})"

    def cblas(self, sizes: list[str]) -> CblasCode:
        return self._code((*matrix(self.a), *matrix(self.b)), sizes)

    def microkernel(self, sizes: list[str]) -> KernelOperands:
        """The two products as one over twice the depth: ``[op(A) op(B)]`` times ``[op(B) op(A)]ᵀ``."""
        depth, second = f"({sizes[1]})", f"{DEPTH} - ({sizes[1]})"

        def halves(first: str, other: str, index: str) -> str:
            low, high = (element(name, index, at, self.trans) for name, at in ((first, DEPTH), (other, second)))
            return f"({DEPTH} < {depth} ? {low} : {high})"

        a, b = halves(self.a, self.b, ROW), halves(self.b, self.a, COL)
        return self._kernel(a, b, f"2 * {depth}", (self.c, self.a, self.b), sizes)
