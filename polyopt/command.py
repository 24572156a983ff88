"""``polyopt FILE``: the optimizing command, and the pieces of it that ``polyopt check`` and ``polyopt tune``
(``polyopt.program``) share.

Public: ``PolyoptCommand``, ``optimize``, ``options_from_arguments``, ``prepared``, ``output_path``,
``write_atomically``.  Exit codes: 0 success (warnings allowed), 1 an error in the input or output (nothing is
written), 2 a usage error.  The options are made from the table ``polyopt.cli.flags.FLAGS``.  ``polyopt.__main__``
runs this command for every command line but ``polyopt check ...`` and ``polyopt tune ...``.
"""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import click

from polyopt import __version__
from polyopt.cli.flag_spec import REPORT_CHOICES, click_settings
from polyopt.cli.flags import FLAGS
from polyopt.cli.pluto_flags import ignored_warning, without_pluto_flags
from polyopt.diagnostics import EXIT_ERROR, InputError, OutputError, PolyoptError
from polyopt.driver import FileOutcome, optimize_text
from polyopt.machine import KEYS, Machine, detect, load_target, target_settings, with_overrides
from polyopt.measure.probe import RunProbe
from polyopt.options import (
    DEFAULT_FUSION,
    Options,
    TilingOptions,
    parse_fusion_candidates,
    parse_tile_rules,
    parse_tile_sizes,
)
from polyopt.report import RegionSummary, format_report, report_json


def _read(path: Path) -> str:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise InputError(f"no such file: '{path}'") from None
    except IsADirectoryError:
        raise InputError(f"'{path}' is a directory, not a C file") from None
    except OSError as error:
        raise InputError(f"cannot read '{path}': {error.strerror}") from None
    return data.decode("utf-8", errors="surrogateescape")


def output_path(source: Path, output: str | None) -> Path | None:
    """Where to write; None means standard output."""
    if output == "-":
        return None
    target = Path(output) if output is not None else source.with_suffix(".polyopt" + (source.suffix or ".c"))
    if target.exists() and source.exists() and target.resolve() == source.resolve():
        raise OutputError(f"output file '{target}' is the input file; choose another name with -o")
    return target


def write_atomically(target: Path, text: str) -> None:
    """Write via a temporary file in the same folder and rename it over ``target``."""
    data = text.encode("utf-8", errors="surrogateescape")
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise OutputError(f"cannot write '{target}': {error.strerror}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        if target.exists():
            os.chmod(temporary, target.stat().st_mode & 0o777)
        else:
            os.chmod(temporary, 0o666 & ~_umask())
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise OutputError(f"cannot write '{target}': {error.strerror}") from None


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _machine(flags: dict[str, Any]) -> Machine:
    """The machine of ``--target`` (detected without it), with the flags that set one number applied."""
    machine = load_target(flags["target"]) if flags["target"] is not None else detect()
    return with_overrides(machine, **{key.field: flags[key.field] for key in KEYS if key.flag is not None})


def _given_levels(flags: dict[str, Any]) -> frozenset[int]:
    """The BLAS levels (3, 2) whose threshold the target file or a flag sets."""
    given = set(target_settings(flags["target"])) if flags["target"] is not None else set()
    given |= {name for name in ("blas3_threshold", "blas2_threshold") if flags[name] is not None}
    return frozenset(level for level, name in ((3, "blas3_threshold"), (2, "blas2_threshold")) if name in given)


def _usage_message(error: PolyoptError) -> str:
    return f"{error.location}: {error.message}" if error.location is not None else error.message


# the preprocessor's flags: click's parameter name, and the flag (also the joined form's prefix)
_CPP_FLAGS = {"include_dirs": "-I", "defines": "-D", "undefines": "-U"}

# Pluto's fusion flags and the --fuse policy each one is
_PLUTO_FUSION = {"smartfuse": "smart", "maxfuse": "max", "nofuse": "none"}
# flags that cannot be given together (click's parameter names)
_CONFLICTS = (("tile", "notile"), ("parallel", "noparallel"), ("tile", "identity"), ("parallel", "identity"))
# Pluto's file of tile sizes, read from the current folder when present (as polycc does)
PLUTO_TILE_SIZES = "tile.sizes"


def _report_value(args: list[str]) -> list[str]:
    """``args`` with a ``--report`` that is not followed by its value written ``--report=text``, so
    that the argument after it stays an argument (``--report gemm.c``)."""
    written: list[str] = []
    for position, arg in enumerate(args):
        if arg == "--":
            return written + args[position:]
        following = args[position + 1] if position + 1 < len(args) else None
        written.append("--report=text" if arg == "--report" and following not in REPORT_CHOICES else arg)
    return written


class PolyoptCommand(click.Command):
    """polyopt's command: ``-I``, ``-D`` and ``-U`` become one parameter, ``cpp_flags``, in the
    order of the command line (the order in which the preprocessor applies them)."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        args, ignored = without_pluto_flags(ctx, _report_value(args))
        values, _, order = self.make_parser(ctx).parse_args(args=list(args))
        remaining = {name: iter(values.get(name, ())) for name in _CPP_FLAGS}
        ordered = tuple(
            _CPP_FLAGS[param.name] + next(remaining[param.name]) for param in order if param.name in _CPP_FLAGS
        )
        rest = super().parse_args(ctx, args)
        for name in _CPP_FLAGS:
            ctx.params.pop(name, None)
        ctx.params["cpp_flags"] = ordered
        ctx.params["ignored_pluto_flags"] = ignored
        return rest


def _conflict(first: str, second: str) -> click.UsageError:
    return click.UsageError(f"'{first}' and '{second}' cannot be given together")


def _conflicts(flags: dict[str, Any]) -> None:
    """A usage error for two flags that ask for opposite things (Pluto's spellings included)."""
    for first, second in _CONFLICTS:
        if flags[first] and flags[second]:
            raise _conflict(f"--{first}", f"--{second}")


def _fusion(flags: dict[str, Any]) -> str:
    """The fusion policy of ``--fuse`` or Pluto's ``--smartfuse``, ``--maxfuse``, ``--nofuse``;
    a usage error when two of them ask for different policies."""
    given = [(f"--{name}", policy) for name, policy in _PLUTO_FUSION.items() if flags[name]]
    if flags["fuse"] is not None:
        given.append((f"--fuse={flags['fuse']}", flags["fuse"]))
    for flag, policy in given[1:]:
        if policy != given[0][1]:
            raise _conflict(given[0][0], flag)
    return given[0][1] if given else DEFAULT_FUSION


def _tile_sizes_source(flags: dict[str, Any]) -> str | None:
    """Where the tile sizes come from: ``--tile-sizes``, else Pluto's ``tile.sizes`` in the current
    folder when present and tiling is on, else None (the tile-size model)."""
    if flags["tile_sizes"] is not None:
        return str(flags["tile_sizes"])
    tiling = not (flags["notile"] or flags["identity"])
    return PLUTO_TILE_SIZES if tiling and Path(PLUTO_TILE_SIZES).is_file() else None


def _options(flags: dict[str, Any]) -> Options:
    """The validated ``Options`` of the command-line flags (click's parameters by name);
    a usage error when they are invalid.  A fusion policy or tile sizes asked for by name transform the
    region as asked: the order as written is then no candidate."""
    _conflicts(flags)
    try:
        tile_sizes = _tile_sizes_source(flags)
        sizes = parse_tile_sizes(tile_sizes) if tile_sizes is not None else ()
        dead = frozenset(name.strip() for names in flags["assume_dead"] for name in names.split(",") if name.strip())
        asked = _fusion(flags) != DEFAULT_FUSION or sizes or flags["fixed_tile_size"] is not None or flags["l2tile"]
        return Options(
            identity=flags["identity"],
            fusion=_fusion(flags),
            disabled_fusion_candidates=parse_fusion_candidates(flags["fusion_candidate"]),
            parallel=not flags["noparallel"],
            reassociate=not flags["no_reassociate"],
            expand=not flags["no_expand"],
            as_written=not (flags["no_as_written"] or asked),
            assume_dead=dead,
            blas=flags["blas"],
            microkernel=flags["microkernel"],
            tiling=TilingOptions(
                enabled=not flags["notile"],
                sizes=sizes,
                default_size=flags["fixed_tile_size"],
                second_level=flags["l2tile"],
                disabled_rules=parse_tile_rules(flags["tile_rule"]),
            ),
            timeout=flags["timeout"],
            machine=_machine(flags),
            params=tuple(flags["param"]),
            cpp_flags=flags["cpp_flags"],
        ).validate()
    except PolyoptError as error:
        raise click.UsageError(_usage_message(error)) from None


def _with_flags(command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` with the click options of ``FLAGS``, in their order."""
    for flag in reversed(FLAGS):
        names = (*flag.spellings, flag.name) if flag.name is not None else flag.spellings
        command = click.option(*names, **click_settings(flag))(command)
    return command


@click.command(
    cls=PolyoptCommand,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog="'polyopt check FILE ...' builds and runs FILE original and optimized and compares their outputs "
    "(polyopt check --help); 'polyopt tune FILE ...' times each region's variants in FILE's program and writes "
    "the fastest correct ones (polyopt tune --help).",
)
@click.argument("source", type=click.Path(path_type=Path, dir_okay=True, exists=False))
@_with_flags
@click.version_option(__version__, prog_name="polyopt")
def optimize(source: Path, output: str | None, report: str | None, no_probe: bool, **flags: Any) -> None:
    """Optimize the '#pragma scop' regions of the C file SOURCE.

    Each region between '#pragma scop' and '#pragma endscop' is modelled in the
    polyhedral model and replaced by generated OpenMP C; everything else in the
    file is copied unchanged.  A region outside the model is kept as written,
    with a warning.

    Exit status: 0 on success (warnings allowed), 1 when the input cannot be
    read or is not valid C, or the output cannot be written (nothing is
    written then), 2 for a usage error.
    """
    options = _options(flags)
    ignored = (ignored_warning(flags["ignored_pluto_flags"]),) if flags["ignored_pluto_flags"] else ()
    try:
        target = output_path(source, output)
        options, probe = _with_probe(options, flags, no_probe)
        outcome = optimize_text(_read(source), str(source), options, probe)
        tile_file = _tile_sizes_source(flags) if flags["tile_sizes"] is None else None
        warnings = (*ignored, *outcome.warnings)
        if report == "json":
            library = [line.strip() for line in probe.report()]
            click.echo(_json_report(source, options, library, tile_file, warnings, outcome), err=True)
        else:
            for warning in warnings:
                click.echo(warning, err=True)
        if report == "text":
            click.echo(f"machine: {options.machine.describe()}", err=True)
            for line in probe.report():
                click.echo(line, err=True)
            if tile_file is not None:
                sizes = ",".join(map(str, options.tiling.sizes))
                click.echo(f"tile sizes: {sizes} from the file {tile_file} in the current folder", err=True)
            for region in outcome.regions:
                if region.report is not None:
                    click.echo(format_report(region.report), err=True, nl=False)
        if target is None:
            sys.stdout.buffer.write(outcome.text.encode("utf-8", errors="surrogateescape"))
            sys.stdout.flush()
        else:
            write_atomically(target, outcome.text)
    except PolyoptError as error:
        click.echo(str(error), err=True)
        sys.exit(EXIT_ERROR)


def _json_report(
    source: Path,
    options: Options,
    library: Sequence[str],
    tile_file: str | None,
    warnings: Sequence[str],
    outcome: FileOutcome,
) -> str:
    """The ``--report=json`` document of this run, with all its ``warnings``."""
    regions = [
        RegionSummary(
            region.region.index,
            region.region.location,
            region.code.summary if region.code is not None else None,
            region.warnings,
            region.report,
        )
        for region in outcome.regions
    ]
    return report_json(str(source), options.machine.describe(), library, tile_file, warnings, regions)


def _with_probe(options: Options, flags: dict[str, Any], no_probe: bool) -> tuple[Options, RunProbe]:
    """``options`` (of ``flags``, click's parameters by name) with the library choice the probe starts
    from, and the probe."""
    probe = RunProbe(options, _given_levels(flags), not no_probe)
    return replace(options, library=probe.initial), probe


def _parameters(arguments: Sequence[str]) -> dict[str, Any]:
    """click's parameters of ``polyopt ARGUMENTS SOURCE``, by name; invalid flags raise click's ``UsageError``."""
    with optimize.make_context("polyopt", [*arguments, "SOURCE"]) as context:
        return dict(context.params)


def prepared(arguments: Sequence[str]) -> tuple[Options, RunProbe]:
    """The ``Options`` and the probe with which ``polyopt ARGUMENTS SOURCE`` optimizes (``arguments`` are
    flags only, ``-o`` and ``--report`` have no effect): ``optimize_text(text, name, *prepared(arguments))``
    gives what that command writes.  Invalid flags raise click's ``UsageError``."""
    params = _parameters(arguments)
    return _with_probe(_options(params), params, params["no_probe"])


def options_from_arguments(arguments: Sequence[str]) -> Options:
    """The ``Options`` that ``polyopt ARGUMENTS SOURCE`` would run with (``arguments`` are flags only).

    The flags go through this command's own parser, so a caller that optimizes in-process
    (the fuzzer) gets exactly what the command line gets, except the probe (``polyopt.measure.probe``):
    the library calls are decided by the machine's thresholds, as with ``--no-probe``, so that the
    outcome does not depend on this machine's measurements; invalid flags raise click's ``UsageError``.
    """
    params = _parameters(arguments)
    for name in ("source", "output", "report", "no_probe"):
        params.pop(name)
    return _options(params)
