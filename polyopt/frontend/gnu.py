"""GNU C spellings: rewritten to standard C where their meaning is plain, named where a region cannot hold them.

Public: ``readable``, ``unmodelled``.

gcc accepts spellings that pycparser does not read.  ``readable`` rewrites those whose meaning is
plain, in place and at the same length (blanks pad them; newlines stay), so that every offset,
line and column of the file stays where it was: ``__restrict__`` and ``__restrict`` become
``restrict``, ``__inline__`` ``inline``, ``__const`` ``const``, ``__signed__`` ``signed``,
``__volatile__`` ``volatile``; ``__extension__`` and an ``__attribute__((...))`` whose attributes
do not change what the program computes (``aligned``, ``unused``, ...) become blanks; and
``__builtin_expect(c, v)`` becomes ``(c)``.  Comments and string literals are left alone.

``unmodelled`` names the first construct of a region's text that the polyhedral model cannot
hold: a statement expression ``({ ... })``, ``typeof``, ``asm``, ``_Pragma``, ``_Static_assert``,
``_Alignas``, ``__int128``, ``__auto_type``, ``__label__``, ``__real__``/``__imag__``, or an
``__attribute__`` that ``readable`` keeps (``vector_size``, ``cleanup``, ...).  Calls to GCC's
builtins are judged where calls are read (``polyopt.frontend.accesses``).
"""

from __future__ import annotations

import re

from polyopt.frontend.lexing import blank, closing, plain_code

_KEYWORDS = {
    **dict.fromkeys(("__restrict__", "__restrict"), "restrict"),
    **dict.fromkeys(("__inline__", "__inline"), "inline"),
    **dict.fromkeys(("__const__", "__const"), "const"),
    **dict.fromkeys(("__signed__", "__signed"), "signed"),
    **dict.fromkeys(("__volatile__", "__volatile"), "volatile"),
    "__extension__": "",
}
_KEYWORD = re.compile(r"\b(?:" + "|".join(sorted(_KEYWORDS, key=len, reverse=True)) + r")\b")
_ATTRIBUTE = re.compile(r"\b__attribute(?:__)?\s*\(\s*\(")
_EXPECT = re.compile(r"\b__builtin_expect(?:_with_probability)?\s*\(")
# Attributes that change no value the program computes: dropping them keeps its meaning.
_HARMLESS_ATTRIBUTES = {
    *("aligned", "unused", "used", "maybe_unused", "deprecated", "noinline", "always_inline", "hot", "cold"),
    *("const", "pure", "nonnull", "nothrow", "leaf", "noreturn", "warn_unused_result", "returns_nonnull"),
    *("visibility", "section", "weak", "format", "artificial", "gnu_inline", "flatten", "noclone", "noipa"),
    *("no_instrument_function", "optimize", "target", "fallthrough", "externally_visible", "malloc"),
}
_UNMODELLED = re.compile(
    r"\(\s*\{"
    r"|\b(?:__typeof__|__typeof|typeof)\s*\("
    r"|\b(?:__asm__|__asm|asm)\b(?:\s*(?:volatile|goto|inline)\b)*\s*\("
    r"|\b(?:_Pragma|_Static_assert|_Alignas|__int128|__auto_type|__label__|__real__|__imag__)\b"
    r"|\b__attribute(?:__)?\b"
)


def _top_level_comma(code: str, start: int, end: int) -> int | None:
    """The offset of the first comma between ``start`` and ``end`` outside nested parentheses and brackets."""
    depth = 0
    for index in range(start, end):
        depth += {"(": 1, "[": 1, ")": -1, "]": -1}.get(code[index], 0)
        if code[index] == "," and depth == 0:
            return index
    return None


def _attribute_names(code: str, start: int, end: int) -> list[str]:
    """The attribute names in ``code[start:end]`` (the inside of ``((...))``), without GCC's ``__`` wrapping."""
    names: list[str] = []
    while start < end:
        comma = _top_level_comma(code, start, end)
        item = code[start : end if comma is None else comma].strip()
        if item:
            word = re.match(r"\w*", item)
            names.append(word[0].strip("_") if word else item)
        start = end if comma is None else comma + 1
    return names


def _edits(code: str) -> list[tuple[int, int, str]]:
    """The rewrites of ``readable`` as (start, end, replacement), each replacement as long as what it replaces
    except for the newlines it keeps."""
    edits = [(m.start(), m.end(), _KEYWORDS[m[0]].ljust(len(m[0]))) for m in _KEYWORD.finditer(code)]
    for match in _ATTRIBUTE.finditer(code):
        outer = code.index("(", match.start())
        inner = code.index("(", outer + 1)
        close, inner_close = closing(code, outer), closing(code, inner)
        if close is None or inner_close is None or code[inner_close + 1 : close].strip():
            continue
        names = _attribute_names(code, inner + 1, inner_close)
        if all(name in _HARMLESS_ATTRIBUTES for name in names):
            edits.append((match.start(), close + 1, blank(code[match.start() : close + 1])))
    for match in _EXPECT.finditer(code):
        opening = match.end() - 1
        close = closing(code, opening)
        comma = _top_level_comma(code, opening + 1, close) if close is not None else None
        if close is not None and comma is not None:
            edits.append((match.start(), opening, " " * (opening - match.start())))
            edits.append((comma, close, blank(code[comma:close])))
    return edits


def readable(text: str) -> str:
    """``text`` with the GNU spellings of plain meaning rewritten to standard C, at the same offsets."""
    code = plain_code(text)
    pieces: list[str] = []
    cursor = 0
    for start, end, replacement in sorted(_edits(code)):
        if start < cursor:  # inside an attribute already blanked
            continue
        pieces += [text[cursor:start], replacement]
        cursor = end
    pieces.append(text[cursor:])
    return "".join(pieces)


def unmodelled(text: str) -> tuple[int, str] | None:
    """The offset and the name of the first construct in ``text`` (a region's body, already ``readable``) that a
    region cannot hold, or None."""
    code = plain_code(text)
    match = _UNMODELLED.search(code)
    if match is None:
        return None
    word = re.match(r"\w+", match[0])
    if word is None:
        return match.start(), "statement expression '({ ... })'"
    if word[0].startswith("__attribute"):
        opening = code.find("(", match.end())
        close = closing(code, opening) if opening >= 0 else None
        inner = code[opening + 1 : close].strip() if close is not None else ""
        shown = f"{word[0]}({' '.join(inner.split())})" if inner else word[0]
        return match.start(), f"'{shown}'"
    return match.start(), f"'{word[0]}'"
