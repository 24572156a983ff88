"""A small C AST for generated loop code (no islpy here).

Public: ``CFor``, ``CIf``, ``CStmt``, ``CDecl``, ``CBlock``, ``CNode``.  Expressions are
already-printed strings; the nodes only carry structure and annotations.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class CFor:
    """``for (ctype iterator = init; cond; iterator += step) body``.

    ``pragmas`` are printed on the lines before the loop (``omp parallel for``),
    the last one followed by ``clauses`` (``reduction(+:x)``).
    ``bound``, when set, is ``(operator, expression)`` with ``cond`` equal to
    ``iterator operator expression``: a loop without pragmas then computes the
    expression once, in a second declaration of its init clause (OpenMP loops
    keep the canonical form, whose bound OpenMP evaluates once anyway).
    """

    iterator: str
    init: str
    cond: str
    step: str
    body: tuple[CNode, ...]
    pragmas: tuple[str, ...] = ()
    bound: tuple[str, str] | None = None
    clauses: tuple[str, ...] = ()
    ctype: str = "int"


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
class CDecl:
    """A local declaration such as a degenerate loop's ``const int c = e;``."""

    text: str


@dataclass(frozen=True)
class CBlock:
    """A braced block (a degenerate loop's scope: ``{ const int c = e; ... }``)."""

    body: tuple[CNode, ...]


CNode = CFor | CIf | CStmt | CDecl | CBlock
