"""Find the ``#pragma scop`` ... ``#pragma endscop`` regions of a C file.

Public: ``Region``, ``find_regions``, ``polyopt_pragmas``, ``region_dead_arrays``.  Works on text only
(``polyopt.frontend.lexing``), so that everything outside the regions can be copied back byte for byte.

Inside a region, ``#pragma polyopt dead(a, b)`` says that the arrays ``a`` and
``b`` are not used after the region (see ``polyopt.analysis.contraction``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from polyopt.diagnostics import InputError, Location
from polyopt.frontend.lexing import blank_comments, pragma, pragmas

_DEAD = re.compile(r"^\s*dead\s*\(\s*([A-Za-z_]\w*(?:\s*,\s*[A-Za-z_]\w*)*)\s*\)\s*$")


@dataclass(frozen=True)
class Region:
    """One static control part.

    ``start``/``end`` are offsets in the file text: ``text[start:end]`` spans
    the whole ``#pragma scop`` line through the end of the ``#pragma endscop``
    line (its newline included), and is what the optimized code replaces.
    ``body`` is the text between the two pragma lines and ``body_line`` the
    1-based line number of its first line.  ``index`` counts regions from 1.
    ``written`` is ``body`` as the file spells it, when the regions were found in a
    rewrite of the file that keeps its offsets (``polyopt.frontend.gnu.readable``).
    """

    index: int
    start: int
    end: int
    body: str
    body_line: int
    location: Location
    written: str | None = None

    @property
    def text(self) -> str:
        """The body as the file spells it."""
        return self.body if self.written is None else self.written

    @property
    def indent(self) -> str:
        """The leading whitespace of the region's first non-blank line."""
        for line in self.body.splitlines():
            if line.strip():
                return line[: len(line) - len(line.lstrip())]
        return ""


def _line_starts(text: str) -> list[int]:
    starts = [0]
    for match in re.finditer("\n", text):
        starts.append(match.end())
    return starts


def find_regions(text: str, filename: str, written: str | None = None) -> list[Region]:
    """Return the regions of ``text`` in file order; ``written``: the file as spelled, of which ``text``
    is a rewrite at the same offsets (each region's ``written`` body is taken from it).

    Raises ``InputError`` for an unterminated region, a nested ``#pragma scop``
    or an ``#pragma endscop`` without its opening pragma.
    """
    starts = _line_starts(text)
    visible = blank_comments(text)
    regions: list[Region] = []
    open_line = 0
    for number, start in enumerate(starts, start=1):
        end = starts[number] if number < len(starts) else len(text)
        line = visible[start:end]
        if pragma(line) == "scop":
            if open_line:
                raise InputError(
                    f"nested '#pragma scop' (the region opened on line {open_line} is not closed)",
                    Location(filename, number, line.index("#") + 1),
                )
            open_line = number
        elif pragma(line) == "endscop":
            if not open_line:
                raise InputError(
                    "'#pragma endscop' without a matching '#pragma scop'",
                    Location(filename, number, line.index("#") + 1),
                )
            first = starts[open_line - 1]
            body_start = starts[open_line] if open_line < len(starts) else len(text)
            regions.append(
                Region(
                    index=len(regions) + 1,
                    start=first,
                    end=end,
                    body=text[body_start:start],
                    body_line=open_line + 1,
                    location=Location(filename, open_line, text.index("#", first) - first + 1),
                    written=None if written is None else written[body_start:start],
                )
            )
            open_line = 0
    if open_line:
        column = text.index("#", starts[open_line - 1]) - starts[open_line - 1] + 1
        raise InputError(
            "unterminated '#pragma scop' (no '#pragma endscop' follows)",
            Location(filename, open_line, column),
        )
    return regions


def polyopt_pragmas(region: Region) -> list[tuple[Location, str]]:
    """Each ``#pragma polyopt`` line of the region: its position and the text after ``polyopt``.

    Raises ``InputError`` for one that is not ``dead(name, ...)``.
    """
    found: list[tuple[Location, str]] = []
    body = blank_comments(region.body)
    for directive, text in pragmas(body, "polyopt"):
        line = region.body_line + body.count("\n", 0, directive.start)
        where = Location(region.location.file, line, directive.text.index("#") + 1)
        if not _DEAD.match(text):
            raise InputError(f"unknown polyopt pragma '{text.strip()}' (expected 'dead(array, ...)')", where)
        found.append((where, text))
    return found


def region_dead_arrays(region: Region) -> frozenset[str]:
    """The arrays that the region's ``#pragma polyopt dead(...)`` lines name."""
    names: set[str] = set()
    for _, text in polyopt_pragmas(region):
        match = _DEAD.match(text)
        if match:
            names.update(name.strip() for name in match[1].split(","))
    return frozenset(names)
