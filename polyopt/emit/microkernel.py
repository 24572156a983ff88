"""The GEMM microkernel as C text (``polyopt.analysis.microkernel``), seed 001 Sec. 6.2.

Public: ``MICROKERNEL_HELPERS``, ``microkernel_block``.

The code comes from ``templates/microkernel.c.j2``: the operands packed into
aligned per-thread buffers (``A`` scaled by ``alpha``, which carries the sign of
``-=``), the register block kept in a local array of GCC vectors of the
machine's width that gcc allocates to registers (FMAs on ``zmm`` registers
with ``-march=native`` on AVX-512), and the columns of ``C`` split into one
chunk per core for OpenMP, with an ``if`` so that small products do not start
threads.  The element type is ``C``'s (``double`` or ``float``, decided by the
compiler); other types, and empty sizes, run the ``loops`` polyopt generated.
``op(A)`` and ``op(B)`` are read through the arrays' own subscripts, so the
declared row sizes give the leading dimensions.  Without OpenMP the pragmas
are ignored and one thread does all chunks.
"""

from __future__ import annotations

from polyopt.analysis.idioms import Gemm
from polyopt.analysis.microkernel import MicrokernelPlan
from polyopt.emit.blas import ALLOC_HELPER, KIND_HELPER, all_positive, same_kind
from polyopt.emit.cast import CIf, CNode, CStmt
from polyopt.emit.cexpr import joined
from polyopt.emit.splice import render_template

MICROKERNEL_HELPERS = frozenset({KIND_HELPER, "polyopt_min", ALLOC_HELPER})
# the template's names of the row of C and op(A), the column of C and op(B), and the step of the sum
_ROW, _COL, _DEPTH = "polyopt_row", "polyopt_col", "polyopt_depth"


def _element(array: str, first: str, second: str, transposed: bool) -> str:
    """``array[first][second]``, or ``array[second][first]`` when ``transposed``."""
    return f"{array}[{second}][{first}]" if transposed else f"{array}[{first}][{second}]"


def _code(idiom: Gemm, sizes: list[str], plan: MicrokernelPlan, cores: int, parallel_work: int | None) -> str:
    m, n, k = sizes
    return render_template(
        "microkernel.c.j2",
        comment=f"{plan.mr} x {plan.nr} registers, kc {plan.kc}, mc {plan.mc}, nc {plan.nc}, packed A and B",
        c_first=f"{idiom.c}[0][0]",
        c_elem=_element(idiom.c, _ROW, _COL, False),
        a_elem=_element(idiom.a, _ROW, _DEPTH, idiom.trans_a),
        b_elem=_element(idiom.b, _DEPTH, _COL, idiom.trans_b),
        alpha=idiom.alpha,
        m=f"({m})",
        n=f"({n})",
        k=f"({k})",
        vector_bytes=plan.vector_bytes,
        vectors=plan.vectors,
        mr=plan.mr,
        kc=plan.kc,
        mc=plan.mc,
        nc=plan.nc,
        cores=cores if parallel_work is not None else 1,
        parallel=parallel_work is not None,
        parallel_work=parallel_work,
    )


def microkernel_block(
    idiom: Gemm,
    sizes: list[str],
    plan: MicrokernelPlan,
    loops: tuple[CNode, ...],
    *,
    cores: int,
    parallel_work: int | None,
) -> CIf:
    """``idiom`` (its sizes M, N, K printed as C) computed by the microkernel of ``plan`` when its arrays
    are all ``double`` or all ``float`` and no size is 0, else by ``loops``; ``cores`` chunks of columns,
    run in parallel from ``parallel_work`` multiply-adds (serially when it is None)."""
    elements = [f"{array}[0][0]" for array in (idiom.c, idiom.a, idiom.b)]
    condition = joined("&&", [same_kind(elements), all_positive(sizes)])
    lines = _code(idiom, sizes, plan, cores, parallel_work).rstrip("\n").split("\n")
    return CIf(condition, tuple(CStmt(line) for line in lines), loops)
