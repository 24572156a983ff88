"""The roofline of a benchmark's results (``python -m polyopt.bench --roofline``): per kernel its arithmetic
intensity and bound (``polyopt.roofline.bound``), per tool the GFLOP/s reached and the fraction of the bound, and
the plot of them (``polyopt.roofline.plot``), titled with the machine, the size and the date.

Public: ``Result``, ``roofline_limits``, ``roofline_table``, ``roofline_title``, ``print_roofline``.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping, Sequence
from pathlib import Path

from polyopt.bench.corpus import machine_description
from polyopt.bench.timing import geometric_mean
from polyopt.machine import Machine, detect, load_target
from polyopt.measure.limits import Limits, measured_limits
from polyopt.roofline.bound import Bound, Work, bound
from polyopt.roofline.plot import Point, plot_roofline
from polyopt.target_keys import LIMIT_FIELDS

Result = Mapping[str, tuple[float, bool, bool]]  # bench_kernel's: per variant, seconds, same output, timed once


def roofline_limits(machine: Machine) -> tuple[Limits, str]:
    """The limits of the roofline: ``machine``'s profile keys when it sets them all (a target file), else the
    measured ones (``polyopt.measure.limits``, cached), and where they come from."""
    values = {field: getattr(machine, field) for field in LIMIT_FIELDS}
    if all(value > 0 for field, value in values.items() if "_l3" not in field):
        return Limits(**values), machine.origin
    limits, how = measured_limits(machine)
    return limits, f"measured: {how}"


def roofline_table(
    results: Mapping[str, Result], works: Mapping[str, Work], bounds: Mapping[str, Bound], tools: Sequence[str]
) -> str:
    """Per kernel, its flops per byte, its bound (seconds, and which limit applies) and per tool the GFLOP/s
    reached and the fraction of the bound (``!`` after it: the tool's output differs; ``-`` for a time of 0 or
    a tool that failed); then the geometric mean of each tool's fractions."""
    lines = [
        f"{'kernel':<16}{'flop/B':>8}{'bound s':>12}{'bound':>9}"
        + "".join(f"{tool + ' GF/s':>16}{tool + ' frac':>15} " for tool in tools)
    ]
    fractions: dict[str, list[float]] = {tool: [] for tool in tools}
    for kernel, result in results.items():
        work, limit = works[kernel], bounds[kernel]
        row = f"{kernel:<16}{work.intensity:>8.2f}{limit.seconds:>12.3e}{limit.applies:>9}"
        for tool in tools:
            seconds, same, _ = result.get(tool, (0.0, True, False))
            if seconds <= 0:  # below the timer's resolution, or the tool failed
                row += f"{'-':>16}{'-':>15} "
                continue
            fraction = limit.seconds / seconds
            fractions[tool].append(fraction)
            row += f"{work.flops / seconds / 1e9:>16.2f}{fraction:>15.3f}{' ' if same else '!'}"
        lines.append(row)
    means = [geometric_mean(values) for values in fractions.values()]
    lines.append(
        f"{'geometric mean':<45}" + "".join(f"{'':>16}{mean:>15.3f} " if mean else f"{'':>32}" for mean in means)
    )
    return "\n".join(lines) + "\n"


def roofline_title(machine: str, size: str, threads: int, date: str) -> str:
    """The title of the roofline plot: the machine the kernels ran on, the size, the threads and the date."""
    return f"{machine}: size {size}, {threads} threads, {date}"


def print_roofline(
    results: Mapping[str, Result],
    works: Mapping[str, Work],
    size: str,
    threads: int,
    tools: Sequence[str],
    target: Path | None,
    plot: Path | None,
) -> None:
    """The roofline table of ``results`` (kernels of flops and bytes ``works``, timed at ``size`` on ``threads``),
    under the limits used (``target``'s, else measured); with ``plot``, also drawn there."""
    limits, origin = roofline_limits(load_target(target) if target is not None else detect())
    bounds = {kernel: bound(work, limits, threads) for kernel, work in works.items()}
    core = "" if threads > 1 else "_core"
    print(
        f"\nroofline at {threads} threads: peak {getattr(limits, f'peak_gflops_double{core}'):g} GFLOP/s,"
        f" {getattr(limits, f'peak_gdivs_double{core}'):g} G double divisions/s,"
        f" DRAM {getattr(limits, f'bandwidth_dram{core}'):g} GB/s ({origin})"
    )
    print(roofline_table(results, works, bounds, tools), end="")
    print("(frac: bound time / measured time; '!': that tool's output differs from the original's)")
    if plot is not None:
        points = [
            Point(kernel, tool, works[kernel].intensity, works[kernel].flops / result[tool][0] / 1e9)
            for kernel, result in results.items()
            for tool in ("original", *tools)
            if tool in result and result[tool][0] > 0
        ]
        title = roofline_title(machine_description(), size, threads, datetime.date.today().isoformat())
        plot_roofline(plot, points, limits, threads, title)
        print(f"roofline plot: {plot}")
