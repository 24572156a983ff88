"""A small C AST for generated loop code (no islpy here).

Public: ``CFor``, ``CIf``, ``CStmt``, ``CBlock``, ``CNode``.  Expressions are
already-printed strings; the nodes only carry structure and annotations.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CFor:
    """``for (int iterator = init; cond; iterator += step) body``.

    ``pragmas`` are printed on the lines before the loop (``omp parallel for``).
    """

    iterator: str
    init: str
    cond: str
    step: str
    body: tuple[CNode, ...]
    pragmas: tuple[str, ...] = ()


@dataclass(frozen=True)
class CIf:
    cond: str
    then: tuple[CNode, ...]
    other: tuple[CNode, ...] = ()


@dataclass(frozen=True)
class CStmt:
    """One statement, printed as given (including its ``;``)."""

    text: str


@dataclass(frozen=True)
class CBlock:
    """A braced block (a degenerate loop's scope: ``{ const int c = e; ... }``)."""

    body: tuple[CNode, ...]


CNode = CFor | CIf | CStmt | CBlock
