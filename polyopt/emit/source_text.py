"""A region kept in its original order, printed as its own text with the pragmas that pay on its loops.

gcc compiles the loops a user wrote from the user's text: the same ``if``s, the same integer types, the same
scalars in registers.  Code regenerated from the model runs the same instances in the same order, yet gcc may
compile it several times slower (each branch of an ``if`` becomes a statement under a repeated condition, a
``long`` index becomes an ``int`` iterator, a scalar becomes an array).  So a region kept as written is printed
byte for byte as written, with a ``#pragma omp`` line inserted before each ``for`` keyword whose loop the
original order marks (``polyopt.passes.as_written``), and the clauses the source's own names need:

- the iterator of a loop nested in a marked one that is declared outside its ``for`` is ``private``, and
  the marked loop's own such iterator is ``lastprivate`` when it is read after the region; a nested
  iterator read after the region would need the value of a thread's last run of that loop, so that pragma
  is left out;
- a pragma whose loop keeps a reduced element in a local, or runs in parallel only under a guard, rewrites
  the loop's code: it cannot be put on the text, and is left out; so is a pragma on a loop whose test is not
  one comparison of its iterator (``j <= i + 2 && j < n``), which OpenMP does not accept.

Every pragma left out is named with its reason; the text without it is the program as written.

Public: ``SourcePragma``, ``SourceText``, ``source_pragmas``, ``with_pragmas``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polyopt.diagnostics import Location
from polyopt.emit.isl_ast import MarkedLoop
from polyopt.frontend.scop import Loop, Node, Scop, StmtRef, loops_of

_REDUCED = re.compile(r"reduction\([^:]*:\s*([A-Za-z_]\w*)")


@dataclass(frozen=True)
class SourcePragma:
    """``#pragma <text>`` before the ``for`` keyword at ``location``."""

    location: Location
    text: str


@dataclass(frozen=True)
class SourceText:
    """The pragmas inserted into a region kept as written, and why each of the others was left out."""

    pragmas: tuple[SourcePragma, ...]
    notes: tuple[str, ...] = ()


def _enclosing(nodes: tuple[Node, ...], around: tuple[Loop, ...] = ()) -> dict[str, tuple[Loop, ...]]:
    """Each statement of ``nodes`` -> the source loops around it, outermost first."""
    found: dict[str, tuple[Loop, ...]] = {}
    for node in nodes:
        if isinstance(node, StmtRef):
            found[node.name] = around
        else:
            found.update(_enclosing(node.body, (*around, node)))
    return found


def source_pragmas(scop: Scop, marked: tuple[MarkedLoop, ...]) -> SourceText:
    """The pragma of each of ``marked`` (the loops of the original order, as generated) on the loop of
    ``scop``'s text that it marks, with the clauses that text needs (module docstring)."""
    enclosing = _enclosing(scop.tree)
    live = {exit.variable for exit in scop.exits}
    chosen: dict[Location, str] = {}
    notes: list[str] = []
    for loop in marked:
        where, text = _pragma(loop, enclosing, live, scop)
        if where is None:
            notes.append(f"'#pragma {loop.pragma}' not put on the text as written: {text}")
        elif chosen.setdefault(where, text) != text:
            notes.append(f"two pragmas for the loop at line {where.line}: neither put on the text as written")
            chosen[where] = ""
    pragmas = tuple(SourcePragma(where, text) for where, text in sorted(chosen.items(), key=_position) if text)
    return SourceText(pragmas, tuple(dict.fromkeys(notes)))


def _position(item: tuple[Location, str]) -> tuple[int, int]:
    return item[0].line, item[0].column


def _loop_of(marked: MarkedLoop, enclosing: dict[str, tuple[Loop, ...]]) -> Loop | None:
    """The one source loop at ``marked``'s depth around all its statements, or None."""
    around = [enclosing.get(name, ()) for name in marked.statements]
    if not around or any(len(loops) <= marked.depth for loops in around):
        return None
    loops = {id(loops[marked.depth]): loops[marked.depth] for loops in around}
    return next(iter(loops.values())) if len(loops) == 1 else None


def _pragma(
    marked: MarkedLoop, enclosing: dict[str, tuple[Loop, ...]], live: set[str], scop: Scop
) -> tuple[Location | None, str]:
    """Where the pragma goes in the text and its text there, or None and the reason it cannot go there."""
    if marked.keeps_locals:
        return None, "its loop keeps a reduced element in a local"
    if marked.guard:
        return None, "its loop runs in parallel only under a guard"
    loop = _loop_of(marked, enclosing)
    if loop is None or loop.location is None:
        return None, "no single loop of the text runs its statements"
    if not loop.canonical:
        return None, "its test is not one comparison of its iterator (OpenMP's canonical loop form)"
    reduced = [name for clause in marked.clauses for name in _REDUCED.findall(clause)]
    if any(name not in scop.identifiers for name in reduced):
        return None, "a reduced variable is not a name of the text"
    nested = sorted({inner.iterator for inner in loops_of(loop.body) if not inner.declares} - {loop.iterator})
    if any(name in live for name in nested):
        return None, "an iterator of a loop inside it is read after the region"
    clauses = list(marked.clauses)
    if nested:
        clauses.append(f"private({', '.join(nested)})")
    if not loop.declares and loop.iterator in live:
        clauses.append(f"lastprivate({loop.iterator})")
    return loop.location, " ".join([marked.pragma, *clauses])


def with_pragmas(body: str, body_line: int, pragmas: tuple[SourcePragma, ...]) -> str | None:
    """``body`` (the region's text from line ``body_line`` on) with each pragma on a line of its own before its
    ``for`` keyword, indented as that keyword's line; None when a pragma's location is not a ``for`` keyword."""
    starts = [0] + [match.end() for match in re.finditer("\n", body)]
    edits: list[tuple[int, str]] = []
    for pragma in pragmas:
        row = pragma.location.line - body_line
        if not 0 <= row < len(starts) or pragma.location.column < 1:
            return None
        start = starts[row]
        offset = start + pragma.location.column - 1
        if not re.match(r"for\b", body[offset:]):
            return None
        before = body[start:offset]
        indent = before[: len(before) - len(before.lstrip(" \t"))]
        line = f"{indent}#pragma {pragma.text}\n"
        edits.append((start, line) if not before.strip() else (offset, f"\n{line}{indent}"))
    pieces, cursor = [], 0
    for offset, text in sorted(edits):
        pieces += [body[cursor:offset], text]
        cursor = offset
    return "".join([*pieces, body[cursor:]])
