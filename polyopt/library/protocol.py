"""What every BLAS idiom kind is: the one protocol the library step, the choice and the
microkernel use, so that none of them asks which kind an idiom is.

Public: ``Tail``, ``Idiom``, ``SquareOperand``, ``MatrixVector``, ``SHARED``, ``BLOCKS``, ``TRIANGLE``, ``half``,
``transposed``.

An idiom kind says:

- its recognition: ``match`` (one statement read as an update, ``match_update``; or, when ``GROUPED``,
  several statements found from their last one);
- its CBLAS spelling: ``cblas``, the calls and the code around them (``polyopt.library.cblas``);
- its microkernel operands: ``microkernel`` (``MICROKERNEL`` says when the microkernel computes the kind:
  ``BLOCKS``, a GEMM on blocks, or ``TRIANGLE``, a rank-k update on its triangle; None: never);
- its threshold key: ``threshold_key``, the name of its call in the library choice (``polyopt.library.choice``),
  and ``PROBE``, the probe's timings its threshold is measured by (``polyopt.measure.probe``);
- its sizes, work and report line (``SIZE_NAMES``, ``WORK``, ``LEVEL``, ``formula``, ``describe``).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import ClassVar

import islpy as isl

from polyopt.frontend.scop import Statement
from polyopt.library.cblas import CblasCode
from polyopt.library.operands import KernelOperands
from polyopt.library.statements import Update
from polyopt.model import PolyModel

SHARED = "Gemv/Ger on a shared matrix"  # the threshold key of a level-2 idiom whose matrix other statements access
BLOCKS = "blocks"  # the microkernel computes the idiom as a GEMM on blocks where no call is made
TRIANGLE = "triangle"  # the microkernel computes the rank-k update on its triangle, from the machine's threshold


@dataclass(frozen=True, eq=False)
class Tail:
    """The ``instances`` of the idiom's statements that leave the temporary ``array`` (an accumulator the
    calls do not compute) as the original program leaves it: run in the original order before the calls,
    they read what the original read (the calls change only elements that the original reads first)."""

    array: str
    instances: isl.UnionSet


@dataclass(frozen=True, eq=False)
class Idiom(ABC):
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
    PROBE: ClassVar[str]  # the field of the probe's ``Measurements`` that times the kind's call
    MICROKERNEL: ClassVar[str | None] = None  # BLOCKS, TRIANGLE, or None: the microkernel does not compute it
    GROUPED: ClassVar[bool] = False  # several statements, matched from their last one before the single ones

    @classmethod
    def match(cls, model: PolyModel, statement: Statement, updates: Mapping[str, Update]) -> Idiom | None:
        """The idiom of this kind that ``statement`` computes (with others when ``GROUPED``), given the region's
        statements that are updates (``updates``, by name); None when it computes none."""
        found = updates.get(statement.name)
        return None if found is None else cls.match_update(model, found)

    @classmethod
    def match_update(cls, model: PolyModel, update: Update) -> Idiom | None:
        """The idiom of this kind that the one statement ``update`` computes, if any (none for ``GROUPED`` kinds)."""
        return None

    @abstractmethod
    def formula(self) -> str:
        """What the idiom computes, for its report line."""

    @abstractmethod
    def cblas(self, sizes: list[str]) -> CblasCode:
        """The CBLAS code that computes the idiom, given its sizes printed as C."""

    def microkernel(self, sizes: list[str]) -> KernelOperands | None:
        """The idiom as the microkernel computes it, given its sizes printed as C (None: it does not)."""
        return None

    def threshold_key(self, shared: bool) -> str:
        """The name of the idiom's call in the library choice; ``shared``: another statement of the region
        accesses the matrix of this level-2 idiom."""
        return type(self).__name__

    def shared_matrix(self) -> str | None:
        """The matrix that the loops may read once for this idiom and the region's other statements, whose
        call then has its own threshold (``SHARED``); None when there is none."""
        return None

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


@dataclass(frozen=True, eq=False)
class MatrixVector(Idiom):
    """A level-2 routine on an M x N matrix: its work is M·N; when another statement of the region accesses
    its matrix, its call has the threshold of the two products over one matrix (``SHARED``)."""

    LEVEL = 2
    SIZE_NAMES = ("M", "N")
    WORK = (0, 1)
    PROBE = "gemv"

    def threshold_key(self, shared: bool) -> str:
        return SHARED if shared else super().threshold_key(shared)


def half(lower: bool) -> str:
    """The name of a triangle in a report line."""
    return "lower" if lower else "upper"


def transposed(array: str, trans: bool) -> str:
    """``array`` in a report line, ``^T`` when ``trans``."""
    return f"{array}^T" if trans else array
