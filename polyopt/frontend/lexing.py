"""Lexing of C text, in one place for the whole frontend: comments, string and character literals, preprocessor
directives (``#define``, ``#undef``, ``#pragma``, ``#include``, gcc's line markers), number literals and tokens.

Public: ``IDENTIFIER``, ``LITERAL``, ``INTEGER_LITERAL``, ``blank``, ``blank_matches``, ``blank_comments``,
``plain_code``, ``Directive``, ``directives``, ``without_directives``, ``Define``, ``definition``, ``undefined``,
``definitions``, ``pragma``, ``pragmas``, ``includes``, ``line_marker``, ``number_kind``, ``Token``, ``tokens``,
``closing``.

Positions stay: what hides text (comments, literals, directives) replaces each of its characters but newlines by a
blank, so the offsets, lines and columns of the rest are the file's.  A directive runs from a ``#`` that starts a
line (after blanks) to the end of its line, across backslash-newline continuations.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
LITERAL = re.compile(r"\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'")  # a string or character literal
INTEGER_LITERAL = re.compile(r"\b(0[xX][0-9a-fA-F]+|[0-9]+)[uUlL]*\b")
_FLOATING_LITERAL = re.compile(r"(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?[fFlL]?|0[xX][0-9a-fA-F.]+[pP][-+]?\d+[fFlL]?")
_LEXEME = re.compile(rf"/\*.*?\*/|//[^\n]*|{LITERAL.pattern}", re.S)
_DIRECTIVE = re.compile(r"^[ \t]*#(?:[^\n\\]|\\.)*", re.M | re.S)
_NAMED = re.compile(r"[ \t]*#[ \t]*(\w*)(.*)", re.S)
_PRAGMA = re.compile(r"[ \t]*#[ \t]*pragma[ \t]+(\w+)")
_DEFINE = re.compile(r"[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\([^)]*\))?(.*)", re.S)
_UNDEF = re.compile(r"[ \t]*#[ \t]*undef[ \t]+([A-Za-z_]\w*)")
_INCLUDED = re.compile(r"\s*[<\"]([^>\"]*)[>\"]")
_LINE_MARKER = re.compile(r'#\s*\d+\s+"((?:[^"\\]|\\.)*)"')
_TOKEN = re.compile(
    rf"(?P<string>{LITERAL.pattern})"
    r"|(?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)"
    r"|(?P<name>[A-Za-z_]\w*)"
    r"|(?P<punct>->|\+\+|--|<<=|>>=|<<|>>|&&|\|\||[-+*/%&|^<>=!]=|\S)"
)


def blank(text: str) -> str:
    """``text`` with every character but newlines replaced by a blank."""
    return re.sub(r"[^\n]", " ", text)


def blank_matches(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with each match of ``pattern`` blanked (``blank``)."""
    return pattern.sub(lambda match: blank(match[0]), text)


def blank_comments(text: str) -> str:
    """``text`` with every comment blanked; string and character literals stay."""
    return _LEXEME.sub(lambda match: match[0] if match[0][0] in "\"'" else blank(match[0]), text)


def plain_code(text: str) -> str:
    """``text`` with comments and string and character literals blanked."""
    return blank_matches(blank_comments(text), LITERAL)


@dataclass(frozen=True)
class Directive:
    """A preprocessor directive of a text: its offsets, its ``text`` (continuation lines included), its ``name``
    (``define``, ``pragma``; empty for a ``#`` alone) and the text after the name (``rest``)."""

    start: int
    end: int
    text: str
    name: str
    rest: str


def directives(text: str) -> list[Directive]:
    """The directives of ``text`` (comments already blanked, where they matter), in order."""
    found = []
    for match in _DIRECTIVE.finditer(text):
        named = _NAMED.match(match[0])
        assert named is not None
        found.append(Directive(match.start(), match.end(), match[0], named[1], named[2]))
    return found


def without_directives(text: str) -> str:
    """``text`` with every directive blanked."""
    return blank_matches(text, _DIRECTIVE)


@dataclass(frozen=True)
class Define:
    """A ``#define``: the macro's name, its parameter list as written (``"(x, y)"``; None for an object-like
    macro) and its body (continuations joined, blanks around it left out)."""

    name: str
    parameters: str | None
    body: str


def definition(directive: str) -> Define | None:
    """The definition that the text of a directive (or a line of ``gcc -dD`` output) makes, or None."""
    match = _DEFINE.match(directive)
    if match is None:
        return None
    return Define(match[1], match[2], match[3].replace("\\\n", " ").strip())


def undefined(directive: str) -> str | None:
    """The name that the text of an ``#undef`` directive undefines, or None for another directive."""
    match = _UNDEF.match(directive)
    return match[1] if match else None


def definitions(text: str) -> Iterator[tuple[str, Define | None]]:
    """Each ``#define`` (the name and its ``Define``) and ``#undef`` (the name and None) of ``text``, in order."""
    for directive in directives(text):
        if (name := undefined(directive.text)) is not None:
            yield name, None
        elif (defined := definition(directive.text)) is not None:
            yield defined.name, defined


def pragma(line: str) -> str | None:
    """The first word of the ``#pragma`` that ``line`` is (``scop``, ``omp``), or None when it is none."""
    match = _PRAGMA.match(line)
    return match[1] if match else None


def pragmas(text: str, word: str) -> Iterator[tuple[Directive, str]]:
    """Each ``#pragma word`` directive of ``text`` and its text after ``word``."""
    for directive in directives(text):
        match = _PRAGMA.match(directive.text)
        if match is not None and match[1] == word:
            yield directive, directive.text[match.end() :]


def includes(text: str) -> list[str]:
    """The names of the files that the ``#include`` directives of ``text`` name (``polybench.h``)."""
    found = (_INCLUDED.match(directive.rest) for directive in directives(text) if directive.name == "include")
    return [match[1] for match in found if match is not None]


def line_marker(line: str) -> str | None:
    """The file that a line marker of gcc's output (``# 12 "gemm.h"``) names, or None for another line."""
    match = _LINE_MARKER.match(line)
    return match[1] if match else None


def number_kind(text: str) -> str | None:
    """``integer`` or ``floating`` for a number literal (possibly signed or parenthesized), None for other text."""
    text = text.strip().strip("()").strip().lstrip("+-")
    if INTEGER_LITERAL.fullmatch(text):
        return "integer"
    if _FLOATING_LITERAL.fullmatch(text):
        return "floating"
    return None


@dataclass(frozen=True)
class Token:
    kind: str  # "string", "number", "name" or "punct"
    text: str
    start: int
    end: int


def tokens(text: str) -> list[Token]:
    """The C tokens of ``text`` (comments already blanked)."""
    return [Token(str(m.lastgroup), m[0], m.start(), m.end()) for m in _TOKEN.finditer(text)]


def closing(text: str, opening: int, left: str = "(", right: str = ")") -> int | None:
    """The offset of the ``right`` bracket that closes the ``left`` one at ``opening``, or None."""
    depth = 0
    for index in range(opening, len(text)):
        if text[index] == left:
            depth += 1
        elif text[index] == right:
            depth -= 1
            if depth == 0:
                return index
    return None
