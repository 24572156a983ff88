"""CBLAS calls for recognized matrix products (``polyopt.analysis.idioms``), seed 000 Sec. 4.4.

Public: ``BLAS_THRESHOLD``, ``BLAS_HELPER``, ``LINK_NOTE``, ``BLAS_CHOICES``, ``gemm_block``,
``library_enabled``, ``cblas_available``.

The call runs only when the product is large enough to pay (M·N·K at
least ``BLAS_THRESHOLD``, the seed's 256³, decided at run time since the
sizes are parameters) and when the three arrays hold the same floating-point
type (``double``: ``cblas_dgemm``, ``float``: ``cblas_sgemm``; decided by the
compiler with ``_Generic``); otherwise the loops that polyopt generated for
the statement run.  Leading dimensions come from the arrays' declared row
sizes (``sizeof(A[0]) / sizeof(A[0][0])``), so sub-blocks of larger arrays work.
"""

from __future__ import annotations

import functools
import subprocess

from polyopt.analysis.idioms import Gemm
from polyopt.emit.cast import CIf, CNode, CStmt

BLAS_THRESHOLD = 256**3
BLAS_HELPER = "polyopt_blas_kind"  # (x) -> 2 for double, 1 for float, 0 otherwise
BLAS_CHOICES = ("auto", "cblas", "none")
LINK_NOTE = "the output calls CBLAS: compile it with -lopenblas (or -lcblas / -lblas, whichever provides cblas.h)"


@functools.cache
def cblas_available() -> bool:
    """Whether ``gcc`` finds ``cblas.h`` here (what ``--blas=auto`` decides by)."""
    try:
        result = subprocess.run(
            ["gcc", "-E", "-x", "c", "-", "-o", "/dev/null"],
            input="#include <cblas.h>\n",
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def library_enabled(choice: str) -> bool:
    """``--blas``: ``cblas``, ``none``, or ``auto`` (``cblas`` when ``cblas.h`` is found)."""
    return choice == "cblas" or (choice == "auto" and cblas_available())


def _leading(array: str) -> str:
    return f"(int)(sizeof({array}[0]) / sizeof({array}[0][0]))"


def _kind(array: str) -> str:
    return f"{BLAS_HELPER}({array}[0][0])"


def _call(gemm: Gemm, routine: str, extents: list[str]) -> CStmt:
    m, n, k = extents
    trans = ["CblasTrans" if flag else "CblasNoTrans" for flag in (gemm.trans_a, gemm.trans_b)]
    arguments = [
        "CblasRowMajor",
        *trans,
        m,
        n,
        k,
        gemm.alpha,
        f"(const void *)&{gemm.a}[0][0]",
        _leading(gemm.a),
        f"(const void *)&{gemm.b}[0][0]",
        _leading(gemm.b),
        "1.0",
        f"(void *)&{gemm.c}[0][0]",
        _leading(gemm.c),
    ]
    return CStmt(f"{routine}({', '.join(arguments)});")


def gemm_block(gemm: Gemm, extents: list[str], loops: tuple[CNode, ...], threshold: int = BLAS_THRESHOLD) -> CIf:
    """The CBLAS call for ``gemm`` (extents M, N, K printed as C), or ``loops`` when it does not pay
    (M·N·K below ``threshold``)."""
    m, n, k = extents
    same_type = f"{_kind(gemm.c)} != 0 && {_kind(gemm.a)} == {_kind(gemm.c)} && {_kind(gemm.b)} == {_kind(gemm.c)}"
    positive = f"{m} > 0 && {n} > 0 && {k} > 0"
    large = f"{positive} && (long)({m}) * ({n}) * ({k}) >= {threshold}L"
    calls = (_call(gemm, "cblas_dgemm", extents),), (_call(gemm, "cblas_sgemm", extents),)
    return CIf(f"{same_type} && {large}", (CIf(f"{_kind(gemm.c)} == 2", *calls),), loops)
