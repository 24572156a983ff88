"""The ``polyopt`` options that describe the target machine and its profile (``--target``, ``--l1``
...), and those that give the input's context (``--param``, ``-I``/``-D``/``-U``, ``--report``,
``--no-probe``): parts of ``polyopt.cli.flags.FLAGS``.

Public: ``MACHINE_FLAGS``, ``INPUT_FLAGS``.
"""

from __future__ import annotations

import click

from polyopt.cli.flag_spec import REPORT_CHOICES, SIZE, SWITCH, Flag, Parsed
from polyopt.machine import PARALLEL_WORK
from polyopt.options import NO_PROBE_VARIABLE, parse_param

MACHINE_FLAGS = (
    Flag(
        ("--target",),
        "Target description for the cost models: lines 'key = value' setting the machine's facts (l1, l2, l3, "
        "line, cores, simd-bytes, ...; detected when missing) and its profile of fitted numbers (defaults when "
        "missing). 'python -m polyopt.measure' prints every key.",
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
        kind=SIZE,
        metavar="SIZE",
    ),
    Flag(("--l2",), "L2 cache as seen by one core.", "machine.l2", kind=SIZE, metavar="SIZE"),
    Flag(("--l3",), "L3 cache (0: none).", "machine.l3", kind=SIZE, metavar="SIZE"),
    Flag(("--line",), "Cache line size.", "machine.line", kind=SIZE, metavar="SIZE"),
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
        ("--rank-k-microkernel",),
        "Work N*N*K from which a SYRK or SYR2K that no CBLAS call computes runs on the microkernel, on its "
        "triangle (0: never; default: the target's, else 216000000).",
        "machine.rank_k_microkernel",
        (
            (
                "`--rank-k-microkernel N`",
                "work N·N·K from which a SYRK or SYR2K that no CBLAS call computes runs on the microkernel, on its "
                "triangle (0: never); default the target's `rank-k-microkernel`, else 216000000",
            ),
        ),
        kind=click.IntRange(min=0),
        metavar="N",
    ),
    Flag(
        ("--small-loop-rules",),
        "1: a simd reduction needs 8 vectors per run and no loop is jammed into one that gcc unrolls completely "
        "(0: off; default: the target's, else 1).",
        "machine.small_loop_rules",
        (
            (
                "`--small-loop-rules N`",
                "1: a simd reduction needs 8 vectors per run, and no loop is unrolled and jammed into a loop that gcc "
                "unrolls completely; 0: off, so that small programs take the paths of large ones; default the "
                "target's `small-loop-rules`, else 1",
            ),
        ),
        kind=click.IntRange(min=0, max=1),
        metavar="N",
    ),
    Flag(
        ("--blocks-microkernel",),
        "Work M*N*K from which a GEMM, SYMM or TRMM that no CBLAS call computes runs on the microkernel "
        "(default: the target's, else 131072).",
        "machine.blocks_microkernel",
        (
            (
                "`--blocks-microkernel N`",
                "work M·N·K from which a GEMM, SYMM or TRMM that no CBLAS call computes runs on the microkernel (0: "
                "from any work); below it, its packing costs more than the loops; default the target's "
                "`blocks-microkernel`, else 131072",
            ),
        ),
        kind=click.IntRange(min=0),
        metavar="N",
    ),
    Flag(
        ("--as-written-below",),
        "Statement instances below which a region whose sizes are not known when it is optimized runs as written, "
        "by a run-time test (0: never; default: the target's, else 65536).",
        "machine.as_written_below",
        (
            (
                "`--as-written-below N`",
                "statement instances below which a region whose sizes are not known when it is optimized (a "
                "parameter without a value) runs its text as written, chosen by a run-time test (0: never); "
                "default the target's `as-written-below`, else 65536",
            ),
        ),
        kind=click.IntRange(min=0),
        metavar="N",
    ),
)
INPUT_FLAGS = (
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
                "own); see [The JSON report](report.md#the-json-report)",
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
                "do not run the [probe](probe.md#the-probe) (hermetic builds; also `POLYOPT_NO_PROBE=1`): the "
                "thresholds above decide every call",
            ),
        ),
        kind=SWITCH,
    ),
)
