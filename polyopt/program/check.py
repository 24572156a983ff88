"""``polyopt check``: build a program original and optimized, run both, and compare what they print.

Public: ``optimize``, ``command``.

``polyopt check FILE [EXTRA_SOURCES...] [-I DIR] [-D NAME[=VALUE]] [-U NAME] [--cc CC]
[--cflags '...'] [--optimized OUT.c] [--rtol R] [polyopt's flags...]`` optimizes FILE (or takes
``--optimized``), then builds, runs and compares the original and the optimized program through the harness
(``polyopt.program.harness``), in PolyBench's layout with its additions.  Exit 0 when they agree, 1 with the
first differing value otherwise (or when a build, a run or polyopt fails), 2 for a usage error.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import click

from polyopt.command import PolyoptCommand, options_from_arguments
from polyopt.program.harness import (
    DEFAULT_CFLAGS,
    DEFAULT_RTOL,
    CheckFailure,
    compared,
    program_build,
    split_arguments,
)
from polyopt.toolchain import CC, ToolchainError, run_polyopt

POLYOPT_SECONDS = 3600.0


def optimize(source: Path, output: Path, polyopt_flags: Sequence[str]) -> str:
    """Run ``polyopt polyopt_flags source -o output``; its standard error (warnings), or ``CheckFailure``."""
    try:
        done = run_polyopt([*polyopt_flags, str(source), "-o", str(output)], timeout=POLYOPT_SECONDS)
    except ToolchainError as error:
        raise CheckFailure(str(error)) from None
    if done.returncode != 0:
        raise CheckFailure(f"polyopt exited with {done.returncode}:\n{done.stderr}")
    return done.stderr


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
