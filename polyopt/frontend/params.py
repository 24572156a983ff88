"""Typical values of region parameters, for the cost models (tile sizes, fusion).

A parameter is an identifier in a region's loop bounds (``_PB_NI``, ``n``).  Its value comes from,
in this order:

1. a ``--param NAME=VALUE`` hint;
2. the number the C preprocessor expands the name to at the end of the file, or where the region
   starts: the file runs through ``gcc -E -P`` once, with one line
   ``__polyopt_value__ NAME1 __polyopt_value__ NAME2 ...`` there,
   so PolyBench's chains (``_PB_NI`` → ``POLYBENCH_LOOP_BOUND(NI, ni)`` → ``NI`` → ``NI_DEFAULT``
   → ``1000`` under ``#if``) resolve exactly as in the compiler's default build.  An expansion is
   used when it is a positive integer: C integer literals combined with ``+ - * / %`` and parentheses;
3. ``DEFAULT_PARAMETER_VALUE``, when gcc is missing or fails (a missing include), or the name does
   not expand to such a number (a function parameter ``n``).

The pipeline runs the preprocessor once per region, at its start (``macro_expansions``), for the
parameters and the named constants of ``polyopt.frontend.constants`` alike.

Public: ``ParameterValue``, ``DEFAULT_PARAMETER_VALUE``, ``PREPROCESS_TIMEOUT``, ``parameter_values``,
``macro_expansions``, ``integer_value``.
"""

from __future__ import annotations

import ast
import operator
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

from polyopt.toolchain import CC

DEFAULT_PARAMETER_VALUE = 1024
PREPROCESS_TIMEOUT = 10.0  # seconds for the one gcc run of a call
_MARKER = "__polyopt_value__"
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_C_INTEGER = re.compile(r"\b(0[xX][0-9a-fA-F]+|0[0-7]*|[1-9][0-9]*)[uUlL]*\b")


@dataclass(frozen=True)
class ParameterValue:
    """The value the cost models assume for one parameter, and where it came from."""

    name: str
    value: int  # positive
    origin: str  # "--param", "#define in file" or "default"


def _c_divide(left: int, right: int) -> int:
    """C's ``/`` on integers: the quotient truncated toward zero."""
    quotient = abs(left) // abs(right)
    return quotient if (left < 0) == (right < 0) else -quotient


def _c_remainder(left: int, right: int) -> int:
    """C's ``%``: the remainder has the sign of ``left``."""
    return left - right * _c_divide(left, right)


_OPERATORS: dict[type[ast.operator], Callable[[int, int], int]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: _c_divide,
    ast.FloorDiv: operator.floordiv,
    ast.Mod: _c_remainder,
}


def _evaluate(node: ast.AST) -> int:
    """The value of an integer expression of literals; ``ValueError`` for anything else."""
    match node:
        case ast.Constant(value=int() as value) if not isinstance(value, bool):
            return value
        case ast.UnaryOp(op=ast.USub(), operand=operand):
            return -_evaluate(operand)
        case ast.UnaryOp(op=ast.UAdd(), operand=operand):
            return _evaluate(operand)
        case ast.BinOp(left=left, op=op, right=right) if type(op) in _OPERATORS:
            return _OPERATORS[type(op)](_evaluate(left), _evaluate(right))
    raise ValueError(f"not an integer expression: {ast.dump(node)}")


def _c_literal(match: re.Match[str]) -> str:
    """A C integer literal (``1000UL``, ``0x40``, ``017``) as a Python one."""
    digits = match.group(1)
    base = 16 if digits[1:2] in ("x", "X") else 8 if digits.startswith("0") else 10
    return str(int(digits, base))


def integer_value(expansion: str) -> int | None:
    """The integer that ``expansion`` (C integer literals, ``+ - * / %``, parentheses) computes, or None."""
    try:
        return _evaluate(ast.parse(_C_INTEGER.sub(_c_literal, expansion), mode="eval").body)
    except (SyntaxError, ValueError, ArithmeticError, RecursionError, MemoryError):
        return None


def _integer(expansion: str) -> int | None:
    """The positive integer that ``expansion`` computes, or None."""
    value = integer_value(expansion)
    return value if value is not None and value > 0 else None


def macro_expansions(text: str, filename: str, names: list[str], position: int | None = None) -> dict[str, str]:
    """What the preprocessor expands each of ``names`` (identifiers or expressions on one line) to at
    the offset ``position`` of ``text`` (its end by default), in one gcc run; empty when gcc fails."""
    probe = "".join(f" {_MARKER} {name}" for name in names)
    command = [CC, "-E", "-P", "-x", "c", "-", "-I", str(Path(filename).parent)]
    at = len(text) if position is None else position
    try:
        source = f"{text[:at]}\n{probe}\n{text[at:]}".encode("utf-8", errors="surrogateescape")
        result = subprocess.run(command, input=source, capture_output=True, timeout=PREPROCESS_TIMEOUT)
    except (OSError, subprocess.SubprocessError, UnicodeError):
        return {}
    lines = result.stdout.decode("utf-8", errors="replace").splitlines()
    line = next((line for line in reversed(lines) if _MARKER in line), None)
    if result.returncode != 0 or line is None:
        return {}
    parts = [part.strip() for part in line.split(_MARKER)[1:]]
    return dict(zip(names, parts, strict=True)) if len(parts) == len(names) else {}


def parameter_values(
    text: str,
    filename: str,
    names: Iterable[str],
    hints: Mapping[str, int],
    expansions: Mapping[str, str] | None = None,
) -> dict[str, ParameterValue]:
    """The value of each parameter in ``names`` for the file ``filename`` holding ``text``: its hint,
    else its preprocessor value, else ``DEFAULT_PARAMETER_VALUE`` (see the module docstring).
    ``expansions`` are those of an earlier ``macro_expansions`` run; without them gcc runs at most
    once, and only for names without a hint; never raises."""
    wanted = list(dict.fromkeys(names))
    unhinted = [name for name in wanted if name not in hints and _IDENTIFIER.fullmatch(name)]
    if expansions is None:
        expansions = macro_expansions(text, filename, unhinted) if unhinted else {}
    values: dict[str, ParameterValue] = {}
    for name in wanted:
        number = _integer(expansions[name]) if name in expansions else None
        if name in hints:
            values[name] = ParameterValue(name, hints[name], "--param")
        elif number is not None:
            values[name] = ParameterValue(name, number, "#define in file")
        else:
            values[name] = ParameterValue(name, DEFAULT_PARAMETER_VALUE, "default")
    return values
