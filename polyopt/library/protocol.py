"""What every BLAS idiom is: its statements, the call's sizes and work, its report line and its CBLAS
code (seed 000, Sec. 4.4).

Public: ``Tail``, ``Idiom``, ``SquareOperand``, ``half``, ``transposed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import islpy as isl

from polyopt.library.cblas import CblasCode


@dataclass(frozen=True, eq=False)
class Tail:
    """The ``instances`` of the idiom's statements that leave the temporary ``array`` (an accumulator the
    calls do not compute) as the original program leaves it: run in the original order before the calls,
    they read what the original read (the calls change only elements that the original reads first)."""

    array: str
    instances: isl.UnionSet


@dataclass(frozen=True, eq=False)
class Idiom:
    """Statements that CBLAS computes: ``sizes`` are the call's sizes (named ``SIZE_NAMES``) as functions
    of the parameters; the work that decides whether the call pays is the product of the sizes at ``WORK``;
    ``tail``, when the statements leave a temporary that the calls do not compute."""

    statements: tuple[str, ...]
    sizes: tuple[isl.PwAff, ...]
    tail: Tail | None = field(default=None, kw_only=True)

    ROUTINE: ClassVar[str]  # the CBLAS routine without its type letter: ``gemm`` for cblas_dgemm/cblas_sgemm
    LEVEL: ClassVar[int]  # the BLAS level: 3 for matrix-matrix, 2 for matrix-vector routines
    SIZE_NAMES: ClassVar[tuple[str, ...]]
    WORK: ClassVar[tuple[int, ...]]

    def formula(self) -> str:
        raise NotImplementedError

    def cblas(self, sizes: list[str]) -> CblasCode:
        """The CBLAS code that computes the idiom, given its sizes printed as C."""
        raise NotImplementedError

    def work(self, sizes: list[str]) -> list[str]:
        """The factors of the work, given the sizes printed as C."""
        return [sizes[index] for index in self.WORK]

    def describe(self, sizes: list[str], threshold: int, expected: int | None = None) -> str:
        """One line of ``--report``: the routine, what it computes, its sizes and when it is called;
        with ``expected``, the work at the assumed parameter values, below the threshold."""
        named = ", ".join(f"{name} = {text}" for name, text in zip(self.SIZE_NAMES, sizes, strict=True))
        work = " * ".join(self.SIZE_NAMES[index] for index in self.WORK)
        line = (
            f"{', '.join(self.statements)}: cblas_?{self.ROUTINE} {self.formula()} ({named}) when {work} >= {threshold}"
        )
        return line if expected is None else f"{line}; left to the loops: {work} = {expected} at the assumed values"


@dataclass(frozen=True, eq=False)
class SquareOperand(Idiom):
    """A level-3 routine that applies an M x M operand, of which one triangle (``lower`` or upper) is
    read, to an M x N matrix: its work is M·M·N."""

    LEVEL = 3
    SIZE_NAMES = ("M", "N")
    WORK = (0, 0, 1)


def half(lower: bool) -> str:
    """The name of a triangle in a report line."""
    return "lower" if lower else "upper"


def transposed(array: str, trans: bool) -> str:
    """``array`` in a report line, ``^T`` when ``trans``."""
    return f"{array}^T" if trans else array
