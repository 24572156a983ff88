"""The harness of ``polyopt check`` and ``polyopt tune``: a program built with the user's compiler and flags, run,
and its outputs compared with the original's.

Public: ``DEFAULT_CFLAGS``, ``DEFAULT_RTOL``, ``THREADS``, ``DUMP_DEFINE``, ``Build``, ``build``, ``beside``,
``run_outputs``, ``outputs_difference``, ``find_utilities``, ``polybench_additions``, ``completed_layout``,
``CheckFailure``, ``compared``, ``split_arguments``, ``program_build``.

A program is built with ``CC CFLAGS -I/-D/-U`` and the extra sources (``-lm``; ``-lopenblas`` when the source
includes ``cblas.h``); the original runs once, a rewritten program with each of ``THREADS`` OpenMP threads, and
their standard output and standard error are compared (``outputs_difference``).

In PolyBench's layout (FILE includes ``polybench.h``, a ``polybench.c`` is among the extra sources,
or a ``utilities/`` folder with ``polybench.h`` is found up the tree) ``polybench_additions`` adds
``-DPOLYBENCH_DUMP_ARRAYS`` (PolyBench then dumps the arrays on standard error), the utilities
include folder and ``utilities/polybench.c`` where they are not given, and says so.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import click

from polyopt.cli.pluto_flags import ignored_warning as ignored_pluto_warning
from polyopt.command import optimize as polyopt_command
from polyopt.frontend.lexing import includes
from polyopt.toolchain import CC, ToolchainError, compile_c, first_difference, run_program

DEFAULT_CFLAGS = "-O2 -fopenmp"
DEFAULT_RTOL = 1e-6
THREADS = (1, 2)  # OMP_NUM_THREADS of the optimized program's runs
RUN_SECONDS = 3600.0
DUMP_DEFINE = "POLYBENCH_DUMP_ARRAYS"
STREAMS = ("standard output", "standard error")


@dataclass(frozen=True)
class Build:
    """How a program is built: the compiler, its flags, the preprocessor flags (``-I``/``-D``/``-U``
    in joined form, in command-line order) and the sources linked with the main one."""

    cc: str = CC
    cflags: tuple[str, ...] = ()
    cpp_flags: tuple[str, ...] = ()
    extra_sources: tuple[Path, ...] = ()


def build(source: Path, binary: Path, how: Build) -> Path:
    """Build ``source`` with ``how``'s extra sources into ``binary``; ``ToolchainError`` when the compiler fails."""
    return compile_c([source, *how.extra_sources], binary, flags=[*how.cflags, *how.cpp_flags], cc=how.cc)


def beside(how: Build, source: Path) -> Build:
    """``how`` for a rewritten ``source`` written elsewhere: its ``"...h"`` includes are searched beside ``source``."""
    return replace(how, cflags=(*how.cflags, "-iquote", str(source.resolve().parent)))


def run_outputs(binary: Path, threads: int, environment: Mapping[str, str] = MappingProxyType({})) -> tuple[str, str]:
    """What ``binary`` prints (standard output, standard error) with ``OMP_NUM_THREADS=threads`` (and
    ``environment``)."""
    done = run_program(binary, threads=threads, timeout=RUN_SECONDS, environment=environment)
    return done.stdout, done.stderr


def outputs_difference(
    expected: tuple[str, str], actual: tuple[str, str], rtol: float, name: str = "optimized"
) -> str | None:
    """Where the ``name`` program's (standard output, standard error) first differs from the original's,
    or None: integers exactly, other numbers within the relative tolerance ``rtol`` (also the absolute
    floor near zero) and one unit in their last printed digit (``toolchain.first_difference``)."""
    for stream, wanted, got in zip(STREAMS, expected, actual, strict=True):
        difference = first_difference(wanted, got, rel_tol=rtol, names=("original", name))
        if difference is not None:
            return f"{stream}: {difference}"
    return None


def _include_dirs(cpp_flags: Sequence[str]) -> list[Path]:
    return [Path(flag[2:]) for flag in cpp_flags if flag.startswith("-I")]


def find_utilities(source: Path, extra_sources: Sequence[Path], cpp_flags: Sequence[str]) -> Path | None:
    """PolyBench's ``utilities`` folder for ``source``, or None when it is not in PolyBench's layout:
    the folder of a ``polybench.c`` among ``extra_sources``, else an ``-I`` folder with ``polybench.h``
    when ``source`` includes it, else the first ``utilities/`` with ``polybench.h`` up from ``source``."""
    given = [path for path in extra_sources if path.name == "polybench.c"]
    if given:
        return given[0].resolve().parent
    if "polybench.h" in includes(source.read_text(errors="replace")):
        for folder in _include_dirs(cpp_flags):
            if (folder / "polybench.h").is_file():
                return folder.resolve()
    for folder in source.resolve().parents:
        if (folder / "utilities" / "polybench.h").is_file():
            return folder / "utilities"
    return None


def polybench_additions(
    utilities: Path, cpp_flags: Sequence[str], extra_sources: Sequence[Path]
) -> tuple[tuple[str, ...], tuple[Path, ...]]:
    """What PolyBench's layout adds to the preprocessor flags and the extra sources where they are not
    given: ``-DPOLYBENCH_DUMP_ARRAYS``, ``-I utilities`` and ``utilities/polybench.c``."""
    flags: list[str] = []
    if not any(flag == f"-D{DUMP_DEFINE}" or flag.startswith(f"-D{DUMP_DEFINE}=") for flag in cpp_flags):
        flags.append(f"-D{DUMP_DEFINE}")
    if all(folder.resolve() != utilities for folder in _include_dirs(cpp_flags)):
        flags.append(f"-I{utilities}")
    sources = () if any(path.name == "polybench.c" for path in extra_sources) else (utilities / "polybench.c",)
    return tuple(flags), sources


def completed_layout(
    source: Path, extra_sources: tuple[Path, ...], cpp_flags: tuple[str, ...]
) -> tuple[tuple[str, ...], tuple[Path, ...], str | None]:
    """The preprocessor flags and extra sources with ``polybench_additions`` when ``source`` is in PolyBench's
    layout, and a note saying what was added (None when nothing was)."""
    utilities = find_utilities(source, extra_sources, cpp_flags)
    if utilities is None:
        return cpp_flags, extra_sources, None
    added_flags, added_sources = polybench_additions(utilities, cpp_flags, extra_sources)
    if not added_flags and not added_sources:
        return cpp_flags, extra_sources, None
    added = " ".join([*added_flags, *map(str, added_sources)])
    note = f"PolyBench layout (utilities in {utilities}): adding {added}"
    return (*cpp_flags, *added_flags), (*extra_sources, *added_sources), note


class CheckFailure(Exception):
    """The check did not pass: polyopt, a build or a run failed, or the outputs differ."""


def compared(source: Path, optimized: Path, how: Build, rtol: float, folder: Path) -> str:
    """Build and run both programs (in ``folder``); a summary when their outputs agree, else ``CheckFailure``."""
    try:
        original = build(source, folder / "original", how)
        optimized_binary = build(optimized, folder / "optimized", beside(how, source))
        expected = run_outputs(original, threads=1)
        for threads in THREADS:
            difference = outputs_difference(expected, run_outputs(optimized_binary, threads), rtol)
            if difference is not None:
                raise CheckFailure(f"outputs differ with OMP_NUM_THREADS={threads}, {difference}")
    except ToolchainError as error:
        raise CheckFailure(str(error)) from None
    counts = ", ".join(
        f"{len(text.split())} tokens on {stream}" for stream, text in zip(STREAMS, expected, strict=True)
    )
    return f"outputs agree ({counts}; OMP_NUM_THREADS={', '.join(map(str, THREADS))}; relative tolerance {rtol:g})"


def _takes_value() -> frozenset[str]:
    """The spellings of polyopt's options that take a value (``--tile-sizes 3,5``)."""
    options = (param for param in polyopt_command.params if isinstance(param, click.Option) and not param.is_flag)
    return frozenset(name for option in options for name in option.opts)


def split_arguments(arguments: Sequence[str], ctx: click.Context) -> tuple[list[Path], list[str]]:
    """The files (FILE first) and polyopt's own flags (with their values) among ``arguments``; a usage
    error without FILE or for a file that does not exist."""
    takes_value = _takes_value()
    files: list[str] = []
    flags: list[str] = []
    value_next = False
    for argument in arguments:
        if value_next or (argument.startswith("-") and argument != "-"):
            flags.append(argument)
            value_next = not value_next and argument in takes_value
        else:
            files.append(argument)
    if not files:
        raise click.UsageError("missing FILE", ctx=ctx)
    paths = [Path(name) for name in files]
    for path in paths:
        if not path.is_file():
            raise click.UsageError(f"no such file: '{path}'", ctx=ctx)
    return paths, flags


def program_build(
    command: str, paths: Sequence[Path], cpp_flags: tuple[str, ...], cc: str, cflags: str, ignored: Sequence[str]
) -> Build:
    """How ``polyopt COMMAND`` builds the program of ``paths`` (FILE first): the compiler's flags completed for
    PolyBench's layout (``completed_layout``); says so, and warns of the ``ignored`` Pluto flags."""
    if ignored:
        click.echo(ignored_pluto_warning(ignored), err=True)
    cpp_flags, extra_sources, note = completed_layout(paths[0], tuple(paths[1:]), cpp_flags)
    if note is not None:
        click.echo(f"polyopt {command}: {note}", err=True)
    return Build(cc=cc, cflags=tuple(shlex.split(cflags)), cpp_flags=cpp_flags, extra_sources=extra_sources)
