"""How an idiom spells its CBLAS calls (PolyMage dense-matrix thesis, Sec. 4.4): plain data that
``polyopt.library.blas`` wraps into the code that decides at run time whether the calls run.

Public: ``LEADING_HELPER``, ``SCRATCH``, ``INDEX``, ``Call``, ``Scratch``, ``Repeat``, ``CblasCode``,
``matrix``, ``vector``, ``leading``, ``trans``, ``uplo``, ``loop``.

Every call is row-major and starts at the arrays' first element; a matrix is passed with its
leading dimension, the declared length of its rows (``LEADING_HELPER``, 0 when the rows are
row pointers, and then the loops run).
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.emit.cast import CFor, CNode

LEADING_HELPER = "polyopt_leading_dimension"  # (a) -> the length of a's rows when they are arrays, 0 otherwise
SCRATCH = "polyopt_scratch"  # the heap temporary of the calls that need one
INDEX = "polyopt_index"  # the iterator of the loops around the calls


@dataclass(frozen=True)
class Call:
    """``cblas_?routine(CblasRowMajor, arguments...)``: ``routine`` without its type letter."""

    routine: str
    arguments: tuple[str, ...]


@dataclass(frozen=True)
class Scratch:
    """The heap temporary (``SCRATCH``) of ``count`` elements of the type of ``element``."""

    element: str
    count: str


@dataclass(frozen=True)
class Repeat:
    """A loop ``for (iterator = 0; iterator < count; iterator += step)`` around the calls."""

    iterator: str
    count: str
    step: str


@dataclass(frozen=True)
class CblasCode:
    """The ``calls`` of an idiom and the code around them: the ``elements`` whose type they compute in
    (empty: the first elements of the arrays they pass), the ``scratch`` they need, the ``declarations``
    before everything, and ``before`` and ``after`` the calls, all inside ``repeat`` when set."""

    calls: tuple[Call, ...]
    elements: tuple[str, ...] = ()
    scratch: Scratch | None = None
    declarations: tuple[CNode, ...] = ()
    before: tuple[CNode, ...] = ()
    after: tuple[CNode, ...] = ()
    repeat: Repeat | None = None


def leading(rows: str) -> str:
    """The leading dimension of the matrix ``rows`` as an argument (0 when its rows are not arrays)."""
    return f"(int){LEADING_HELPER}({rows})"


def matrix(array: str) -> tuple[str, str]:
    """A matrix argument: its first element and its leading dimension."""
    return f"(void *)&{array}[0][0]", leading(array)


def vector(array: str) -> tuple[str, str]:
    """A vector argument: its first element and its increment."""
    return f"(void *)&{array}[0]", "1"


def trans(value: bool) -> str:
    return "CblasTrans" if value else "CblasNoTrans"


def uplo(lower: bool) -> str:
    return "CblasLower" if lower else "CblasUpper"


def loop(iterator: str, size: str, body: tuple[CNode, ...]) -> CFor:
    """``for (iterator = 0; iterator < size; iterator++) body``."""
    return CFor(iterator, "0", f"{iterator} < ({size})", "1", body)
