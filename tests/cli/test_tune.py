"""Tests for ``polyopt tune`` (``polyopt.program.tune``, ``polyopt.program.tune_plan``): the programs that time each
region's variants, the choice, the composed file (compiled, run and compared with the original), the
report, the cache, and the rejection of a wrong variant.

``tune/three_regions.c``: a matrix product, a prefix sum (a chain of dependences, nothing to gain) and a
time-iterated stencil, sized by ``-DN`` and ``-DT``.  No test asserts a choice that depends on timings,
except that a wrong variant is never chosen.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from polyopt.emit.splice import RegionCode
from polyopt.frontend.regions import find_regions
from polyopt.program.harness import Build
from polyopt.program.tune import region_variants
from polyopt.program.tune_measure import Settings, measure
from polyopt.program.tune_plan import (
    AS_WRITTEN,
    Alternative,
    Program,
    RegionVariants,
    TuneResult,
    Variant,
    VariantResult,
    choose,
    isolated,
    programs,
)
from tests.cli.test_check import MM, TREE
from tests.cli.test_cli import run
from tests.support import assert_same_output, compile_c, needs_gcc, run_binary

PROGRAM = Path(__file__).resolve().parent / "tune" / "three_regions.c"
SIZES = ("-DN=24", "-DT=3")
REGION_LINES = (31, 42, 51)


@pytest.fixture
def program(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``three_regions.c`` in the current folder, with the cache in a folder of its own."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    return Path(shutil.copy(PROGRAM, tmp_path / PROGRAM.name))


def test_program_k_runs_variant_k_of_each_region_that_has_one() -> None:
    regions = find_regions(PROGRAM.read_text(), PROGRAM.name)
    counts = (3, 1, 2)  # stand-in variants: the plan reads only their number
    plan = programs(
        [
            RegionVariants(r, tuple(Variant((f"v{k}",), None) for k in range(n)))
            for r, n in zip(regions, counts, strict=True)
        ]
    )
    assert [(p.picks, p.timed) for p in plan] == [
        ((0, 0, 0), frozenset({0, 1, 2})),
        ((1, 0, 1), frozenset({0, 2})),
        ((2, 0, 0), frozenset({0})),
    ]
    assert isolated(plan[1]) == (Program((1, 0, 0), frozenset({0})), Program((0, 0, 1), frozenset({2})))


def _result(*seconds: tuple[float, ...], rejected: int | None = None) -> list[VariantResult]:
    return [
        VariantResult((f"v{k}",), "s", times, "wrong" if k == rejected else None) for k, times in enumerate(seconds)
    ]


def test_the_code_as_written_stays_unless_a_correct_variant_beats_it_by_the_margin() -> None:
    assert choose(_result((1.0, 1.0, 1.0), (0.5, 0.6, 0.4)), 0.03) == 1
    assert choose(_result((1.0,), (0.98,)), 0.03) == 0  # 2% faster: within the margin
    assert choose(_result((1.0,), (0.5,), (0.7,), rejected=1), 0.03) == 2
    assert choose(_result((), (0.5,)), 0.03) == 0  # the region never ran


@needs_gcc
def test_tune_writes_each_regions_choice_correctly_and_reuses_its_cache(program: Path) -> None:
    first = run("tune", program.name, *SIZES, "--runs", "2", "--report", "-o", "out.c")
    assert first.exit_code == 0, first.stderr
    report = first.stderr
    assert "ran in" in report and "cached in" in report
    for index, line in enumerate(REGION_LINES, start=1):
        assert f"region {index} (line {line}), ran 1 time(s) per run:" in report
    assert len(re.findall(r"^  as written: [\d.]+ (us|ms|s)", report, re.MULTILINE)) == 3
    # the product is optimized; the prefix sum, a chain with nothing to gain, is kept as written (no variant)
    assert len(re.findall(r"^  optimized\b.*: [\d.]+ (us|ms|s)", report, re.MULTILINE)) >= 1
    assert "kept as written (source text)\n" not in report.split("region 2 ")[1].split("region 3 ")[0]
    assert report.count("<- chosen") == 3

    output = Path("out.c").read_text()
    chosen = run("tune", program.name, *SIZES, "--runs", "2", "--report=json", "-o", "again.c")
    assert chosen.exit_code == 0, chosen.stderr
    document = json.loads(chosen.stderr[: chosen.stderr.rindex("}") + 1])
    assert document["cache"].startswith("read from the cache")
    assert Path("again.c").read_text() == output
    result = TuneResult.from_json(document)
    original = program.read_text()
    for region in result.regions:
        variant = region.variants[region.chosen]
        comment = re.search(rf"/\* polyopt [^:]+: region {region.index} \(line {region.line}\); (.*) \*/", output)
        assert comment is not None
        if variant.summary == AS_WRITTEN:
            assert comment.group(1).startswith("kept as written by polyopt tune: ")
        else:
            assert comment.group(1).startswith(f"{variant.summary}; chosen by polyopt tune ({variant.names[0]}")
    bodies = re.findall(r"#pragma scop\n(.*?)#pragma endscop\n", original, re.S)
    kept = [region.chosen == 0 for region in result.regions]
    assert [body in output for body in bodies] == kept

    flags = ["-O2", "-fopenmp"]
    expected = run_binary(compile_c(program, defines=["N=24", "T=3"], flags=flags)).stdout
    tuned = compile_c(Path("out.c"), defines=["N=24", "T=3"], flags=flags)
    for threads in (1, 2):
        assert_same_output(expected, run_binary(tuned, threads=threads).stdout, rel_tol=1e-9)


@needs_gcc
def test_a_wrong_variant_is_rejected_alone_and_never_chosen(program: Path) -> None:
    text = program.read_text()
    variants, _ = region_variants(text, program.name, list(SIZES), [Alternative(())])
    product, prefix, stencil = variants
    optimized = product.variants[1]
    assert optimized.code is not None

    def wrong(item: RegionVariants, name: str, code: str) -> RegionVariants:
        broken = RegionCode(item.region, code, frozenset(), name)
        return RegionVariants(item.region, (*item.variants, Variant((name,), broken)))

    # program 2 runs a copy of the product's code, a prefix sum that computes nothing (the fastest of all)
    # and a stencil that does not compile: the program fails, then each region's variant alone
    variants = (
        RegionVariants(product.region, (*product.variants, Variant(("copy",), optimized.code))),
        wrong(prefix, "skipped", "    ;\n"),
        wrong(stencil, "not C", "    this is not C;\n"),
    )
    result = measure(program, text, variants, Settings(Build(cflags=("-O2", "-fopenmp"), cpp_flags=SIZES), runs=2))
    copy, skipped, not_c = (region.variants[-1] for region in result.regions)
    assert copy.rejected is None and len(copy.seconds) == 2
    assert skipped.rejected is not None and "outputs differ" in skipped.rejected and not skipped.seconds
    assert not_c.rejected is not None and "compilation failed" in not_c.rejected
    assert all(region.chosen != len(region.variants) - 1 for region in result.regions[1:])


@needs_gcc
def test_tune_on_a_polybench_kernel(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tree = shutil.copytree(TREE, tmp_path / "tree")
    monkeypatch.chdir(tree)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    done = run("tune", MM, "-DMINI_DATASET", "--runs", "1", "-o", "mm.tuned.c")
    assert done.exit_code == 0, done.stderr
    assert "PolyBench layout" in done.stderr
    assert re.search(r"^region 1 \(line \d+\): .* \([\d.]+ (us|ms|s)", done.stderr, re.MULTILINE)
    assert re.search(r"(chosen by|kept as written by) polyopt tune", Path("mm.tuned.c").read_text())
