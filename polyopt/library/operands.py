"""How an idiom names its operands to the GEMM microkernel: plain data that
``polyopt.library.microkernel`` fills its template with.

Public: ``ROW``, ``COL``, ``DEPTH``, ``KernelOperands``, ``element``, ``symmetric``.

The microkernel computes ``target += alpha * op(A) * op(B)`` on blocks (after ``target *= beta``): an idiom
gives the element of ``op(A)`` at (``ROW``, ``DEPTH``) and of ``op(B)`` at (``DEPTH``, ``COL``) as C, in the
template's iterators, and the sizes of the product.
"""

from __future__ import annotations

from dataclasses import dataclass

# the template's names of the row of C and op(A), the column of C and op(B), and the step of the sum
ROW, COL, DEPTH = "polyopt_row", "polyopt_col", "polyopt_depth"


@dataclass(frozen=True)
class KernelOperands:
    """An idiom as the microkernel computes it: ``target`` (an array) ``+= alpha * a * b`` over ``rows`` x
    ``columns`` with ``depth`` steps of the sum (``a``, ``b``: elements as C), after ``target *= beta`` when
    set; ``arrays``: those whose first elements must all be ``double`` or all ``float``; ``shape``: the
    comment's words on what sets the idiom apart from a GEMM; ``order``: the depth blocks run from the
    first (``above``) or the last (``below``) block, for a product in place (None: any order);
    ``triangle``: only the ``lower`` (or upper) triangle of ``target``, without its diagonal when ``strict``."""

    target: str
    a: str
    b: str
    rows: str
    columns: str
    depth: str
    arrays: tuple[str, ...]
    alpha: str
    shape: str = ""
    beta: str | None = None
    order: str | None = None
    triangle: bool = False
    lower: bool = False
    strict: bool = False


def element(array: str, first: str, second: str, transposed: bool) -> str:
    """``array[first][second]``, or ``array[second][first]`` when ``transposed``."""
    return f"{array}[{second}][{first}]" if transposed else f"{array}[{first}][{second}]"


def symmetric(array: str, lower: bool) -> str:
    """The element (row, depth) of the symmetric ``array`` whose ``lower`` (or upper) triangle is read."""
    inside = f"{DEPTH} <= {ROW}" if lower else f"{ROW} <= {DEPTH}"
    return f"({inside} ? {array}[{ROW}][{DEPTH}] : {array}[{DEPTH}][{ROW}])"
