"""Shared helpers for polyopt's tests: build and run C programs, run the CLI, compare outputs.

Public:

- ``EXAMPLES``: the example suite's folder (kernels and ``polybench_lite.h``).
- ``compile_c(source, *, defines, flags, include_dirs, out_dir)``: build a C file (with ``-Wall`` and
  ``-Werror=implicit-function-declaration``), return the binary.
- ``compile_original(source, *, defines, flags)``: ``compile_c`` cached per session by
  (source path and text, defines, flags), for the unoptimized programs that several tests share.
- ``run_binary(binary, *, threads, timeout)``: run a program with ``OMP_NUM_THREADS`` set.
- ``run_polyopt(source, flags, *, output, cwd, timeout)``: run the command line (``python -m polyopt``).
- ``first_difference(expected, actual, *, rel_tol, abs_tol)``: where two program outputs differ, or None
  (``polyopt.toolchain``'s, which also builds and runs the programs behind these wrappers).
- ``assert_same_output(expected, actual, *, rel_tol, abs_tol, context)``: assert they do not differ.
- ``needs_gcc``: a mark that skips a test where gcc is not installed.
- ``working_copy(files, folder, monkeypatch)``: copy a fixture tree or files into ``folder`` and make it
  the current folder.

Failures raise ``AssertionError`` with the command, its standard error and, for outputs,
the first differing token and its position, so that a failing test explains itself.
"""

from __future__ import annotations

import atexit
import functools
import hashlib
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from polyopt import toolchain
from polyopt.toolchain import first_difference

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

needs_gcc = pytest.mark.skipif(shutil.which(toolchain.CC) is None, reason="gcc is not installed")


def working_copy(files: Path | Sequence[Path], folder: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture tree ``files`` (a folder) or of the files ``files`` in ``folder``, made the
    current folder; returns the copied tree, or the first copied file."""
    if isinstance(files, Path):
        copy = folder / files.name
        shutil.copytree(files, copy)
    else:
        for file in files:
            shutil.copy(file, folder / file.name)
        copy = folder / files[0].name
    monkeypatch.chdir(folder if not isinstance(files, Path) else copy)
    return copy


__all__ = [
    "EXAMPLES",
    "assert_same_output",
    "needs_gcc",
    "working_copy",
    "compile_c",
    "compile_original",
    "first_difference",
    "run_binary",
    "run_polyopt",
]

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


def compile_c(
    source: Path | str,
    *,
    defines: Sequence[str] = (),
    flags: Sequence[str] = (),
    include_dirs: Sequence[Path | str] = (EXAMPLES,),
    out_dir: Path | str | None = None,
) -> Path:
    """Compile ``source`` with ``gcc``, each of ``defines`` as ``-D``, and return the binary.

    ``defines`` are ``NAME`` or ``NAME=VALUE``; ``flags`` go to gcc after ``toolchain.CHECK_FLAGS``
    (``-Wall``, and a call to an undeclared function is an error); ``-lm`` is always linked.
    The binary is named after the source and placed in ``out_dir``, or in a fresh temporary
    folder when it is None.
    """
    source = Path(source)
    folder = Path(out_dir) if out_dir is not None else _session_dir(f"{source.stem}-")
    try:
        return toolchain.compile_c(
            source,
            folder / source.stem,
            flags=[*toolchain.CHECK_FLAGS, *flags],
            include_dirs=include_dirs,
            defines=defines,
        )
    except toolchain.ToolchainError as error:
        raise AssertionError(str(error)) from None


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
    try:
        return toolchain.run_program(binary, threads=threads, timeout=timeout)
    except toolchain.ToolchainError as error:
        raise AssertionError(str(error)) from None


def run_polyopt(
    source: Path | str,
    flags: Sequence[str] = (),
    *,
    output: Path | str | None = None,
    cwd: Path | str | None = None,
    timeout: float = 120.0,
) -> subprocess.CompletedProcess[str]:
    """Run ``python -m polyopt [flags] source [-o output]`` (this very package, in a new process)
    and return the finished process, whatever its exit.

    With ``output`` None no ``-o`` is added, so polyopt's default applies (``flags`` may hold one).
    """
    arguments = [*flags, str(source)] + (["-o", str(output)] if output is not None else [])
    try:
        return toolchain.run_polyopt(arguments, cwd=cwd, timeout=timeout)
    except toolchain.ToolchainError as error:
        raise AssertionError(str(error)) from None


def assert_same_output(
    expected: str, actual: str, *, rel_tol: float | None = None, abs_tol: float = 0.0, context: str = ""
) -> None:
    """Fail with ``first_difference``'s description (then ``context``) if the outputs differ."""
    difference = first_difference(expected, actual, rel_tol=rel_tol, abs_tol=abs_tol)
    if difference is not None:
        tolerance = "exactly" if rel_tol is None else f"within rel_tol={rel_tol:g}, abs_tol={abs_tol:g}"
        message = f"outputs differ (compared {tolerance}): {difference}"
        raise AssertionError(f"{message}\n{context}" if context else message)
