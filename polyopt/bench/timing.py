"""Timing shared by the benchmarks: interleaved rounds, their number, twin variants, geometric means."""

from __future__ import annotations

import math
import re
import subprocess
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from polyopt.toolchain import CC, CFLAGS, ToolchainError

_REGION_MARKS = re.compile(r"^\s*#\s*pragma\s+(scop|endscop)\s*$", re.MULTILINE)


def _preprocessed(source: Path, cpp_flags: Sequence[str]) -> tuple[str, ...]:
    """The tokens gcc compiles from ``source``: preprocessed, without comments, line markers and the region
    marks (``#pragma scop``, which gcc ignores), so that a region printed as its own text is its original."""
    command = [CC, *CFLAGS, "-E", "-P", *cpp_flags, str(source)]
    code = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    return tuple(_REGION_MARKS.sub("", code).split())


def twins(sources: Mapping[str, Path], cpp_flags: Sequence[str]) -> dict[str, str]:
    """Each variant → the first variant (in order) whose code, preprocessed with ``cpp_flags``, is the same."""
    first: dict[str, str] = {}
    twin = {}
    for name, source in sources.items():
        twin[name] = first.setdefault(_preprocessed(source, cpp_flags), name)
    return twin


MAX_ROUNDS = 41  # a kernel this fast is timed by its medians over this many rounds at most


def rounds_wanted(times: Mapping[str, list[float]], runs: int, min_seconds: float) -> bool:
    """Whether to time another round: fewer than ``runs`` so far, or (below ``MAX_ROUNDS``)
    any variant's kernel time summed over the rounds still under ``min_seconds``: short
    kernels get more rounds, so that their medians are not one noisy sample's."""
    done = min((len(values) for values in times.values()), default=0)
    if done < runs:
        return True
    return done < MAX_ROUNDS and any(sum(values) < min_seconds for values in times.values())


def interleaved(
    binaries: Mapping[str, Path], run: Callable[[Path], tuple[float, str]], runs: int, min_seconds: float
) -> tuple[dict[str, list[float]], dict[str, str], dict[str, str]]:
    """Run ``binaries`` in turn (A B A B ...) while ``rounds_wanted``: each one's kernel times and first
    output, as ``run(binary)`` reads them, and the failure of each one whose run raised ``ToolchainError``
    (it is not run again)."""
    times: dict[str, list[float]] = {name: [] for name in binaries}
    outputs: dict[str, str] = {}
    failures: dict[str, str] = {}
    running = dict(binaries)
    while running and rounds_wanted({name: times[name] for name in running}, runs, min_seconds):
        for name, binary in list(running.items()):
            try:
                seconds, output = run(binary)
            except ToolchainError as error:
                failures[name] = str(error)
                del running[name]
                continue
            times[name].append(seconds)
            outputs.setdefault(name, output)
    return times, outputs, failures


def geometric_mean(values: Sequence[float]) -> float | None:
    return math.exp(sum(math.log(value) for value in values) / len(values)) if values else None
