"""Benchmark: original versus optimized example kernels, timed in interleaved runs.

Usage: ``python -m polyopt.bench [KERNEL ...] [--examples DIR] [--size LARGE] [--threads 2] [--runs 3]
[--min-seconds 1.0] [--flags '...'] [--vs '[NAME=]polycc {in} --tile --parallel -o {out}'] [--roofline
[--target FILE] [--plot FILE.svg]]``, or
``python -m polyopt.bench --polybench DIR [--dataset LARGE] [--check-dataset MINI] [--kernels k1,k2]
[--json FILE] [--vs 'ppcg --target=c --openmp --tile {cppflags} {in} -o {out}'] ...`` for every kernel
of a PolyBench/C tree (``polyopt.bench.polybench``: correctness first, as ``polyopt check`` compares), or
``python -m polyopt.bench --corpus bench/corpus [--kernels k1,k2] [--markdown] ...`` for the loop corpus
(``polyopt.bench.corpus``: checksums compared, times against the original built with gcc alone).

Each kernel of the example suite (``--examples DIR``, by default the ``examples/`` folder of polyopt's source
tree, which an installed polyopt does not have) is compiled original and optimized (and, with ``--vs``, by
another tool's command, named in the columns by ``NAME=`` or by its program: ``vs_columns``) with the same gcc
flags; the binaries run in turn (A B A B ...)
with ``OMP_NUM_THREADS`` set, and the median of the kernel times each prints
(``polybench-time`` on stderr) is reported with the speedups and their
geometric mean.  Short kernels run more rounds (``rounds_wanted``): a few
milliseconds of kernel time are at the mercy of one noisy sample.  Outputs are
compared too: a mismatch is flagged, never hidden.
Variants whose preprocessed code is identical (comments aside) are one program:
it is compiled and timed once, and the later columns are marked ``=``, so that
noise between two runs of the same code never shows as a speedup or a loss.
``--roofline`` adds a table: per kernel its arithmetic intensity and roofline bound (``polyopt.roofline.bound``),
and per tool (polyopt and each ``--vs``) the GFLOP/s reached and the fraction of the bound (bound time ÷
measured time), with the geometric mean of the fractions; ``--plot FILE`` draws them, titled with the machine,
the size and the date (``polyopt.bench.roofline``).
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from polyopt.bench.corpus import CORPUS_RTOL, corpus_main, machine_description
from polyopt.bench.polybench import DATASETS, polybench_main, vs_columns
from polyopt.bench.roofline import Result, print_roofline
from polyopt.bench.timing import MAX_ROUNDS, geometric_mean, interleaved, twins
from polyopt.program.harness import DEFAULT_RTOL
from polyopt.roofline.bound import file_work
from polyopt.roofline.plot import SUFFIXES, PlotError
from polyopt.toolchain import CFLAGS, ToolchainError, compile_c, first_difference, run_polyopt, run_program

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"  # the source tree's: an installed polyopt has none


def example_kernels(examples: Path, wanted: Sequence[str]) -> list[str]:
    """The kernels to bench, ``wanted`` or else every example (``NAME.c``) of the folder ``examples``; raises
    ``ValueError`` saying where it looked when one of them, or any at all, is not there."""
    found = sorted(path.stem for path in examples.glob("*.c"))
    where = f"{examples} (the examples of polyopt's source tree)" if examples == EXAMPLES else str(examples)
    if missing := [kernel for kernel in wanted if kernel not in found]:
        raise ValueError(f"no example {', '.join(missing)} in {where}: --examples DIR names the folder of NAME.c files")
    if not found:
        raise ValueError(f"no example kernels (NAME.c) in {where}: --examples DIR names the folder of the examples")
    return list(wanted) or found


def example_cpp_flags(size: str, examples: Path) -> list[str]:
    """The -I/-D with which the examples of the folder ``examples`` are built at ``size``."""
    return [f"-I{examples}", f"-D{size}_DATASET"]


def _compile(source: Path, binary: Path, size: str, examples: Path) -> None:
    compile_c(source, binary, flags=[*CFLAGS, *example_cpp_flags(size, examples), "-DPOLYBENCH_TIME"])


def _run(binary: Path, threads: int) -> tuple[float, str]:
    """The example harness's kernel time (``polybench-time:`` on stderr) and the output (stdout)."""
    done = run_program(binary, threads=threads, timeout=3600)
    for line in done.stderr.splitlines():
        if line.startswith("polybench-time:"):
            return float(line.split()[1]), done.stdout
    raise ToolchainError(f"{binary} printed no polybench-time")


def tool_command(template: str, source: Path, output: Path, size: str, examples: Path) -> list[str]:
    """The command line of a tool's ``template`` (``--vs``) with ``{in}``, ``{out}`` and ``{cppflags}`` (the -I/-D
    of an example of the folder ``examples`` at ``size``) filled in."""
    cppflags = " ".join(map(shlex.quote, example_cpp_flags(size, examples)))
    return shlex.split(template.format(**{"in": str(source), "out": str(output), "cppflags": cppflags}))


def kernel_variants(
    kernel: str, folder: Path, flags: list[str], others: Mapping[str, str], size: str, examples: Path
) -> dict[str, Path]:
    """The sources to time for ``kernel`` of the folder ``examples``: the original, polyopt's output with ``flags``
    and each command of ``others`` (``--vs``, by column name) run at ``size``, written into ``folder``; a command
    that fails is left out (another tool may not handle every kernel)."""
    source = examples / f"{kernel}.c"
    variants = {"original": source}
    optimized = folder / f"{kernel}.polyopt.c"
    done = run_polyopt([str(source), "-o", str(optimized), *flags])
    if done.returncode != 0:
        raise ToolchainError(f"polyopt exited with {done.returncode}:\n{done.stderr}")
    variants["polyopt"] = optimized
    for name, template in others.items():
        out = folder / f"{kernel}.{name}.c"
        done = subprocess.run(tool_command(template, source, out, size, examples), capture_output=True, cwd=folder)
        if done.returncode == 0 and out.is_file():
            variants[name] = out
    return variants


def outputs_agree(expected: str, actual: str, rel_tol: float = 1e-6) -> bool:
    """Same tokens, numbers equal within ``rel_tol`` (gcc may contract a*b+c into FMAs
    differently in differently shaped loops under -march=native)."""
    return first_difference(expected, actual, rel_tol=rel_tol) is None


def bench_kernel(
    kernel: str,
    size: str,
    threads: int,
    runs: int,
    flags: list[str],
    others: Mapping[str, str],
    min_seconds: float = 0.0,
    *,
    examples: Path,
) -> dict[str, tuple[float, bool, bool]]:
    """Median time of each variant, whether its output matches the original's, and whether
    its code is an earlier variant's (then it was not timed again).  At least ``runs``
    rounds; more while a variant's times add up to less than ``min_seconds`` (``rounds_wanted``).
    Another tool's variant (``others``, by column name) that it does not write or that gcc does not compile is
    left out."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        sources = kernel_variants(kernel, folder, flags, others, size, examples)
        for name in [name for name in sources if name in others]:
            try:
                _compile(sources[name], folder / f"{kernel}.{name}.bin", size, examples)
            except ToolchainError:
                del sources[name]
        twin = twins(sources, example_cpp_flags(size, examples))
        binaries = {}
        for name in dict.fromkeys(twin.values()):
            binaries[name] = folder / f"{kernel}.{name}.bin"
            if name not in others:
                _compile(sources[name], binaries[name], size, examples)
        times, outputs, failures = interleaved(binaries, lambda binary: _run(binary, threads), runs, min_seconds)
        if failures:
            raise ToolchainError(next(iter(failures.values())))
        return {
            name: (
                statistics.median(times[twin[name]]),
                outputs_agree(outputs["original"], outputs[twin[name]]),
                twin[name] != name,
            )
            for name in sources
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m polyopt.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("kernels", nargs="*", help="kernel names (default: every example of --examples)")
    parser.add_argument(
        "--examples",
        type=Path,
        metavar="DIR",
        help=f"the folder of the example kernels, NAME.c beside polybench_lite.h (default: {EXAMPLES})",
    )
    parser.add_argument("--size", default="LARGE", choices=["MINI", "SMALL", "LARGE"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3, help="rounds at least (default 3)")
    parser.add_argument(
        "--min-seconds",
        type=float,
        default=1.0,
        help=f"more rounds (up to {MAX_ROUNDS}) while a variant's kernel times add up to less (default 1.0)",
    )
    parser.add_argument("--flags", default="", help="extra polyopt flags, e.g. '--fuse=max'")
    parser.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar="[NAME=]COMMAND",
        help="another tool's command with {in}, {out} and {cppflags} (-I/-D of the kernel), named NAME in the"
        " results (default: its program's name); may repeat",
    )
    parser.add_argument("--polybench", type=Path, metavar="DIR", help="bench every kernel of this PolyBench/C tree")
    parser.add_argument("--dataset", default="LARGE", choices=DATASETS, help="--polybench: timed at (default LARGE)")
    parser.add_argument(
        "--check-dataset", default="MINI", choices=DATASETS, help="--polybench: checked at (default MINI)"
    )
    parser.add_argument(
        "--corpus", type=Path, metavar="DIR", help="bench every kernel of this loop corpus (e.g. bench/corpus)"
    )
    parser.add_argument("--kernels", dest="only", metavar="K1,K2", help="--polybench, --corpus: only these kernels")
    parser.add_argument(
        "--rtol",
        type=float,
        help=f"--polybench: as polyopt check's (default {DEFAULT_RTOL:g}); --corpus: of the checksums"
        f" (default {CORPUS_RTOL:g})",
    )
    parser.add_argument(
        "--json", type=Path, metavar="FILE", help="also write the results as JSON (the examples, or --polybench)"
    )
    parser.add_argument("--markdown", action="store_true", help="--corpus: print the table in markdown")
    parser.add_argument(
        "--roofline", action="store_true", help="also each kernel's roofline bound and the fraction each tool reaches"
    )
    parser.add_argument(
        "--target", type=Path, metavar="FILE", help="--roofline: the limits of this target file (else measured)"
    )
    parser.add_argument(
        "--plot", type=Path, metavar="FILE", help="--roofline: also draw the roofline into FILE (.svg or .png)"
    )
    args = parser.parse_args(argv)
    if args.polybench is not None and args.corpus is not None:
        parser.error("--polybench and --corpus exclude each other")
    if args.target is not None and not args.roofline:
        parser.error("--target sets the limits of --roofline: it needs --roofline")
    if args.plot is not None and not args.roofline:
        parser.error("--plot draws the roofline: it needs --roofline")
    if args.plot is not None and args.plot.suffix not in SUFFIXES:
        parser.error(f"--plot: the file's suffix chooses the format, one of {', '.join(SUFFIXES)}")
    if args.roofline and (args.polybench is not None or args.corpus is not None):
        parser.error("--roofline benches the examples: it excludes --polybench and --corpus")
    if (args.polybench is not None or args.corpus is not None) and args.kernels:
        parser.error("--polybench and --corpus take --kernels K1,K2, not kernel names")
    if args.examples is not None and (args.polybench is not None or args.corpus is not None):
        parser.error("--examples names the example suite: it excludes --polybench and --corpus")
    if args.json is not None and args.corpus is not None:
        parser.error("--json writes the results of the examples or of --polybench, not of --corpus")
    try:
        args.vs = vs_columns(args.vs)
    except ValueError as error:
        parser.error(str(error))
    if args.polybench is not None:
        args.rtol = DEFAULT_RTOL if args.rtol is None else args.rtol
        return polybench_main(args)
    if args.corpus is not None:
        args.rtol = CORPUS_RTOL if args.rtol is None else args.rtol
        arguments = sys.argv[1:] if argv is None else argv
        return corpus_main(args, " ".join(["python3 -m polyopt.bench", *map(shlex.quote, arguments)]))
    examples = EXAMPLES if args.examples is None else args.examples
    try:
        kernels = example_kernels(examples, args.kernels)
    except ValueError as error:
        parser.error(str(error))
    vs: dict[str, str] = args.vs
    names = ["original", "polyopt", *vs]
    print(
        f"{len(kernels)} examples of {examples}, size {args.size}, {args.threads} threads, median of {args.runs}"
        f" rounds or more (until each variant's times add up to {args.min_seconds} s, {MAX_ROUNDS} at most),"
        f" gcc {' '.join(CFLAGS)}"
    )
    for name, command in vs.items():
        print(f"{name}: {command}")
    print(f"{'kernel':<16}" + "".join(f"{n + ' s':>12}" for n in names) + "".join(f"{n + ' x':>12}" for n in names[1:]))
    speedups: dict[str, list[float]] = {n: [] for n in names[1:]}
    results: dict[str, Result] = {}
    for kernel in kernels:
        try:
            result = bench_kernel(
                kernel,
                args.size,
                args.threads,
                args.runs,
                shlex.split(args.flags),
                vs,
                args.min_seconds,
                examples=examples,
            )
        except (subprocess.CalledProcessError, ToolchainError) as error:
            print(f"{kernel:<16}failed: {error}")
            continue
        results[kernel] = result
        base = result["original"][0]
        row = f"{kernel:<16}" + "".join(f"{result[n][0]:>12.4f}" if n in result else f"{'failed':>12}" for n in names)
        for name in names[1:]:
            if name not in result:
                row += f"{'-':>12}"
                continue
            seconds, same, repeated = result[name]
            ratio = base / seconds if seconds > 0 else math.inf
            if 0 < ratio < math.inf:  # a time of 0 is below the timer's resolution: no speedup to average
                speedups[name].append(ratio)
            row += f"{ratio:>10.2f}{'x' if same else '!'}{'=' if repeated else ' '}"
        print(row, flush=True)
    for name, values in speedups.items():
        if values:
            print(f"geometric mean speedup of {name}: {geometric_mean(values):.2f}x over {len(values)} kernels")
    print("('!' after a speedup: that variant's output differs from the original's beyond a 1e-6 relative tolerance;")
    print(" '=': its code is identical to an earlier column's, which was timed for both)")
    if args.json is not None:
        polyopt = " ".join(["polyopt", *shlex.split(args.flags), "{cppflags}", "{in}", "-o", "{out}"])
        commands = {"polyopt": polyopt, **vs}
        args.json.write_text(json.dumps(examples_json(results, args.size, args.threads, commands), indent=2) + "\n")
    if args.roofline:
        try:
            cpp_flags = example_cpp_flags(args.size, examples)
            works = {kernel: file_work(examples / f"{kernel}.c", cpp_flags) for kernel in results}
            print_roofline(results, works, args.size, args.threads, names[1:], args.target, args.plot)
        except PlotError as error:
            print(f"python -m polyopt.bench: error: {error}", file=sys.stderr)
            return 1
    return 0


def examples_json(results: Mapping[str, Result], size: str, threads: int, commands: Mapping[str, str]) -> dict:
    """The results of the examples as plain data for ``--json``: the settings, each tool's command by its column
    name, and per kernel and column the median seconds, whether the output is the original's and the column whose
    program was timed for it (its own, or an earlier one with the same code)."""
    return {
        "machine": machine_description(),
        "date": datetime.date.today().isoformat(),
        "size": size,
        "threads": threads,
        "commands": dict(commands),
        "kernels": {
            kernel: {
                name: {"seconds": seconds, "same_output": same, "timed_once_with_an_earlier_column": repeated}
                for name, (seconds, same, repeated) in result.items()
            }
            for kernel, result in results.items()
        },
    }
