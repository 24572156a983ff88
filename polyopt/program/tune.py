"""``polyopt tune``: the fastest correct code of each region, measured on the user's own program.

Public: ``CACHE_VERSION``, ``TuneKey``, ``region_variants``, ``tuned``, ``tune_key``, ``command``.

``polyopt tune FILE [EXTRA_SOURCES...] [-o OUT] [-I/-D/-U] [--cc CC] [--cflags '...'] [--runs N] [--threads T]
[--rtol R] [--no-cache] [--report] [polyopt's flags...]`` optimizes FILE once per alternative
(``tune_plan.ALTERNATIVES``), builds with the harness it shares with ``polyopt check`` (``polyopt.program.harness``)
one program per variant index with a timer around every region (``tune_plan.instrumented``), checks each program's
output against the original's as ``polyopt check`` does (a wrong variant is rejected), times the programs
interleaved (``polyopt.program.tune_measure``), keeps per region the fastest correct variant (the code as written
unless another is faster by more than ``tune_plan.MARGIN``), checks the composed file once more and writes it.  The
result is cached per user as the probe's is (``polyopt.measure.probe_cache``), keyed by the preprocessed FILE, the
extra sources, the flags, the compiler and the machine.  Exit 0 when the output is written, 1 when polyopt, a build
or a run of the original fails or the composed program's output differs, 2 for a usage error.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import click

from polyopt import __version__
from polyopt.command import PolyoptCommand, output_path, prepared, write_atomically
from polyopt.diagnostics import PolyoptError
from polyopt.driver import optimize_text
from polyopt.frontend.read import file_regions
from polyopt.measure.probe_cache import CacheKey, cache_folder, computed_once, cpu_identity, write_json
from polyopt.program.harness import (
    DEFAULT_CFLAGS,
    DEFAULT_RTOL,
    CheckFailure,
    compared,
    program_build,
    split_arguments,
)
from polyopt.program.tune_measure import DEFAULT_RUNS, Settings, TuneFailure, measure
from polyopt.program.tune_plan import (
    ALTERNATIVES,
    Alternative,
    RegionVariants,
    TuneResult,
    composed,
    describe,
    seconds_text,
    variants_of,
)
from polyopt.toolchain import CC

CACHE_VERSION = 1
PREPROCESS_SECONDS = 60.0


def region_variants(
    text: str, filename: str, arguments: Sequence[str], alternatives: Sequence[Alternative] = ALTERNATIVES
) -> tuple[tuple[RegionVariants, ...], tuple[str, ...]]:
    """Each region's variants (``tune_plan.variants_of``): ``text`` optimized in this process with polyopt's
    ``arguments`` (flags only) and each alternative's flags, leaving out the alternatives that contradict
    ``arguments``; and the warnings of the first alternative's run (polyopt's default)."""
    outcomes = []
    warnings: tuple[str, ...] = ()
    for alternative in alternatives:
        try:
            options, probe = prepared([*arguments, *alternative.flags])
        except click.UsageError:
            continue
        try:
            outcome = optimize_text(text, filename, options, probe)
        except PolyoptError as error:
            raise TuneFailure(str(error)) from None
        if not outcomes:
            warnings = outcome.warnings
        outcomes.append((alternative.name, outcome.regions))
    return variants_of(file_regions(text, filename), outcomes), warnings


def tuned(
    source: Path, arguments: Sequence[str], settings: Settings, alternatives: Sequence[Alternative] = ALTERNATIVES
) -> tuple[TuneResult, str, tuple[str, ...]]:
    """``source`` tuned (``region_variants``, ``measure``): the result, the composed text, checked as ``polyopt
    check`` checks an output, and polyopt's warnings."""
    text = source.read_bytes().decode("utf-8", errors="surrogateescape")
    variants, warnings = region_variants(text, str(source), arguments, alternatives)
    result = measure(source, text, variants, settings)
    output = composed(text, variants, result)
    with tempfile.TemporaryDirectory(prefix="polyopt-tune-") as name:
        folder = Path(name)
        written = folder / source.name
        written.write_text(output, encoding="utf-8", errors="surrogateescape")
        try:
            compared(source, written, settings.how, settings.rtol, folder)
        except CheckFailure as failure:
            raise TuneFailure(f"the composed program: {failure}") from None
    return result, output, warnings


@dataclass(frozen=True)
class TuneKey(CacheKey):
    """What a tuning result depends on: the preprocessed FILE's hash (its text's when the preprocessor fails),
    the extra sources' hashes, polyopt's flags, the build (compiler, its version line, flags), the timing
    settings, the alternatives, the CPU (model, a hash of its flags) and cores, and polyopt's version."""

    source: str
    extra_sources: tuple[str, ...]
    polyopt_flags: tuple[str, ...]
    cc: str
    compiler: str
    cflags: tuple[str, ...]
    cpp_flags: tuple[str, ...]
    runs: int
    threads: int
    rtol: float
    margin: float
    alternatives: tuple[str, ...]
    cpu: str
    cpu_flags: str
    cores: int
    polyopt: str = __version__
    version: int = CACHE_VERSION


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _command_output(command: Sequence[str]) -> bytes | None:
    """What ``command`` prints, None when it fails."""
    try:
        done = subprocess.run(command, capture_output=True, timeout=PREPROCESS_SECONDS)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return done.stdout if done.returncode == 0 else None


def tune_key(
    source: Path, arguments: Sequence[str], settings: Settings, cores: int, alternatives: Sequence[Alternative]
) -> TuneKey:
    """The cache key of tuning ``source`` with polyopt's ``arguments`` and ``settings`` on this machine."""
    how = settings.how
    preprocessed = _command_output([how.cc, *how.cflags, *how.cpp_flags, "-E", str(source)])
    version = _command_output([how.cc, "--version"]) or b""
    return TuneKey(
        _digest(preprocessed if preprocessed is not None else source.read_bytes()),
        tuple(_digest(path.read_bytes()) for path in how.extra_sources),
        tuple(arguments),
        how.cc,
        version.decode(errors="replace").partition("\n")[0],
        how.cflags,
        how.cpp_flags,
        settings.runs,
        settings.threads,
        settings.rtol,
        settings.margin,
        tuple(alternative.name for alternative in alternatives),
        *cpu_identity(),
        cores,
    )


def _load(path: Path, key: TuneKey) -> tuple[TuneResult, str] | None:
    """The result and composed text cached in ``path`` for ``key``; None when absent, of another key or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != json.loads(json.dumps(dataclasses.asdict(key))):
            return None
        return TuneResult.from_json(data["result"]), str(data["text"])
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def _store(path: Path, key: TuneKey, found: tuple[TuneResult, str], seconds: float) -> None:
    result, text = found
    write_json(
        path, {"key": dataclasses.asdict(key), "seconds": round(seconds, 3), "result": result.to_json(), "text": text}
    )


def _cached(
    path: Path, key: TuneKey, reuse: bool, compute: Callable[[], tuple[TuneResult, str]]
) -> tuple[tuple[TuneResult, str], str]:
    """The result of ``key`` cached in ``path`` (when ``reuse``), else ``compute``'s, cached there; and what
    happened."""
    return computed_once(
        path,
        (lambda: _load(path, key)) if reuse else (lambda: None),
        compute,
        lambda found, seconds: _store(path, key, found, seconds),
    )


def _closing(result: TuneResult) -> list[str]:
    """One line per region: the chosen variant and its median time against the code as written's."""
    lines = []
    for region in result.regions:
        chosen, written = region.variants[region.chosen], region.variants[0]
        times = f"{seconds_text(chosen.median)}" if chosen.median is not None else "not run"
        if region.chosen != 0 and written.median is not None:
            times += f", as written {seconds_text(written.median)}"
        lines.append(f"region {region.index} (line {region.line}): {', '.join(chosen.names)} ({times})")
    return lines


@click.command(
    cls=PolyoptCommand,  # polyopt's reading of -I/-D/-U, --report and Pluto's flags
    context_settings={"help_option_names": ["-h", "--help"], "ignore_unknown_options": True},
)
@click.argument("arguments", nargs=-1, type=click.UNPROCESSED, metavar="FILE [EXTRA_SOURCES]... [POLYOPT_FLAGS]...")
@click.option("-o", "--output", metavar="OUT", help="Output file ('-': standard output); default FILE.polyopt.c.")
@click.option("-I", "include_dirs", multiple=True, metavar="DIR", help="Include folder, for polyopt and the compiler.")
@click.option("-D", "defines", multiple=True, metavar="NAME[=VALUE]", help="Define a macro, as -I (may repeat).")
@click.option("-U", "undefines", multiple=True, metavar="NAME", help="Undefine a macro, as -I (may repeat).")
@click.option("--cc", default=CC, show_default=True, help="The C compiler.")
@click.option("--cflags", default=DEFAULT_CFLAGS, show_default=True, help="The compiler's flags, for every program.")
@click.option("--runs", type=click.IntRange(min=1), default=DEFAULT_RUNS, show_default=True, help="Timed runs.")
@click.option("--threads", type=click.IntRange(min=1), help="OMP_NUM_THREADS of the timed runs; default the cores.")
@click.option(
    "--rtol",
    type=click.FloatRange(min=0.0),
    default=DEFAULT_RTOL,
    show_default=True,
    metavar="R",
    help="Relative tolerance for floating-point values, as polyopt check's.",
)
@click.option("--no-cache", is_flag=True, help="Measure again, even when the cache holds a result for these inputs.")
@click.option(
    "--report",
    type=click.Choice(("text", "json")),
    is_flag=False,
    flag_value="text",
    help="Print each region's variants with their median times and the choice (--report=json: as JSON).",
)
@click.pass_context
def command(
    ctx: click.Context,
    arguments: tuple[str, ...],
    output: str | None,
    cpp_flags: tuple[str, ...],
    ignored_pluto_flags: tuple[str, ...],
    cc: str,
    cflags: str,
    runs: int,
    threads: int | None,
    rtol: float,
    no_cache: bool,
    report: str | None,
) -> None:
    """Tune polyopt on FILE with the user's own program: optimize each region in a few ways (polyopt's
    default, --fuse=none, --notile, --noparallel, --blas=none), build one program per variant with a timer
    around every region, check each program's output against the original's as polyopt check does, time
    them interleaved, and write FILE with the fastest correct code of each region (the code as written
    unless another variant is faster by more than 3%).  polyopt's own flags may follow; -I, -D and -U go
    to polyopt and to the compiler.

    The result is cached per user (as the probe's) by the preprocessed FILE, the extra sources, the flags,
    the compiler and the machine: a second run with the same inputs writes the cached output.

    Exit status: 0 when the output is written, 1 when polyopt, a build or a run of the original fails or
    the composed program prints other output, 2 for a usage error.
    """
    paths, flags = split_arguments(arguments, ctx)
    try:
        options, _ = prepared([*flags, *cpp_flags])
    except click.UsageError as error:
        raise click.UsageError(f"polyopt's flags: {error.message}", ctx=ctx) from None
    source = paths[0]
    how = program_build("tune", paths, cpp_flags, cc, cflags, ignored_pluto_flags)
    cpp_flags = how.cpp_flags
    settings = Settings(how, runs, threads or options.machine.cores, rtol)
    arguments_used = (*flags, *cpp_flags)
    try:
        target = output_path(source, output)
        key = tune_key(source, arguments_used, settings, options.machine.cores, ALTERNATIVES)
        path = cache_folder() / f"tune-{key.digest()}.json"
        warnings: tuple[str, ...] = ()

        def compute() -> tuple[TuneResult, str]:
            nonlocal warnings
            result, text, warnings = tuned(source, arguments_used, settings)
            return result, text

        (result, text), what = _cached(path, key, not no_cache, compute)
        if target is None:
            sys.stdout.buffer.write(text.encode("utf-8", errors="surrogateescape"))
            sys.stdout.flush()
        else:
            write_atomically(target, text)
    except (TuneFailure, PolyoptError, OSError) as failure:
        click.echo(f"polyopt tune: {source}: FAILED: {failure}", err=True)
        sys.exit(1)
    for warning in warnings:
        click.echo(warning, err=True)
    if report == "json":
        click.echo(json.dumps({"source": str(source), "cache": what, **result.to_json()}, indent=1), err=True)
    elif report == "text":
        for line in [f"polyopt tune: {source}: {what}", *describe(result)]:
            click.echo(line, err=True)
    written = "standard output" if target is None else str(target)
    for line in [f"polyopt tune: {source}: wrote {written} ({what})", *_closing(result)]:
        click.echo(line, err=True)
