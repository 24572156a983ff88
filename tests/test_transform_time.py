"""Tests for ``python -m polyopt.bench.transform_time``: the optimizer's own time, against another tool's."""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.bench.transform_time import main


def test_each_tool_is_timed_per_kernel_and_polyopts_output_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    saved = tmp_path / "saved"

    status = main(["jacobi-1d", "--size", "MINI", "--rounds", "1", "--vs", "cp {in} {out}", "--save", str(saved)])

    lines = capsys.readouterr().out.splitlines()
    assert status == 0
    assert lines[0].endswith("-m polyopt {cppflags} {in} -o {out}") and lines[1] == "cp: cp {in} {out}"
    row = lines[4].split()
    assert row[0] == "jacobi-1d" and float(row[1]) > float(row[2]) > 0 and row[3] == "stable"
    assert lines[5].split()[0] == "median"
    assert "polyopt" in (saved / "jacobi-1d.c").read_text()


def test_an_output_unlike_the_saved_one_is_flagged(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "saved"
    saved.mkdir()
    (saved / "jacobi-1d.c").write_text("/* an earlier output */\n")

    status = main(["jacobi-1d", "--size", "MINI", "--rounds", "1", "--same-as", str(saved)])

    assert status == 1 and "stable, DIFFERS from before" in capsys.readouterr().out
