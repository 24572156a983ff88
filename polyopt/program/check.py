"""``polyopt check``: build a program original and optimized, run both, and compare what they print.

Public: ``DEFAULT_CFLAGS``, ``DEFAULT_RTOL``, ``THREADS``, ``Build``, ``build``, ``beside``, ``run_outputs``,
``outputs_difference``, ``find_utilities``, ``polybench_additions``, ``completed_layout``, ``CheckFailure``,
``optimize``, ``compared``, ``split_arguments``, ``program_build``, ``command``.  ``polyopt tune``
(``polyopt.program.tune``) builds, runs and compares through these.

``polyopt check FILE [EXTRA_SOURCES...] [-I DIR] [-D NAME[=VALUE]] [-U NAME] [--cc CC]
[--cflags '...'] [--optimized OUT.c] [--rtol R] [polyopt's flags...]`` optimizes FILE (or takes
``--optimized``), builds the original and the optimized program with ``CC CFLAGS -I/-D/-U`` and the
extra sources (``-lm``; ``-lopenblas`` when the optimized file includes ``cblas.h``), runs the
original once and the optimized one with each of ``THREADS`` OpenMP threads, and compares their
standard output and standard error (``outputs_difference``).  Exit 0 when they agree, 1 with the
first differing value otherwise (or when a build, a run or polyopt fails), 2 for a usage error.

In PolyBench's layout (FILE includes ``polybench.h``, a ``polybench.c`` is among the extra sources,
or a ``utilities/`` folder with ``polybench.h`` is found up the tree) ``polybench_additions`` adds
``-DPOLYBENCH_DUMP_ARRAYS`` (PolyBench then dumps the arrays on standard error), the utilities
include folder and ``utilities/polybench.c`` where they are not given, and says so.
"""

from __future__ import annotations

import re
import shlex
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import MappingProxyType

import click

from polyopt.command import PolyoptCommand, options_from_arguments
from polyopt.command import optimize as polyopt_command
from polyopt.pluto_flags import ignored_warning as ignored_pluto_warning
from polyopt.toolchain import CC, ToolchainError, compile_c, first_difference, run_polyopt, run_program

DEFAULT_CFLAGS = "-O2 -fopenmp"
DEFAULT_RTOL = 1e-6
THREADS = (1, 2)  # OMP_NUM_THREADS of the optimized program's runs
RUN_SECONDS = 3600.0
POLYOPT_SECONDS = 3600.0
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


_INCLUDES_POLYBENCH = re.compile(r'^\s*#\s*include\s*[<"]polybench\.h[>"]', re.MULTILINE)


def _include_dirs(cpp_flags: Sequence[str]) -> list[Path]:
    return [Path(flag[2:]) for flag in cpp_flags if flag.startswith("-I")]


def find_utilities(source: Path, extra_sources: Sequence[Path], cpp_flags: Sequence[str]) -> Path | None:
    """PolyBench's ``utilities`` folder for ``source``, or None when it is not in PolyBench's layout:
    the folder of a ``polybench.c`` among ``extra_sources``, else an ``-I`` folder with ``polybench.h``
    when ``source`` includes it, else the first ``utilities/`` with ``polybench.h`` up from ``source``."""
    given = [path for path in extra_sources if path.name == "polybench.c"]
    if given:
        return given[0].resolve().parent
    if _INCLUDES_POLYBENCH.search(source.read_text(errors="replace")):
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


def optimize(source: Path, output: Path, polyopt_flags: Sequence[str]) -> str:
    """Run ``polyopt polyopt_flags source -o output``; its standard error (warnings), or ``CheckFailure``."""
    try:
        done = run_polyopt([*polyopt_flags, str(source), "-o", str(output)], timeout=POLYOPT_SECONDS)
    except ToolchainError as error:
        raise CheckFailure(str(error)) from None
    if done.returncode != 0:
        raise CheckFailure(f"polyopt exited with {done.returncode}:\n{done.stderr}")
    return done.stderr


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


@click.command(
    cls=PolyoptCommand,  # polyopt's reading of -I/-D/-U, --report and Pluto's flags
    context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True},
)
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="FILE [EXTRA_SOURCES]... [POLYOPT_FLAGS]...")
@click.option(
    "-I",
    "include_dirs",
    multiple=True,
    metavar="DIR",
    help="Include folder, for polyopt and the compiler (may repeat).",
)
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro, as -I (may repeat).")
@click.option("-U", "undefines", multiple=True, metavar="NAME", help="Undefine a macro, as -I (may repeat).")
@click.option("--cc", default=CC, show_default=True, help="The C compiler.")
@click.option("--cflags", default=DEFAULT_CFLAGS, show_default=True, help="The compiler's flags, for both programs.")
@click.option(
    "--optimized",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    metavar="OUT.c",
    help="Check this output of an earlier polyopt run instead of optimizing FILE now.",
)
@click.option(
    "--rtol",
    type=click.FloatRange(min=0.0),
    default=DEFAULT_RTOL,
    show_default=True,
    metavar="R",
    help="Relative tolerance for floating-point values (also the absolute floor near zero); integers must be equal.",
)
@click.pass_context
def command(
    ctx: click.Context,
    arguments: tuple[str, ...],
    cpp_flags: tuple[str, ...],
    ignored_pluto_flags: tuple[str, ...],
    cc: str,
    cflags: str,
    optimized: Path | None,
    rtol: float,
) -> None:
    """Check polyopt on FILE: build it original and optimized with the same compiler, flags and
    EXTRA_SOURCES, run both (the optimized one with 1 and 2 OpenMP threads) and compare what
    they print on standard output and standard error.  polyopt's own flags may follow; -I, -D
    and -U go to polyopt and to the compiler.

    Numbers are compared as printed: integers exactly, floating-point values within the
    relative tolerance --rtol (the same number is the absolute floor for values near zero)
    plus one unit in the last printed digit.  In PolyBench's layout -DPOLYBENCH_DUMP_ARRAYS,
    -I utilities and utilities/polybench.c are added where not given.

    Exit status: 0 when the outputs agree, 1 when they differ (with the first differing value)
    or polyopt, a build or a run fails, 2 for a usage error.
    """
    paths, flags = split_arguments(arguments, ctx)
    if any(flag in ("-o", "--output") or flag.startswith(("-o", "--output=")) for flag in flags):
        raise click.UsageError("polyopt check writes no output file; --optimized OUT.c checks an earlier one", ctx=ctx)
    if optimized is not None and flags:
        raise click.UsageError(f"polyopt's flags ({' '.join(flags)}) have no effect with --optimized", ctx=ctx)
    try:
        options_from_arguments(flags)
    except click.UsageError as error:
        raise click.UsageError(f"polyopt's flags: {error.message}", ctx=ctx) from None
    source = paths[0]
    how = program_build("check", paths, cpp_flags, cc, cflags, ignored_pluto_flags)
    cpp_flags = how.cpp_flags
    with tempfile.TemporaryDirectory(prefix="polyopt-check-") as tmp:
        folder = Path(tmp)
        try:
            if optimized is None:
                optimized = folder / f"{source.stem}.polyopt.c"
                click.echo(optimize(source, optimized, [*flags, *cpp_flags]), err=True, nl=False)
            summary = compared(source, optimized, how, rtol, folder)
        except CheckFailure as failure:
            click.echo(f"polyopt check: {source}: FAILED: {failure}", err=True)
            sys.exit(1)
    click.echo(f"polyopt check: {source}: {summary}")
