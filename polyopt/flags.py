"""The ``polyopt`` command's options as one table, ``FLAGS``: ``polyopt.cli`` makes its click options
from it, and ``flags_markdown`` renders README's flag table from it.

Public: ``Flag``, ``FLAGS``, ``SWITCH``, ``Parsed``, ``click_settings``, ``flags_markdown``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import click

from polyopt.analysis.tile_rules import RULE_NAMES
from polyopt.diagnostics import PolyoptError
from polyopt.emit.blas import BLAS_CHOICES
from polyopt.machine import BLAS2_THRESHOLD, BLAS_THRESHOLD, PARALLEL_WORK, parse_size
from polyopt.options import DEFAULT_TIMEOUT, parse_param
from polyopt.probe import NO_PROBE_VARIABLE
from polyopt.transform.fusion import DEFAULT_FUSION, FUSION_POLICIES

SWITCH = "switch"  # the ``kind`` of a flag without a value
REPORT_CHOICES = ("text", "json")


class Parsed(click.ParamType):
    """A flag value read by one of polyopt's parsers, whose ``PolyoptError`` becomes click's usage error."""

    def __init__(self, name: str, parse: Callable[[str], Any]) -> None:
        self.name = name
        self._parse = parse

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return self._parse(value)
        except PolyoptError as error:
            self.fail(error.message, param, ctx)


_SIZE = Parsed("size", parse_size)


@dataclass(frozen=True)
class Flag:
    """One option: its ``spellings`` (click's parameter ``name`` where it is not the first long
    spelling's), its ``help``, the ``Options`` field it sets (``field``, dotted below a nested option:
    ``tiling.sizes``; empty for none), its value (``kind``: ``SWITCH``, a click type, or None for
    text; ``metavar``; ``default``; ``multiple``; other click ``settings``), and its ``readme`` rows
    (spelling, meaning) in README's flag table (none where another flag's row covers it)."""

    spellings: tuple[str, ...]
    help: str
    field: str
    readme: tuple[tuple[str, str], ...] = ()
    kind: Any = None
    metavar: str | None = None
    default: Any = None
    multiple: bool = False
    name: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)


FLAGS = (
    Flag(
        ("-o", "--output"),
        "Output file; '-' for standard output. Default: SOURCE with '.polyopt' before its suffix.",
        "",
        (
            (
                "`-o FILE`",
                "output file; `-o -` writes to standard output; default `SOURCE` with `.polyopt` before the suffix "
                "(`in.c` → `in.polyopt.c`)",
            ),
        ),
        metavar="FILE",
    ),
    Flag(
        ("--identity",),
        "Model each region and regenerate it in its original order, with no transformation.",
        "identity",
        (
            (
                "`--identity`",
                "model each region and regenerate it in its original order, with no transformation (the round-trip "
                "check); conflicts with the transformation flags",
            ),
        ),
        kind=SWITCH,
    ),
    Flag(
        ("--noparallel",),
        "Do not mark OpenMP parallel loops.",
        "parallel",
        (("`--noparallel`", "no OpenMP parallel loops"),),
        kind=SWITCH,
    ),
    Flag(
        ("--parallel", "--parallelize"),
        "Pluto's spelling, accepted: parallel loops are marked unless --noparallel.",
        "parallel",
        (
            (
                "Pluto's spellings",
                "so that `polycc` lines drop in: `--tile` and `--parallel`/`--parallelize` are accepted (tiling and "
                "parallel loops are on by default), `--smartfuse`, `--maxfuse`, `--nofuse` are `--fuse=smart`, `max`, "
                "`none`; opposite flags (`--tile --notile`, `--parallel --noparallel`, `--maxfuse --nofuse`, "
                "`--smartfuse --fuse=none`, `--tile` or `--parallel` with `--identity`) are a usage error. Pluto's "
                "other flags are one table in `polyopt/cli.py`: those that change nothing polyopt writes "
                "(`--silent`/`-q`, `--indent`/`-i`, `--debug`, solver, dependence-tester and code-generator choices, "
                "`--prevector`, `--noprevector`, `--nounroll`, `--nodiamond-tile`, ...) are ignored with one warning "
                "naming them; those asking for what polyopt does not do (`--unroll`, `--ufactor`, `--iss`, "
                "`--diamond-tile`, `--typedfuse`, `--innerpar`, `--forceparallel`, `--ft`, `--lt`, `--cache-size`, "
                "`--readscop`, `--bee`, ...) are a usage error naming the flag and what polyopt does instead",
            ),
        ),
        kind=SWITCH,
        name="parallel",
    ),
    Flag(
        ("--no-reassociate",),
        "Keep reductions (x += e) in their original order: no parallel or vector reductions and no "
        "library calls, so floating-point results stay bit-identical.",
        "reassociate",
        (
            (
                "`--no-reassociate`",
                "keep reductions (`x += e`, `x = x * e`) in their original order: no parallel or simd reductions, so "
                "floating-point results stay bit-identical (when gcc does not contract multiply-adds differently: "
                "`-ffp-contract=off`)",
            ),
        ),
        kind=SWITCH,
    ),
    Flag(
        ("--no-expand",),
        "Do not expand scalars (a scalar rewritten in every iteration otherwise gets one element per iteration) "
        "nor keep them in the array elements they are stored to.",
        "expand",
        (
            (
                "`--no-expand`",
                "do not expand scalars that serialize their loops, nor keep them in the elements they are stored to",
            ),
        ),
        kind=SWITCH,
    ),
    Flag(
        ("--assume-dead",),
        "Arrays (comma-separated; may repeat) that are not used after the regions: temporaries that "
        "fusion leaves with one live value at a time become scalars. Also '#pragma polyopt dead(a, b)' in a region.",
        "assume_dead",
        (
            (
                "`--assume-dead ARRAYS`",
                "arrays (comma-separated; the flag may repeat) that are not used after the regions; a dead temporary "
                "that fusion leaves with one live value at a time becomes a scalar. `#pragma polyopt dead(a, b)` on "
                "its own line inside a region says the same for that region",
            ),
        ),
        metavar="ARRAYS",
        multiple=True,
    ),
    Flag(
        ("--blas",),
        "BLAS idioms (GEMM, SYRK, SYR2K, TRMM, GEMV, GER) as CBLAS calls when their work reaches "
        "the thresholds: auto uses them when gcc finds cblas.h; link the output with -lopenblas.",
        "blas",
        (
            (
                "`--blas=auto\\|cblas\\|none`",
                "compute recognized BLAS idioms (GEMM, GEMV, GER, SYRK, SYR2K, TRMM; see Library calls below) with "
                "CBLAS when their work reaches a threshold (checked at run time, the optimized loops run otherwise). "
                "`auto` (default) does it when gcc finds `cblas.h`, with thresholds measured by the "
                "[probe](#the-probe); the output then starts with `#include <cblas.h>` and must be linked with "
                "`-lopenblas` (`--report` says so)",
            ),
        ),
        kind=click.Choice(BLAS_CHOICES),
        default="auto",
        settings={"show_default": True},
    ),
    Flag(
        ("--microkernel/--no-microkernel",),
        "Compute GEMM idioms (C += alpha * op(A) * op(B)) with a register-blocked, packed microkernel "
        "sized for the target (vector width, registers, caches) where no CBLAS call is made: with --blas=none, "
        "and below the BLAS threshold.",
        "microkernel",
        (
            (
                "`--microkernel/--no-microkernel`",
                "compute GEMM idioms with polyopt's register-blocked, packed microkernel (see Microkernel below) where "
                "no CBLAS call is made: with `--blas=none` (the region is then cut around its GEMM idioms only), and "
                "below the BLAS threshold; on by default, never with `--no-reassociate` or `--identity`",
            ),
        ),
        default=True,
        settings={"show_default": True},
    ),
    Flag(
        ("--blas-threshold",),
        "Smallest M*N*K for which a matrix-matrix routine is called (checked at run time); "
        f"default: the target's, else {BLAS_THRESHOLD} (python -m polyopt.calibrate measures it).",
        "machine.blas3_threshold",
        (
            (
                "`--blas-threshold N`",
                "smallest work for a matrix-matrix routine (M·N·K for GEMM, N·N·K for SYRK/SYR2K, M·M·N for TRMM); "
                "default the target's `blas3-threshold`, else 192³, measured here by `python -m polyopt.calibrate` "
                "(the seed thesis says 256³)",
            ),
        ),
        kind=click.IntRange(min=0),
        metavar="N",
        name="blas3_threshold",
    ),
    Flag(
        ("--blas2-threshold",),
        "Smallest M*N for which a matrix-vector routine (GEMV, GER) is called (checked at run time); "
        f"default: the target's, else {BLAS2_THRESHOLD}.",
        "machine.blas2_threshold",
        (
            (
                "`--blas2-threshold N`",
                "smallest work M·N for a matrix-vector routine (GEMV, GER); default the target's `blas2-threshold`, "
                "else 1024², measured here by `python -m polyopt.calibrate`",
            ),
        ),
        kind=click.IntRange(min=0),
        metavar="N",
    ),
    Flag(("--notile",), "Do not tile loop bands.", "tiling.enabled", (("`--notile`", "do not tile"),), kind=SWITCH),
    Flag(
        ("--tile",),
        "Pluto's spelling, accepted: bands are tiled unless --notile.",
        "tiling.enabled",
        kind=SWITCH,
    ),
    Flag(
        ("--tile-sizes",),
        "Tile sizes: '32,32,256', or a file with one size per line; used member by member "
        "across the tiled bands in order, then the tile-size model. Without it, a file 'tile.sizes' "
        "in the current folder is used when present, as Pluto does.",
        "tiling.sizes",
        (
            (
                "`--tile-sizes SIZES`",
                "`32,32,256`, or a file with one size per line (Pluto's `tile.sizes` format); sizes are used member by "
                "member across the tiled bands in order, then the tile-size model's. Without it, a file `tile.sizes` "
                "in the current folder is used when present, as Pluto does (`--report` says so in a line `tile sizes: "
                "... from the file tile.sizes`)",
            ),
        ),
        metavar="SIZES",
    ),
    Flag(
        ("--fixed-tile-size",),
        "Tile every member by N instead of the tile-size model's sizes (--tile-sizes still come first).",
        "tiling.default_size",
        (
            (
                "`--fixed-tile-size N`",
                "tile every member by N instead of the tile-size model (what Pluto and PPCG do, with 32 and 16); "
                "`--tile-sizes` still come first",
            ),
        ),
        kind=click.IntRange(min=1),
        metavar="N",
    ),
    Flag(
        ("--l2tile", "--second-level-tile"),
        "Tile a second time, grouping tiles into L2 tiles, where the extents may exceed one.",
        "tiling.second_level",
        (
            (
                "`--l2tile`, `--second-level-tile`",
                "tile a second time (8 tiles per member) where extents may exceed it; not applied to wavefront "
                "(time-skewed) bands",
            ),
        ),
        kind=SWITCH,
        name="l2tile",
    ),
    Flag(
        ("--tile-rule",),
        "Switch a rule of the tile-size model off (-NAME) or on again (+NAME); comma-separated, may repeat. "
        f"Rules, in the order they apply: {', '.join(RULE_NAMES)}.",
        "tiling.disabled_rules",
        (
            (
                "`--tile-rule=[-\\|+]NAME`",
                "switch a rule of the tile-size model off (`-NAME`) or on again (`+NAME`); comma-separated, may "
                "repeat, applied in order; an unknown name is a usage error that lists the rules. The rules, in the "
                "order they apply after Alg. 3 (`polyopt/analysis/tile_rules.py`): "
                + ", ".join(f"`{name}`" for name in RULE_NAMES)
                + ". `--report` ends the line of each band the model sized with `; rules: ...`, the rules that fired "
                "(changed its sizes, or left it untiled)",
            ),
        ),
        metavar="[-|+]NAME",
        multiple=True,
    ),
    Flag(
        ("--fuse",),
        "Fusion of top-level loop nests: model (the cheapest grouping by a cost model of memory traffic "
        "and parallel work), smart (fuse when it keeps parallelism and shares data), "
        "max (let the scheduler fuse all it can) or none.",
        "fusion",
        (
            (
                "`--fuse=model` (default)",
                "the cheapest grouping of consecutive top-level nests by the fusion cost model (below): every group of "
                "up to 6 consecutive nests is scheduled and costed, and dynamic programming picks the partition; the "
                "candidates and their costs are in `--report`",
            ),
            (
                "`--fuse=smart`",
                "fuse consecutive top-level nests when they share an array, the scheduler really fuses them, and no "
                "outer parallel loop is lost; streaming nests (no more loops than array dimensions) are fused along "
                "the rows of a shared matrix when that reads it fewer times",
            ),
            (
                "`--fuse=max` / `--fuse=none`",
                "let the scheduler fuse the whole region / keep every top-level nest apart",
            ),
        ),
        kind=click.Choice(FUSION_POLICIES),
        settings={"show_default": DEFAULT_FUSION},
    ),
    Flag(("--smartfuse",), "Pluto's spelling of --fuse=smart.", "fusion", kind=SWITCH),
    Flag(("--maxfuse",), "Pluto's spelling of --fuse=max.", "fusion", kind=SWITCH),
    Flag(("--nofuse",), "Pluto's spelling of --fuse=none.", "fusion", kind=SWITCH),
    Flag(
        ("--timeout",),
        "Time allowed for optimizing one region. A region that takes longer is retried without "
        "fusion search and with fixed tiles, then in its original order (each attempt with the same "
        "time), with a warning; if even that takes too long, it is kept as written.",
        "timeout",
        (
            (
                "`--timeout SECONDS`",
                "time allowed for optimizing one region (default 10): a region that takes longer is retried without "
                "fusion search and with the default tiles, then in its original order, each attempt with the same "
                "time, with a warning; if even that takes too long the region is kept as written (an attempt whose "
                "process crashes is retried the same way)",
            ),
        ),
        kind=float,
        metavar="SECONDS",
        default=DEFAULT_TIMEOUT,
        settings={"show_default": True},
    ),
    Flag(
        ("--target",),
        "Target description for the cost models: lines 'key = value' setting the machine's facts (l1, l2, l3, "
        "line, cores, simd-bytes, ...; detected when missing) and its profile of fitted numbers (defaults when "
        "missing). 'python -m polyopt.machine' prints every key.",
        "machine",
        (
            (
                "`--target FILE`",
                "the machine the cost models plan for, and its profile of fitted numbers, from a target file (see "
                "[Machine description](#machine-description)); facts it leaves out are detected, profile keys take "
                "their defaults",
            ),
        ),
        metavar="FILE",
    ),
    Flag(
        ("--l1",),
        "L1 data cache of one core: bytes, or with K, M, G ('48K').",
        "machine.l1",
        (
            (
                "`--l1`, `--l2`, `--l3`, `--line SIZE`",
                "L1 data cache of one core, L2 as seen by one core, L3 (`0`: none), cache line: bytes, or with a "
                "binary suffix `K`, `M`, `G` (`48K`); each overrides the detected or `--target` value",
            ),
        ),
        kind=_SIZE,
        metavar="SIZE",
    ),
    Flag(("--l2",), "L2 cache as seen by one core.", "machine.l2", kind=_SIZE, metavar="SIZE"),
    Flag(("--l3",), "L3 cache (0: none).", "machine.l3", kind=_SIZE, metavar="SIZE"),
    Flag(("--line",), "Cache line size.", "machine.line", kind=_SIZE, metavar="SIZE"),
    Flag(
        ("--cores",),
        "Cores the program runs on.",
        "machine.cores",
        (
            (
                "`--cores N`, `--simd-bytes N`",
                "cores the program runs on; vector register width in bytes (16 SSE, 32 AVX2, 64 AVX-512; a power of "
                "two)",
            ),
        ),
        kind=int,
        metavar="N",
    ),
    Flag(
        ("--simd-bytes",),
        "Vector register width in bytes: 16 SSE, 32 AVX2, 64 AVX-512.",
        "machine.simd_bytes",
        kind=int,
        metavar="N",
    ),
    Flag(
        ("--vector-registers",),
        "Vector registers the compiler may allocate (16 SSE/AVX2, 32 AVX-512): the GEMM microkernel's register block.",
        "machine.vector_registers",
        (
            (
                "`--vector-registers N`",
                "vector registers the compiler may allocate (16 SSE/AVX2, 32 AVX-512; detected): the microkernel's "
                "register block",
            ),
        ),
        kind=int,
        metavar="N",
    ),
    Flag(
        ("--parallel-work",),
        f"Statement instances from which a parallel loop starts threads (default: the target's, else {PARALLEL_WORK}).",
        "machine.parallel_work",
        (
            (
                "`--parallel-work N`",
                "statement instances from which a parallel loop starts threads (its `if(...)` clause); default the "
                "target's `parallel-work`, else 2^24",
            ),
        ),
        kind=click.IntRange(min=0),
        metavar="N",
    ),
    Flag(
        ("--param",),
        "Typical value of a region parameter for the cost models (may repeat); without it the value "
        "the preprocessor gives (with -I, -D, -U), else 1024.",
        "params",
        (
            (
                "`--param NAME=VALUE`",
                "typical value of a region parameter (`--param _PB_NI=2000`; the flag may repeat); see "
                "[Parameter values](#parameter-values)",
            ),
        ),
        kind=Parsed("name=value", parse_param),
        metavar="NAME=VALUE",
        multiple=True,
    ),
    Flag(
        ("-I",),
        "Folder searched for included headers when polyopt runs the preprocessor, as gcc's -I "
        '(-Idir also; may repeat). The source\'s folder is searched for "..." includes first, as when compiling it.',
        "cpp_flags",
        (
            (
                "`-I DIR`, `-D NAME[=VALUE]`, `-U NAME`",
                "the compiler's preprocessor flags (also joined: `-Iutilities`, `-DN=100`, `-UX`; each may repeat, "
                "applied in command-line order), used where polyopt runs the preprocessor: the parameter values (see "
                "[Parameter values](#parameter-values)) and `--blas=auto`'s search for `cblas.h`; so "
                "`polyopt $(CPPFLAGS) $< -o $@` plans for the sizes the program is built with",
            ),
        ),
        metavar="DIR",
        multiple=True,
        name="include_dirs",
    ),
    Flag(
        ("-D",),
        "Define a macro when polyopt runs the preprocessor, as gcc's -D (-DN=100 also; may repeat): "
        "PolyBench's -DLARGE_DATASET sets the parameter values the cost models assume.",
        "cpp_flags",
        metavar="NAME[=VALUE]",
        multiple=True,
        name="defines",
    ),
    Flag(
        ("-U",),
        "Undefine a macro, as gcc's -U (-UNAME also; may repeat).",
        "cpp_flags",
        metavar="NAME",
        multiple=True,
        name="undefines",
    ),
    Flag(
        ("--report",),
        "Print what was found and decided for each region to standard error: --report as text, "
        "--report=json as one JSON document.",
        "",
        (
            (
                "`--report`",
                "print, per region, the statements and domains, the dependences and the loops that carry them, the "
                "fusion groups, the schedule bands, tiled bands and sizes, the parallel loops and the vector loops "
                "with their scores (to standard error), after one line `machine: ...` describing the machine and the "
                "lines `library: ...` saying whether the probe ran, was read from the cache (its path) or was skipped "
                "and why, with the choice per idiom kind",
            ),
            (
                "`--report=json`",
                "the same, as one JSON document on standard error (the warnings go into it instead of lines of their "
                "own); see [The JSON report](#the-json-report)",
            ),
        ),
        kind=click.Choice(REPORT_CHOICES),
        settings={"is_flag": False, "flag_value": "text"},
    ),
    Flag(
        ("--no-probe",),
        "Do not measure the BLAS library against polyopt's microkernel and loops on this machine (a hermetic "
        f"build; also {NO_PROBE_VARIABLE}=1): the machine's thresholds decide. By default, with --blas=auto, the "
        "first region with a BLAS idiom runs the probe once per machine and library, cached in "
        "$XDG_CACHE_HOME/polyopt (~/.cache/polyopt).",
        "library",
        (
            (
                "`--no-probe`",
                "do not run the [probe](#the-probe) (hermetic builds; also `POLYOPT_NO_PROBE=1`): the thresholds above "
                "decide every call",
            ),
        ),
        kind=SWITCH,
    ),
)
_CLICK_ROW = "| `--version`, `--help` | |"  # click's own options


def click_settings(flag: Flag) -> dict[str, Any]:
    """The keyword arguments of ``click.option`` for ``flag``."""
    settings: dict[str, Any] = {"help": flag.help, **flag.settings}
    if flag.kind == SWITCH:
        settings["is_flag"] = True
    elif flag.kind is not None:
        settings["type"] = flag.kind
    if flag.metavar is not None:
        settings["metavar"] = flag.metavar
    if flag.default is not None:
        settings["default"] = flag.default
    if flag.multiple:
        settings["multiple"] = True
    return settings


def flags_markdown() -> str:
    """README's flag table: each flag's rows, in the order of ``FLAGS``."""
    rows = [f"| {spelling} | {meaning} |" for flag in FLAGS for spelling, meaning in flag.readme]
    return "\n".join(["| flag | meaning |", "|---|---|", *rows, _CLICK_ROW]) + "\n"
