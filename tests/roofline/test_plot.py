"""Tests for ``polyopt.roofline.plot``: the ceilings, the drawn file, and the errors that say why none is drawn."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from polyopt.measure.limits import parse
from polyopt.roofline.plot import PlotError, Point, ceilings, plot_roofline
from tests.measure.test_limits import PRINTED

LIMITS = parse(PRINTED)  # peak double core 1.5, all cores 2.5; DRAM core 11.5, all cores 12.5; no field is 0
POINTS = [
    Point("gemm", "polyopt", 8.0, 2.0),
    Point("gemm", "original", 8.0, 0.5),
    Point("jacobi", "polyopt", 0.25, 1.0),
    Point("copy", "polyopt", float("inf"), 1.0),
]


def test_the_ceilings_are_the_peak_and_each_levels_bandwidth_memory_first() -> None:
    peak, levels = ceilings(LIMITS, threads=2)
    peak_core, levels_core = ceilings(LIMITS, threads=1)

    assert peak == LIMITS.peak_gflops_double and peak_core == LIMITS.peak_gflops_double_core
    assert [name for name, _ in levels] == ["DRAM", "L3", "L2", "L1"]
    assert dict(levels)["DRAM"] == LIMITS.bandwidth_dram and dict(levels_core)["L1"] == LIMITS.bandwidth_l1_core


@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_the_plot_is_drawn_in_the_format_of_its_suffix(tmp_path: Path, suffix: str) -> None:
    pytest.importorskip("matplotlib")
    path = tmp_path / f"roofline{suffix}"

    plot_roofline(path, POINTS, LIMITS, threads=2, title="LARGE, 2 threads")

    data = path.read_bytes()
    if suffix == ".png":
        assert data.startswith(b"\x89PNG")
        return
    text = data.decode()
    assert "<svg" in text and "jacobi" in text and "gemm" in text and "copy" not in text
    assert "DRAM 12 GB/s" in text and "peak 2 GFLOP/s (double)" in text and "LARGE, 2 threads" in text


def test_a_plot_in_another_format_is_refused_before_drawing(tmp_path: Path) -> None:
    with pytest.raises(PlotError, match="drawn as .svg or .png, not '.pdf'"):
        plot_roofline(tmp_path / "roofline.pdf", POINTS, LIMITS, threads=2, title="")

    assert not (tmp_path / "roofline.pdf").exists()


def test_without_matplotlib_the_error_says_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)

    with pytest.raises(PlotError, match=r"pip install 'polyopt\[plot\]'"):
        plot_roofline(tmp_path / "roofline.svg", POINTS, LIMITS, threads=2, title="")
