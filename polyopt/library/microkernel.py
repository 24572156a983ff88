"""The GEMM microkernel as C text (``polyopt.library.microkernel_plan``), seed 001 Sec. 6.2.

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
"""

from __future__ import annotations

from polyopt.emit.cast import CIf, CNode, CStmt
from polyopt.emit.cexpr import joined
from polyopt.emit.splice import render_template
from polyopt.library import Gemm, Symm, Syrk, Trmm
from polyopt.library.blas import ALLOC_HELPER, KIND_HELPER, all_positive, same_kind
from polyopt.library.idioms.symmetric import RankK
from polyopt.library.microkernel_plan import MicrokernelPlan
from polyopt.library.protocol import half

MICROKERNEL_HELPERS = frozenset({KIND_HELPER, "polyopt_min", ALLOC_HELPER})
# the template's names of the row of C and op(A), the column of C and op(B), and the step of the sum
_ROW, _COL, _DEPTH = "polyopt_row", "polyopt_col", "polyopt_depth"


def _element(array: str, first: str, second: str, transposed: bool) -> str:
    """``array[first][second]``, or ``array[second][first]`` when ``transposed``."""
    return f"{array}[{second}][{first}]" if transposed else f"{array}[{first}][{second}]"


Blocked = Gemm | RankK | Symm | Trmm  # the idioms the microkernel computes


def _symmetric(array: str, lower: bool) -> str:
    """The element (row, depth) of the symmetric ``array`` whose ``lower`` (or upper) triangle is read."""
    inside = f"{_DEPTH} <= {_ROW}" if lower else f"{_ROW} <= {_DEPTH}"
    return f"({inside} ? {array}[{_ROW}][{_DEPTH}] : {array}[{_DEPTH}][{_ROW}])"


def _above(idiom: Trmm) -> bool:
    """Whether ``op(A)`` of a TRMM is upper triangular (its strict triangle: depth > row)."""
    return idiom.lower == idiom.trans


def _operands(idiom: Blocked, sizes: list[str]) -> tuple[str, str, str]:
    """The elements of ``op(A)`` (row, depth) and ``op(B)`` (depth, col) as C, and the depth of the product.

    A rank-k update is the product of ``op(A)`` and its transpose; SYR2K's two products are one over
    twice the depth: ``[op(A) op(B)]`` times ``[op(B) op(A)]ᵀ``."""
    if isinstance(idiom, Gemm):
        a = _element(idiom.a, _ROW, _DEPTH, idiom.trans_a)
        return a, _element(idiom.b, _DEPTH, _COL, idiom.trans_b), sizes[2]
    if isinstance(idiom, Symm):
        return _symmetric(idiom.a, idiom.lower), _element(idiom.b, _DEPTH, _COL, False), sizes[0]
    if isinstance(idiom, Trmm):
        inside = f"{_DEPTH} {'>' if _above(idiom) else '<'} {_ROW}"
        a = f"({inside} ? {_element(idiom.a, _ROW, _DEPTH, idiom.trans)} : 0)"
        return a, _element(idiom.b, _DEPTH, _COL, False), sizes[0]
    if isinstance(idiom, Syrk):
        return _element(idiom.a, _ROW, _DEPTH, idiom.trans), _element(idiom.a, _COL, _DEPTH, idiom.trans), sizes[1]
    depth, second = f"({sizes[1]})", f"{_DEPTH} - ({sizes[1]})"

    def halves(first: str, other: str, index: str) -> str:
        low, high = (
            _element(name, index, depth_index, idiom.trans) for name, depth_index in ((first, _DEPTH), (other, second))
        )
        return f"({_DEPTH} < {depth} ? {low} : {high})"

    return halves(idiom.a, idiom.b, _ROW), halves(idiom.b, idiom.a, _COL), f"2 * {depth}"


def _target(idiom: Blocked) -> str:
    """The array the product adds to: ``B`` of a TRMM, else ``C``."""
    return idiom.b if isinstance(idiom, Trmm) else idiom.c


def _shape(idiom: Blocked) -> str:
    """The comment's words on what sets the idiom apart from a GEMM."""
    if isinstance(idiom, RankK):
        return f", {'strict ' if idiom.strict else ''}{half(idiom.lower)} of C only"
    if isinstance(idiom, Symm):
        return f", {idiom.a} symmetric ({half(idiom.lower)}), C scaled by beta first"
    if isinstance(idiom, Trmm):
        return f", {'upper' if _above(idiom) else 'lower'} strict op({idiom.a}) added to {idiom.b} in place"
    return ""


def _code(idiom: Blocked, sizes: list[str], plan: MicrokernelPlan, cores: int, parallel_work: int | None) -> str:
    a_elem, b_elem, depth = _operands(idiom, sizes)
    m, n = (sizes[0], sizes[0]) if isinstance(idiom, RankK) else (sizes[0], sizes[1])
    triangle = isinstance(idiom, RankK)
    trmm = isinstance(idiom, Trmm)
    return render_template(
        "microkernel.c.j2",
        comment=f"{plan.mr} x {plan.nr} registers, kc {plan.kc}, mc {plan.mc}, nc {plan.nc}, packed A and B"
        + _shape(idiom),
        c_first=f"{_target(idiom)}[0][0]",
        c_elem=_element(_target(idiom), _ROW, _COL, False),
        a_elem=a_elem,
        b_elem=b_elem,
        alpha="1.0" if trmm else idiom.alpha,
        beta=idiom.beta if isinstance(idiom, Symm) and idiom.beta != "1.0" else None,
        depth=("above" if _above(idiom) else "below") if trmm else None,
        m=f"({m})",
        n=f"({n})",
        k=f"({depth})",
        vector_bytes=plan.vector_bytes,
        vectors=plan.vectors,
        mr=plan.mr,
        kc=plan.kc,
        mc=plan.mc,
        nc=plan.nc,
        cores=cores if parallel_work is not None else 1,
        parallel=parallel_work is not None,
        parallel_work=parallel_work,
        triangle=triangle,
        lower=triangle and idiom.lower,
        strict=triangle and idiom.strict,
    )


def microkernel_block(
    idiom: Blocked,
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
    ``idiom.tail``) runs first."""
    arrays = (_target(idiom), idiom.a) if isinstance(idiom, Syrk | Trmm) else (idiom.c, idiom.a, idiom.b)
    elements = [f"{array}[0][0]" for array in arrays]
    checks = [same_kind(elements), all_positive(sizes)]
    if from_work > 0:
        checks.append(f"{' * '.join(f'(long)({size})' for size in idiom.work(sizes))} >= {from_work}L")
    condition = joined("&&", checks)
    lines = _code(idiom, sizes, plan, cores, parallel_work).rstrip("\n").split("\n")
    return CIf(condition, (*tail, *(CStmt(line) for line in lines)), loops)
