"""Build and run C programs with gcc, and compare what they print.

Public:

- ``CC``: the C compiler (``gcc``).
- ``CFLAGS``: the optimizing flags with which the benchmark (``polyopt.bench``) and the probe
  (``polyopt.measure.probe``) build.
- ``CHECK_FLAGS``: the warning flags with which the tests and the fuzzer build every program.
- ``ToolchainError``: a compilation or a run failed; the message says which command and why.
- ``compile_c(source, binary, *, flags, include_dirs, defines, timeout, cc)``: build ``source`` into ``binary``.
- ``run_program(binary, *, arguments, threads, timeout)``: run a program with ``OMP_NUM_THREADS`` set.
- ``run_polyopt(arguments, *, cwd, timeout)``: run polyopt's command line in a new process
  (``python -m polyopt`` of this very package, whatever else is installed).
- ``first_difference(expected, actual, *, rel_tol, abs_tol, names)``: where two program outputs differ, or None.
- ``parse_number(text)``: the number a printed token spells, or None.

The benchmark (``polyopt.bench``), the fuzzer (``polyopt.fuzz``) and the tests
(``tests/support.py``) all build, run and compare through this module.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import MappingProxyType

CC = "gcc"
CFLAGS = ["-O3", "-march=native", "-fopenmp"]  # the flags the benchmark and the probe build with
# Warnings only show in a failed build's message; a call to an undeclared function fails the build.
CHECK_FLAGS = ("-Wall", "-Werror=implicit-function-declaration")


class ToolchainError(Exception):
    """A compilation or a program run failed (non-zero exit, signal or time limit)."""


def _quote(command: Sequence[str | os.PathLike[str]]) -> str:
    return " ".join(str(part) for part in command)


CBLAS_LIBRARY = "-lopenblas"


def _uses_cblas(source: Path) -> bool:
    try:
        return "#include <cblas.h>" in source.read_text(errors="replace")
    except OSError:
        return False


_ERROR = re.compile(r"\berror\b|undefined reference")  # gcc's and the linker's errors, shown before its warnings


def compile_c(
    source: Path | str | Sequence[Path | str],
    binary: Path | str,
    *,
    flags: Sequence[str] = (),
    include_dirs: Sequence[Path | str] = (),
    defines: Sequence[str] = (),
    timeout: float = 300.0,
    cc: str = CC,
) -> Path:
    """Compile ``source`` (one file or several) into ``binary`` with ``cc flags -I... -D... source -o binary -lm``.

    ``defines`` are ``NAME`` or ``NAME=VALUE``; a source that includes ``cblas.h`` (polyopt's
    library calls) is also linked with ``CBLAS_LIBRARY``.  Returns ``binary``; raises
    ``ToolchainError`` with the command, gcc's errors and then all its messages when gcc fails.
    """
    sources = [Path(source)] if isinstance(source, str | Path) else [Path(path) for path in source]
    libraries = [CBLAS_LIBRARY] if any(_uses_cblas(path) for path in sources) else []
    command = [
        cc,
        *flags,
        *(f"-I{directory}" for directory in include_dirs),
        *(f"-D{define}" for define in defines),
        *map(str, sources),
        "-o",
        str(binary),
        *libraries,
        "-lm",
    ]
    try:
        result = subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise ToolchainError(f"compilation did not finish in {timeout:g} s: {_quote(command)}") from None
    except OSError as error:
        raise ToolchainError(f"cannot run {cc}: {error.strerror}: {_quote(command)}") from None
    if result.returncode != 0:
        errors = "".join(f"{line}\n" for line in result.stderr.splitlines() if _ERROR.search(line))
        raise ToolchainError(
            f"compilation failed (exit {result.returncode}): {_quote(command)}\n{errors}{cc}'s output:\n{result.stderr}"
        )
    return Path(binary)


def run_program(
    binary: Path | str,
    *,
    arguments: Sequence[str] = (),
    threads: int = 1,
    timeout: float = 60.0,
    environment: Mapping[str, str] = MappingProxyType({}),
) -> subprocess.CompletedProcess[str]:
    """Run ``binary arguments`` with ``OMP_NUM_THREADS=threads`` (and ``environment`` on top of this
    process's) and return the finished process.

    Raises ``ToolchainError`` when it does not finish within ``timeout`` seconds or
    exits non-zero (the message holds its standard error and the end of its output).
    """
    command = [str(binary), *arguments]
    try:
        result = subprocess.run(
            command,
            capture_output=True,
            text=True,
            env={**os.environ, **environment, "OMP_NUM_THREADS": str(threads)},
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        raise ToolchainError(f"{_quote(command)} (OMP_NUM_THREADS={threads}) did not finish in {timeout:g} s") from None
    if result.returncode != 0:
        code = result.returncode
        ending = f"was killed by signal {-code}" if code < 0 else f"exited with {code}"
        raise ToolchainError(
            f"{_quote(command)} (OMP_NUM_THREADS={threads}) {ending}\n"
            f"stderr:\n{result.stderr}\nstdout (last 2000 characters):\n{result.stdout[-2000:]}"
        )
    return result


def run_polyopt(
    arguments: Sequence[str], *, cwd: Path | str | None = None, timeout: float = 120.0
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m polyopt arguments`` and return the finished process, whatever its exit.

    The package folder this module was imported from goes first on ``PYTHONPATH``, so the
    process runs the same polyopt as the caller.  Raises ``ToolchainError`` on a timeout.
    """
    root = str(Path(__file__).resolve().parent.parent)
    path = [root, *(part for part in os.environ.get("PYTHONPATH", "").split(os.pathsep) if part)]
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(path))
    command = [sys.executable, "-m", "polyopt", *arguments]
    try:
        return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout, env=environment)
    except subprocess.TimeoutExpired:
        raise ToolchainError(f"polyopt did not finish in {timeout:g} s: {_quote(command)}") from None


@dataclass(frozen=True)
class _Token:
    text: str
    index: int  # position among the whitespace-separated tokens, from 0
    line: int  # from 1
    column: int  # from 1


_TOKEN = re.compile(r"\S+")


def _tokens(text: str) -> Iterator[_Token]:
    index = 0
    for line_number, line in enumerate(text.splitlines(), start=1):
        for match in _TOKEN.finditer(line):
            yield _Token(match.group(), index, line_number, match.start() + 1)
            index += 1


def parse_number(text: str) -> float | None:
    """The number ``text`` spells (``float`` syntax), or None."""
    try:
        return float(text)
    except ValueError:
        return None


_INTEGER = re.compile(r"[+-]?\d+")
_DECIMAL = re.compile(r"[+-]?\d*\.(\d*)(?:[eE]([+-]?\d+))?")


def _last_digit(text: str) -> float:
    """One unit in the last printed digit of a number with a decimal point ('0.25' → 0.01,
    '1.5e+03' → 100); 0 for any other token."""
    match = _DECIMAL.fullmatch(text)
    if match is None:
        return 0.0
    return 10.0 ** (int(match.group(2) or 0) - len(match.group(1)))


def _tokens_match(expected: str, actual: str, rel_tol: float | None, abs_tol: float) -> bool:
    if expected == actual:
        return True
    if rel_tol is None:
        return False
    if _INTEGER.fullmatch(expected) and _INTEGER.fullmatch(actual):
        return int(expected) == int(actual)
    wanted, got = parse_number(expected), parse_number(actual)
    if wanted is None or got is None:
        return False
    if math.isnan(wanted) or math.isnan(got):
        return math.isnan(wanted) and math.isnan(got)
    if math.isclose(wanted, got, rel_tol=rel_tol, abs_tol=abs_tol):
        return True
    if math.isinf(wanted) or math.isinf(got):
        return False
    allowed = max(rel_tol * max(abs(wanted), abs(got)), abs_tol) + min(_last_digit(expected), _last_digit(actual))
    return abs(wanted - got) <= allowed


def _describe(expected: _Token, actual: _Token, expected_text: str, actual_text: str, names: tuple[str, str]) -> str:
    expected_lines = expected_text.splitlines()
    expected_line, actual_line = expected_lines[expected.line - 1], actual_text.splitlines()[actual.line - 1]
    where = f"token {expected.index + 1}, line {expected.line}, column {expected.column}"
    dumps = (line for line in reversed(expected_lines[: expected.line]) if line.startswith("begin dump:"))
    dump = next(dumps, None)
    if dump is not None:  # PolyBench's dump format names the array being printed
        where += f", in array {dump.removeprefix('begin dump:').strip()!r}"
    if (actual.line, actual.column) != (expected.line, expected.column):
        where += f" (line {actual.line}, column {actual.column} in the {names[1]} output)"
    return (
        f"first difference at {where}: {names[0]} {expected.text!r}, {names[1]} {actual.text!r}\n"
        f"  {names[0]} line: {expected_line.strip()[:300]}\n"
        f"  {names[1]} line: {actual_line.strip()[:300]}"
    )


def first_difference(
    expected: str,
    actual: str,
    *,
    rel_tol: float | None = None,
    abs_tol: float | None = None,
    names: tuple[str, str] = ("expected", "actual"),
) -> str | None:
    """Describe where ``actual`` first differs from ``expected``, or return None if it does not.

    With ``rel_tol`` None the texts must be identical.  Otherwise they are compared token
    by token (whitespace-separated) and the token counts must agree: two integer tokens must
    be equal; two numbers agree when ``|a - b| <= max(rel_tol * max(|a|, |b|), abs_tol)``
    (``abs_tol``, the floor for values near zero, is ``rel_tol`` unless given) plus one unit
    in the last printed digit of the more precise of the two (printed values are rounded:
    two close values may straddle a rounding boundary; ``%.2f`` prints 0.125 and 0.12500001
    as 0.12 and 0.13); NaN matches NaN; any other token must be identical.  ``names`` call
    the two outputs in the description.
    """
    if expected == actual:
        return None
    floor = (rel_tol or 0.0) if abs_tol is None else abs_tol
    expected_tokens, actual_tokens = list(_tokens(expected)), list(_tokens(actual))
    differing = [
        (wanted, got)
        for wanted, got in zip(expected_tokens, actual_tokens, strict=False)
        if not _tokens_match(wanted.text, got.text, rel_tol, floor)
    ]
    compared = min(len(expected_tokens), len(actual_tokens))
    counts = f"{len(expected_tokens)} tokens {names[0]}, {len(actual_tokens)} {names[1]}"
    if differing:
        tally = f"({len(differing)} of {compared} compared tokens differ; {counts})"
        return f"{_describe(*differing[0], expected, actual, names)}\n  {tally}"
    if len(expected_tokens) != len(actual_tokens):
        return f"the outputs agree on their first {compared} tokens, then one goes on ({counts})"
    if rel_tol is not None:
        return None
    pairs = enumerate(zip(expected, actual, strict=False))
    position = next((i for i, (a, b) in pairs if a != b), min(len(expected), len(actual)))
    return f"the tokens agree but the whitespace differs, first at character {position}"
