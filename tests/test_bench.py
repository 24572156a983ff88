"""The benchmark's yardstick for library calls (``polyopt.measure.cblas_reference``) computes what the examples
compute, and the benchmark can time it as another tool's output."""

from __future__ import annotations

import datetime
import json
import re
import shlex
import shutil
import sys
from pathlib import Path

import pytest

from polyopt.bench.corpus import CORPUS, corpus_rows, corpus_summary, corpus_table, machine_description, parse_run
from polyopt.bench.gemm import Row, table
from polyopt.bench.gemm import main as bench_gemm_main
from polyopt.bench.polybench import FAILED, OK, WRONG, Cell, vs_columns
from polyopt.bench.roofline import print_roofline, roofline_limits, roofline_table, roofline_title
from polyopt.bench.suite import bench_kernel, example_kernels, kernel_variants
from polyopt.bench.suite import main as bench_main
from polyopt.bench.timing import MAX_ROUNDS, interleaved, rounds_wanted, twins
from polyopt.library.blas import cblas_available
from polyopt.machine import load_target
from polyopt.measure.cblas_reference import CALLS, main, reference
from polyopt.roofline.bound import COMPUTE, MEMORY, Bound, Work
from polyopt.target_keys import LIMIT_FIELDS
from polyopt.toolchain import ToolchainError
from tests.cli.test_check import TREE
from tests.support import EXAMPLES, assert_same_output, compile_c, compile_original, run_binary

needs_cblas = pytest.mark.skipif(not cblas_available(), reason="cblas.h not found (apt-get install libopenblas-dev)")


@needs_cblas
@pytest.mark.parametrize("size", ["MINI", "SMALL"])
@pytest.mark.parametrize("kernel", sorted(CALLS))
def test_reference_prints_what_the_example_prints(tmp_path: Path, kernel: str, size: str) -> None:
    defines = [f"{size}_DATASET"]
    expected = run_binary(compile_original(EXAMPLES / f"{kernel}.c", defines=defines, flags=["-O2"])).stdout
    source = tmp_path / f"{kernel}.c"
    source.write_text(reference(kernel, (EXAMPLES / f"{kernel}.c").read_text()))
    assert "#pragma scop" not in source.read_text()
    binary = compile_c(source, defines=defines, flags=["-O2", "-Wall", "-Werror"], out_dir=tmp_path)
    actual = run_binary(binary, threads=2).stdout
    assert_same_output(expected, actual, rel_tol=1e-9, abs_tol=1e-9, context=f"{kernel} at {size}")


def test_an_example_without_a_reference_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main([str(EXAMPLES / "lu.c"), str(tmp_path / "out.c")]) == 1
    assert "no CBLAS reference for lu" in capsys.readouterr().err
    assert not (tmp_path / "out.c").exists()


def test_the_benchmark_runs_it_as_another_tool(tmp_path: Path) -> None:
    tools = vs_columns(["python3 -m polyopt.measure.cblas_reference {in} {out}"])
    variants = kernel_variants("gemm", tmp_path, [], tools, "MINI", EXAMPLES)
    assert "cblas_dgemm(CblasRowMajor" in variants["cblas_reference"].read_text()


def test_variants_that_differ_only_in_comments_and_region_marks_are_one_program(tmp_path: Path) -> None:
    body = "int main(void) {\n  int s = 0;\n  for (int i = 0; i < 8; i++) s += i;\n  return s;\n}\n"
    sources = {"original": tmp_path / "a.c", "polyopt": tmp_path / "b.c", "vs0": tmp_path / "c.c"}
    marked = body.replace("  for", "#pragma scop\n  for").replace("  return", "#pragma endscop\n  return")
    sources["original"].write_text(marked)
    sources["polyopt"].write_text("/* fusion model */\n" + body.replace("s += i;", "s += i; /* a note */"))
    sources["vs0"].write_text(body.replace("i < 8", "i < 9"))
    assert twins(sources, ["-DMINI_DATASET"]) == {"original": "original", "polyopt": "original", "vs0": "vs0"}


def test_the_benchmark_times_identical_code_once(tmp_path: Path) -> None:
    tools = vs_columns(["model=python3 -m polyopt {in} --fuse=model -o {out}"])
    tools["plain"] = "python3 -m polyopt {in} --notile --noparallel -o {out}"
    result = bench_kernel("atax", "MINI", 1, 1, [], tools, examples=EXAMPLES)
    assert result["model"][0] == result["polyopt"][0]
    assert result["model"][2] and not result["polyopt"][2]
    assert all(same for _, same, _ in result.values())


def test_a_tool_that_fails_or_writes_what_gcc_rejects_is_left_out_of_that_kernel(tmp_path: Path) -> None:
    rejected = "sh -c 'echo not C > {out}'"

    tools = vs_columns(["false {in} {out}", rejected, "cp {in} {out}"])
    result = bench_kernel("atax", "MINI", 1, 1, [], tools, examples=EXAMPLES)

    assert set(result) == {"original", "polyopt", "cp"} and result["cp"][2]


def test_short_kernels_get_more_rounds_up_to_a_limit() -> None:
    assert rounds_wanted({"original": [2.0], "polyopt": [1.0]}, runs=2, min_seconds=1.0)
    assert not rounds_wanted({"original": [2.0, 2.0], "polyopt": [1.0, 1.0]}, runs=2, min_seconds=1.0)
    assert rounds_wanted({"original": [2.0, 2.0], "polyopt": [0.1, 0.1]}, runs=2, min_seconds=1.0)
    assert not rounds_wanted({"original": [0.01] * MAX_ROUNDS, "polyopt": [0.01] * MAX_ROUNDS}, 2, 1.0)


TOOL = """#!{python}
import sys

*flags, source, out = sys.argv[2:]
if "-DMINI_DATASET" not in flags:
    sys.exit(3)
text = open(source).read()
if sys.argv[1] == "break":
    text = text.replace("C[i][j] *= beta;", "C[i][j] *= 2 * beta;").replace("i == j ? 0 :", "i == j ? 1 :")
open(out, "w").write(text)
"""


def test_a_polybench_tree_is_checked_then_timed_with_wrong_and_failed_tools_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    tree = tmp_path / "polybench"
    shutil.copytree(TREE, tree)
    for name in ("copytool", "breaktool"):
        (tmp_path / name).write_text(TOOL.format(python=sys.executable))
        (tmp_path / name).chmod(0o755)
    report = tmp_path / "bench.json"
    arguments = ["--polybench", str(tree), "--dataset", "MINI", "--runs", "1", "--min-seconds", "0"]
    arguments += ["--kernels", "mm,hops", "--json", str(report)]
    arguments += ["--vs", f"{tmp_path / 'copytool'} copy {{cppflags}} {{in}} {{out}}"]
    arguments += ["--vs", f"{tmp_path / 'breaktool'} break {{cppflags}} {{in}} {{out}}", "--vs", "false {in} {out}"]
    assert bench_main(arguments) == 0
    table = capsys.readouterr().out
    header = "| kernel | original s | polyopt s | copytool s | breaktool s | false s | polyopt x | copytool x |"
    assert header in table
    rows = {
        line.split(" | ")[0].lstrip("| "): line.split(" | ") for line in table.splitlines() if line.startswith("| ")
    }
    for kernel in ("mm", "hops"):
        cells = rows[kernel]
        assert cells[4:6] == ["wrong", "failed"]  # the times of breaktool and false
        assert cells[7] == "1.00 (= original)"  # copytool's output is the original's code, timed once
    assert rows["geometric mean"][7] == "1.00"
    results = json.loads(report.read_text())
    assert results["dataset"] == "MINI" and results["check_dataset"] == "MINI"
    mm = results["kernels"]["mm"]
    assert mm["polyopt"]["status"] == "ok" and mm["polyopt"]["seconds"] > 0
    assert mm["breaktool"]["status"] == "wrong"
    assert "in array 'C'" in mm["breaktool"]["message"]
    assert "in array 'D'" in results["kernels"]["hops"]["breaktool"]["message"]
    assert mm["false"]["status"] == "failed" and mm["false"]["message"].endswith(".c exited with 1: ")
    assert results["geometric_mean_speedup"]["copytool"] == pytest.approx(1.0)
    assert results["polyopt_vs_best"]["per_kernel"]["mm"] > 0


def test_a_program_that_fails_a_timed_run_is_dropped_and_the_others_go_on() -> None:
    def run(binary: Path) -> tuple[float, str]:
        if binary.name == "crashes":
            raise ToolchainError("killed by signal 11")
        return 0.5, "output"

    times, outputs, failures = interleaved({"a": Path("runs"), "b": Path("crashes")}, run, runs=2, min_seconds=0.0)
    assert times == {"a": [0.5, 0.5], "b": []} and outputs == {"a": "output"}
    assert failures == {"b": "killed by signal 11"}
    assert interleaved({"b": Path("crashes")}, run, runs=2, min_seconds=0.0)[2] == failures


@needs_cblas
def test_the_gemm_benchmark_prints_gflops_of_both_variants(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_gemm_main(["--sizes", "30x40x50", "--threads", "1", "--runs", "1", "--coretype", "Haswell"]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert "OPENBLAS_CORETYPE=Haswell" in lines[0]
    assert len(lines) == 3 and lines[2].startswith("| 30 x 40 x 50 | 1 |")
    microkernel, library, ratio = (float(cell) for cell in lines[2].strip("| ").split("|")[2:])
    assert microkernel > 0 and library > 0 and ratio > 0


def test_the_gemm_table_gives_the_microkernel_as_a_fraction_of_the_library() -> None:
    row = Row((1000, 1100, 1200), 2, {"microkernel": 90.0, "library": 120.0})

    assert table([row], "").splitlines()[2] == "| 1000 x 1100 x 1200 | 2 | 90.0 | 120.0 | 0.75 |"


def test_the_gemm_benchmark_refuses_a_size_that_is_not_three_numbers() -> None:
    with pytest.raises(SystemExit):
        bench_gemm_main(["--sizes", "30x40"])


def test_a_corpus_run_gives_its_checksum_and_time() -> None:
    assert parse_run("start\nchecksum 1.234560e+03 time 0.012500 s\n") == ("1.234560e+03", 0.0125)
    with pytest.raises(ToolchainError, match="no 'checksum"):
        parse_run("checksum 1.0\n")


CORPUS_RESULTS = {
    "faster": {"original": Cell(OK, seconds=1.0), "polyopt": Cell(OK, seconds=0.5)},
    "slower": {"original": Cell(OK, seconds=1.0), "polyopt": Cell(OK, seconds=2.0)},
    "same": {"original": Cell(OK, seconds=1.0), "polyopt": Cell(OK, seconds=1.0, same_as="original")},
    "broken": {"original": Cell(OK, seconds=1.0), "polyopt": Cell(WRONG, "checksum differs", seconds=0.1)},
    "crashed": {"original": Cell(OK, seconds=1.0), "polyopt": Cell(FAILED, "polyopt exited with 1")},
}


def test_the_corpus_table_gives_speedups_and_flags_wrong_checksums() -> None:
    rows = corpus_rows(CORPUS_RESULTS, ["original", "polyopt"])

    assert rows[0] == ["kernel", "original s", "polyopt s", "polyopt x", "checksum"]
    assert rows[1] == ["faster", "1.0000", "0.5000", "2.00", "ok"]
    assert rows[3][3] == "1.00 (= original)"
    assert rows[4][2:] == ["0.1000", "wrong", "WRONG polyopt"]  # a wrong result's time is no speedup
    assert rows[5][2:] == ["-", "failed", "FAILED polyopt"]
    markdown = corpus_table(rows, markdown=True).splitlines()
    assert markdown[:3] == [
        "| kernel | original s | polyopt s | polyopt x | checksum |",
        "|---|---|---|---|---|",
        "| faster | 1.0000 | 0.5000 | 2.00 | ok |",
    ]
    plain = corpus_table(rows, markdown=False).splitlines()
    assert [line.split()[:4] for line in plain[1:3]] == [["faster", "1.0000", "0.5000", "2.00"], rows[2][:4]]
    assert plain[0].index("polyopt x") + len("polyopt x") == plain[1].index("2.00") + len("2.00")  # aligned


def test_the_corpus_summary_gives_the_mean_the_minimum_and_the_kernels_below_0_9() -> None:
    assert corpus_summary(CORPUS_RESULTS, "polyopt").splitlines() == [
        "polyopt: geometric mean speedup 1.00x over 3 kernels, min 0.50x (slower)",
        "polyopt: 1 kernels below 0.9x: slower 0.50x",
        "polyopt: WRONG on 1 kernels: broken",
        "polyopt: FAILED on 1 kernels: crashed",
    ]


CORPUS_TOOL = """#!{python}
import shutil, sys

source, out = sys.argv[2:]
shutil.copyfile(source, out)
if sys.argv[1] == "break":
    open(out, "w").write(open(source).read().replace("* b[i] + c[i]", "* b[i] + 2 * c[i]"))
"""


def test_a_corpus_is_timed_with_wrong_and_failed_tools_shown(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    text = (CORPUS / "rec_first_order.c").read_text()
    (corpus / "recurrence.c").write_text(re.sub(r"#define REPS \d+", "#define REPS 3", text))
    (corpus / "unused.c").write_text("int main(void) { return 1; }\n")
    (tmp_path / "tool").write_text(CORPUS_TOOL.format(python=sys.executable))
    (tmp_path / "tool").chmod(0o755)
    arguments = ["--corpus", str(corpus), "--kernels", "recurrence", "--runs", "2", "--min-seconds", "0"]
    arguments += ["--markdown", "--vs", f"{tmp_path / 'tool'} copy {{in}} {{out}}"]
    arguments += ["--vs", f"{tmp_path / 'tool'} break {{in}} {{out}}", "--vs", "false {in} {out}"]

    assert bench_main(arguments) == 1  # a wrong checksum
    lines = capsys.readouterr().out.splitlines()
    assert "commit" in lines[0] and "cores" in lines[0] and lines[0].endswith(shlex.join(arguments))
    header = "| kernel | original s | polyopt s | tool s | tool-2 s | false s | polyopt x | tool x | tool-2 x |"
    assert lines[2].startswith(header)
    cells = lines[4].split(" | ")
    assert cells[0] == "| recurrence" and float(cells[1]) > 0 and float(cells[2]) > 0
    assert cells[7:10] == ["1.00 (= original)", "wrong", "failed"]
    assert cells[10] == "WRONG tool-2, FAILED false |"
    assert any(line.startswith("tool-2: WRONG on 1 kernels: recurrence") for line in lines)
    assert bench_main(["--corpus", str(corpus), "--kernels", "recurrence,nosuch"]) == 2


def test_the_roofline_table_gives_gflops_and_the_fraction_of_the_bound_per_tool() -> None:
    results = {
        "fast": {"original": (4.0, True, False), "polyopt": (2.0, True, False), "vs0": (1.0, False, False)},
        "slow": {"original": (1.0, True, False), "polyopt": (4.0, True, False), "vs0": (4.0, True, True)},
    }
    works = {"fast": Work(flops=4 * 10**9, bytes=10**9), "slow": Work(flops=10**9, bytes=4 * 10**9)}
    bounds = {"fast": Bound(0.5, COMPUTE), "slow": Bound(1.0, MEMORY)}

    lines = roofline_table(results, works, bounds, ["polyopt", "vs0"]).splitlines()

    assert lines[0].split() == "kernel flop/B bound s bound polyopt GF/s polyopt frac vs0 GF/s vs0 frac".split()
    assert lines[1].split() == ["fast", "4.00", "5.000e-01", "compute", "2.00", "0.250", "4.00", "0.500!"]
    assert lines[2].split() == ["slow", "0.25", "1.000e+00", "memory", "0.25", "0.250", "0.25", "0.250"]
    assert lines[3].split() == ["geometric", "mean", "0.250", "0.354"]
    zero = {"zero": {"original": (1.0, True, False), "polyopt": (0.0, True, False), "vs0": (1.0, True, False)}}
    line = roofline_table(zero, {"zero": works["fast"]}, {"zero": bounds["fast"]}, ["polyopt", "vs0"]).splitlines()[1]
    assert line.split()[4:] == ["-", "-", "4.00", "0.500"]
    assert lines[0].index("polyopt frac") + len("polyopt frac") == lines[1].index("0.250") + len("0.250")  # aligned


def test_the_roofline_limits_are_the_target_files_when_it_sets_them(tmp_path: Path) -> None:
    target = tmp_path / "machine.target"
    target.write_text("".join(f"{field.replace('_', '-')} = 5\n" for field in LIMIT_FIELDS))

    limits, origin = roofline_limits(load_target(target))

    assert limits.peak_gflops_double == 5 and limits.bandwidth_dram_core == 5 and str(target) in origin


@pytest.mark.parametrize(
    "arguments",
    [
        ["gemm", "--target", "machine.target"],
        ["--corpus", "bench/corpus", "--roofline"],
        ["gemm", "--plot", "roofline.svg"],
        ["gemm", "--roofline", "--plot", "roofline.pdf"],
    ],
)
def test_the_roofline_flags_are_refused_where_they_mean_nothing(arguments: list[str]) -> None:
    with pytest.raises(SystemExit):
        bench_main(arguments)


def test_each_vs_tool_is_named_by_its_name_or_its_program() -> None:
    commands = ["polycc {in} -o {out}", "/opt/bin/polycc --tile {in} -o {out}", "pluto=polycc --tile {in} -o {out}"]
    commands += ["python3 -m polyopt.measure.cblas_reference {in} {out}", "python3 -m polyopt {in} -o {out}"]

    assert vs_columns(commands) == {
        "polycc": commands[0],
        "polycc-2": commands[1],
        "pluto": "polycc --tile {in} -o {out}",
        "cblas_reference": commands[3],
        "polyopt-5": commands[4],
    }
    assert vs_columns(["ppcg --target=c --tile {in} -o {out}"]) == {"ppcg": "ppcg --target=c --tile {in} -o {out}"}
    for taken in (["a=cp {in} {out}", "a=cp {in} {out}"], ["polyopt=cp {in} {out}"]):
        with pytest.raises(ValueError, match="the column name '(a|polyopt)' is taken"):
            vs_columns(taken)


def test_the_examples_asked_for_must_be_in_the_folder_named(tmp_path: Path) -> None:
    (tmp_path / "mine.c").write_text("int main(void) { return 0; }\n")

    assert example_kernels(tmp_path, []) == ["mine"] and example_kernels(EXAMPLES, ["gemm"]) == ["gemm"]
    with pytest.raises(ValueError, match=f"no example gemm in {re.escape(str(tmp_path))}: --examples DIR"):
        example_kernels(tmp_path, ["gemm", "mine"])
    with pytest.raises(ValueError, match=f"no example kernels .* in {re.escape(str(tmp_path / 'none'))}"):
        example_kernels(tmp_path / "none", [])


@pytest.mark.parametrize("arguments", [["gemm"], []])
def test_the_benchmark_says_where_it_looked_for_the_examples_it_does_not_find(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], arguments: list[str]
) -> None:
    with pytest.raises(SystemExit) as exited:
        bench_main([*arguments, "--examples", str(tmp_path)])

    assert exited.value.code == 2 and f"in {tmp_path}" in capsys.readouterr().err


def test_the_plot_is_titled_with_the_machine_the_size_and_the_date() -> None:
    title = roofline_title("Some CPU, 2 cores", "LARGE", 2, "2026-12-08")

    assert title == "Some CPU, 2 cores: size LARGE, 2 threads, 2026-12-08"


def test_the_tables_and_the_json_name_each_tool(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    examples = tmp_path / "examples"
    examples.mkdir()
    for name in ("jacobi-1d.c", "polybench_lite.h"):
        shutil.copyfile(EXAMPLES / name, examples / name)
    target = tmp_path / "machine.target"
    target.write_text("".join(f"{field.replace('_', '-')} = 5\n" for field in LIMIT_FIELDS))
    arguments = ["jacobi-1d", "--examples", str(examples), "--size", "MINI", "--runs", "1", "--min-seconds", "0"]
    arguments += ["--vs", "copy=cp {in} {out}", "--json", str(tmp_path / "bench.json"), "--roofline"]

    assert bench_main([*arguments, "--target", str(target)]) == 0

    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"1 examples of {examples}, size MINI") and lines[1] == "copy: cp {in} {out}"
    assert lines[2].split() == ["kernel", "original", "s", "polyopt", "s", "copy", "s", "polyopt", "x", "copy", "x"]
    assert "copy GF/s" in next(line for line in lines if "flop/B" in line)
    results = json.loads((tmp_path / "bench.json").read_text())
    assert results["commands"]["copy"] == "cp {in} {out}" and results["size"] == "MINI" and results["date"]
    assert set(results["kernels"]["jacobi-1d"]) == {"original", "polyopt", "copy"}


def test_the_plot_names_each_tool_in_its_legend_and_its_title_names_the_machine(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pytest.importorskip("matplotlib")
    target = tmp_path / "machine.target"
    target.write_text("".join(f"{field.replace('_', '-')} = 5\n" for field in LIMIT_FIELDS))
    results = {"gemm": {"original": (2.0, True, False), "polyopt": (1.0, True, False), "pluto": (1.0, True, True)}}

    works = {"gemm": Work(flops=4 * 10**6, bytes=10**6)}
    print_roofline(results, works, "MINI", 2, ["polyopt", "pluto"], target, tmp_path / "roofline.svg")

    plot = (tmp_path / "roofline.svg").read_text()
    assert all(f">{tool}</text>" in plot for tool in ("original", "polyopt", "pluto"))
    assert f"{machine_description()}: size MINI, 2 threads, {datetime.date.today().isoformat()}" in plot
