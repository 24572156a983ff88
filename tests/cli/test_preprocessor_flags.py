"""Tests for the compiler-style preprocessor flags ``-I``, ``-D`` and ``-U`` of the ``polyopt`` command.

``polybench_tree/`` is a small tree in PolyBench/C's layout: ``utilities/polybench.h`` and one kernel,
``linear-algebra/kernels/scale/scale.c``, whose sizes live in ``scale.h`` under the dataset macros
(LARGE by default: NI 1000, NJ 1200; MINI 20 x 30; EXTRALARGE 2000 x 2600).  As in PolyBench, the
loop bound ``_PB_NI`` is ``POLYBENCH_LOOP_BOUND(NI, ni)``, the kernel's parameter ``ni`` unless
``-DPOLYBENCH_USE_SCALAR_LB``; either way it stands for ``NI``.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from polyopt.command import options_from_arguments
from tests.cli.test_cli import run
from tests.support import needs_gcc, working_copy

TREE = Path(__file__).resolve().parent / "polybench_tree"
KERNEL = "linear-algebra/kernels/scale/scale.c"
ROOT = Path(__file__).resolve().parent.parent.parent


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``polybench_tree``, made the current folder."""
    return working_copy(TREE, tmp_path, monkeypatch)


def parameters_line(stderr: str) -> str:
    return next(line for line in stderr.splitlines() if line.startswith("  parameters:"))


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["-I", "/x", "-D", "N=100", "-U", "FOO"], ("-I/x", "-DN=100", "-UFOO")),
        (["-I/x", "-DN=100", "-UFOO"], ("-I/x", "-DN=100", "-UFOO")),
        (
            ["-DLARGE_DATASET", "-Iutilities", "-UX", "-DX", "-Iother"],
            ("-DLARGE_DATASET", "-Iutilities", "-UX", "-DX", "-Iother"),
        ),
        (["-D", "V=a b", "-DW="], ("-DV=a b", "-DW=")),
        ([], ()),
    ],
)
def test_flags_are_kept_joined_in_command_line_order(arguments: list[str], expected: tuple[str, ...]) -> None:
    assert options_from_arguments(arguments).cpp_flags == expected


@pytest.mark.parametrize("flag", ["-D1X", "-DA-B=3", "-UX=1", "-D=3"])
def test_an_invalid_macro_flag_is_a_usage_error(flag: str, tree: Path) -> None:
    result = run(KERNEL, flag, "-o", "out.c")

    assert result.exit_code == 2, result.stderr
    assert f"invalid preprocessor flag '{flag}'" in result.stderr
    assert "Traceback" not in result.stderr and not (tree / "out.c").exists()


@needs_gcc
@pytest.mark.parametrize(
    ("flags", "expected"),
    [
        (
            ["-I", "utilities"],
            "_PB_NI = 1000 (via NI: #define in linear-algebra/kernels/scale/scale.h, with -Iutilities)",
        ),
        (
            ["-Iutilities", "-DMINI_DATASET"],
            "_PB_NI = 20 (via NI: #define in linear-algebra/kernels/scale/scale.h, with -Iutilities -DMINI_DATASET)",
        ),
        (
            ["-Iutilities", "-D", "EXTRALARGE_DATASET"],
            "_PB_NJ = 2600 (via NJ: #define in linear-algebra/kernels/scale/scale.h, "
            "with -Iutilities -DEXTRALARGE_DATASET)",
        ),
        (["-Iutilities", "-DNI=77", "-DNJ=5"], "_PB_NI = 77 (via NI: -DNI=77), _PB_NJ = 5 (via NJ: -DNJ=5)"),
        (["-Iutilities", "-DNI=77", "-DNJ=5", "-UNI", "-UNJ"], "_PB_NI = 1000 (via NI: #define in"),
        (["-Iutilities", "--param", "_PB_NI=300"], "_PB_NI = 300 (--param), _PB_NJ = 1200"),
        (
            ["-Iutilities", "-DPOLYBENCH_USE_SCALAR_LB"],
            "_PB_NI = 1000 (#define in linear-algebra/kernels/scale/scale.h, "
            "with -Iutilities -DPOLYBENCH_USE_SCALAR_LB)",
        ),
    ],
)
def test_the_report_gives_the_dataset_sizes_and_where_they_come_from(
    tree: Path, flags: list[str], expected: str
) -> None:
    result = run(KERNEL, *flags, "-o", "out.c", "--report")

    assert result.exit_code == 0, result.stderr
    assert "warning" not in result.stderr
    assert expected in parameters_line(result.stderr)


@needs_gcc
def test_a_missing_include_is_warned_about_once_and_the_default_is_said(tree: Path) -> None:
    two_regions = (
        (tree / KERNEL)
        .read_text()
        .replace(
            "#pragma endscop\n}",
            "#pragma endscop\n#pragma scop\n  for (i = 0; i < _PB_NI; i++)\n    A[i][0] = 0;\n#pragma endscop\n}",
        )
    )
    (tree / "two.c").write_text(two_regions)

    result = run("two.c", "-DMINI_DATASET", "-o", "out.c", "--report")

    assert result.exit_code == 0, result.stderr
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert len(warnings) == 1, result.stderr
    assert warnings[0].startswith("two.c: warning: the preprocessor failed with -DMINI_DATASET (")
    assert "polybench.h" in warnings[0] and "-I" in warnings[0]
    assert "_PB_NI = 1024 (default: the preprocessor failed)" in parameters_line(result.stderr)


@needs_gcc
def test_a_makefile_rule_with_cppflags_works(tree: Path) -> None:
    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    (tree / "Makefile").write_text(
        f"POLYOPT = {sys.executable} -m polyopt\n"
        "CPPFLAGS = -I utilities -DMINI_DATASET\n"
        "%.opt.c: %.c\n"
        "\t$(POLYOPT) $(CPPFLAGS) $< -o $@ --report\n"
    )
    environment = dict(os.environ, PYTHONPATH=str(ROOT))

    result = subprocess.run(
        ["make", "-s", "linear-algebra/kernels/scale/scale.opt.c"],
        capture_output=True,
        text=True,
        env=environment,
        timeout=300,
        check=False,
    )

    assert result.returncode == 0, result.stderr
    assert "_PB_NI = 20 (via NI: #define in linear-algebra/kernels/scale/scale.h" in result.stderr
    assert (tree / "linear-algebra/kernels/scale/scale.opt.c").is_file()
