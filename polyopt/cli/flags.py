"""The ``polyopt`` command's options as one table, ``FLAGS``: ``polyopt.command`` makes its click options
from it, and ``flags_markdown`` renders doc/usage.md's flag table from it.

Public: ``FLAGS``, ``flags_markdown``.  What one flag is and its click settings: ``flag_spec``; the machine's
and the input's flags: ``flags_context``.
"""

from __future__ import annotations

import click

from polyopt.cli.flag_spec import SWITCH, Flag
from polyopt.cli.flags_context import INPUT_FLAGS, MACHINE_FLAGS
from polyopt.machine import BLAS2_THRESHOLD, BLAS_THRESHOLD
from polyopt.options import (
    BLAS_CHOICES,
    DEFAULT_FUSION,
    DEFAULT_TIMEOUT,
    FUSION_CANDIDATE_NAMES,
    FUSION_POLICIES,
    TILE_RULE_NAMES,
)

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
                "other flags are one table in `polyopt/pluto_flags.py`: those that change nothing polyopt writes "
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
        ("--no-as-written",),
        "Do not weigh each region's original order against its transformed schedule: always transform "
        "(by default the region keeps its order, with the parallel and simd marks that pay, unless the "
        "transformed schedule is predicted clearly faster; --fuse other than model, --tile-sizes, "
        "--fixed-tile-size and --l2tile transform as asked).",
        "as_written",
        (
            (
                "`--no-as-written`",
                "always use the transformed schedule; by default each region keeps its original order (with the "
                "parallel and simd loops that pay) unless the cost model predicts the transformed schedule "
                "clearly faster (see [The region as written](cost-models.md#the-region-as-written)); `--fuse` "
                "other than `model`, `--tile-sizes` (or a `tile.sizes` file), `--fixed-tile-size` and `--l2tile` "
                "transform as asked",
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
        "BLAS idioms (GEMM, SYRK, SYR2K, TRMM, SYMM, GEMV, GER) as CBLAS calls when their work reaches "
        "the thresholds: auto uses them when gcc finds cblas.h; link the output with -lopenblas.",
        "blas",
        (
            (
                "`--blas=auto\\|cblas\\|none`",
                "compute recognized BLAS idioms (GEMM, GEMV, GER, SYRK, SYR2K, TRMM, SYMM; see Library calls below) "
                "with CBLAS when their work reaches a threshold (checked at run time, the optimized loops run "
                "otherwise). `auto` (default) does it when gcc finds `cblas.h`, with thresholds measured by the "
                "[probe](probe.md#the-probe); the output then starts with `#include <cblas.h>` and must be linked with "
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
        "and below the BLAS threshold; SYMM and TRMM too, as GEMMs on blocks; SYRK and SYR2K on their triangle, "
        "from the target's rank-k-microkernel work.",
        "microkernel",
        (
            (
                "`--microkernel/--no-microkernel`",
                "compute GEMM idioms with polyopt's register-blocked, packed microkernel (see Microkernel below) where "
                "no CBLAS call is made: with `--blas=none` (the region is then cut around the idioms it computes), "
                "and below the BLAS threshold; SYMM and TRMM too, as GEMMs on blocks; SYRK and SYR2K on their "
                "triangle, from the target's `rank-k-microkernel` work; on by default, never with "
                "`--no-reassociate` or `--identity`",
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
                "(the PolyMage dense-matrix thesis says 256³)",
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
        f"Rules, in the order they apply: {', '.join(TILE_RULE_NAMES)}.",
        "tiling.disabled_rules",
        (
            (
                "`--tile-rule=[-\\|+]NAME`",
                "switch a rule of the tile-size model off (`-NAME`) or on again (`+NAME`); comma-separated, may "
                "repeat, applied in order; an unknown name is a usage error that lists the rules. The rules, in the "
                "order they apply after Alg. 3 (`polyopt/analysis/tile_rules.py`): "
                + ", ".join(f"`{name}`" for name in TILE_RULE_NAMES)
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
        ("--fusion-candidate",),
        "Switch a candidate schedule of fusion groups off (-NAME) or on again (+NAME); comma-separated, may "
        f"repeat. Candidates, in the order they are tried: {', '.join(FUSION_CANDIDATE_NAMES)}.",
        "disabled_fusion_candidates",
        (
            (
                "`--fusion-candidate=[-\\|+]NAME`",
                "switch a candidate schedule of fusion groups off (`-NAME`) or on again (`+NAME`); comma-separated, "
                "may repeat, applied in order; an unknown name is a usage error that lists the candidates. Each "
                "group's schedule is the first candidate that applies, in this order "
                "(`polyopt/transform/fusion_candidates.py`): "
                + ", ".join(f"`{name}`" for name in FUSION_CANDIDATE_NAMES)
                + "; when none does, the original order. `--report` names the candidate that gave each group's "
                "schedule (`fusion_schedules` in `--report=json`)",
            ),
        ),
        metavar="[-|+]NAME",
        multiple=True,
    ),
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
    *MACHINE_FLAGS,
    *INPUT_FLAGS,
)
_CLICK_ROW = "| `--version`, `--help` | |"  # click's own options


def flags_markdown() -> str:
    """doc/usage.md's flag table: each flag's rows, in the order of ``FLAGS``."""
    rows = [f"| {spelling} | {meaning} |" for flag in FLAGS for spelling, meaning in flag.readme]
    return "\n".join(["| flag | meaning |", "|---|---|", *rows, _CLICK_ROW]) + "\n"
