"""Typical values of region parameters, for the cost models (tile sizes, fusion).

A parameter is an identifier in a region's loop bounds (``_PB_NI``, ``n``).  Its value comes from,
in this order:

1. a ``--param NAME=VALUE`` hint;
2. the number the C preprocessor expands the name to at the end of the file: the file runs
   through ``gcc -E -dD`` once, with the ``-I``/``-D``/``-U`` flags of the command line, in the
   file's folder (so ``#include "gemm.h"`` resolves as when the file is compiled) and with that
   folder last on the include path, followed by one line
   ``__polyopt_value__ NAME1 __polyopt_value__ NAME2 ...``, so PolyBench's chains (``_PB_NI`` →
   ``POLYBENCH_LOOP_BOUND(NI, ni)`` → ``NI`` → ``NI_DEFAULT`` → ``1000`` under ``#if``) resolve
   exactly as in the compiler's build with those flags.  An expansion is used when it is a positive
   integer: C integer literals combined with ``+ - * / %`` and parentheses.  Its origin names the
   definition the number comes from: the first macro on the chain from the name (depth first through
   the names each definition uses) whose definition holds a number, a ``#define`` in the file or in a
   header, or a ``-D`` flag.  A name that expands to something else stands for the first macro on
   its chain that expands to such a number (found by a second gcc run): PolyBench's
   ``_PB_NI`` → ``POLYBENCH_LOOP_BOUND(NI, ni)`` → ``ni`` (the kernel's parameter, which ``main``
   passes ``NI``) stands for ``NI``, and its origin says ``via NI``;
3. ``DEFAULT_PARAMETER_VALUE``, when gcc is missing or fails (a missing include: the caller warns),
   or the name does not expand to such a number (a function parameter ``n``).

Public: ``ParameterValue``, ``DEFAULT_PARAMETER_VALUE``, ``PREPROCESS_TIMEOUT``, ``Preprocessed``, ``preprocess``,
``parameter_values``, ``integer_value``, ``MacrosAt``, ``gcc_accepts`` (whether gcc compiles the file at all,
run the same way: a region that pycparser cannot read is then kept as written instead of failing the file).

``preprocess`` can also probe names at given places of the file (the start of each region), for
the macros in effect there and their expansions (``polyopt.frontend.macros``).
"""

from __future__ import annotations

import ast
import operator
import os
import re
import subprocess
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from polyopt.frontend.lexing import IDENTIFIER, INTEGER_LITERAL, definition, line_marker, undefined
from polyopt.toolchain import CC

DEFAULT_PARAMETER_VALUE = 1024
PREPROCESS_TIMEOUT = 10.0  # seconds for the one gcc run of a call
_MARKER = "__polyopt_value__"
_PLACE_PREFIX = "__polyopt_place"
_PLACE = _PLACE_PREFIX + "{}__"


@dataclass(frozen=True)
class ParameterValue:
    """The value the cost models assume for one parameter, and where it came from."""

    name: str
    value: int  # positive
    origin: str  # "--param", "#define in file", "#define in gemm.h", "-DN=100", "default", ...


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
        return _evaluate(ast.parse(INTEGER_LITERAL.sub(_c_literal, expansion), mode="eval").body)
    except (SyntaxError, ValueError, ArithmeticError, RecursionError, MemoryError):
        return None


def _integer(expansion: str) -> int | None:
    """The positive integer that ``expansion`` computes, or None."""
    value = integer_value(expansion)
    return value if value is not None and value > 0 else None


@dataclass(frozen=True)
class _Macro:
    """A macro in effect: the file that defines it (as gcc names it), its body and, for a function-like
    macro, its parameter list as written (``"(x, y)"``; None for an object-like macro)."""

    file: str
    body: str
    parameters: str | None = None


@dataclass(frozen=True)
class MacrosAt:
    """What gcc gives at one place of the file: the macros in effect there and the expansions of
    the names (or invocations) probed there."""

    macros: Mapping[str, _Macro]
    expansions: Mapping[str, str]


@dataclass(frozen=True)
class Preprocessed:
    """What gcc gives for the probed names: each one's expansion, the macros in effect and those
    defined more than once or undefined somewhere (``redefined``), or ``failure``: why it gives nothing."""

    expansions: Mapping[str, str]
    macros: Mapping[str, _Macro]
    failure: str | None = None
    redefined: frozenset[str] = frozenset()
    places: tuple[MacrosAt | None, ...] = ()  # one per place of ``preprocess``'s ``at``; None: not compiled

    def chain(self, name: str) -> list[str]:
        """The macros on the chain from ``name`` (see ``_chain``)."""
        return _chain(name, self.macros)


def _command_line(cpp_flags: Sequence[str]) -> list[str]:
    """``cpp_flags`` for a gcc that runs in the source's folder: relative ``-I`` folders made absolute."""
    return [f"-I{Path(flag[2:]).resolve()}" if flag.startswith("-I") else flag for flag in cpp_flags]


def _failure(stderr: bytes, filename: str) -> str:
    """gcc's first error line, naming ``filename`` instead of standard input."""
    lines = stderr.decode("utf-8", errors="replace").splitlines()
    error = next((line for line in lines if "error" in line), lines[0] if lines else "no output")
    return error.replace("<stdin>", filename)


def _with_places(text: str, at: Sequence[tuple[int, Sequence[str]]]) -> str:
    """``text`` with a probe line of place ``index`` inserted at the offset of each ``at[index]`` (a
    line's start): its marker, then each probed text after a ``_MARKER``, and a last ``_MARKER``."""
    pieces: list[str] = []
    last = 0
    for index, (offset, probes) in sorted(enumerate(at), key=lambda item: item[1][0]):
        line = _PLACE.format(index) + "".join(f" {_MARKER} {' '.join(probe.split())}" for probe in probes)
        pieces += [text[last:offset], f"{line} {_MARKER}\n"]
        last = offset
    return "".join(pieces) + text[last:]


def preprocess(
    text: str,
    filename: str,
    names: list[str],
    cpp_flags: Sequence[str],
    compiler: str = CC,
    at: Sequence[tuple[int, Sequence[str]]] = (),
) -> Preprocessed:
    """What the preprocessor of ``compiler`` (gcc) gives for ``names`` (identifiers, or expressions on one
    line) at the end of ``text``, and at each place ``at`` (an offset of a line's start in ``text`` and
    the names or invocations to expand there)."""
    folder = Path(filename).parent
    probe = "".join(f" {_MARKER} {name}" for name in names)
    command = [compiler, "-E", "-dD", "-x", "c", *_command_line(cpp_flags), "-I.", "-"]
    try:
        source = f"{_with_places(text, at)}\n{probe}\n".encode("utf-8", errors="surrogateescape")
        result = subprocess.run(
            command,
            input=source,
            capture_output=True,
            cwd=folder if folder.is_dir() else None,
            timeout=PREPROCESS_TIMEOUT,
            check=False,
        )
    except subprocess.TimeoutExpired:
        return Preprocessed({}, {}, f"{compiler} -E took longer than {PREPROCESS_TIMEOUT:g} s")
    except (OSError, subprocess.SubprocessError, UnicodeError) as error:
        return Preprocessed({}, {}, f"cannot run {compiler}: {error}")
    if result.returncode != 0:
        return Preprocessed({}, {}, _failure(result.stderr, filename))
    lines = result.stdout.decode("utf-8", errors="replace").splitlines()
    probed = (line for line in reversed(lines) if _MARKER in line and _PLACE_PREFIX not in line)
    parts = [part.strip() for part in next(probed, "").split(_MARKER)[1:]]
    if len(parts) != len(names):
        return Preprocessed({}, {}, "the preprocessor's output does not hold the probed names")
    macros, snapshots = _macros(lines, len(at))
    places = tuple(_place(lines, snapshots, index, probes) for index, (_, probes) in enumerate(at))
    expansions = dict(zip(names, parts, strict=True))
    return Preprocessed(expansions, macros, redefined=_redefined(lines), places=places)


def _place(
    lines: list[str], snapshots: Mapping[int, tuple[int, dict[str, _Macro]]], index: int, probes: Sequence[str]
) -> MacrosAt | None:
    """Place ``index``: the macros in effect at its probe line and the expansions of its ``probes``."""
    if index not in snapshots:
        return None
    number, macros = snapshots[index]
    parts = [part.strip() for part in lines[number].split(_MARKER)[1:-1]]
    if len(parts) != len(probes):
        return None
    return MacrosAt(macros, dict(zip(probes, parts, strict=True)))


def object_bodies(macros: Mapping[str, _Macro]) -> dict[str, str]:
    """The bodies of the object-like ``macros``, by name."""
    return {name: macro.body for name, macro in macros.items() if macro.parameters is None}


def gcc_accepts(text: str, filename: str, cpp_flags: Sequence[str], compiler: str = CC) -> bool | None:
    """Whether ``compiler -fsyntax-only`` (with the ``-I``/``-D``/``-U`` ``cpp_flags``, in the file's folder, as
    ``preprocess``) accepts ``text``; None when it cannot tell (gcc missing or out of time)."""
    folder = Path(filename).parent
    command = [compiler, "-fsyntax-only", "-x", "c", *_command_line(cpp_flags), "-I.", "-"]
    try:
        result = subprocess.run(
            command,
            input=text.encode("utf-8", errors="surrogateescape"),
            capture_output=True,
            cwd=folder if folder.is_dir() else None,
            timeout=PREPROCESS_TIMEOUT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError, UnicodeError):
        return None
    return result.returncode == 0


def _redefined(lines: list[str]) -> frozenset[str]:
    """The macros that ``gcc -E -dD`` output ``lines`` define more than once or undefine."""
    defined: set[str] = set()
    again: set[str] = set()
    for line in lines:
        if define := definition(line):
            (again if define.name in defined else defined).add(define.name)
        elif (name := undefined(line)) is not None:
            again.add(name)
    return frozenset(again)


def _macros(lines: list[str], places: int = 0) -> tuple[dict[str, _Macro], dict[int, tuple[int, dict[str, _Macro]]]]:
    """The macros in effect at the end of ``gcc -E -dD`` output ``lines``, with their files; and for each
    of the ``places`` probe lines found in ``lines``, its line's index and the macros in effect there."""
    file = ""
    macros: dict[str, _Macro] = {}
    snapshots: dict[int, tuple[int, dict[str, _Macro]]] = {}
    place = re.compile(_PLACE.format(r"(\d+)")) if places else None
    for number, line in enumerate(lines):
        if (marked := line_marker(line)) is not None:
            file = marked
        elif define := definition(line):
            macros[define.name] = _Macro(file, define.body, define.parameters)
        elif (name := undefined(line)) is not None:
            macros.pop(name, None)
        elif place is not None and (found := place.match(line.lstrip())) and int(found[1]) < places:
            snapshots.setdefault(int(found[1]), (number, dict(macros)))
    return macros, snapshots


def _chain(name: str, macros: Mapping[str, _Macro]) -> list[str]:
    """The macros on the chain from ``name``: itself (when it is one), then depth first the macros
    that each definition names."""
    chain: list[str] = []
    stack = [name]
    while stack:
        current = stack.pop()
        if current in macros and current not in chain:
            chain.append(current)
            stack.extend(reversed(IDENTIFIER.findall(macros[current].body)))
    return chain


def _origin(name: str, macros: Mapping[str, _Macro], filename: str, cpp_flags: Sequence[str]) -> str:
    """Where the number of ``name`` comes from: the first macro on its chain whose definition holds
    an integer literal (see the module docstring)."""
    found = next((macro for macro in _chain(name, macros) if INTEGER_LITERAL.search(macros[macro].body)), None)
    file = macros[found].file if found is not None else ""
    if found is None:
        origin = "preprocessor"
    elif file == "<command-line>":
        given = [flag for flag in cpp_flags if re.fullmatch(rf"-D{found}(=.*)?", flag, re.S)]
        return given[-1] if given else f"-D{found}={macros[found].body}"
    elif file == "<stdin>":
        origin = "#define in file"
    elif file.startswith("<"):
        origin = f"predefined {found}"
    else:
        origin = f"#define in {_shown(Path(filename).parent / file)}"
    return f"{origin}, with {' '.join(cpp_flags)}" if cpp_flags else origin


def _shown(path: Path) -> str:
    """``path`` as a user reads it: relative to the current folder when it lies below it."""
    normal = Path(os.path.normpath(path))
    try:
        return str(normal.relative_to(Path.cwd())) if normal.is_absolute() else str(normal)
    except ValueError:
        return str(normal)


def parameter_values(
    text: str,
    filename: str,
    names: Iterable[str],
    hints: Mapping[str, int],
    cpp_flags: Sequence[str] = (),
    preprocessed: Preprocessed | None = None,
) -> tuple[dict[str, ParameterValue], str | None]:
    """The value of each parameter in ``names`` for the file ``filename`` holding ``text``: its hint,
    else its preprocessor value (with the ``-I``/``-D``/``-U`` ``cpp_flags``), else
    ``DEFAULT_PARAMETER_VALUE`` (see the module docstring); and why the preprocessor failed, when it
    was needed and failed (None otherwise).  Runs gcc only for names without a hint: once (not at
    all when ``preprocessed``, an earlier ``preprocess`` of ``text`` for these names, is given), and
    once more for the macros that stand in for names that expand to no number; never raises."""
    wanted = list(dict.fromkeys(names))
    unhinted = [name for name in wanted if name not in hints and IDENTIFIER.fullmatch(name)]
    if preprocessed is None:
        preprocessed = preprocess(text, filename, unhinted, cpp_flags) if unhinted else Preprocessed({}, {})
    failure = preprocessed.failure if unhinted else None
    expansions = {name: preprocessed.expansions[name] for name in unhinted if name in preprocessed.expansions}
    numbers = {name: (number, name) for name, expansion in expansions.items() if (number := _integer(expansion))}
    chains = {name: _chain(name, preprocessed.macros)[1:] for name in expansions if name not in numbers}
    stand_ins = list(dict.fromkeys(macro for chain in chains.values() for macro in chain))
    if stand_ins:
        expanded = preprocess(text, filename, stand_ins, cpp_flags).expansions
        for name, chain in chains.items():
            found = next(((number, macro) for macro in chain if (number := _integer(expanded.get(macro, "")))), None)
            numbers |= {name: found} if found is not None else {}
    default = "default: the preprocessor failed" if failure else "default"
    values: dict[str, ParameterValue] = {}
    for name in wanted:
        if name in hints:
            values[name] = ParameterValue(name, hints[name], "--param")
        elif name in numbers:
            number, macro = numbers[name]
            origin = _origin(macro, preprocessed.macros, filename, cpp_flags)
            values[name] = ParameterValue(name, number, origin if macro == name else f"via {macro}: {origin}")
        else:
            values[name] = ParameterValue(name, DEFAULT_PARAMETER_VALUE, default)
    return values, failure
