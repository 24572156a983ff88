"""Compose C expressions from printed sub-expressions, with parentheses where precedence needs them.

Public: ``COMMA``, ``ASSIGNMENT``, ``CONDITIONAL``, ``UNARY``, ``POSTFIX``, ``PRIMARY``,
``precedence``, ``operand``, ``infix``, ``joined``, ``conditional``, ``negated``, ``call``, ``cast``.

Every piece of C that the emitter builds from expressions (loop bounds, guards,
clauses, section bounds, library-call conditions) goes through these functions:
each sub-expression is parenthesized exactly when its loosest operator at the top
level binds less tightly than the place it goes (``a ? b : c`` compared with a
number needs parentheses, ``a + b`` does not).  Levels follow C's grammar, from
the comma (loosest) to primary expressions (tightest).
"""

from __future__ import annotations

import re

COMMA, ASSIGNMENT, CONDITIONAL = 1, 2, 3
UNARY, POSTFIX, PRIMARY = 14, 15, 16

_BINARY = {
    "||": 4,
    "&&": 5,
    "|": 6,
    "^": 7,
    "&": 8,
    "==": 9,
    "!=": 9,
    "<": 10,
    "<=": 10,
    ">": 10,
    ">=": 10,
    "<<": 11,
    ">>": 11,
    "+": 12,
    "-": 12,
    "*": 13,
    "/": 13,
    "%": 13,
}
_ASSIGNING = {"=", "+=", "-=", "*=", "/=", "%=", "<<=", ">>=", "&=", "^=", "|="}
_UNARY_KEYWORDS = {"sizeof", "_Alignof"}
_TOKEN = re.compile(
    r"""\s*(?:
    (?P<name>[A-Za-z_]\w*)
    | (?P<number>\.?\d(?:[eEpP][+-]|[\w.])*)
    | (?P<literal>"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*')
    | (?P<op><<=|>>=|->|\+\+|--|&&|\|\||<<|>>|[<>=!+\-*/%&^|]=|[-+*/%<>=!~&|^?:,.()\[\]{}])
    | (?P<other>\S)
    )""",
    re.VERBOSE,
)
_OPEN, _CLOSE = {"(", "[", "{"}, {")", "]", "}"}
_OPERANDS = {"name", "number", "literal"}
_POSTFIX_OPERATORS = {"++", "--", ".", "->"}


def precedence(text: str) -> int:
    """The level of the loosest operator at the top level of the C expression ``text``
    (``PRIMARY`` for a name, a number or a parenthesized expression).  A text it cannot
    read gets level 0, so that it is always parenthesized."""
    tokens = [(match.lastgroup, match.group(match.lastgroup)) for match in _TOKEN.finditer(text)]
    level, depth = PRIMARY, 0
    after_operand = False  # the last top-level token ends an operand: an operator after it is binary
    grouped = False  # the open group began where an operand begins (a parenthesized expression or a cast)
    cast = False  # the last top-level token closed such a group: an operand after it makes it a cast
    for kind, token in tokens:
        if kind == "other":
            return 0
        if depth > 0:
            if kind == "op" and token in _OPEN:
                depth += 1
            elif kind == "op" and token in _CLOSE:
                depth -= 1
                if depth == 0:
                    after_operand, cast = True, grouped
            continue
        if cast and (kind in _OPERANDS or token == "("):
            level, after_operand = min(level, UNARY), False
        cast = False
        if kind in _OPERANDS and token in _UNARY_KEYWORDS:
            level = min(level, UNARY)
        elif kind in _OPERANDS:
            after_operand = True
        elif token in _OPEN:
            level = min(level, POSTFIX) if after_operand else level  # a call or a subscript
            grouped, depth = not after_operand, 1
        elif token in _CLOSE:
            return 0
        elif token in _POSTFIX_OPERATORS:
            level = min(level, POSTFIX if after_operand else UNARY)
        elif not after_operand:
            level = min(level, UNARY)  # a prefix operator: - + ! ~ * &
        else:
            level, after_operand = min(level, _binary_level(token)), False
    return level if depth == 0 and tokens else 0


def _binary_level(token: str) -> int:
    if token == ",":
        return COMMA
    if token in _ASSIGNING:
        return ASSIGNMENT
    if token in ("?", ":"):
        return CONDITIONAL
    return _BINARY.get(token, 0)


def operand(text: str, level: int, strict: bool = False) -> str:
    """``text`` where an operand of level ``level`` goes: in parentheses when it binds less
    tightly (or, when ``strict``, not more tightly: the right operand of a left-associative
    operator)."""
    own = precedence(text)
    return f"({text})" if own < level or (strict and own == level) else text


def infix(left: str, symbol: str, right: str) -> str:
    """``left symbol right`` for a binary operator (all of C's are left-associative)."""
    level = _BINARY[symbol]
    return f"{operand(left, level)} {symbol} {operand(right, level, strict=True)}"


def joined(symbol: str, operands: list[str]) -> str:
    """The operands joined by an associative operator (``&&``, ``||``, ``+``, ``*``)."""
    return f" {symbol} ".join(operand(text, _BINARY[symbol]) for text in operands)


def conditional(condition: str, then: str, other: str) -> str:
    """``condition ? then : other`` (a condition with ``||`` in parentheses, for the reader)."""
    parts = operand(condition, _BINARY["||"], strict=True), operand(then, CONDITIONAL), operand(other, CONDITIONAL)
    return "{} ? {} : {}".format(*parts)


def negated(text: str) -> str:
    """``-text``."""
    return f"-{operand(text, UNARY, strict=True)}"


def call(function: str, arguments: list[str]) -> str:
    """``function(arguments...)``."""
    return f"{function}({', '.join(operand(argument, ASSIGNMENT) for argument in arguments)})"


def cast(type_name: str, text: str) -> str:
    """``(type_name)(text)``: the operand always in parentheses, so that the cast plainly covers all of it."""
    return f"({type_name})({text})"
