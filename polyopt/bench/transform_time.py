"""The optimizer's own time: seconds to transform each example kernel, polyopt against other tools.

Usage: ``python -m polyopt.bench.transform_time [KERNEL ...] [--examples DIR] [--size LARGE] [--rounds 5]
[--flags '...'] [--vs '[NAME=]polycc --tile --parallel {in} -o {out}'] [--save DIR] [--same-as DIR]``.

Each tool's command (named as ``python -m polyopt.bench`` names it) runs on each example kernel in turn
(polyopt, then each ``--vs``, round after round), timed by the wall clock of the whole process, as a Makefile runs
it; per kernel the median of the rounds, then per tool the median over the kernels.  polyopt's output must be the
same bytes in every round (else it is flagged); ``--save DIR`` keeps it, and ``--same-as DIR`` compares it with an
earlier ``--save``, so that a faster optimizer is shown to make the same decisions.  polyopt's own probe is read
from its cache: a first, untimed round fills it.
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from polyopt.bench.polybench import vs_columns
from polyopt.bench.suite import EXAMPLES, example_kernels, tool_command

PROG = "python -m polyopt.bench.transform_time"
POLYOPT = f"{shlex.quote(sys.executable)} -m polyopt {{cppflags}} {{in}} -o {{out}}"


def _timed(command: Sequence[str], folder: Path) -> float | None:
    """The wall-clock seconds of ``command`` run in ``folder``; None when it fails."""
    start = time.perf_counter()
    done = subprocess.run(command, cwd=folder, capture_output=True)
    return time.perf_counter() - start if done.returncode == 0 else None


def kernel_times(
    kernel: str, tools: dict[str, str], rounds: int, size: str, flags: str, folder: Path, examples: Path
) -> tuple[dict[str, float | None], bytes, bool]:
    """Per tool the median seconds over ``rounds`` on ``kernel`` of the folder ``examples`` (after one untimed
    round; None: the tool failed, and is not run again), polyopt's output (empty when it failed) and whether it
    was the same in every round."""
    source = examples / f"{kernel}.c"
    times: dict[str, list[float]] = {name: [] for name in tools}
    failed: set[str] = set()
    outputs: set[bytes] = set()
    for round_ in range(rounds + 1):
        for name, template in tools.items():
            if name in failed:
                continue
            output = folder / f"{kernel}.{name}.c"
            extra = shlex.split(flags) if name == "polyopt" else []
            seconds = _timed([*tool_command(template, source, output, size, examples), *extra], folder)
            if seconds is None:
                failed.add(name)
                continue
            if round_:
                times[name].append(seconds)
            if name == "polyopt":
                outputs.add(output.read_bytes())
    medians = {name: None if name in failed else statistics.median(times[name]) for name in tools}
    stable = len(outputs) <= 1
    return medians, outputs.pop() if outputs else b"", stable


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog=PROG, description=__doc__.split("\n\n")[0])
    parser.add_argument("kernels", nargs="*", help="kernel names (default: every example of --examples)")
    parser.add_argument(
        "--examples", type=Path, default=EXAMPLES, metavar="DIR", help=f"the example kernels' folder ({EXAMPLES})"
    )
    parser.add_argument("--size", default="LARGE", choices=["MINI", "SMALL", "LARGE"])
    parser.add_argument("--rounds", type=int, default=5, help="timed rounds per kernel (default 5)")
    parser.add_argument("--flags", default="", help="extra polyopt flags")
    parser.add_argument(
        "--vs", action="append", default=[], metavar="[NAME=]COMMAND", help="another tool, named NAME; may repeat"
    )
    parser.add_argument("--save", type=Path, metavar="DIR", help="write polyopt's outputs into DIR")
    parser.add_argument("--same-as", type=Path, metavar="DIR", help="compare polyopt's outputs with DIR's")
    args = parser.parse_args(argv)
    try:
        kernels = example_kernels(args.examples, args.kernels)
        tools = {"polyopt": POLYOPT, **vs_columns(args.vs)}
    except ValueError as error:
        parser.error(str(error))
    for name, command in tools.items():
        print(f"{name}: {command} {args.flags if name == 'polyopt' else ''}".rstrip())
    print(f"size {args.size}, median of {args.rounds} rounds (wall clock per run)")
    print(f"{'kernel':<16}" + "".join(f"{name + ' s':>12}" for name in tools) + "  polyopt output")
    rows: list[dict[str, float | None]] = []
    different = 0
    with tempfile.TemporaryDirectory(prefix="polyopt-transform-time-") as name:
        for kernel in kernels:
            times, output, stable = kernel_times(
                kernel, tools, args.rounds, args.size, args.flags, Path(name), args.examples
            )
            status = "stable" if stable else "CHANGES between rounds"
            if args.same_as is not None:
                same = (args.same_as / f"{kernel}.c").read_bytes() == output
                status += ", same as before" if same else ", DIFFERS from before"
                different += not same
            if args.save is not None:
                args.save.mkdir(parents=True, exist_ok=True)
                (args.save / f"{kernel}.c").write_bytes(output)
            rows.append(times)
            print(f"{kernel:<16}" + "".join(_cell(times[tool]) for tool in tools) + f"  {status}", flush=True)
    print(f"{'median':<16}" + "".join(_cell(_median([row[tool] for row in rows])) for tool in tools))
    everywhere = [row for row in rows if None not in row.values()]
    if len(everywhere) < len(rows):
        print(
            f"{'median of ' + str(len(everywhere)):<16}"
            + "".join(_cell(_median([row[tool] for row in everywhere])) for tool in tools)
            + "  (the kernels every tool transformed)"
        )
    return 1 if different else 0


def _cell(seconds: float | None) -> str:
    return f"{'failed' if seconds is None else f'{seconds:.3f}':>12}"


def _median(values: list[float | None]) -> float | None:
    """The median of the times that are not None (None when there are none)."""
    times = [value for value in values if value is not None]
    return statistics.median(times) if times else None


if __name__ == "__main__":
    sys.exit(main())
