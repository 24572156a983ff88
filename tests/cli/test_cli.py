"""Tests for the ``polyopt`` command line: exit codes, messages, and what is (not) written.

The command runs in-process through click's ``CliRunner`` (click 8.2+ keeps
standard error separate from standard output), with an uncaught exception
turned into the traceback the real command would print.  A few tests run the
installed ``polyopt`` script in a subprocess to check the real entry point.

``tests/bad_inputs/`` holds one small C file per case of ``BAD_INPUT_TABLE`` (plus ``crlf.c`` and
``region_spans_functions.c``, which have tests of their own).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import traceback
from dataclasses import dataclass
from pathlib import Path

import pytest
from click.testing import CliRunner

from polyopt import __version__
from polyopt.__main__ import main
from polyopt.command import options_from_arguments
from polyopt.fuzz.differential import OPTIMIZED, OPTION_SETS, check_program

BAD_INPUTS = Path(__file__).resolve().parent.parent / "bad_inputs"
OLD_TIME_NS = 1_000_000_000 * 10**9
SENTINEL = b"/* an output file from an earlier run */\n"
MESSAGE = re.compile(r"^(?:[^:\n]+:\d+:\d+: (?:warning|error): |polyopt: error: )\S")


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: bytes
    stderr: str


def run(*args: str) -> Run:
    """Run ``polyopt args`` in the current directory."""
    result = CliRunner().invoke(main, list(args), prog_name="polyopt")
    stderr = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        stderr += "".join(traceback.format_exception(result.exception))
    return Run(result.exit_code, result.stdout_bytes, stderr)


@pytest.fixture
def workdir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def existing_output(path: Path) -> tuple[bytes, int]:
    """Create an output file from an 'earlier run'; return what must stay unchanged."""
    path.write_bytes(SENTINEL)
    os.utime(path, ns=(OLD_TIME_NS, OLD_TIME_NS))
    return path.read_bytes(), path.stat().st_mtime_ns


def assert_untouched(path: Path, snapshot: tuple[bytes, int]) -> None:
    assert (path.read_bytes(), path.stat().st_mtime_ns) == snapshot


def assert_clean_error(result: Run, fragment: str) -> None:
    """Exit 1, one well-formed message containing ``fragment``, no traceback, nothing on stdout."""
    assert result.exit_code == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == b""
    assert fragment in result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and MESSAGE.match(lines[0]), result.stderr


SIMPLE = (
    b"void kernel(int n, double a[n], double b[n])\n"
    b"{\n"
    b"#pragma scop\n"
    b"  for (int i = 0; i < n; i++)\n"
    b"    a[i] = b[i];\n"
    b"#pragma endscop\n"
    b"}\n"
)


# -- the corpus of bad inputs -------------------------------------------------

WARNING = "warning: region not optimized: "

# file, expected exit code, expected fragment of stderr (None: stderr must be empty), output == input
# (True: equal, False: different, None: not checked).
BAD_INPUT_TABLE = [
    ("syntax_error.c", 1, "syntax_error.c:7:19: error: syntax error: ", None),
    (
        "gnu_syntax_in_region.c",
        0,
        f"gnu_syntax_in_region.c:7:18: {WARNING}polyopt cannot read it (syntax error: Invalid expression); gcc accepts",
        True,
    ),
    ("garbage_in_region.c", 1, "garbage_in_region.c:5:10: error: syntax error: Illegal character", None),
    ("unterminated_scop.c", 1, "unterminated_scop.c:5:3: error: unterminated '#pragma scop'", None),
    ("nested_scop.c", 1, "nested_scop.c:8:1: error: nested '#pragma scop' (the region opened on line 5", None),
    ("stray_endscop.c", 1, "stray_endscop.c:10:5: error: '#pragma endscop' without a matching", None),
    ("unknown_polyopt_pragma.c", 1, "unknown_polyopt_pragma.c:5:1: error: unknown polyopt pragma 'private(t)'", None),
    ("data_dependent_bound.c", 0, f"data_dependent_bound.c:7:21: {WARNING}array access in a loop bound", True),
    ("nonaffine_subscript.c", 0, f"nonaffine_subscript.c:8:9: {WARNING}product of two variables", True),
    ("indirect_subscript.c", 0, None, False),
    ("pointer_access.c", 0, f"pointer_access.c:7:13: {WARNING}pointer operation '*'", True),
    ("call_statement.c", 0, f"call_statement.c:9:5: {WARNING}call to 'touch' as a statement", True),
    ("side_effect_call.c", 0, f"side_effect_call.c:8:12: {WARNING}call to 'printf' may have side effects", True),
    ("break_in_loop.c", 0, f"break_in_loop.c:8:5: {WARNING}'break' changes control flow", True),
    ("while_loop.c", 0, f"while_loop.c:5:3: {WARNING}'while' loop", True),
    ("declaration.c", 0, f"declaration.c:7:12: {WARNING}array 't' declared inside the region", True),
    ("empty_region.c", 0, f"empty_region.c:4:1: {WARNING}the region contains no statements", True),
    ("empty.c", 0, None, True),
    ("binary_garbage.c", 0, None, True),
    ("latin1_outside.c", 0, None, False),
    pytest.param(
        "pragma_in_region.c",
        0,
        f"pragma_in_region.c:6:1: {WARNING}'#pragma omp parallel' inside the region",
        True,
    ),
    pytest.param(
        "define_in_region.c",
        0,
        f"define_in_region.c:6:1: {WARNING}preprocessor directive '#define'",
        True,
    ),
    pytest.param(
        "unmatched_brace.c",
        1,
        "unmatched_brace.c:7:",
        None,
    ),
    pytest.param(
        "empty_loop.c",
        0,
        "",
        None,
    ),
    pytest.param(
        "commented_region.c",
        0,
        None,
        True,
    ),
    ("return_in_region.c", 0, f"return_in_region.c:8:7: {WARNING}'return' changes control flow", True),
    ("goto_in_region.c", 0, f"goto_in_region.c:9:7: {WARNING}'goto' changes control flow", True),
    ("continue_in_loop.c", 0, f"continue_in_loop.c:8:7: {WARNING}'continue' changes control flow", True),
    ("modulo_by_variable.c", 0, f"modulo_by_variable.c:7:7: {WARNING}division by a non-constant", True),
    ("product_bound.c", 0, f"product_bound.c:7:21: {WARNING}product of two variables is not affine", True),
    ("variable_step.c", 0, f"variable_step.c:6:22: {WARNING}loop step is not 'i++', 'i--' or 'i += constant'", True),
    ("iterator_written.c", 0, f"iterator_written.c:8:5: {WARNING}iterator 'i' is written", True),
    ("switch_statement.c", 0, f"switch_statement.c:7:5: {WARNING}'switch' statement", True),
    ("do_while.c", 0, f"do_while.c:6:3: {WARNING}'do' loop", True),
    ("struct_member.c", 0, f"struct_member.c:8:5: {WARNING}'g' is written in the region", True),
    ("float_iterator.c", 0, f"float_iterator.c:6:12: {WARNING}non-integer constant '0.0'", True),
    ("huge_constant_bound.c", 0, f"huge_constant_bound.c:6:12: {WARNING}constant '999999999000' does not fit", True),
    ("huge_int64_bound.c", 0, f"huge_int64_bound.c:6:12: {WARNING}constant '9223372036854775797' does not", True),
    ("huge_coefficient.c", 0, f"huge_coefficient.c:7:7: {WARNING}constant '4611686018427387904' does not", True),
    # A parameter that this file #defines beyond 'int' (tests/regressions/case_huge_macro_bound.c too).
    ("huge_define.c", 0, f"huge_define.c:6:1: {WARNING}parameter 'BIG' is defined as 9223372036854775807", True),
    ("latin1_in_region.c", 0, None, False),
    ("deep_nest_8.c", 0, None, False),
    ("fifty_statements.c", 0, None, False),
]

# Valid inputs at the edge of what polyopt handles quickly: checked end to end under every option set.
BIG_VALID_INPUTS = ["deep_nest_8.c", "fifty_statements.c"]


def test_every_corpus_file_is_in_the_table() -> None:
    names = {case.values[0] if hasattr(case, "values") else case[0] for case in BAD_INPUT_TABLE}

    assert names == {path.name for path in BAD_INPUTS.glob("*.c")} - {"crlf.c", "region_spans_functions.c"}


@pytest.mark.parametrize(("name", "exit_code", "fragment", "identical"), BAD_INPUT_TABLE)
def test_bad_input(workdir: Path, name: str, exit_code: int, fragment: str | None, identical: bool | None) -> None:
    source = workdir / name
    shutil.copyfile(BAD_INPUTS / name, source)
    original = source.read_bytes()
    output = workdir / "out.c"
    snapshot = existing_output(output)

    # The big valid inputs take about 6 s on an idle 2-core machine: a wider budget than the default
    # 10 s keeps a busy machine from turning their clean run into a time-budget warning.
    budget = ["--timeout", "60"] if name in BIG_VALID_INPUTS else []

    result = run(name, "-o", "out.c", *budget)

    assert result.exit_code == exit_code, result.stderr
    assert "Traceback" not in result.stderr
    assert result.stdout == b""
    if fragment is None:
        assert result.stderr == ""
    else:
        assert fragment in result.stderr
    for line in result.stderr.splitlines():
        assert MESSAGE.match(line) and line.startswith(f"{name}:"), line
    assert source.read_bytes() == original
    assert sorted(os.listdir(workdir)) == sorted([name, "out.c"])  # no temporary file left behind
    if exit_code != 0:
        assert_untouched(output, snapshot)
    elif identical is not None:
        assert (output.read_bytes() == original) is identical


@pytest.mark.parametrize("name", BIG_VALID_INPUTS)
def test_big_valid_inputs_are_optimized_correctly_under_every_option_set(tmp_path: Path, name: str) -> None:
    """Compiled and run with 1 and 2 threads against the original; a time-budget fallback is allowed."""
    text = (BAD_INPUTS / name).read_text()

    verdicts = check_program(text, Path(name).stem, OPTION_SETS, folder=tmp_path, cli=[()])

    failures = [f"{' '.join(v.flags) or '(default)'}: {v.message}" for v in verdicts if v.outcome != OPTIMIZED]
    assert not failures, "\n".join(failures)


def test_bytes_outside_the_region_are_preserved(workdir: Path) -> None:
    name = "latin1_outside.c"
    original = (BAD_INPUTS / name).read_bytes()
    shutil.copyfile(BAD_INPUTS / name, workdir / name)

    result = run(name, "-o", "out.c")

    assert result.exit_code == 0, result.stderr
    output = (workdir / "out.c").read_bytes()
    start, end = original.index(b"#pragma scop"), original.index(b"#pragma endscop\n") + len(b"#pragma endscop\n")
    assert output.startswith(original[:start])
    assert output.endswith(original[end:])
    assert b"\xe9 \xff\xfe" in output[:start] and b"\xe9t\xe9" in output[-20:]


def test_region_spanning_two_functions_is_not_silently_truncated(workdir: Path) -> None:
    name = "region_spans_functions.c"
    original = (BAD_INPUTS / name).read_bytes()
    shutil.copyfile(BAD_INPUTS / name, workdir / name)
    snapshot = existing_output(workdir / "out.c")

    result = run(name, "-o", "out.c")

    assert "Traceback" not in result.stderr
    if result.exit_code == 0:
        assert (workdir / "out.c").read_bytes() == original
    else:
        assert_clean_error(result, f"{name}:")
        assert_untouched(workdir / "out.c", snapshot)


def test_crlf_file_is_optimized_and_keeps_its_line_ends(workdir: Path) -> None:
    original = (BAD_INPUTS / "crlf.c").read_bytes()
    shutil.copyfile(BAD_INPUTS / "crlf.c", workdir / "crlf.c")

    result = run("crlf.c", "-o", "out.c")

    assert result.exit_code == 0, result.stderr
    output = (workdir / "out.c").read_bytes()
    start, end = original.index(b"#pragma scop"), original.index(b"#pragma endscop\r\n") + len(b"#pragma endscop\r\n")
    assert output.startswith(original[:start])
    assert output.endswith(original[end:])
    assert b"\n" not in output.replace(b"\r\n", b"")


# -- text outside regions -----------------------------------------------------


def test_text_outside_two_regions_is_byte_identical(workdir: Path) -> None:
    prefix = b"/* \xff\xfe caf\xe9 */\n#include <math.h>\n\nvoid f(int n, double a[n])\n{\n\t\t  \n"
    first = b"#pragma scop\n  for (int i = 0; i < n; i++)\n    a[i] = 2 * a[i];\n#pragma endscop\n"
    middle = (
        b"  a[0] = sqrt(a[0]);   /* trailing spaces */   \n}\n\n\n// \x80\x81 between\nvoid g(int m, double b[m])\n{\n"
    )
    second = b"    #pragma scop\n    for (int j = m - 1; j >= 0; j--)\n        b[j] = b[j] + 1;\n    #pragma endscop\n"
    suffix = b"}\n/* no newline at the end, \xe9 */"
    (workdir / "two.c").write_bytes(prefix + first + middle + second + suffix)

    result = run("two.c", "-o", "out.c")

    assert result.exit_code == 0, result.stderr
    assert result.stderr == ""
    output = (workdir / "out.c").read_bytes()
    assert output.startswith(prefix)
    assert output.endswith(suffix)
    assert output.count(middle) == 1
    generated_first = output[len(prefix) : output.index(middle)]
    generated_second = output[output.index(middle) + len(middle) : len(output) - len(suffix)]
    assert generated_first.startswith(b"  /* polyopt ") and b"#pragma scop" not in generated_first
    assert generated_second.startswith(b"    /* polyopt ") and b"#pragma scop" not in generated_second


# -- input and output files ---------------------------------------------------


def test_missing_input_file(workdir: Path) -> None:
    snapshot = existing_output(workdir / "out.c")

    result = run("nope.c", "-o", "out.c")

    assert_clean_error(result, "polyopt: error: no such file: 'nope.c'")
    assert_untouched(workdir / "out.c", snapshot)


def test_missing_input_file_with_the_default_output_name(workdir: Path) -> None:
    snapshot = existing_output(workdir / "nope.polyopt.c")

    result = run("nope.c")

    assert_clean_error(result, "polyopt: error: no such file: 'nope.c'")
    assert_untouched(workdir / "nope.polyopt.c", snapshot)


def test_input_is_a_directory(workdir: Path) -> None:
    (workdir / "src.c").mkdir()
    snapshot = existing_output(workdir / "out.c")

    result = run("src.c", "-o", "out.c")

    assert_clean_error(result, "polyopt: error: 'src.c' is a directory, not a C file")
    assert_untouched(workdir / "out.c", snapshot)


def test_output_in_a_missing_directory(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    result = run("in.c", "-o", "no/such/dir/out.c")

    assert_clean_error(result, "polyopt: error: cannot write 'no/such/dir/out.c': No such file or directory")
    assert sorted(os.listdir(workdir)) == ["in.c"]
    assert (workdir / "in.c").read_bytes() == SIMPLE


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write into a read-only directory")
def test_output_in_a_read_only_directory(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    locked = workdir / "locked"
    locked.mkdir()
    snapshot = existing_output(locked / "out.c")
    locked.chmod(0o555)
    try:
        result = run("in.c", "-o", "locked/out.c")
    finally:
        locked.chmod(0o755)

    assert_clean_error(result, "polyopt: error: cannot write 'locked/out.c'")
    assert_untouched(locked / "out.c", snapshot)
    assert sorted(os.listdir(locked)) == ["out.c"]


def test_output_that_is_a_directory(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    (workdir / "out.c").mkdir()

    result = run("in.c", "-o", "out.c")

    assert_clean_error(result, "polyopt: error: cannot write 'out.c'")
    assert sorted(os.listdir(workdir)) == ["in.c", "out.c"]
    assert list((workdir / "out.c").iterdir()) == []


@pytest.mark.parametrize("spelling", ["in.c", "./in.c", "{dir}/in.c"])
def test_output_equal_to_the_input(workdir: Path, spelling: str) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    os.utime(workdir / "in.c", ns=(OLD_TIME_NS, OLD_TIME_NS))
    snapshot = ((workdir / "in.c").read_bytes(), (workdir / "in.c").stat().st_mtime_ns)
    target = spelling.format(dir=workdir)

    result = run("in.c", "-o", target)

    assert_clean_error(result, f"polyopt: error: output file '{Path(target)}' is the input file")
    assert_untouched(workdir / "in.c", snapshot)
    assert sorted(os.listdir(workdir)) == ["in.c"]


def test_output_to_stdout(workdir: Path) -> None:
    shutil.copyfile(BAD_INPUTS / "latin1_outside.c", workdir / "in.c")

    to_stdout = run("in.c", "-o", "-")
    to_file = run("in.c", "-o", "out.c")

    assert to_stdout.exit_code == 0 and to_stdout.stderr == ""
    assert to_stdout.stdout.startswith(b"/* caf\xe9 \xff\xfe: Latin-1")
    assert to_stdout.stdout == (workdir / "out.c").read_bytes()
    assert to_file.stdout == b""
    assert sorted(os.listdir(workdir)) == ["in.c", "out.c"]


def test_default_output_name(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    (workdir / "sub").mkdir()
    (workdir / "sub" / "k.c").write_bytes(SIMPLE)

    assert run("in.c").exit_code == 0
    assert run("sub/k.c").exit_code == 0

    assert sorted(os.listdir(workdir)) == ["in.c", "in.polyopt.c", "sub"]
    assert sorted(os.listdir(workdir / "sub")) == ["k.c", "k.polyopt.c"]
    assert b"/* polyopt " in (workdir / "in.polyopt.c").read_bytes()
    assert (workdir / "in.c").read_bytes() == SIMPLE


def test_existing_output_is_replaced_and_keeps_its_mode(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    existing_output(workdir / "out.c")
    (workdir / "out.c").chmod(0o640)

    result = run("in.c", "-o", "out.c")

    assert result.exit_code == 0, result.stderr
    assert (workdir / "out.c").read_bytes() != SENTINEL
    assert (workdir / "out.c").stat().st_mode & 0o777 == 0o640
    assert sorted(os.listdir(workdir)) == ["in.c", "out.c"]


# -- options ------------------------------------------------------------------


def test_version(workdir: Path) -> None:
    result = run("--version")

    assert result.exit_code == 0
    assert result.stdout.decode() == f"polyopt, version {__version__}\n"


def test_help(workdir: Path) -> None:
    result = run("--help")

    assert result.exit_code == 0
    text = result.stdout.decode()
    assert text.startswith("Usage: polyopt [OPTIONS] SOURCE")
    flags = ["-o, --output FILE", "--identity", "--noparallel", "--notile", "--report", "--version"]
    flags += [
        "--timeout SECONDS",
        "--no-reassociate",
        "--no-expand",
        "--assume-dead ARRAYS",
        "--blas",
        "--blas-threshold N",
        "--blas2-threshold N",
        "--target FILE",
        "--l1 SIZE",
        "--l2 SIZE",
        "--l3 SIZE",
        "--line SIZE",
        "--cores N",
        "--simd-bytes N",
        "--vector-registers N",
        "--microkernel / --no-microkernel",
        "--param NAME=VALUE",
    ]
    for flag in flags:
        assert flag in text
    assert run("-h").stdout == result.stdout


@pytest.mark.parametrize("flag", ["--noparallel", "--notile", "--no-reassociate", "--no-expand", "--blas=cblas"])
def test_identity_with_a_transformation_option_is_rejected(workdir: Path, flag: str) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    snapshot = existing_output(workdir / "out.c")

    result = run("--identity", flag, "in.c", "-o", "out.c")

    assert result.exit_code == 2
    assert "Usage: polyopt" in result.stderr
    assert "'--identity' already disables every transformation" in result.stderr
    assert "Traceback" not in result.stderr
    assert_untouched(workdir / "out.c", snapshot)


@pytest.mark.parametrize(
    ("flag", "message"),
    [("--blas=mkl", "'mkl' is not one of"), ("--blas-threshold=-1", "-1"), ("--blas2-threshold=-1", "-1")],
)
def test_a_bad_library_option_is_a_usage_error(workdir: Path, flag: str, message: str) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    result = run(flag, "in.c", "-o", "out.c")

    assert result.exit_code == 2 and "Usage: polyopt" in result.stderr and message in result.stderr
    assert not (workdir / "out.c").exists()


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("0", "the timeout must be a positive number of seconds, not 0"),
        ("-2", "the timeout must be a positive number of seconds, not -2"),
        ("inf", "the timeout must be a positive number of seconds, not inf"),
        ("soon", "'soon' is not a valid float"),
    ],
)
def test_a_bad_timeout_is_a_usage_error(workdir: Path, value: str, message: str) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    snapshot = existing_output(workdir / "out.c")

    result = run("--timeout", value, "in.c", "-o", "out.c")

    assert result.exit_code == 2
    assert "Usage: polyopt" in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr
    assert_untouched(workdir / "out.c", snapshot)


def test_a_generous_timeout_changes_nothing(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    default = run("in.c", "-o", "-")
    generous = run("--timeout", "1000", "in.c", "-o", "-")

    assert default.exit_code == generous.exit_code == 0
    assert default.stdout == generous.stdout and generous.stderr == ""


def test_identity_and_noparallel_are_each_accepted_alone(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    identity = run("--identity", "in.c", "-o", "-")
    noparallel = run("--noparallel", "in.c", "-o", "-")

    assert identity.exit_code == 0 and noparallel.exit_code == 0
    assert b"/* polyopt " in identity.stdout
    assert b"#pragma omp" not in identity.stdout
    assert b"#pragma omp parallel" not in noparallel.stdout


def test_unknown_option_is_a_usage_error(workdir: Path) -> None:
    snapshot = existing_output(workdir / "out.c")

    result = run("--frobnicate", "in.c", "-o", "out.c")

    assert result.exit_code == 2
    assert "Usage: polyopt" in result.stderr
    assert "No such option" in result.stderr and "--frobnicate" in result.stderr
    assert "Traceback" not in result.stderr
    assert_untouched(workdir / "out.c", snapshot)


def test_missing_source_is_a_usage_error(workdir: Path) -> None:
    result = run()

    assert result.exit_code == 2
    assert "Missing argument 'SOURCE'" in result.stderr


# -- the machine and parameter values -----------------------------------------


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--l1", "48x"], "Invalid value for '--l1': '48x' is not a size"),
        (["--l2", "0"], "the L2 cache size (--l2) must be positive, not 0"),
        (["--line", "-1"], "Invalid value for '--line': '-1' is not a size"),
        (["--cores", "0"], "the number of cores (--cores) must be positive, not 0"),
        (["--cores", "two"], "'two' is not a valid integer"),
        (["--simd-bytes", "24"], "the vector width in bytes (--simd-bytes) must be a power of two, not 24"),
        (["--param", "N"], "expected NAME=VALUE with an integer VALUE, not 'N'"),
        (["--param", "N=0"], "--param N: the value must be a positive integer, not 0"),
        (["--param", "2N=3"], "--param: '2N' is not a C identifier"),
        (["--param", "N=3", "--param", "N=4"], "--param N is given two values, 3 and 4"),
    ],
)
def test_a_bad_machine_or_parameter_flag_is_a_usage_error(workdir: Path, flags: list[str], message: str) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    snapshot = existing_output(workdir / "out.c")

    result = run(*flags, "in.c", "-o", "out.c")

    assert result.exit_code == 2
    assert "Usage: polyopt" in result.stderr and message in result.stderr
    assert "Traceback" not in result.stderr
    assert_untouched(workdir / "out.c", snapshot)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("l1 = 32K\nl2 = big\n", "Error: my.target:2: bad value for 'l2': 'big' is not a size"),
        ("cores = 0\n", "the number of cores (--cores) must be positive, not 0 (machine target file my.target)"),
        ("vector = 32\n", "Error: my.target:1: unknown key 'vector' in the target file"),
        (
            "section-limit = 0\n",
            "the section limit (section-limit) must be positive, not 0 (machine target file my.target)",
        ),
        ("# fitted\nkc-limit = 0\n", "the microkernel's kc limit (kc-limit) must be positive, not 0"),
    ],
)
def test_a_bad_target_file_is_a_usage_error(workdir: Path, text: str, message: str) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    (workdir / "my.target").write_text(text)
    snapshot = existing_output(workdir / "out.c")

    result = run("--target", "my.target", "in.c", "-o", "out.c")

    assert result.exit_code == 2
    assert "Usage: polyopt" in result.stderr and message in result.stderr
    assert_untouched(workdir / "out.c", snapshot)


def test_a_missing_target_file_is_a_usage_error(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    result = run("--target", "none.target", "in.c", "-o", "out.c")

    assert result.exit_code == 2
    assert "cannot read target file 'none.target': No such file or directory" in result.stderr
    assert not (workdir / "out.c").exists()


def test_report_prints_the_machine_once_before_the_regions(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)
    (workdir / "my.target").write_text(
        "l1 = 32K\nl2 = 1M\nl3 = 0\nline = 64\ncores = 4\nsimd-bytes = 32\nvector-registers = 16\n"
        "blas3-threshold = 1000\n"
    )

    result = run("--target", "my.target", "--l1", "48K", "--blas2-threshold", "7", "--report", "in.c", "-o", "-")

    assert result.exit_code == 0, result.stderr
    lines = result.stderr.splitlines()
    machine = [line for line in lines if line.startswith("machine: ")]
    assert machine == [
        "machine: L1d 48 KiB, L2 1 MiB, L3 none, line 64 B, 4 cores, 16 32-byte vector registers, "
        "BLAS from work 1000 (level 3) and 7 (level 2), threads from 16777216 instances "
        "(target file my.target + overrides --l1, --blas2-threshold)"
    ]
    assert lines.index(machine[0]) < next(i for i, line in enumerate(lines) if line.startswith("region 1 at in.c"))


def test_without_report_the_machine_is_not_printed(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    result = run("--cores", "3", "in.c", "-o", "-")

    assert result.exit_code == 0 and result.stderr == ""


def test_machine_and_parameter_flags_go_with_identity(workdir: Path) -> None:
    (workdir / "in.c").write_bytes(SIMPLE)

    plain = run("--identity", "in.c", "-o", "-")
    hinted = run("--identity", "--l1", "64K", "--cores", "8", "--param", "n=100", "in.c", "-o", "-")

    assert plain.exit_code == hinted.exit_code == 0
    assert hinted.stdout == plain.stdout and hinted.stderr == ""


def test_options_from_arguments_reads_the_machine_and_parameter_flags(workdir: Path) -> None:
    (workdir / "my.target").write_text("l2 = 2M\nsimd-bytes = 16\n")

    options = options_from_arguments(["--target", "my.target", "--l3", "16M", "--param", "N=100", "--param", "M=7"])

    assert (options.machine.l2, options.machine.l3, options.machine.simd_bytes) == (2 << 20, 16 << 20, 16)
    assert options.machine.origin == "target file my.target + overrides --l3"
    assert options.params == (("N", 100), ("M", 7))


# -- the installed command ----------------------------------------------------


def _installed(*args: str, cwd: Path) -> subprocess.CompletedProcess[bytes]:
    command = shutil.which("polyopt")
    assert command is not None, "the polyopt console script is not installed"
    return subprocess.run([command, *args], cwd=cwd, capture_output=True, timeout=60, check=False)


def test_installed_command_reports_a_warning_on_stderr_only(tmp_path: Path) -> None:
    shutil.copyfile(BAD_INPUTS / "data_dependent_bound.c", tmp_path / "d.c")

    process = _installed("d.c", "-o", "-", cwd=tmp_path)

    assert process.returncode == 0
    assert process.stdout == (BAD_INPUTS / "data_dependent_bound.c").read_bytes()
    assert process.stderr.decode().startswith(f"d.c:7:21: {WARNING}array access")


def test_installed_command_reports_an_error_without_traceback(tmp_path: Path) -> None:
    shutil.copyfile(BAD_INPUTS / "syntax_error.c", tmp_path / "s.c")

    process = _installed("s.c", "-o", "-", "--report", cwd=tmp_path)

    assert process.returncode == 1
    assert process.stdout == b""
    assert process.stderr.decode().startswith("s.c:7:19: error: syntax error: ")
    assert b"Traceback" not in process.stderr
