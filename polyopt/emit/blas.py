"""CBLAS calls for recognized BLAS idioms (``polyopt.analysis.idioms``), seed 000 Sec. 4.4.

Public: ``BLAS_THRESHOLD``, ``BLAS2_THRESHOLD``, ``BLAS_HELPER``, ``KIND_HELPER``, ``ALLOC_HELPER``,
``LEADING_HELPER``, ``LINK_NOTE``, ``BLAS_CHOICES``, ``library_block``, ``library_enabled``, ``cblas_available``,
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
original read.  A SYRK or SYR2K on a strict
triangle calls the routine on the triangle with the diagonal, the diagonal
saved before into a heap temporary (``polyopt_scratch``, N elements) and
restored after; when the allocation fails, the loops run.  A batched in-place
GEMM (doitgen) computes ``op`` products into a heap temporary and copies them
back: one call over the B·M rows of all batches when the declared row count of
a batch is M (the rows are then evenly spaced), else one call per batch; the
temporary holds the rows of one call.

The thresholds are the machine's (``polyopt.machine``; measured by
``python -m polyopt.calibrate``).
"""

from __future__ import annotations

import functools
import subprocess

from polyopt.analysis.idioms import BatchedGemm, Gemm, Gemv, Ger, Idiom, Symm, Syr2k, Syrk, Trmm
from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt
from polyopt.emit.cexpr import infix, joined

KIND_HELPER = "polyopt_float_kind"  # (x) -> 2 for double, 1 for float, 0 otherwise
ALLOC_HELPER = "polyopt_aligned_alloc"  # (bytes) -> aligned heap memory (stdlib.h), freed with free()
BLAS_HELPER = "polyopt_blas_kind"  # KIND_HELPER, with cblas.h included
LEADING_HELPER = "polyopt_leading_dimension"  # (a) -> the length of a's rows when they are arrays, 0 otherwise
BLAS_CHOICES = ("auto", "cblas", "none")
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


def _leading(rows: str) -> str:
    """The leading dimension of the matrix ``rows`` as an argument (0 when its rows are not arrays)."""
    return f"(int){LEADING_HELPER}({rows})"


def _matrix(array: str) -> list[str]:
    """A matrix argument: its first element and its leading dimension."""
    return [f"(void *)&{array}[0][0]", _leading(array)]


def _vector(array: str) -> list[str]:
    """A vector argument: its first element and its increment."""
    return [f"(void *)&{array}[0]", "1"]


def _flag(value: bool, yes: str, no: str) -> str:
    return yes if value else no


def _trans(value: bool) -> str:
    return _flag(value, "CblasTrans", "CblasNoTrans")


def _uplo(lower: bool) -> str:
    return _flag(lower, "CblasLower", "CblasUpper")


def _calls(idiom: Idiom, sizes: list[str]) -> list[tuple[str, list[str]]]:
    """The CBLAS calls (routine without its type letter, arguments after ``CblasRowMajor``) that compute ``idiom``."""
    match idiom:
        case Gemm():
            operands = [*_matrix(idiom.a), *_matrix(idiom.b), "1.0", *_matrix(idiom.c)]
            return [("gemm", [_trans(idiom.trans_a), _trans(idiom.trans_b), *sizes, idiom.alpha, *operands])]
        case Gemv():
            operands = [*_matrix(idiom.a), *_vector(idiom.x), "1.0", *_vector(idiom.y)]
            return [("gemv", [_trans(idiom.trans), *sizes, idiom.alpha, *operands])]
        case Ger():
            return [("ger", [*sizes, t.alpha, *_vector(t.x), *_vector(t.y), *_matrix(idiom.a)]) for t in idiom.terms]
        case Syrk():
            operands = [*_matrix(idiom.a), "1.0", *_matrix(idiom.c)]
            return [("syrk", [_uplo(idiom.lower), _trans(idiom.trans), *sizes, idiom.alpha, *operands])]
        case Syr2k():
            operands = [*_matrix(idiom.a), *_matrix(idiom.b), "1.0", *_matrix(idiom.c)]
            return [("syr2k", [_uplo(idiom.lower), _trans(idiom.trans), *sizes, idiom.alpha, *operands])]
        case Trmm():
            flags = ["CblasLeft", _uplo(idiom.lower), _trans(idiom.trans), "CblasUnit"]
            return [("trmm", [*flags, *sizes, "1.0", *_matrix(idiom.a), *_matrix(idiom.b)])]
        case Symm():
            operands = [*_matrix(idiom.a), *_matrix(idiom.b), idiom.beta, *_matrix(idiom.c)]
            return [("symm", ["CblasLeft", _uplo(idiom.lower), *sizes, idiom.alpha, *operands])]
        case BatchedGemm():
            _, m, n, k = sizes
            x = idiom.x
            batch = [f"(void *)&{x}[{_BATCH}][0][0]", _leading(f"{x}[0]")]
            operands = [*batch, *_matrix(idiom.w), "0.0", f"(void *){_SCRATCH}", f"({n})"]
            shape = [f"{_GROUP} * ({m})", n, k]
            return [("gemm", ["CblasNoTrans", _trans(idiom.trans), *shape, idiom.alpha, *operands])]
    raise TypeError(f"no CBLAS call for {type(idiom).__name__}")


_SCRATCH = "polyopt_scratch"  # the heap temporary of the calls that need one
_INDEX = "polyopt_index"
_BATCH = "polyopt_batch"


_GROUP = "polyopt_group"  # how many batches one call of a batched GEMM computes


def _declarations(idiom: Idiom, sizes: list[str]) -> tuple[CDecl, ...]:
    """The constants that the calls of ``idiom`` use: for a batched GEMM, ``_GROUP``, all batches when
    their rows are evenly spaced (a batch is an array of M rows), else one."""
    if not isinstance(idiom, BatchedGemm):
        return ()
    x, batches, m = idiom.x, sizes[0], sizes[1]
    return (CDecl(f"const int {_GROUP} = {LEADING_HELPER}({x}) == (size_t)({m}) ? ({batches}) : 1;"),)


def _elements(arguments: list[str]) -> list[str]:
    """The first elements of the arrays passed in ``arguments`` (for the type test)."""
    return [argument.removeprefix("(void *)&") for argument in arguments if argument.startswith("(void *)&")]


def _strided(calls: list[tuple[str, list[str]]]) -> list[str]:
    """The C conditions that every matrix the ``calls`` pass has rows that are arrays (a leading dimension)."""
    prefix = f"(int){LEADING_HELPER}("
    leading = [argument for _, arguments in calls for argument in arguments if argument.startswith(prefix)]
    return [f"{argument.removeprefix('(int)')} > 0" for argument in dict.fromkeys(leading)]


def _statement(letter: str, routine: str, arguments: list[str]) -> CStmt:
    return CStmt(f"cblas_{letter}{routine}({', '.join(['CblasRowMajor', *arguments])});")


def _loop(iterator: str, size: str, body: tuple[CNode, ...]) -> CFor:
    """``for (iterator = 0; iterator < size; iterator++) body``."""
    return CFor(iterator, "0", f"{iterator} < ({size})", "1", body)


def _scratch(idiom: Idiom, sizes: list[str]) -> tuple[str, str] | None:
    """The heap temporary that the calls of ``idiom`` need: an element whose type it holds and how many;
    None when they need none."""
    if isinstance(idiom, Syrk | Syr2k) and idiom.strict:
        return f"{idiom.c}[0][0]", sizes[0]
    if isinstance(idiom, BatchedGemm):
        return f"{idiom.x}[0][0][0]", f"{_GROUP} * ({sizes[1]}) * ({sizes[2]})"
    return None


def _kinds(idiom: Idiom, calls: list[tuple[str, list[str]]]) -> list[str]:
    """The first elements of the arrays that the ``calls`` of ``idiom`` pass (for the type test)."""
    if isinstance(idiom, BatchedGemm):
        return [f"{idiom.x}[0][0][0]", f"{idiom.w}[0][0]"]
    return [element for _, arguments in calls for element in _elements(arguments)]


def _copied_back(idiom: BatchedGemm, sizes: list[str]) -> CFor:
    """The rows of the calls' products, in the scratch, copied back into the batches from ``_BATCH`` on."""
    _, m, n, _ = sizes
    row, column = f"{_INDEX}_row", f"{_INDEX}_column"
    element = f"{idiom.x}[{_BATCH} + {row} / ({m})][{row} % ({m})][{column}]"
    copy = CStmt(f"{element} = {_SCRATCH}[(size_t){row} * ({n}) + {column}];")
    return _loop(row, f"{_GROUP} * ({m})", (_loop(column, n, (copy,)),))


def _typed(idiom: Idiom, calls: list[tuple[str, list[str]]], sizes: list[str], letter: str) -> tuple[CNode, ...]:
    """The ``calls`` of ``idiom`` for the type ``letter``, with the code around them: a strict triangle's
    diagonal saved into the scratch before and restored after."""
    statements = tuple(_statement(letter, routine, arguments) for routine, arguments in calls)
    if isinstance(idiom, Syrk | Syr2k) and idiom.strict:
        diagonal = f"{idiom.c}[{_INDEX}][{_INDEX}]"
        save = _loop(_INDEX, sizes[0], (CStmt(f"{_SCRATCH}[{_INDEX}] = {diagonal};"),))
        restore = _loop(_INDEX, sizes[0], (CStmt(f"{diagonal} = {_SCRATCH}[{_INDEX}];"),))
        return (save, *statements, restore)
    if isinstance(idiom, BatchedGemm):
        body = (*statements, _copied_back(idiom, sizes))
        return (CFor(_BATCH, "0", f"{_BATCH} < ({sizes[0]})", _GROUP, body),)
    return statements


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
    calls = _calls(idiom, sizes)
    elements = _kinds(idiom, calls)
    work = " * ".join(f"({factor})" for factor in idiom.work(sizes))
    enough = infix(f"(long){work}", ">=", f"{threshold}L")
    condition = joined("&&", [same_kind(elements, BLAS_HELPER), *_strided(calls), all_positive(sizes), enough])
    typed = [_typed(idiom, calls, sizes, letter) for letter in "ds"]
    body = (*tail, CIf(f"{BLAS_HELPER}({elements[0]}) == 2", *typed))
    helpers = frozenset({BLAS_HELPER, KIND_HELPER, LEADING_HELPER})
    scratch = _scratch(idiom, sizes)
    if scratch is None:
        return CIf(condition, body, loops), helpers
    element, count = scratch
    allocated = f"({_SCRATCH} = {ALLOC_HELPER}(sizeof(*{_SCRATCH}) * (size_t)({count}))) != NULL"
    block = CIf(joined("&&", [condition, allocated]), (*body, CStmt(f"free({_SCRATCH});")), loops)
    declarations = (*_declarations(idiom, sizes), CDecl(f"__typeof__({element}) *{_SCRATCH} = NULL;"))
    return CBlock((*declarations, block)), helpers | {ALLOC_HELPER}
