"""Shared helpers for polyopt's tests: build and run C programs, run the CLI, compare outputs.

Public:

- ``EXAMPLES``: the example suite's folder (kernels and ``polybench_lite.h``).
- ``compile_c(source, *, defines, flags, include_dirs, out_dir)``: build a C file, return the binary.
- ``compile_original(source, *, defines, flags)``: ``compile_c`` cached per session by
  (source path and text, defines, flags), for the unoptimized programs that several tests share.
- ``run_binary(binary, *, threads, timeout)``: run a program with ``OMP_NUM_THREADS`` set.
- ``run_polyopt(source, flags, *, output, cwd, timeout)``: run the ``polyopt`` console script.
- ``first_difference(expected, actual, *, rel_tol, abs_tol)``: where two program outputs differ, or None.
- ``assert_same_output(expected, actual, *, rel_tol, abs_tol, context)``: assert they do not differ.

Failures raise ``AssertionError`` with the command, its standard error and, for outputs,
the first differing token and its position, so that a failing test explains itself.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CC = "gcc"

_build_root: Path | None = None
_build_root_lock = threading.Lock()


def _session_dir(prefix: str) -> Path:
    """A fresh folder under this process's build root, removed when the process exits."""
    global _build_root
    with _build_root_lock:
        if _build_root is None:
            _build_root = Path(tempfile.mkdtemp(prefix="polyopt-tests-"))
            atexit.register(shutil.rmtree, _build_root, ignore_errors=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=_build_root))


def _quote(command: Sequence[str | os.PathLike[str]]) -> str:
    return " ".join(str(part) for part in command)


def compile_c(
    source: Path | str,
    *,
    defines: Sequence[str] = (),
    flags: Sequence[str] = (),
    include_dirs: Sequence[Path | str] = (EXAMPLES,),
    out_dir: Path | str | None = None,
) -> Path:
    """Compile ``source`` with ``gcc``, each of ``defines`` as ``-D``, and return the binary.

    ``defines`` are ``NAME`` or ``NAME=VALUE``; ``flags`` go to gcc as given (``-O3``,
    ``-fopenmp``, ...); ``-lm`` is always linked.  The binary is named after the source
    and placed in ``out_dir``, or in a fresh temporary folder when it is None.
    """
    source = Path(source)
    folder = Path(out_dir) if out_dir is not None else _session_dir(f"{source.stem}-")
    binary = folder / source.stem
    command = [
        CC,
        *flags,
        *(f"-I{directory}" for directory in include_dirs),
        *(f"-D{define}" for define in defines),
        str(source),
        "-o",
        str(binary),
        "-lm",
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        raise AssertionError(f"compilation failed (exit {result.returncode}): {_quote(command)}\n{result.stderr}")
    return binary


def compile_original(source: Path | str, *, defines: Sequence[str] = (), flags: Sequence[str] = ()) -> Path:
    """``compile_c`` with the default include folder, built once per session for each
    (source path and contents, defines, flags).  Safe to call from several threads (two
    simultaneous first calls with one key may both build)."""
    source = Path(source).resolve()
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    return _compile_cached(source, digest, tuple(defines), tuple(flags))


@functools.cache
def _compile_cached(source: Path, digest: str, defines: tuple[str, ...], flags: tuple[str, ...]) -> Path:
    del digest  # part of the cache key only
    return compile_c(source, defines=defines, flags=flags)


def run_binary(binary: Path | str, *, threads: int = 1, timeout: float = 60.0) -> subprocess.CompletedProcess[str]:
    """Run ``binary`` with ``OMP_NUM_THREADS=threads``; fail if it times out or exits non-zero."""
    environment = dict(os.environ, OMP_NUM_THREADS=str(threads))
    try:
        result = subprocess.run([str(binary)], capture_output=True, text=True, env=environment, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"{binary} (OMP_NUM_THREADS={threads}) did not finish in {timeout:g} s") from None
    if result.returncode != 0:
        code = result.returncode
        ending = f"was killed by signal {-code}" if code < 0 else f"exited with {code}"
        raise AssertionError(
            f"{binary} (OMP_NUM_THREADS={threads}) {ending}\n"
            f"stderr:\n{result.stderr}\nstdout (last 2000 characters):\n{result.stdout[-2000:]}"
        )
    return result


def _polyopt_command() -> str:
    """The console script installed beside the running interpreter, else the one on PATH."""
    beside = Path(sys.executable).with_name("polyopt")
    if beside.exists():
        return str(beside)
    found = shutil.which("polyopt")
    if found is None:
        raise AssertionError("the 'polyopt' console script is not installed (pip install -e '.[test]')")
    return found


def run_polyopt(
    source: Path | str,
    flags: Sequence[str] = (),
    *,
    output: Path | str | None = None,
    cwd: Path | str | None = None,
    timeout: float = 120.0,
) -> subprocess.CompletedProcess[str]:
    """Run ``polyopt [flags] source [-o output]`` and return the finished process, whatever its exit.

    With ``output`` None no ``-o`` is added, so polyopt's default applies (``flags`` may hold one).
    """
    command = [_polyopt_command(), *flags, str(source)]
    if output is not None:
        command += ["-o", str(output)]
    try:
        return subprocess.run(command, capture_output=True, text=True, cwd=cwd, timeout=timeout)
    except subprocess.TimeoutExpired:
        raise AssertionError(f"polyopt did not finish in {timeout:g} s: {_quote(command)}") from None


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


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _tokens_match(expected: str, actual: str, rel_tol: float | None, abs_tol: float) -> bool:
    if expected == actual:
        return True
    if rel_tol is None:
        return False
    wanted, got = _number(expected), _number(actual)
    if wanted is None or got is None:
        return False
    if math.isnan(wanted) or math.isnan(got):
        return math.isnan(wanted) and math.isnan(got)
    return math.isclose(wanted, got, rel_tol=rel_tol, abs_tol=abs_tol)


def _describe(expected: _Token, actual: _Token, expected_text: str, actual_text: str) -> str:
    expected_lines = expected_text.splitlines()
    expected_line, actual_line = expected_lines[expected.line - 1], actual_text.splitlines()[actual.line - 1]
    where = f"token {expected.index + 1}, line {expected.line}, column {expected.column}"
    dumps = (line for line in reversed(expected_lines[: expected.line]) if line.startswith("begin dump:"))
    dump = next(dumps, None)
    if dump is not None:  # PolyBench's dump format names the array being printed
        where += f", in array {dump.removeprefix('begin dump:').strip()!r}"
    if (actual.line, actual.column) != (expected.line, expected.column):
        where += f" (line {actual.line}, column {actual.column} in the actual output)"
    return (
        f"first difference at {where}: expected {expected.text!r}, got {actual.text!r}\n"
        f"  expected line: {expected_line.strip()[:300]}\n"
        f"  actual line:   {actual_line.strip()[:300]}"
    )


def first_difference(expected: str, actual: str, *, rel_tol: float | None = None, abs_tol: float = 0.0) -> str | None:
    """Describe where ``actual`` first differs from ``expected``, or return None if it does not.

    With ``rel_tol`` None the texts must be identical.  Otherwise they are compared token
    by token (whitespace-separated): two numeric tokens match when ``math.isclose`` with
    ``rel_tol``/``abs_tol`` says so (NaN matches NaN), any other token must be identical,
    and the token counts must agree.
    """
    if expected == actual:
        return None
    expected_tokens, actual_tokens = list(_tokens(expected)), list(_tokens(actual))
    differing = [
        (wanted, got)
        for wanted, got in zip(expected_tokens, actual_tokens, strict=False)
        if not _tokens_match(wanted.text, got.text, rel_tol, abs_tol)
    ]
    compared = min(len(expected_tokens), len(actual_tokens))
    counts = f"{len(expected_tokens)} tokens expected, {len(actual_tokens)} actual"
    if differing:
        tally = f"({len(differing)} of {compared} compared tokens differ; {counts})"
        return f"{_describe(*differing[0], expected, actual)}\n  {tally}"
    if len(expected_tokens) != len(actual_tokens):
        return f"the outputs agree on their first {compared} tokens, then one goes on ({counts})"
    if rel_tol is not None:
        return None
    pairs = enumerate(zip(expected, actual, strict=False))
    position = next((i for i, (a, b) in pairs if a != b), min(len(expected), len(actual)))
    return f"the tokens agree but the whitespace differs, first at character {position}"


def assert_same_output(
    expected: str, actual: str, *, rel_tol: float | None = None, abs_tol: float = 0.0, context: str = ""
) -> None:
    """Fail with ``first_difference``'s description (then ``context``) if the outputs differ."""
    difference = first_difference(expected, actual, rel_tol=rel_tol, abs_tol=abs_tol)
    if difference is not None:
        tolerance = "exactly" if rel_tol is None else f"within rel_tol={rel_tol:g}, abs_tol={abs_tol:g}"
        message = f"outputs differ (compared {tolerance}): {difference}"
        raise AssertionError(f"{message}\n{context}" if context else message)
