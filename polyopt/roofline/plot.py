"""The roofline plot: each kernel a point per tool (arithmetic intensity, GFLOP/s reached), under the machine's
ceilings: the peak rate, and each memory level's bandwidth times the intensity.

Public: ``Point``, ``PlotError``, ``SUFFIXES``, ``ceilings``, ``plot_roofline``.

Drawn with matplotlib, an optional extra (``pip install 'polyopt[plot]'``), so that the core install stays small;
the file's suffix chooses the format (``.svg`` or ``.png``).  In an SVG the text stays text.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from polyopt.measure.limits import LEVELS, Limits

SUFFIXES = (".svg", ".png")
_MARKERS = "os^Dv<>p*hX"


class PlotError(Exception):
    """The plot cannot be drawn (no matplotlib, or a format it is not drawn in)."""


@dataclass(frozen=True)
class Point:
    """One kernel's run by one tool: its flops per byte and the GFLOP/s it reached."""

    kernel: str
    tool: str
    intensity: float
    gflops: float


def ceilings(limits: Limits, threads: int) -> tuple[float, list[tuple[str, float]]]:
    """The peak GFLOP/s of ``double`` and each measured level's bandwidth in GB/s (memory first), on all
    cores above one thread, else one core's."""
    core = "" if threads > 1 else "_core"
    peak = getattr(limits, f"peak_gflops_double{core}")
    levels = [(level.upper(), getattr(limits, f"bandwidth_{level}{core}")) for level in reversed(LEVELS)]
    return peak, [(name, bandwidth) for name, bandwidth in levels if bandwidth > 0]


def _pyplot():
    """matplotlib's pyplot on a backend that needs no display, or ``PlotError`` saying how to install it."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as pyplot
    except ImportError as error:
        raise PlotError("the roofline plot needs matplotlib: pip install 'polyopt[plot]'") from error
    return pyplot


def plot_roofline(path: Path, points: Sequence[Point], limits: Limits, threads: int, title: str) -> None:
    """Draw ``points`` under ``limits``' ceilings at ``threads`` into ``path`` (``SUFFIXES``); the kernels of the
    first tool are labelled.  Points without traffic (infinite intensity) or time are left out."""
    if path.suffix not in SUFFIXES:
        raise PlotError(f"the roofline plot is drawn as {' or '.join(SUFFIXES)}, not '{path.suffix or path.name}'")
    shown = [p for p in points if math.isfinite(p.intensity) and p.intensity > 0 and p.gflops > 0]
    pyplot = _pyplot()
    pyplot.rcParams["svg.fonttype"] = "none"
    peak, levels = ceilings(limits, threads)
    low = min([p.intensity for p in shown] + [peak / bandwidth for _, bandwidth in levels]) / 4
    high = max([p.intensity for p in shown] + [peak / bandwidth for _, bandwidth in levels]) * 4
    figure, axes = pyplot.subplots(figsize=(10, 7))
    xs = [low * (high / low) ** (step / 64) for step in range(65)]
    for name, bandwidth in levels:
        axes.plot(xs, [min(peak, bandwidth * x) for x in xs], color="0.6", linewidth=1)
        axes.annotate(f"{name} {bandwidth:.0f} GB/s", (low, bandwidth * low), fontsize=7, color="0.4")
    axes.axhline(peak, color="0.3", linewidth=1.2)
    axes.annotate(f"peak {peak:.0f} GFLOP/s (double)", (high / 8, peak * 1.1), fontsize=8, color="0.3")
    tools = list(dict.fromkeys(p.tool for p in shown))
    for index, tool in enumerate(tools):
        mine = [p for p in shown if p.tool == tool]
        axes.scatter(
            [p.intensity for p in mine], [p.gflops for p in mine], marker=_MARKERS[index % len(_MARKERS)], label=tool
        )
    for p in shown:
        if p.tool == tools[0]:
            axes.annotate(p.kernel, (p.intensity, p.gflops), fontsize=6, xytext=(3, 2), textcoords="offset points")
    axes.set_xscale("log")
    axes.set_yscale("log")
    axes.set_xlabel("arithmetic intensity (flop per compulsory byte)")
    axes.set_ylabel("GFLOP/s reached")
    axes.set_title(title, fontsize=9)
    axes.legend()
    axes.grid(True, which="major", linewidth=0.3)
    figure.tight_layout()
    figure.savefig(path)
    pyplot.close(figure)
