"""Benchmark: original versus optimized example kernels, timed in interleaved runs.

Usage: ``python -m polyopt.bench [KERNEL ...] [--size LARGE] [--threads 2] [--runs 3]
[--flags '...'] [--vs 'polycc {in} --tile --parallel -o {out}']``.

Each kernel is compiled original and optimized (and, with ``--vs``, by another
tool's command) with the same gcc flags; the binaries run in turn (A B A B ...)
with ``OMP_NUM_THREADS`` set, and the median of the kernel times each prints
(``polybench-time`` on stderr) is reported with the speedups and their
geometric mean.  Outputs are compared too: a mismatch is flagged, never hidden.
"""

from __future__ import annotations

import argparse
import math
import shlex
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from polyopt.toolchain import ToolchainError, compile_c, first_difference, run_polyopt, run_program

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
CFLAGS = ["-O3", "-march=native", "-fopenmp"]


def _compile(source: Path, binary: Path, size: str) -> None:
    compile_c(source, binary, flags=CFLAGS, include_dirs=[EXAMPLES], defines=[f"{size}_DATASET"])


def _run(binary: Path, threads: int) -> tuple[float, str]:
    done = run_program(binary, threads=threads, timeout=3600)
    for line in done.stderr.splitlines():
        if line.startswith("polybench-time:"):
            return float(line.split()[1]), done.stdout
    raise ToolchainError(f"{binary} printed no polybench-time")


def _variants(kernel: str, folder: Path, flags: list[str], others: list[str]) -> dict[str, Path]:
    source = EXAMPLES / f"{kernel}.c"
    variants = {"original": source}
    optimized = folder / f"{kernel}.polyopt.c"
    done = run_polyopt([str(source), "-o", str(optimized), *flags])
    if done.returncode != 0:
        raise ToolchainError(f"polyopt exited with {done.returncode}:\n{done.stderr}")
    variants["polyopt"] = optimized
    for index, template in enumerate(others):
        out = folder / f"{kernel}.vs{index}.c"
        command = template.format(**{"in": str(source), "out": str(out)})
        subprocess.run(shlex.split(command), check=True, capture_output=True, cwd=folder)
        variants[f"vs{index}"] = out
    return variants


def outputs_agree(expected: str, actual: str, rel_tol: float = 1e-6) -> bool:
    """Same tokens, numbers equal within ``rel_tol`` (gcc may contract a*b+c into FMAs
    differently in differently shaped loops under -march=native)."""
    return first_difference(expected, actual, rel_tol=rel_tol, abs_tol=rel_tol) is None


def bench_kernel(
    kernel: str, size: str, threads: int, runs: int, flags: list[str], others: list[str]
) -> dict[str, tuple[float, bool]]:
    """Median time of each variant and whether its output matches the original's."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        binaries = {}
        for name, source in _variants(kernel, folder, flags, others).items():
            binaries[name] = folder / f"{kernel}.{name}.bin"
            _compile(source, binaries[name], size)
        times: dict[str, list[float]] = {name: [] for name in binaries}
        outputs: dict[str, str] = {}
        for _ in range(runs):
            for name, binary in binaries.items():
                seconds, output = _run(binary, threads)
                times[name].append(seconds)
                outputs.setdefault(name, output)
        return {
            name: (statistics.median(values), outputs_agree(outputs["original"], outputs[name]))
            for name, values in times.items()
        }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m polyopt.bench", description=__doc__.split("\n\n")[0])
    parser.add_argument("kernels", nargs="*", help="kernel names (default: the whole example suite)")
    parser.add_argument("--size", default="LARGE", choices=["MINI", "SMALL", "LARGE"])
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--flags", default="", help="extra polyopt flags, e.g. '--fuse=max'")
    parser.add_argument(
        "--vs",
        action="append",
        default=[],
        metavar="COMMAND",
        help="another tool's command with {in} and {out}; may repeat",
    )
    args = parser.parse_args(argv)
    kernels = args.kernels or sorted(p.stem for p in EXAMPLES.glob("*.c"))
    names = ["original", "polyopt"] + [f"vs{i}" for i in range(len(args.vs))]
    print(f"size {args.size}, {args.threads} threads, median of {args.runs}, gcc {' '.join(CFLAGS)}")
    print(f"{'kernel':<16}" + "".join(f"{n + ' s':>12}" for n in names) + "".join(f"{n + ' x':>12}" for n in names[1:]))
    speedups: dict[str, list[float]] = {n: [] for n in names[1:]}
    for kernel in kernels:
        try:
            result = bench_kernel(kernel, args.size, args.threads, args.runs, shlex.split(args.flags), args.vs)
        except (subprocess.CalledProcessError, ToolchainError) as error:
            print(f"{kernel:<16}failed: {error}")
            continue
        base = result["original"][0]
        row = f"{kernel:<16}" + "".join(f"{result[n][0]:>12.4f}" for n in names)
        for name in names[1:]:
            seconds, same = result[name]
            ratio = base / seconds if seconds > 0 else math.inf
            speedups[name].append(ratio)
            row += f"{ratio:>11.2f}{'x' if same else '!'}"
        print(row, flush=True)
    for name, values in speedups.items():
        if values:
            mean = math.exp(sum(math.log(v) for v in values) / len(values))
            print(f"geometric mean speedup of {name}: {mean:.2f}x over {len(values)} kernels")
    print("('!' after a speedup: that variant's output differs from the original's beyond a 1e-6 relative tolerance)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
