"""Which variables that a region's loops assign may be read after the region.

Public: ``live_after``.  Works on the file text, like ``polyopt.frontend.regions``.  A variable is
dead after the region only when the function around the region declares it as a plain (not
``static``) local of a block around the region and mentions it nowhere else, and no preprocessor
directive of the file mentions it (a macro could read it).  Any other variable may be live: a
global or ``static`` one, a parameter, a local that the function uses again after the region (or
before it, which runs after the region when both are inside a loop).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from polyopt.frontend.lexing import directives, plain_code, without_directives
from polyopt.frontend.regions import Region

_FIRST_DECLARATOR = re.compile(r"\s*((?:[A-Za-z_]\w*\s+)+)[*\s]*")
_LATER_DECLARATOR = re.compile(r"\s*((?:[A-Za-z_]\w*\s+)+)[*\s]*[A-Za-z_]\w*([^;{}]*),[*\s]*")
_NOT_LOCAL = {"static", "extern", "typedef", "return", "goto", "case", "else", "do", "sizeof"}


def _open_blocks(code: str, position: int) -> list[int]:
    """The offsets of the braces still open at ``position``, outermost first."""
    opened: list[int] = []
    for match in re.finditer(r"[{}]", code[:position]):
        if match[0] == "{":
            opened.append(match.start())
        elif opened:
            opened.pop()
    return opened


def _block_end(code: str, start: int, depth: int) -> int:
    """The offset after the brace that closes the ``depth`` blocks open at ``start``."""
    for match in re.finditer(r"[{}]", code[start:]):
        depth += 1 if match[0] == "{" else -1
        if depth == 0:
            return start + match.end()
    return len(code)


def _declares(code: str, position: int) -> bool:
    """Whether the name at ``position`` is a declarator of a plain local declaration (``int i, j;``)."""
    start = max(code.rfind(delimiter, 0, position) for delimiter in ";{}") + 1
    prefix = code[start:position]
    first = _FIRST_DECLARATOR.fullmatch(prefix)
    later = _LATER_DECLARATOR.fullmatch(prefix)
    if later is not None and later[2].count("(") != later[2].count(")"):
        later = None
    match = first or later
    return match is not None and not _NOT_LOCAL & set(match[1].split())


def _dead(name: str, code: str, mentioned: str, region: Region, blocks: list[int], end: int) -> bool:
    if re.search(rf"\b{name}\b", mentioned):
        return False
    mentions = [
        match.start()
        for match in re.finditer(rf"\b{name}\b", code[:end])
        if blocks[0] < match.start() and not region.start <= match.start() < region.end
    ]
    if len(mentions) != 1 or mentions[0] > region.start:
        return False
    declared = _open_blocks(code, mentions[0])
    return declared == blocks[: len(declared)] and _declares(code, mentions[0])


def live_after(region: Region, text: str, names: Iterable[str]) -> frozenset[str]:
    """The variables among ``names`` whose values after ``region`` (in the file ``text``) may be read."""
    code = plain_code(text)
    mentioned = "\n".join(directive.text for directive in directives(code))
    code = without_directives(code)
    blocks = _open_blocks(code, region.start)
    if not blocks:
        return frozenset(names)
    end = _block_end(code, region.end, len(blocks))
    return frozenset(name for name in names if not _dead(name, code, mentioned, region, blocks, end))
