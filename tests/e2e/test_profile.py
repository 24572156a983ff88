"""End-to-end checks of the target profile (``polyopt.machine``): a profile key set in a target file
changes the generated code, which still computes the original's output, and the printed target
file gives the same code as the machine it describes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.e2e.handwritten import assert_example_output
from tests.support import (
    EXAMPLES,
    needs_gcc,
    run_polyopt,
)

NO_PROBE = "--no-probe"
# (kernel, flags, profile line, the line the profile writes, which the default code (its value from this
# machine's caches) does not hold)
PROFILES = [
    (
        "bicg",
        ("--blas=none", "--no-microkernel", "--parallel-work=0"),
        "section-limit = 10",
        "if (_PB_M >= 1 && _PB_M <= 10) {",
    ),
    (
        "gemm",
        ("--blas=none", "--parallel-work=0"),
        "kc-limit = 32",
        "enum { polyopt_kc = 32,",
    ),
]


def _optimized(source: Path, flags: tuple[str, ...], output: Path) -> str:
    result = run_polyopt(source, [NO_PROBE, *flags], output=output)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    return output.read_text()


@needs_gcc
@pytest.mark.parametrize(("kernel", "flags", "setting", "changed"), PROFILES, ids=lambda v: str(v)[:20])
def test_a_profile_key_in_a_target_file_changes_the_code_and_keeps_the_output(
    tmp_path: Path, kernel: str, flags: tuple[str, ...], setting: str, changed: str
) -> None:
    source = EXAMPLES / f"{kernel}.c"
    target = tmp_path / "small.target"
    target.write_text(f"# a non-default profile\n{setting}\n")

    usual = _optimized(source, flags, tmp_path / "usual.c")
    profiled = tmp_path / "profiled.c"
    text = _optimized(source, (*flags, "--target", str(target)), profiled)

    assert changed in text and changed not in usual
    assert_example_output(tmp_path, kernel, profiled, "MINI")


def test_the_printed_target_file_gives_the_decisions_of_the_detected_machine(tmp_path: Path) -> None:
    printed = subprocess.run(
        [sys.executable, "-m", "polyopt.measure"], capture_output=True, text=True, timeout=60, check=True
    )
    target = tmp_path / "here.target"
    target.write_text(printed.stdout)
    source = EXAMPLES / "jacobi-2d.c"
    runs = []
    for name, flags in (("detected", ()), ("read_back", ("--target", str(target)))):
        output = tmp_path / f"{name}.c"
        result = run_polyopt(source, [NO_PROBE, "--blas=none", "--report", *flags], output=output)
        assert result.returncode == 0, result.stderr
        machine, *report = result.stderr.splitlines()
        runs.append((output.read_text(), machine.rsplit(" (", 1)[0], report))

    detected, read_back = runs
    assert read_back == detected
    assert "  fusion: model: {nest 1}" in detected[2]
