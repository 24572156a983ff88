"""CBLAS calls for recognized BLAS idioms (``polyopt.library``), PolyMage dense-matrix thesis, Sec. 4.4.

Public: ``BLAS_THRESHOLD``, ``BLAS2_THRESHOLD``, ``BLAS_HELPER``, ``KIND_HELPER``, ``ALLOC_HELPER``,
``LEADING_HELPER``, ``LINK_NOTE``, ``library_block``, ``library_enabled``, ``cblas_available``,
``same_kind``, ``all_positive``.

A call runs only when its work is large enough to pay (the product of the
sizes at ``Idiom.WORK``: M·N·K for GEMM, N·N·K for SYRK and SYR2K, M·M·N for
TRMM and SYMM, B·M·N·K for the batched GEMM, at least ``BLAS_THRESHOLD``; M·N for GEMV and GER, at least
``BLAS2_THRESHOLD``; decided at run time since the sizes are parameters) and
when its arrays hold the same floating-point type (``double``: ``cblas_d...``,
``float``: ``cblas_s...``; decided by the compiler with ``_Generic``)
and when every matrix is one block of rows that are arrays (``double A[N][M]``,
``double (*A)[M]``, not row pointers ``double **A``: ``LEADING_HELPER``, decided
by the compiler from the declared types with ``__builtin_types_compatible_p``);
otherwise the loops that polyopt generated for the statement run.  Leading
dimensions are the arrays' declared row sizes (``sizeof(A[0]) / sizeof(A[0][0])``),
so sub-blocks of larger arrays work;
every call starts at the arrays' first element (the idioms' ranges start at 0).
An idiom's tail (SYMM's accumulator, the batched GEMM's row buffer, left as
the original leaves them) runs before its calls, so it reads the values the
original read.  Each idiom spells its calls and the code around them
(``Idiom.cblas``: a strict triangle's diagonal saved and restored, the batched
GEMM's products copied back); the heap temporary (``polyopt_scratch``) that
they may need is allocated here, and when the allocation fails, the loops run.

The thresholds are the machine's (``polyopt.machine``; measured by
``python -m polyopt.calibrate``).
"""

from __future__ import annotations

import functools
import subprocess

from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt
from polyopt.emit.cexpr import infix, joined
from polyopt.library import CblasCode, Idiom
from polyopt.library.cblas import LEADING_HELPER, SCRATCH

KIND_HELPER = "polyopt_float_kind"  # (x) -> 2 for double, 1 for float, 0 otherwise
ALLOC_HELPER = "polyopt_aligned_alloc"  # (bytes) -> aligned heap memory (stdlib.h), freed with free()
BLAS_HELPER = "polyopt_blas_kind"  # KIND_HELPER, with cblas.h included
LINK_NOTE = "the output calls CBLAS: compile it with -lopenblas (or -lcblas / -lblas, whichever provides cblas.h)"


@functools.cache
def cblas_available(cpp_flags: tuple[str, ...] = ()) -> bool:
    """Whether ``gcc`` finds ``cblas.h`` here, with the ``-I``/``-D``/``-U`` ``cpp_flags`` (what
    ``--blas=auto`` decides by)."""
    try:
        result = subprocess.run(
            ["gcc", "-E", *cpp_flags, "-x", "c", "-", "-o", "/dev/null"],
            input="#include <cblas.h>\n",
            capture_output=True,
            text=True,
            timeout=30,
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return result.returncode == 0


def library_enabled(choice: str, cpp_flags: tuple[str, ...] = ()) -> bool:
    """``--blas``: ``cblas``, ``none``, or ``auto`` (``cblas`` when ``cblas.h`` is found with ``cpp_flags``)."""
    return choice == "cblas" or (choice == "auto" and cblas_available(cpp_flags))


def _elements(code: CblasCode) -> list[str]:
    """The elements whose type the calls compute in (for the type test): the idiom's, else the first
    elements of the arrays that the calls pass."""
    if code.elements:
        return list(code.elements)
    arguments = [argument for call in code.calls for argument in call.arguments]
    return [argument.removeprefix("(void *)&") for argument in arguments if argument.startswith("(void *)&")]


def _strided(code: CblasCode) -> list[str]:
    """The C conditions that every matrix the calls pass has rows that are arrays (a leading dimension)."""
    prefix = f"(int){LEADING_HELPER}("
    leading = [argument for call in code.calls for argument in call.arguments if argument.startswith(prefix)]
    return [f"{argument.removeprefix('(int)')} > 0" for argument in dict.fromkeys(leading)]


def _typed(code: CblasCode, letter: str) -> tuple[CNode, ...]:
    """The calls for the type ``letter`` with the code around them."""
    calls = (
        CStmt(f"cblas_{letter}{call.routine}({', '.join(['CblasRowMajor', *call.arguments])});") for call in code.calls
    )
    body = (*code.before, *calls, *code.after)
    repeat = code.repeat
    if repeat is None:
        return body
    return (CFor(repeat.iterator, "0", f"{repeat.iterator} < ({repeat.count})", repeat.step, body),)


def same_kind(elements: list[str], helper: str = KIND_HELPER) -> str:
    """The C condition that the ``elements`` are all ``double`` or all ``float`` (``helper`` tells the kind)."""
    kinds = [f"{helper}({element})" for element in dict.fromkeys(elements)]
    return joined("&&", [infix(kinds[0], "!=", "0"), *(infix(kind, "==", kinds[0]) for kind in kinds[1:])])


def all_positive(sizes: list[str]) -> str:
    """The C condition that every size is positive."""
    return joined("&&", [infix(size, ">", "0") for size in dict.fromkeys(sizes)])


def library_block(
    idiom: Idiom, sizes: list[str], loops: tuple[CNode, ...], threshold: int, tail: tuple[CNode, ...] = ()
) -> tuple[CNode, frozenset[str]]:
    """The CBLAS calls for ``idiom`` (its sizes printed as C) after ``tail`` (the code of ``idiom.tail``),
    or ``loops`` when they do not pay (the work below ``threshold``), the arrays are not all ``double``
    or all ``float``, a matrix's rows are not arrays (row pointers: no leading dimension), or their heap
    temporary cannot be allocated; and the helpers that the code uses."""
    code = idiom.cblas(sizes)
    elements = _elements(code)
    work = " * ".join(f"({factor})" for factor in idiom.work(sizes))
    enough = infix(f"(long){work}", ">=", f"{threshold}L")
    condition = joined("&&", [same_kind(elements, BLAS_HELPER), *_strided(code), all_positive(sizes), enough])
    typed = [_typed(code, letter) for letter in "ds"]
    body = (*tail, CIf(f"{BLAS_HELPER}({elements[0]}) == 2", *typed))
    helpers = frozenset({BLAS_HELPER, KIND_HELPER, LEADING_HELPER})
    if code.scratch is None:
        block = CIf(condition, body, loops)
        return (CBlock((*code.declarations, block)) if code.declarations else block), helpers
    element, count = code.scratch.element, code.scratch.count
    allocated = f"({SCRATCH} = {ALLOC_HELPER}(sizeof(*{SCRATCH}) * (size_t)({count}))) != NULL"
    block = CIf(joined("&&", [condition, allocated]), (*body, CStmt(f"free({SCRATCH});")), loops)
    declarations = (*code.declarations, CDecl(f"__typeof__({element}) *{SCRATCH} = NULL;"))
    return CBlock((*declarations, block)), helpers | {ALLOC_HELPER}
