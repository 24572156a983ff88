"""Tests for ``polyopt check`` (``polyopt.program.check``) and the output comparison it shares with the fuzzer
and the benchmark (``toolchain.first_difference``).

``polybench_check_tree/`` is a small tree in PolyBench/C's layout, written for these tests:
``utilities/polybench.h`` and ``polybench.c`` (array allocation, ``-DPOLYBENCH_DUMP_ARRAYS`` dumps
on stderr, ``-DPOLYBENCH_TIME`` prints the kernel time) and three kernels: ``mm`` (a
floating-point matrix product, printed ``%0.2lf``), ``smooth1d`` (a time-iterated stencil) and
``hops`` (integer all-pairs shortest paths, printed ``%d``).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polyopt.program.harness import find_utilities, polybench_additions
from polyopt.toolchain import first_difference
from tests.cli.test_cli import run
from tests.support import needs_gcc, working_copy

TREE = Path(__file__).resolve().parent / "polybench_check_tree"
MM = "linear-algebra/kernels/mm/mm.c"
HOPS = "medley/hops/hops.c"


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``polybench_check_tree``, made the current folder."""
    return working_copy(TREE, tmp_path, monkeypatch)


def test_integers_must_be_equal_whatever_the_tolerance() -> None:
    assert first_difference("1000000 7", "1000001 7", rel_tol=1e-3) is not None
    assert first_difference("1000000.0 7", "1000001.0 7", rel_tol=1e-3) is None


def test_a_value_on_a_rounding_boundary_may_print_either_way() -> None:
    # 0.125 and 0.12500001 print as 0.12 and 0.13 with %0.2f: one unit in the last printed digit
    assert first_difference("0.12 3.50", "0.13 3.50", rel_tol=1e-9) is None
    assert first_difference("1.5e+03", "1.6e+03", rel_tol=1e-9) is None
    difference = first_difference("0.12 3.50", "0.12 3.52", rel_tol=1e-9, names=("original", "optimized"))
    assert difference is not None
    assert "token 2, line 1, column 6: original '3.50', optimized '3.52'" in difference


def test_the_tolerance_is_relative_with_an_absolute_floor_near_zero() -> None:
    assert first_difference("1000.000000", "1000.000900", rel_tol=1e-6) is None
    assert first_difference("1000.000000", "1000.002000", rel_tol=1e-6) is not None
    assert first_difference("0.000000001", "-0.000000001", rel_tol=1e-6) is None
    assert first_difference("0.000000001", "-0.000000001", rel_tol=1e-6, abs_tol=0.0) is not None


def test_polybench_layout_is_found_up_the_tree_and_completed(tree: Path) -> None:
    utilities = (tree / "utilities").resolve()
    assert find_utilities(tree / MM, (), ()) == utilities
    flags, sources = polybench_additions(utilities, ("-DMINI_DATASET",), ())
    assert flags == ("-DPOLYBENCH_DUMP_ARRAYS", f"-I{utilities}")
    assert sources == (utilities / "polybench.c",)
    given = ("-DPOLYBENCH_DUMP_ARRAYS", f"-I{tree / 'utilities'}")
    assert polybench_additions(utilities, given, (tree / "utilities" / "polybench.c",)) == ((), ())


def test_a_file_outside_polybench_has_no_layout(tmp_path: Path) -> None:
    source = tmp_path / "plain.c"
    source.write_text("int main(void) { return 0; }\n")
    assert find_utilities(source, (), ()) is None


@needs_gcc
@pytest.mark.parametrize("kernel", [MM, HOPS])
def test_check_passes_on_the_fixture_kernels(tree: Path, kernel: str) -> None:
    result = run("check", kernel, "-DMINI_DATASET")
    assert result.exit_code == 0, result.stderr
    assert "PolyBench layout" in result.stderr and "-DPOLYBENCH_DUMP_ARRAYS" in result.stderr
    summary = result.stdout.decode()
    assert re.search(
        r"outputs agree \(0 tokens on standard output, [1-9]\d+ tokens on standard error; OMP_NUM_THREADS=1, 2", summary
    )


@needs_gcc
def test_the_dataset_flag_reaches_the_compiler_and_nothing_is_added_when_given(tree: Path) -> None:
    extra = ("-Iutilities", "-DPOLYBENCH_DUMP_ARRAYS", "utilities/polybench.c")
    result = run("check", "stencils/smooth1d/smooth1d.c", *extra, "-DSMALL_DATASET", "--notile")
    assert result.exit_code == 0, result.stderr
    assert "PolyBench layout" not in result.stderr
    assert "130 tokens on standard error" in result.stdout.decode()  # SMALL's 120 values of A, and 10 words


@needs_gcc
def test_a_pluto_makefile_line_and_the_report_go_through_to_polyopt(tree: Path) -> None:
    result = run("check", "--report", HOPS, "-DMINI_DATASET", "--tile", "--parallel", "--silent")
    assert result.exit_code == 0, result.stderr
    assert "ignoring Pluto's options --silent" in result.stderr
    assert "region 1 at medley/hops/hops.c" in result.stderr  # polyopt's report, FILE not taken as its value


@needs_gcc
def test_check_fails_on_a_broken_output_and_names_the_first_differing_value(tree: Path) -> None:
    broken = tree / "broken.c"
    source = (tree / MM).read_text()
    statement = "C[i][j] += alpha * A[i][k] * B[k][j];"
    assert statement in source
    broken.write_text(source.replace(statement, "C[i][j] += alpha * A[i][k] * B[k][j] * (i == 3 && j == 5 ? 2 : 1);"))
    result = run("check", MM, "-DMINI_DATASET", "--optimized", str(broken))
    assert result.exit_code == 1, result.stderr
    # C[3][5] of the 16 x 18 matrix: value 59 after 5 words; mm.c breaks lines where (i * 16 + j) % 20 == 0,
    # so line 5 starts at C[2][8] and C[3][5] is its 16th value
    where = "token 65, line 5, column 76, in array 'C': original '7.08', optimized '14.15'"
    expected = f"standard error: first difference at {where}"
    assert "FAILED: outputs differ with OMP_NUM_THREADS=1, " + expected in result.stderr, result.stderr


@needs_gcc
def test_an_integer_program_is_compared_exactly(tree: Path) -> None:
    broken = tree / "broken.c"
    source = (tree / HOPS).read_text()
    broken.write_text(source.replace("D[i][j] = i == j ? 0 :", "D[i][j] = i == j ? i == 9 : "))
    result = run("check", HOPS, "-DMINI_DATASET", "--optimized", str(broken), "--rtol", "0.5")
    assert result.exit_code == 1, result.stderr
    assert "in array 'D': original '0', optimized '1'" in result.stderr


@needs_gcc
def test_a_compiler_that_cannot_be_run_fails_the_check(tree: Path) -> None:
    result = run("check", MM, "-DMINI_DATASET", "--cc", "no-such-compiler", "--optimized", MM)
    assert result.exit_code == 1
    assert "cannot run no-such-compiler" in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        ((), "missing FILE"),
        (("nothere.c",), "no such file: 'nothere.c'"),
        ((MM, "-o", "out.c"), "polyopt check writes no output file"),
        ((MM, "--optimized", MM, "--notile"), "polyopt's flags (--notile) have no effect with --optimized"),
        ((MM, "--fuse=sometimes"), "polyopt's flags:"),
        ((MM, "--rtol", "-1"), "--rtol"),
        ((MM, "--iss"), "Pluto's option '--iss' is not supported"),
    ],
)
def test_usage_errors_exit_2(tree: Path, arguments: tuple[str, ...], message: str) -> None:
    result = run("check", *arguments)
    assert result.exit_code == 2, result.stderr
    assert message in result.stderr
    assert "Usage: polyopt check" in result.stderr


def test_a_file_named_check_is_optimized_as_dot_slash_check(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "check").write_text("void f(int n, double a[n])\n{\n  for (int i = 0; i < n; i++)\n    a[i] = 0;\n}\n")
    assert run("check").exit_code == 2  # the subcommand, without its FILE
    result = run("./check", "-o", "out.c")
    assert result.exit_code == 0, result.stderr
    assert (tmp_path / "out.c").exists()
