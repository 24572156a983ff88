"""The GEMM microkernel as C text (its blocking: ``polyopt.library.microkernel_plan``), PolyDL, Sec. 6.2.

Public: ``MICROKERNEL_HELPERS``, ``microkernel_block``.

The code comes from ``polyopt/templates/microkernel.c.j2``: the operands packed into
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

A rank-k update (SYRK, SYR2K) runs the same code on its triangle of ``C``: ``op(B)``
is ``op(A)ᵀ`` (SYR2K: one product over twice the depth, ``[op(A) op(B)]`` times
``[op(B) op(A)]ᵀ``), row blocks and register blocks outside the triangle are
skipped, those across its edge added element by element under the triangle's
condition, and the columns split into chunks of equal shares of the triangle,
one per core (more when a chunk would pass ``nc``), so that each thread packs
the rows of ``op(A)`` its columns need once per depth block.

SYMM and TRMM are GEMMs on blocks too: SYMM packs its symmetric ``A`` from the triangle it reads and
scales each chunk of ``C`` by ``beta`` first; TRMM (``B = op(A) * B`` in place, unit diagonal) adds the
product of ``op(A)``'s strict triangle and ``B`` to ``B``, packs zeros outside it, skips the blocks that
hold only zeros and multiplies none of them (a register block runs the depths inside for all its rows in
its vector loop, the others row by row: 0 * inf is NaN), and runs the depth blocks in the order that
packs each block of rows of ``B`` before any other block writes them (from the first when ``op(A)`` is
upper triangular, from the last when lower), so that every row is read with its original values.
Each idiom kind gives its operands in the template's terms (``Idiom.microkernel``, ``polyopt.library.operands``).
"""

from __future__ import annotations

from polyopt.emit.cast import CIf, CNode, CStmt
from polyopt.emit.cexpr import joined
from polyopt.emit.splice import render_template
from polyopt.library.blas import ALLOC_HELPER, KIND_HELPER, all_positive, same_kind
from polyopt.library.microkernel_plan import MicrokernelPlan
from polyopt.library.operands import COL, ROW, KernelOperands, element
from polyopt.library.protocol import Idiom

MICROKERNEL_HELPERS = frozenset({KIND_HELPER, "polyopt_min", ALLOC_HELPER})


def _code(operands: KernelOperands, plan: MicrokernelPlan, cores: int, parallel_work: int | None) -> str:
    return render_template(
        "microkernel.c.j2",
        comment=f"{plan.mr} x {plan.nr} registers, kc {plan.kc}, mc {plan.mc}, nc {plan.nc}, packed A and B"
        + operands.shape,
        c_first=f"{operands.target}[0][0]",
        c_elem=element(operands.target, ROW, COL, False),
        a_elem=operands.a,
        b_elem=operands.b,
        alpha=operands.alpha,
        beta=operands.beta,
        depth=operands.order,
        m=f"({operands.rows})",
        n=f"({operands.columns})",
        k=f"({operands.depth})",
        vector_bytes=plan.vector_bytes,
        vectors=plan.vectors,
        mr=plan.mr,
        kc=plan.kc,
        mc=plan.mc,
        nc=plan.nc,
        cores=cores if parallel_work is not None else 1,
        parallel=parallel_work is not None,
        parallel_work=parallel_work,
        triangle=operands.triangle,
        lower=operands.lower,
        strict=operands.strict,
    )


def microkernel_block(
    idiom: Idiom,
    sizes: list[str],
    plan: MicrokernelPlan,
    loops: tuple[CNode, ...],
    *,
    cores: int,
    parallel_work: int | None,
    from_work: int = 0,
    tail: tuple[CNode, ...] = (),
) -> CIf:
    """``idiom`` (a GEMM, SYRK, SYR2K, SYMM or TRMM; its sizes printed as C) computed by the microkernel of
    ``plan`` when its arrays are all ``double`` or all ``float``, no size is 0 and its work reaches
    ``from_work``, else by ``loops``; ``cores`` chunks of columns (of a triangle: of equal shares of it), run in
    parallel from ``parallel_work`` multiply-adds (serially when it is None); ``tail`` (the code of
    ``idiom.tail``) runs first.  Raises ``ValueError`` for a kind that the microkernel does not compute."""
    operands = idiom.microkernel(sizes)
    if operands is None:
        raise ValueError(f"the microkernel does not compute a {type(idiom).__name__}")
    elements = [f"{array}[0][0]" for array in operands.arrays]
    checks = [same_kind(elements), all_positive(sizes)]
    if from_work > 0:
        checks.append(f"{' * '.join(f'(long)({size})' for size in idiom.work(sizes))} >= {from_work}L")
    condition = joined("&&", checks)
    lines = _code(operands, plan, cores, parallel_work).rstrip("\n").split("\n")
    return CIf(condition, (*tail, *(CStmt(line) for line in lines)), loops)
