"""Differential fuzzing: every generated program prints the same after polyopt.

Each seed is one case and checks the option set ``OPTION_SETS[seed % 13]``, so that every
option set is covered 15 or 16 times across the 200 seeds.  Every seventh seed runs it through the
real command line (a new ``python -m polyopt`` process), which also cycles through all the
option sets; the others run in-process in the workers.  The seeds are checked by two worker processes
(``polyopt.fuzz.campaign.start_pool``) submitted all at once; each case waits for its own.

The other tests check the harness itself: that it catches a miscompile (also one that only
shows without ``-fopenmp``), a call to an undeclared function and a schedule that failed
polyopt's verification, accepts a declined region and a time-budget fallback, compares
exactly (integers, or without reassociation), shrinks, and that the generator covers what
it should, including sizes on both sides of polyopt's thresholds.
"""

from __future__ import annotations

import math
import os
import re
import subprocess
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from polyopt import driver, verify
from polyopt.budget import OutOfTime
from polyopt.command import options_from_arguments
from polyopt.driver import optimize_text
from polyopt.emit.isl_ast import SECTION_LIMIT
from polyopt.fuzz import campaign, differential
from polyopt.fuzz.campaign import SeedResult, check_seed, shrink, start_pool
from polyopt.fuzz.differential import (
    DECLINED,
    FAILED,
    OPTIMIZED,
    OPTION_SETS,
    Verdict,
    check_program,
    data_scale,
    tolerance,
)
from polyopt.fuzz.generator import DUMP_LIMIT, ROWS, STATIC, If, Local, Program, Stmt, generate, smaller_variants
from polyopt.fuzz.generator.program import DOUBLE_FORM, FLOAT_FORM
from polyopt.fuzz.generator.written import SHAPES
from polyopt.machine import BLAS2_THRESHOLD, BLAS_THRESHOLD
from polyopt.options import Options
from polyopt.report import format_report
from polyopt.toolchain import CC, compile_c, first_difference, run_program

SEEDS = range(200)
JOBS = 2
CLI_EVERY = 9  # every ninth seed runs through the command line (9 is prime to the 14 option sets)


def option_sets(seed: int) -> tuple[tuple[str, ...], ...]:
    return (OPTION_SETS[seed % len(OPTION_SETS)],)


def cli_sets(seed: int) -> tuple[tuple[str, ...], ...]:
    return option_sets(seed) if seed % CLI_EVERY == 0 else ()


@pytest.fixture(scope="module")
def pending(request: pytest.FixtureRequest) -> Iterator[dict[int, Future[SeedResult]]]:
    """A future per selected seed, all submitted at once to a pool of ``JOBS`` worker processes."""
    selected = [
        item.callspec.params["seed"]
        for item in request.session.items
        if item.module is request.module and hasattr(item, "callspec") and "seed" in item.callspec.params
    ]
    pool = start_pool(JOBS)
    futures = {seed: pool.submit(check_seed, seed, option_sets(seed), cli_sets(seed)) for seed in selected}
    yield futures
    pool.shutdown(cancel_futures=True)


def test_the_seeds_cover_every_option_set_in_process_and_through_the_command_line() -> None:
    in_process = {flags for seed in SEEDS for flags in option_sets(seed) if flags not in cli_sets(seed)}
    command_line = {flags for seed in SEEDS for flags in cli_sets(seed)}

    assert in_process == set(OPTION_SETS)
    assert command_line == set(OPTION_SETS)


@pytest.mark.parametrize("seed", SEEDS)
def test_polyopt_keeps_the_output(seed: int, pending: dict[int, Future[SeedResult]]) -> None:
    result = pending[seed].result(timeout=600)
    failures = [verdict for verdict in result.verdicts if verdict.outcome == FAILED]
    if failures:
        raise AssertionError(
            f"seed {seed}: reproduce with\n"
            f"  python -c 'from polyopt.fuzz.generator import generate; print(generate({seed}).render())' > f.c\n"
            + "\n".join(f"flags {' '.join(v.flags) or '(default)'}: {v.message}" for v in failures)
        )


# -- the harness ----------------------------------------------------------------------

SMALL = """#include <stdio.h>
static double A[10];
int main(void)
{
  int i;
  for (i = 0; i < 10; i++)
    A[i] = i;
#pragma scop
  for (i = 1; i < 10; i++)
    A[i] = A[i - 1] + A[i];
#pragma endscop
  for (i = 0; i < 10; i++)
    printf("%.17g ", A[i]);
  printf("\\n");
  return 0;
}
"""


def test_the_check_catches_a_miscompile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    real = differential._in_process

    def wrong_for_notile(text: str, source: Path, flags: tuple[str, ...], timeout: float) -> object:
        optimized = real(text, source, flags, timeout)
        if flags == ("--notile",):
            return differential._Optimized(0, "", optimized.text.replace("A[i - 1] + A[i]", "A[i - 1] - A[i]"))
        return optimized

    monkeypatch.setattr(differential, "_in_process", wrong_for_notile)

    verdicts = check_program(SMALL, "small", [(), ("--notile",), ("--identity",)], folder=tmp_path)

    assert [v.outcome for v in verdicts] == [OPTIMIZED, FAILED, OPTIMIZED]
    assert verdicts[1].kind == "outputs differ"
    assert "first difference at token 2" in verdicts[1].message
    assert "polyopt --notile" in verdicts[1].message


def _edited(monkeypatch: pytest.MonkeyPatch, flags: tuple[str, ...], edit: object) -> None:
    """Make the in-process polyopt's output for ``flags`` go through ``edit`` (text -> text)."""
    real = differential._in_process

    def edited(text: str, source: Path, given: tuple[str, ...], timeout: float) -> object:
        optimized = real(text, source, given, timeout)
        return replace(optimized, text=edit(optimized.text)) if given == flags else optimized

    monkeypatch.setattr(differential, "_in_process", edited)


def test_the_check_builds_and_runs_each_output_also_without_openmp(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    openmp_only = "#ifdef _OPENMP\n#define SHIFT 0\n#else\n#define SHIFT 1\n#endif\n"
    _edited(
        monkeypatch,
        ("--notile",),
        lambda text: openmp_only + text.replace("A[i - 1] + A[i]", "A[i - 1] + A[i] + SHIFT"),
    )

    verdicts = check_program(SMALL, "small", [(), ("--notile",)], folder=tmp_path)

    assert [v.outcome for v in verdicts] == [OPTIMIZED, FAILED]
    assert verdicts[1].kind == "outputs differ" and "without -fopenmp" in verdicts[1].message


def test_a_call_to_an_undeclared_function_fails_the_build(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _edited(monkeypatch, ("--notile",), lambda text: text.replace("A[i - 1] + A[i]", "A[i - 1] + A[i] + abs(0)"))

    verdicts = check_program(SMALL, "small", [(), ("--notile",)], folder=tmp_path)

    assert [v.outcome for v in verdicts] == [OPTIMIZED, FAILED]
    assert verdicts[1].kind == "compilation of the optimized program failed"
    assert "implicit declaration of function 'abs'" in verdicts[1].message.replace("\u2018", "'").replace("\u2019", "'")


def test_a_schedule_that_fails_verification_fails_and_a_time_budget_fallback_does_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(verify, "schedule_respects", lambda schedule, dependences: False)
    (verification,) = check_program(SMALL, "illegal", [("--notile",)], folder=tmp_path)
    monkeypatch.undo()
    real = driver.run_limited
    calls: list[object] = []

    def first_out_of_time(function: object, seconds: float) -> object:
        calls.append(function)
        if len(calls) == 1:
            raise OutOfTime
        return real(function, seconds)

    monkeypatch.setattr(driver, "run_limited", first_out_of_time)
    (budget,) = check_program(SMALL, "slow", [("--notile",)], folder=tmp_path)

    assert verification.outcome == FAILED and verification.fallback
    assert verification.kind == "a schedule failed polyopt's verification"
    assert "the schedule violates a dependence; falling back to the original schedule" in verification.message
    assert budget.outcome == OPTIMIZED and budget.fallback, budget.message


def test_a_declined_region_passes_when_the_output_is_the_input(tmp_path: Path) -> None:
    text = SMALL.replace("for (i = 1; i < 10; i++)\n    A[i] = A[i - 1] + A[i];", "i = 1;\n  while (i < 10) i++;")

    (verdict,) = check_program(text, "declined", [()], folder=tmp_path)

    assert verdict.outcome == DECLINED, verdict.message


def test_the_command_line_and_the_pipeline_give_the_same_verdict(tmp_path: Path) -> None:
    flags = ("--tile-sizes=3,5,7",)

    in_process, command_line = (
        check_program(SMALL, name, [flags], folder=tmp_path, cli=cli) for name, cli in (("a", ()), ("b", [flags]))
    )

    assert in_process == command_line == [Verdict(flags, OPTIMIZED)]


def test_integer_programs_are_compared_exactly_and_reassociated_floating_point_within_a_tolerance() -> None:
    integers, doubles = "int A[4];\n", "double A[4];\n"

    assert all(tolerance(flags, integers) is None for flags in OPTION_SETS)
    assert tolerance((), doubles) is not None and tolerance(("--no-expand",), doubles) is not None
    assert tolerance(("--no-reassociate",), doubles) is None and tolerance(("--identity",), doubles) is None


def test_a_reassociated_sum_is_compared_at_the_scale_of_its_data() -> None:
    # tests/regressions/case_503023.c: terms of 1e18 that cancel to 0.25 sum to 256 in the original order
    huge = "begin dump: A\n-1 4.713504889706537e+17 2\nbegin dump: s\n256\n"
    small = "begin dump: A\n-1 0.5 2\nbegin dump: s\n256\n"

    assert data_scale(huge) == 4.713504889706537e17 and data_scale("0.5 -0.25\n") == 1.0
    assert first_difference(huge, huge.replace("256", "-0.625"), rel_tol=1e-9, abs_tol=1e-9 * data_scale(huge)) is None
    assert first_difference(small, small.replace("256", "-0.625"), rel_tol=1e-9, abs_tol=1e-9 * data_scale(small))


def test_shrinking_keeps_the_failure(monkeypatch: pytest.MonkeyPatch) -> None:
    def statements_of(program: Program) -> list[str]:
        return [node.text for node in _walk(program.nests) if isinstance(node, Stmt)]

    program = next(p for p in map(generate, range(7, 100)) if len(statements_of(p)) >= 3)
    statements = statements_of(program)
    culprit = statements[len(statements) // 2]

    def fake_check(text: str, name: str, sets: list[tuple[str, ...]], **_: object) -> list[Verdict]:
        failed = culprit in text
        return [Verdict(sets[0], FAILED if failed else OPTIMIZED, "outputs differ: fake" if failed else "")]

    monkeypatch.setattr(campaign, "check_program", fake_check)

    small = shrink(program, Verdict(("--notile",), FAILED, "outputs differ: fake"), timeout=10)

    assert culprit in small.render()
    assert [node.text for node in _walk(small.nests) if isinstance(node, Stmt)] == [culprit]
    assert not any(smaller for smaller in smaller_variants(small) if culprit in smaller.render())


def test_shrinking_turns_the_features_off(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    program = next(
        p
        for p in map(generate, range(2000))
        if p.parametric and p.show_iterators and p.dead and any(a.storage != STATIC for a in p.arrays)
    )
    (culprit,) = [n.text for n in _walk(program.nests) if isinstance(n, Stmt) and n.text.startswith("#pragma")]

    def fake_check(text: str, name: str, sets: list[tuple[str, ...]], **_: object) -> list[Verdict]:
        failed = culprit in text
        return [Verdict(sets[0], FAILED if failed else OPTIMIZED, "outputs differ: fake" if failed else "")]

    monkeypatch.setattr(campaign, "check_program", fake_check)

    small = shrink(program, Verdict((), FAILED, "outputs differ: fake"), timeout=10)

    extents = " ".join(extent for array in small.arrays for extent in array.extents)
    assert small.nests == (Stmt(culprit),) and small.pointer == 0
    assert [size.macro for size in small.sizes] == re.findall(r"SZ\d+", extents)  # only those of the array's sizes
    assert not small.parametric and not small.show_iterators
    assert [(a.name, a.storage) for a in small.arrays] == [(culprit[-2], STATIC)]
    source = tmp_path / "small.c"
    source.write_text(small.render())
    run_program(compile_c(source, tmp_path / "small", flags=["-O1"]))


def toy_work(seed: int, sets: list[tuple[str, ...]], cli: object, timeout: float) -> SeedResult:
    """A stand-in for ``check_seed``: seed 1 hangs, seed 2 kills its worker, the others pass."""
    if seed == 1:
        time.sleep(600)
    if seed == 2:
        os._exit(3)
    return SeedResult(seed, tuple(Verdict(flags, OPTIMIZED) for flags in sets), 0.0)


def test_a_campaign_survives_a_hung_and_a_crashed_worker() -> None:
    seen: list[int] = []

    results = campaign.run_campaign(
        [0, 1, 2, 3, 4],
        lambda seed: [()],
        jobs=2,
        timeout=1.0,
        progress=lambda result: seen.append(result.seed),
        patience=lambda seed: 5.0,
        work=toy_work,
    )

    assert sorted(seen) == [0, 1, 2, 3, 4]
    assert [r.seed for r in results] == [0, 1, 2, 3, 4]
    outcomes = {r.seed: (r.verdicts[0].outcome, r.verdicts[0].kind) for r in results}
    assert outcomes[1] == (FAILED, "hung") and outcomes[2] == (FAILED, "crashed")
    assert all(outcomes[seed] == (OPTIMIZED, "") for seed in (0, 3, 4))


def test_a_campaign_of_one_family_checks_that_family_s_programs(monkeypatch: pytest.MonkeyPatch) -> None:
    works: list[Callable[..., SeedResult]] = []
    texts: list[str] = []

    def no_run(seeds: list[int], sets_of: object, **keywords: Any) -> list[SeedResult]:
        works.append(keywords["work"])
        return []

    monkeypatch.setattr(campaign, "run_campaign", no_run)
    monkeypatch.setattr(campaign, "check_program", lambda text, *positional, **keywords: texts.append(text) or [])

    assert campaign.main(["--count", "1", "--family", "pivots"]) == 0
    (work,) = works
    work(3, [()], (), 5.0)

    assert texts == [generate(3, "pivots").render()] and "family pivots" in texts[0]


def _walk(nodes: tuple[object, ...]) -> Iterator[object]:
    for node in nodes:
        yield node
        yield from _walk(getattr(node, "body", ()))


# -- the generator ---------------------------------------------------------------------


def test_the_generator_is_deterministic() -> None:
    assert generate(12).render() == generate(12).render()
    assert generate(12).render() != generate(13).render()


def _regions(seeds: range, family: str | None = None) -> list[str]:
    """The region text of each seed's program (of ``family``'s nests only, if given)."""
    return [generate(seed, family).render().split("#pragma scop")[1].split("#pragma endscop")[0] for seed in seeds]


@pytest.mark.parametrize(
    ("feature", "pattern"),
    [
        ("a nest of depth 4", r"for \(m = "),
        ("a triangular bound", r"for \(j = i \+ 1;|for \(j = \d; j <= i;"),
        ("a parametric bound", r"< n - \d;"),
        ("a stepped loop", r"\+= 2\)"),
        ("a decreasing loop", r"--\)"),
        ("an if guard", r"if \("),
        ("a three-dimensional array", r"\w\[[^]]+\]\[[^]]+\]\[[^]]+\]"),
        ("a diagonal access", r"\w\[(\w)\]\[\1\]"),
        ("a transposed access", r"\w\[j\]\[i\]"),
        ("a skewed access", r"\[\w \+ \w\]"),
        ("a reversed access", r"\[-\w \+ n - 1\]"),
        ("a scalar reduction", r"\bs \+= |t = \(t \+ "),
        ("an integer statement", r"% 1009"),
        ("an in-place stencil", r"0\.2 \* \("),
        ("a vector reduction", r"\w\[\w\] \+= .*\w\[\w\]\[\w\]"),
        (
            "a lone statement between nests",
            r"^  [A-Dst]\S* =",
        ),
        ("a guarded load of a scalar kept in place", r"if \(.*\) \{\n\s+[st] = \w\[i\]\[j\];"),
        ("a guarded store of a scalar kept in place", r"if \(.*\) \{\n\s+\w\[i\]\[j\] = [st]\b"),
        ("a dead temporary", r"#pragma polyopt dead\(\w\)"),
        ("a GEMM", r"\w\[i\]\[j\] (\+=|-=) .*\w\[[ik]\]\[[ki]\] \* \w\[[kj]\]\[[jk]\];"),
        ("a GEMV", r"\w\[i\] (\+=|-=) .*\w\[[ij]\]\[[ji]\] \* \w\[j\];"),
        ("an int sum of floats", r"\bt (\+=|-=) \(float\)"),
        ("a float sum", r"\bf (\+=|-=) "),
        ("a pointer advanced by a sum", r"\bp (\+=|-=) \w\["),
        ("a column sum", r"\w\[j\] (\+=|-=) \w\[i\]\[j\]"),
        ("a loop bounded by a size macro", r"< sz\d+;"),
        ("an indirect subscript", r"\[\(\w\[[^]]+\](\[[^]]+\])? % 7 \+ 7\) % \(n \+ 4\)\]"),
        ("a guard on an array element", r"if \(\w\[[^]]+\](\[[^]]+\])* ([<>]=?|%) "),
        ("a guarded block", r"if \(\w\[.*\) \{\n.*;\n.*;\n\s*\}"),
        ("a running extremum", r"if \(.* [<>] s\) \{\n\s+s = "),
        ("a negated guard", r"if \(!\("),
        ("a temporary declared in a loop body", r"\{\n\s+(double|int) v0 = (?!0;)"),
        ("an accumulator declared in a loop body", r"\{\n\s+(double|int) v0 = 0;\n\s+for \("),
        ("a subscript modulo a named constant", r"\[\w % K\d+\]"),
        ("a subscript divided by a named constant", r"\[\w / K\d+\]"),
        ("a pivot update", r"for \(k = .*\n.*for \(i = .*\n.*for \(j = .*\n\s+(\w)\[i\]\[j\] = .*\1\[i\]\[k"),
    ],
)
def test_the_generator_covers(feature: str, pattern: str) -> None:
    assert any(re.search(pattern, region, re.MULTILINE) for region in _regions(range(300))), feature


@pytest.mark.parametrize(
    ("feature", "pattern"),
    [
        ("an array of row pointers", r"static double \*\*\w;"),
        ("an array on the heap", r"static \w+ \(\*\w\)\["),
        ("a VLA parameter", r"kernel\(int n, .*\w\[n \+ 4\]"),
        ("an array parameter of constant size", r"kernel\((?!int n)[^)]*\w\[N \+ 4\]"),
        ("an empty loop", r"#define SZ\d+ 0\n"),
        ("the iterators printed after the region", r"begin dump: iterators"),
        ("a large array dumped as a sum", r"\(weighted sum\)"),
    ],
)
def test_the_generator_covers_in_its_declarations(feature: str, pattern: str) -> None:
    assert any(re.search(pattern, generate(seed).render()) for seed in range(200)), feature


def test_large_sizes_lie_on_both_sides_of_every_threshold() -> None:
    sizes = [
        tuple(size.value for size in program.sizes if size.value > 1)
        for program in (generate(seed) for seed in range(6000))
    ]
    products = {math.prod(values) for values in sizes if len(values) == 3}
    pairs = {math.prod(values) for values in sizes if len(values) == 2 and min(values) > 4}
    lengths = {max(values) for values in sizes if values}

    assert {BLAS_THRESHOLD, BLAS_THRESHOLD - 192 * 192, BLAS_THRESHOLD + 192 * 192} <= products
    assert {BLAS2_THRESHOLD, BLAS2_THRESHOLD - 1024} <= pairs and any(p > BLAS2_THRESHOLD for p in pairs)
    assert {SECTION_LIMIT - 1, SECTION_LIMIT, SECTION_LIMIT + 1} <= lengths
    rows = {values[0] for values in sizes if len(values) == 3}  # around the microkernel's blocks of 14 and 252 rows
    assert rows & {13, 27, 251} and rows & {14, 28, 252} and rows & {15, 29, 253}


def test_one_program_in_ten_or_fewer_has_large_arrays_and_row_pointers_keep_their_rows() -> None:
    programs = [generate(seed) for seed in range(1000)]
    large = [p for p in programs if any(a.elements > DUMP_LIMIT for a in p.arrays)]

    assert 10 <= len(large) <= 100
    assert all(a.rank >= 2 for p in programs for a in p.arrays if a.storage == ROWS)


def test_every_program_has_one_to_four_arrays_and_nests() -> None:
    programs = [generate(seed) for seed in range(200)]

    assert {sum(a.name in "ABCD" for a in p.arrays) for p in programs} == {1, 2, 3, 4}
    assert {1, 2, 3, 4} <= {len(p.nests) for p in programs}
    assert {a.ctype for p in programs for a in p.arrays} == {"double", "float", "int"}
    assert {a.rank for p in programs for a in p.arrays} == {1, 2, 3}
    assert all(not a.readonly for p in programs for a in p.arrays if a.name in "ABCD")


def test_floating_values_that_hold_whole_numbers_print_as_floating_tokens(tmp_path: Path) -> None:
    # tests/regressions/case_510247.c: -8039767584603540 against ...539 is one unit of a double's last
    # place, and must be compared within the tolerance, not exactly as integers are
    source = tmp_path / "forms.c"
    source.write_text(
        "#include <stdio.h>\n"
        f'int main(void) {{ printf("{DOUBLE_FORM} {FLOAT_FORM}\\n", -8039767584603540.0, 3.0f); return 0; }}\n'
    )

    printed = run_program(compile_c(source, tmp_path / "forms")).stdout.split()

    assert printed == ["-8039767584603540.0", "3.00000000"]
    assert first_difference("-8039767584603540.0", "-8039767584603539.0", rel_tol=1e-9) is None


def test_generated_programs_compile_cleanly_and_run_quickly(tmp_path: Path) -> None:
    programs = [generate(seed) for seed in range(400)]
    large = [p for p in programs if any(a.elements > DUMP_LIMIT for a in p.arrays)][:6]
    flags = ["-O1", "-Wall", "-Werror", "-Wno-unused-variable", "-Wno-unknown-pragmas"]
    for program in programs[:8] + large:
        source = tmp_path / f"p{program.seed}.c"
        source.write_text(program.render())
        binary = compile_c(source, tmp_path / source.stem, flags=flags)
        run_program(binary, timeout=2.0)  # each takes milliseconds; the limit allows for a busy machine


PIVOT_FEATURES = [
    ("a pivot row", r"\w\[i\]\[k\]"),
    ("a pivot column", r"\w\[k\]\[j\]"),
    ("an offset pivot", r"\w\[i\]\[k [+-] 1\]|\w\[k [+-] 1\]\[j\]"),
    ("a constant pivot column", r"\w\[i\]\[0\]|\w\[i\]\[n - 1\]"),
    ("a reversed pivot", r"\w\[i\]\[-k \+ n - 1\]"),
    (
        "a diagonal pivot of a nest of two loops",
        r"^  for \(i = .*\n\s+for \(j = .*\n\s+\w\[i\]\[j\] = .*\[i\]\[i( [+-] 1)?\]",
    ),
    ("a min select", r"(\w\[i\]\[j\]) = \(?\1 < .* \? \1 : "),
    ("a max select", r"(\w\[i\]\[j\]) = \(?\1 > .* \? \1 : "),
    ("an integer update", r"\w\[i\]\[j\] = \(.*\) % 1009;"),
    ("a scaled update", r"\w\[i\]\[j\] = 0\.5 \* "),
    ("a triangular bound from the pivot", r"for \([ij] = k( \+ 1)?; "),
    ("a decreasing pivot loop", r"for \(k = n - \d; k >= \d; k--\)"),
    ("a second statement in the innermost body", r"for \(j = .*\{\n\s+\S.*;\n\s+\S.*;\n\s+\}"),
    ("a guard", r"for \(j = .*\{\n\s+if \("),
]


def test_the_pivot_family_is_deterministic_and_only_has_pivot_nests() -> None:
    regions = _regions(range(30), "pivots")

    assert regions == _regions(range(30), "pivots")
    assert generate(3, "pivots").render() != generate(4, "pivots").render()
    assert all(re.match(r"\s*for \((k|i) = ", region) for region in regions)
    assert all(re.search(r"(\w)\[i\]\[j\] = .*\1\[", region) for region in regions)


def test_pivot_programs_are_split_on_outer_and_on_innermost_loops() -> None:
    notes: list[str] = []
    for seed in range(6):
        outcome = optimize_text(generate(seed, "pivots").render(), f"pivots_{seed}.c", Options(blas="none"))
        assert not outcome.warnings, seed
        notes += [note for region in outcome.regions if region.report for note in region.report.lines("notes")]
    splits = [note for note in notes if " split on " in note]

    assert any(note.endswith("(innermost loop)") for note in splits)
    assert any(not note.endswith("(innermost loop)") for note in splits)


SWEEP_FEATURES = [
    ("a one-dimensional sweep", r"^\s+(\w)\[j\] = .*\b(?!\1)\w\[j - 1\]"),
    ("a two-dimensional sweep", r"^\s+(\w)\[j\]\[k\] = 0\.2 \* \((?!\1)\w\[j\]\[k\] \+ "),
    ("a one-sided neighbour only", r"^\s+\w\[j\]\[k\] = 0\.2 \* \(\w\[j\]\[k\] \+ \w\[j\]\[k - 1\]\);"),
    ("an accumulating sweep", r"^\s+(\w\[j\](\[k\])?) = 0\.5 \* \1 - 0\.1 \* "),
    ("an integer sweep", r"^\s+\w\[j\](\[k\])? = \(.*\) % 1009;"),
    ("a statement beside the sweeps", r"^\s+\w\[i\](\[0\])? = \w+\["),
    ("a sweep from 2 to n - 2", r"for \([jk] = 2; [jk] < n - 2; "),
    ("a sweep in place", r"^\s+(\w)\[j\]\[k\] = 0\.2 \* \(\1\[j\]\[k\] \+ \1\[j - 1\]\[k\]"),
]


SOLVE_FEATURES = [
    (
        "a forward solve",
        r"for \(j = 0; j < i; j\+\+\) \{\n\s+(\w)\[i\] (-=|= \1\[i\] -) 0\.25 \* \w\[i\]\[j\] \* \1\[j\]",
    ),
    ("a backward solve", r"for \(i = n - 1; i >= 0; i--\) \{\n\s+(\w\[i\] = \w\[i\];\n\s+)?for \(j = i \+ 1; "),
    ("an integer solve", r"(\w)\[i\] = \(\1\[i\] - 3 \* \1\[j\] \+ \w\[i\]\[j\]\) % 1009;"),
    ("a right-hand side copied first", r"for \(i = .*\{\n\s+(\w)\[i\] = (?!\1)\w\[i\];\n\s+for \(j"),
    ("a scaling by the diagonal", r"(\w)\[i\] = .*\w\[i\]\[i\]"),
]


TABLE_FEATURES = [
    ("rows running down", r"for \(i = n - [12]; i >= 0; i--\) \{\n\s+for \(j = i \+ 1; j < n; j\+\+\)"),
    ("rows running up", r"for \(i = 0; i < n( - 1)?; i\+\+\) \{\n\s+for \(j = i \+ 1; j < n; j\+\+\)"),
    ("a matrix-chain split", r"for \(k = i; k < j; k\+\+\) \{\n\s+.*(\w)\[i\]\[k\] \+ \1\[k \+ 1\]\[j\]"),
    ("a split shared by both halves", r"for \(k = i \+ 1; k < j; k\+\+\) \{\n\s+.*(\w)\[i\]\[k\] \+ \1\[k\]\[j\]"),
    ("a min as a ternary", r"(\w)\[i\]\[j\] = \(?\1\[i\]\[j\] < .* \? \1\[i\]\[j\] : "),
    ("a max as an if", r"if \(.* > (\w)\[i\]\[j\]\) \{\n\s+\1\[i\]\[j\] = "),
    ("an integer table", r"(\w)\[i\]\[j\] = \(\1\[i\]\[j\] < .*\) % 1009;"),
    ("a halved pair of doubles", r"0\.5 \* \((\w)\[i\]\[k\] \+ \1\[k"),
    ("the input at the split", r"\+ (0\.25 \* )?\w\[k\]( \?|\)? % 1009|;)"),
    ("a statement before the split loop", r"for \(j = i \+ 1; j < n; j\+\+\) \{\n\s+(?!for)\S.*(\w)\[i\]\[j - 1\]"),
    ("a statement after the split loop", r"^\s+\}\n\s+(\w)\[i\]\[j\] = .*\1\[i \+ 1\]\[j\]"),
    ("a bonus on the diagonal neighbour", r"\[i \+ 1\]\[j - 1\] \+ \(\w\[i\] \+ \w\[j\] (==|>) "),
]


RANK_K_FEATURES = [
    ("a lower triangle with its diagonal", r"for \(j = 0; j <= i; j\+\+\)"),
    ("a strict lower triangle", r"for \(j = 0; j < i; j\+\+\)"),
    ("an upper triangle with its diagonal", r"for \(j = i; j < "),
    ("a strict upper triangle", r"for \(j = i \+ 1; j < "),
    ("a SYRK", r"(\w)\[i\]\[k\] \* \1\[j\]\[k\];"),
    ("a transposed SYR2K", r"(\w)\[k\]\[i\] \* (\w)\[k\]\[j\] \+ .*\2\[k\]\[i\] \* \1\[k\]\[j\];"),
    ("the sum outermost", r"^\s*for \(k = 0; "),
]


SQUARE_FEATURES = [
    (
        "a TRMM with its rows running up",
        r"for \(i = 0; .*\n\s+for \(\w = .*\n\s+for .*\n\s+(\w)\[i\]\[j\] \+= \w\[\w\]\[\w\] \* \1\[k\]\[j\];",
    ),
    (
        "a TRMM over k < i, rows running down",
        r"i >= 0; i--\) \{\n(.*\n){2}\s+(\w)\[i\]\[j\] \+= \w\[\w\]\[\w\] \* \2\[k\]\[j\];",
    ),
    ("a TRMM with j innermost", r"for \(k = .*\n\s+for \(j = 0; .*\n\s+(\w)\[i\]\[j\] \+= .* \* \1\[k\]\[j\];"),
    ("a SYMM over k < i", r"s = 0\.0;\n\s+for \(k = 0; k < i; k\+\+\)"),
    ("a SYMM over k > i", r"s = 0\.0;\n\s+for \(k = i \+ 1; "),
    ("a SYMM reading A[k][i]", r"s \+= \w\[k\]\[j\] \* \w\[k\]\[i\];"),
    ("a SYMM with alpha and beta", r"(\w)\[i\]\[j\] = (0\.75|-1\.25) \* \1\[i\]\[j\] \+ (1\.5|-0\.5) \* "),
]


GNU_FEATURES = [
    ("__builtin_expect around a guard", r"if \(__builtin_expect\(.*, [01]\)\)"),
    ("__extension__", r"= __extension__ \("),
    ("a statement expression", r"= \(\{ .*; \}\);"),
    ("an attribute on a temporary", r"^\s*(double|int|float) \w+ __attribute__\(\(unused\)\) = "),
    ("#pragma GCC ivdep", r"^\s*#pragma GCC ivdep\n\s*for "),
]


@pytest.mark.parametrize(
    ("family", "feature", "pattern"),
    [("pivots", *feature) for feature in PIVOT_FEATURES]
    + [("sweeps", *feature) for feature in SWEEP_FEATURES]
    + [("solves", *feature) for feature in SOLVE_FEATURES]
    + [("tables", *feature) for feature in TABLE_FEATURES]
    + [("rank_k", *feature) for feature in RANK_K_FEATURES]
    + [("square", *feature) for feature in SQUARE_FEATURES]
    + [("gnu", *feature) for feature in GNU_FEATURES],
)
def test_a_family_covers(family: str, feature: str, pattern: str) -> None:
    assert any(re.search(pattern, region, re.MULTILINE) for region in _regions(range(100), family)), feature


def test_the_sweep_family_passes_values_around_three_arrays() -> None:
    written = [set(re.findall(r"^\s+(\w)\[j\]", region, re.MULTILINE)) for region in _regions(range(100), "sweeps")]

    assert any(len(arrays) == 3 for arrays in written)


def test_the_sweep_family_is_deterministic_and_only_has_time_loops() -> None:
    regions = _regions(range(30), "sweeps")

    assert regions == _regions(range(30), "sweeps")
    assert all(re.match(r"\s*for \(i = 0; i < [2-5]; i\+\+\)", region) for region in regions)


def _large_path_reports(family: str, count: int) -> list[list[str]]:
    """The reports of the regions of the first ``count`` programs of ``family``, optimized down the
    paths of large ones (threads, tiles)."""
    options = options_from_arguments(
        ["--blas=none", "--blocks-microkernel=0", "--parallel-work=1", "--fixed-tile-size=4", "--small-loop-rules=0"]
    )
    reports = []
    for seed in range(count):
        outcome = optimize_text(generate(seed, family).render(), f"{family}_{seed}.c", options)
        assert not outcome.warnings, seed
        reports.append([format_report(region.report) for region in outcome.regions if region.report])
    return reports


@pytest.fixture(scope="module")
def sweep_reports() -> list[list[str]]:
    return _large_path_reports("sweeps", 40)


def _programs_with(reports: list[list[str]], *phrases: str) -> int:
    """How many programs have a region whose report holds every one of ``phrases``."""
    return sum(any(all(phrase in text for phrase in phrases) for text in texts) for texts in reports)


def test_sweep_programs_get_rows_jammed_into_a_recurrence(sweep_reports: list[list[str]]) -> None:
    assert _programs_with(sweep_reports, "copies of its recurrence interleaved") >= 2


def test_sweep_programs_get_skewed_tiles_with_a_vector_loop_per_sweep(sweep_reports: list[list[str]]) -> None:
    assert _programs_with(sweep_reports, "wavefront over tiles", "split into loops over") >= 3


def test_sweep_programs_over_three_space_dimensions_get_time_skewed_planes(sweep_reports: list[list[str]]) -> None:
    assert _programs_with(sweep_reports, "time skewed along the outer space loop") >= 3


def test_the_solve_family_is_deterministic_and_only_has_solves() -> None:
    regions = _regions(range(30), "solves")

    assert regions == _regions(range(30), "solves")
    assert all(re.match(r"\s*for \(i = (0; i < n; i\+\+|n - 1; i >= 0; i--)\)", region) for region in regions)


def test_solve_programs_run_their_tiles_as_wavefronts() -> None:
    reports = _large_path_reports("solves", 12)
    assert _programs_with(reports, "wavefront over tiles") >= 6


def test_the_table_family_is_deterministic_and_only_has_tables_of_splits() -> None:
    regions = _regions(range(30), "tables")

    assert regions == _regions(range(30), "tables")
    assert generate(3, "tables").render() != generate(4, "tables").render()
    for region in regions:
        rows = re.findall(r"^\s*for \(i = .*\) \{\n\s+for \(j = i \+ 1; j < n; j\+\+\) \{$", region, re.MULTILINE)
        assert rows and len(rows) == region.count("for (i = ") == region.count("for (k = i")


def test_table_programs_run_their_tiles_as_wavefronts() -> None:
    reports = _large_path_reports("tables", 10)
    assert _programs_with(reports, "wavefront over tiles") >= 8  # 10 when written


def test_the_rank_k_family_is_deterministic() -> None:
    assert _regions(range(30), "rank_k") == _regions(range(30), "rank_k")


def test_rank_k_programs_reach_the_microkernel_on_a_triangle() -> None:
    options = options_from_arguments(
        ["--blas=none", "--rank-k-microkernel=1", "--blocks-microkernel=0", "--parallel-work=1"]
    )
    kernels = 0
    for seed in range(12):
        outcome = optimize_text(generate(seed, "rank_k").render(), f"rank_k_{seed}.c", options)
        assert not outcome.warnings, seed
        kernels += "of C only */" in outcome.text
    assert kernels >= 8


def test_the_square_family_is_deterministic() -> None:
    assert _regions(range(30), "square") == _regions(range(30), "square")


def test_square_programs_reach_the_microkernel_as_symm_and_trmm() -> None:
    options = options_from_arguments(["--blas=none", "--blocks-microkernel=0", "--parallel-work=1"])
    symm = trmm = 0
    for seed in range(12):
        outcome = optimize_text(generate(seed, "square").render(), f"square_{seed}.c", options)
        assert not outcome.warnings, seed
        symm += "symmetric (" in outcome.text
        trmm += "in place */" in outcome.text
    assert symm >= 5 and trmm >= 8  # 7 and 11 when written


def test_the_gnu_family_splits_regions_and_declares_aligned_arrays() -> None:
    texts = [generate(seed, "gnu").render() for seed in range(20)]

    assert any(text.count("#pragma scop") > 1 for text in texts)
    assert all("__attribute__((aligned(16)));" in text for text in texts)


TWO_REGIONS = SMALL.replace("#pragma scop\n", "#pragma scop\n  A[0] = ({ A[0]; });\n#pragma endscop\n#pragma scop\n")


def test_a_declined_region_beside_an_optimized_one_passes_when_it_is_kept_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (kept,) = check_program(TWO_REGIONS, "two", [()], folder=tmp_path)
    _edited(monkeypatch, (), lambda text: text.replace("A[0] = ({ A[0]; });", "A[0] = ({ A[1]; });"))
    (edited,) = check_program(TWO_REGIONS, "two", [()], folder=tmp_path)

    assert kept.outcome == OPTIMIZED, kept.message
    assert edited.outcome == FAILED and "does not hold it as written" in edited.message


MACRO_FEATURES = [
    ("an object-like macro without parentheses", r"^#define W\d+ [^(\s]+ ?[-+*] ?\S+$"),
    ("an object-like macro with parentheses", r"^#define W\d+ \(.*\)$"),
    ("a function-like macro without parentheses", r"^#define F\d+\(x\) [^(]"),
    ("a chained macro", r"^#define \w+(\(x\))? .*\bW\d+\b"),
    ("a macro naming the iterator", r"^#define W\d+ .*\bi\b"),
    ("a macro in a loop bound", r"for \(i = \d; i < [^;]*\b[WF]\d+"),
    ("a macro in a loop step", r"; i \+= [^)]*\b[WF]\d+"),
    ("a function-like macro in a subscript", r"\[[^\]]*F\d+\(i"),
    ("a macro in a guard", r"if \([ij] < [^)]*\b[WF]\d+"),
]


@pytest.mark.parametrize(("feature", "pattern"), MACRO_FEATURES)
def test_the_macros_family_covers(feature: str, pattern: str) -> None:
    texts = [generate(seed, "macros").render() for seed in range(60)]
    assert any(re.search(pattern, text, re.MULTILINE) for text in texts), feature


COUNTER = r"(?:j|c\d)"
ADVANCE = rf"(\+\+{COUNTER}|{COUNTER}(\+\+| \+= 1| = {COUNTER} \+ 1));"  # the spellings of a counter's step
WRITTEN_FEATURES = [
    (
        "induction",
        "a counter advanced in both branches",
        rf"\}} else \{{\n\s+({ADVANCE}|\w+(\[i\])?\[{COUNTER}(\+\+)?\] = )",
    ),
    (
        "induction",
        "a counter advanced in one branch only",
        rf"if \(.*\) \{{\n(\s+.*;\n)?\s+\w+(\[i\])?\[{COUNTER}(\+\+)?\] = .*;\n(\s+.*;\n)?\s+\}}\n",
    ),
    ("induction", "a counter from -1", rf"^\s+{COUNTER} = -1;\n\s+for \(i = "),
    ("induction", "a compaction", rf"\w+\[{COUNTER}\+\+\] = "),
    (
        "induction",
        "a counter restarted for each row",
        r"for \(i = 0; i < n; i\+\+\) \{\n\s+c\d = (-1|0);\n\s+for \(j = ",
    ),
    ("unrolled", "a loop unrolled by hand", r"for \(i = [01]; [^;]+; i \+= ([2-5])\) \{\n.*\[i\].*\n.*\[i \+ 1\]"),
    ("unrolled", "a loop unrolled by 5", r"for \(i = [01]; [^;]+; i \+= 5\) \{\n(.*\n){4}.*\[i \+ 4\]"),
    ("unrolled", "a gather through an index array", r"\w\[(\w)\[i \+ \d\]\](.|\n)*\1\[i \+ \d\]\]"),
    ("unrolled", "an index array's values in range", r"^    \w\[i\] = \(i \* \d \+ \d+\) % N;$"),
    ("unrolled", "partial sums", r"(a\d) \+= \w\[i\] \* \w\[i\];\n\s+(?!\1)(a\d) \+= \w\[i \+ 1\] \* \w\[i \+ 1\];"),
    ("unrolled", "a clean-up loop without an initialization", r"\}\n\s+for \(; i < n; i\+\+\) \{"),
    ("unrolled", "a clean-up loop from n - n % K", r"for \(i = n - n % ([2-5]); i < n; i\+\+\)"),
    ("unrolled", "a clean-up loop from n / K * K", r"for \(i = n / ([2-5]) \* \1; i < n; i\+\+\)"),
    ("shifted", "a pair that a shift makes parallel", r"(\w+(\[j\])?)\[i \+ [12]\] = .*;\n\s+\1\[i\] = (?!\(?\1)"),
    (
        "shifted",
        "a read of what the shifted statement wrote",
        r"(\w+(\[j\])?)\[i \+ [12]\] = .*;\n\s+\w+(\[j\])?\[i\] = \(?\1\[i",
    ),
    ("shifted", "a read of an earlier neighbour", r"(\w)\[i \+ [12]\] = .*;\n\s+\w\[i\] = \(?\1\[i - 1\]"),
    ("typed", "a long iterator declared in the for", r"for \(long \w+ = "),
    ("typed", "a decreasing long iterator", r"for \((long )?\w+ = n - \d; \w+ >= \d; \w+--\)"),
    ("typed", "an unsigned iterator declared before the region", r"^  unsigned q\d = 0;$"),
    ("typed", "a size_t iterator declared in the for", r"for \(size_t \w+ = "),
    ("typed", "a size_t iterator declared before the region", r"^  size_t q\d = 0;$"),
    ("typed", "a for declaration shadowing i", r"for \((long|unsigned|size_t) i = "),
    ("typed", "a cast bound", r"< \((long|unsigned|size_t)\)n;"),
    (
        "typed",
        "a first-min search",
        r"(m\d) = [01];\n\s+for \(.* = [12]; .*\n\s+if \((\w)\[(\w+)\] < \2\[\1\]\) \{\n\s+\1 = \3;",
    ),
    (
        "typed",
        "a first-max search",
        r"(m\d) = [01];\n\s+for \(.* = [12]; .*\n\s+if \((\w)\[(\w+)\] > \2\[\1\]\) \{\n\s+\1 = \3;",
    ),
    (
        "chain",
        "a chain through temporaries",
        r"(t\d) = \w\[i\](\[\w\])?;\n\s+(t\d) = \(?\1 [-+*] .*;\n(.*\n)*?\s+\w\[i\]\2 = (0\.5 \* )?t\d;",
    ),
    ("chain", "a chain at a constant column", r"^  double t\d = 0\.0;$(.|\n)*t\d = \w\[i\]\[[0-4]\];\n\s+t\d = t\d "),
    ("chain", "an integer chain", r"t\d = \(t\d [-+] \w\[i( \+ 1)?\](\[\w\])?\) % 1009;"),
    ("bound", "a bound computed in the region", r"^\s+(n\d) = n( [-+/] \d)?;\n\s+for \(i = [^)]*\b\1\b"),
    ("bound", "a bound set before the region", r"^  (?:int|long) (n\d) = n( [-+/] \d)?;$(.|\n)*for \(i = [^)]*\b\1\b"),
    ("bound", "an inner loop bounded by the scalar too", r"for \(j = 0; j < n\d; j\+\+\)"),
    ("written", "a nest in a region of its own", r"^  #pragma endscop\n#pragma scop\n"),
]


def _written(seeds: range) -> list[str]:
    return [generate(seed, "written").render() for seed in seeds]


def test_the_written_family_is_deterministic_and_declares_and_prints_its_scalars() -> None:
    programs = [generate(seed, "written") for seed in range(30)]

    assert [p.render() for p in programs] == _written(range(30))
    assert generate(3, "written").render() != generate(4, "written").render()
    for program in programs:
        text = program.render()
        kernel = text[text.index("static void kernel") :]
        for local in program.locals:
            assert f"  {local.declaration()}\n" in kernel[: kernel.index("#pragma scop")]
            assert f'printf("begin dump: {local.name}\\n' in kernel[kernel.rindex("#pragma endscop") :]


@pytest.mark.parametrize(("shape", "feature", "pattern"), WRITTEN_FEATURES)
def test_the_written_family_covers(shape: str, feature: str, pattern: str) -> None:
    assert any(re.search(pattern, text, re.MULTILINE) for text in _written(range(100))), f"{shape}: {feature}"


def test_the_written_family_covers_its_six_shapes() -> None:
    texts = _written(range(40))
    covered = {
        shape for shape, _, pattern in WRITTEN_FEATURES if any(re.search(pattern, t, re.MULTILINE) for t in texts)
    }

    assert set(SHAPES) <= covered


def test_written_programs_compile(tmp_path: Path) -> None:
    sources = []
    for text in _written(range(100)):
        sources.append(tmp_path / f"w{len(sources)}.c")
        sources[-1].write_text(text)
    flags = ["-fsyntax-only", "-Wall", "-Werror", "-Wno-unused-variable", "-Wno-unknown-pragmas"]

    result = subprocess.run([CC, *flags, *map(str, sources)], capture_output=True, text=True, check=False)

    assert result.returncode == 0, result.stderr[:3000]


def test_written_programs_stay_in_bounds_and_never_overflow(tmp_path: Path) -> None:
    flags = ["-O1", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    probe = tmp_path / "probe.c"
    probe.write_text("int main(void) { return 0; }\n")
    if subprocess.run([CC, *flags, str(probe), "-o", str(tmp_path / "probe")], capture_output=True).returncode:
        pytest.skip("gcc cannot build with the address and undefined-behaviour sanitizers here")
    for seed in range(6):
        source = tmp_path / f"w{seed}.c"
        source.write_text(generate(seed, "written").render())
        run_program(compile_c(source, tmp_path / source.stem, flags=flags), timeout=10.0)


def test_shrinking_deletes_the_nodes_of_an_else_branch_and_unused_locals() -> None:
    programs = (generate(number, "written") for number in range(100))
    program = next(p for p in programs if any(isinstance(node, If) and node.orelse for node in _walk(p.nests)))
    guard = next(node for node in _walk(program.nests) if isinstance(node, If) and node.orelse)
    variants = smaller_variants(program)
    unused = replace(program, locals=(*program.locals, Local("long", "unused0", "n - 1")))

    assert any(replace(guard, orelse=guard.orelse[1:]) in list(_walk(variant.nests)) for variant in variants)
    assert replace(unused, locals=program.locals) in smaller_variants(unused)


# (seed, option set): a handful of the family's programs, each under one option set
WRITTEN_CHECKS = [
    (0, ()),
    (2, ("--notile",)),
    (3, ("--fuse=max",)),
    (5, ("--no-expand",)),
    (6, ("--parallel-work=1", "--fixed-tile-size=4")),
    (8, ("--identity",)),
]


def test_written_programs_keep_their_output() -> None:
    for number, flags in WRITTEN_CHECKS:
        result = check_seed(number, [flags], family="written")
        failures = [verdict.message for verdict in result.verdicts if verdict.outcome == FAILED]
        assert not failures, f"seed {number}, family written, flags {' '.join(flags) or '(default)'}: {failures}"
