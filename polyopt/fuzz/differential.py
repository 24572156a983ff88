"""The differential check shared by the fuzz test, the fuzz campaign and the regression cases.

Public: ``OPTION_SETS``, ``THREADS``, ``FLAGS_PREFIX``, ``REGION_TIMEOUT``, ``REASSOCIATION_TOLERANCE``,
``OPTIMIZED``, ``DECLINED``, ``FAILED``, ``Verdict``, ``guard``, ``flags_of``, ``may_reassociate``,
``tolerance``, ``data_scale``, ``check_program``, ``check_file``.

``check_program(text, name, option_sets, folder=...)`` builds the program ``text`` once
with ``gcc -O1`` and runs it once; then for each option set it optimizes the text with
polyopt (in this process through the pipeline, or with the real command line for the
option sets named in ``cli``), builds the distinct results with ``gcc -O1 -fopenmp`` (all
in one gcc run when they compile), runs each with each of ``THREADS`` OpenMP threads and
compares each output with the original's; a result that uses OpenMP (and compiled) is also
built without ``-fopenmp`` (again all in one gcc run) and run once.  Every build has ``CHECK_FLAGS``: a
call to an undeclared function fails it.  Outputs that differ only in polyopt's summary
comments are built and run once.  A region polyopt declines ("region
not optimized") passes when the output holds that region as written, byte for byte (the other regions may
be optimized); an internal error, a
traceback or a non-zero exit fails, and so does a schedule that failed polyopt's own
verification (polyopt warns and falls back to the original schedule: its planner proposed
an illegal one).  polyopt runs with ``--timeout=TIMEOUT`` (its budget
per region; a region that exceeds it falls back to a simpler schedule, which is checked
like any other and counted as a fallback, not a failure), and a run that does not end within
``guard(timeout)`` seconds fails.

Outputs are compared exactly unless an option set lets polyopt reassociate floating-point
arithmetic (``may_reassociate``: reductions run in a new order, the default) and the program
has floating-point data (``tolerance``); integer programs are always compared exactly.  A
reassociated sum's rounding error grows with its terms, not with its result: terms of 1e18
that cancel to 0.25 give 256 in one order and -0.625 in another.  So the absolute floor of a
reassociated comparison is the tolerance times the data's scale, the largest magnitude the
original prints (``data_scale``), not the tolerance alone.
"""

from __future__ import annotations

import contextlib
import hashlib
import math
import re
import signal
import threading
import traceback
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from polyopt.command import options_from_arguments
from polyopt.diagnostics import InputError, PolyoptError
from polyopt.driver import optimize_text
from polyopt.frontend.regions import find_regions
from polyopt.options import Options
from polyopt.toolchain import (
    CHECK_FLAGS,
    ToolchainError,
    compile_c,
    first_difference,
    parse_number,
    run_polyopt,
    run_program,
)

OPTION_SETS: tuple[tuple[str, ...], ...] = (
    (),
    ("--identity",),
    ("--notile",),
    ("--fuse=max",),
    ("--fuse=none",),
    ("--fuse=smart",),
    ("--fixed-tile-size=4",),
    ("--noparallel",),
    ("--l2tile",),
    ("--tile-sizes=3,5,7",),
    ("--no-reassociate",),
    ("--no-expand",),
    # small programs down the paths of large ones: threads, tiles, short reductions and jams
    ("--parallel-work=1", "--fixed-tile-size=4", "--small-loop-rules=0"),
    (
        "--blas=none",
        "--rank-k-microkernel=1",
        "--blocks-microkernel=0",
        "--parallel-work=1",
    ),  # the microkernels at any size, on threads
)
THREADS = (1, 2)  # OMP_NUM_THREADS of the optimized program's runs
FLAGS_PREFIX = "/* polyopt flags:"  # a regression case's first line names its flags
ORIGINAL_CFLAGS = ("-O1", *CHECK_FLAGS)
OPTIMIZED_CFLAGS = ("-O1", "-fopenmp", *CHECK_FLAGS)
SEQUENTIAL_CFLAGS = ("-O1", *CHECK_FLAGS)  # the second build of an optimized program, run with one thread
RUN_SECONDS = 20.0  # a generated program runs in milliseconds
REGION_TIMEOUT = 5.0  # polyopt's --timeout in the checks


def guard(timeout: float) -> float:
    """Seconds a polyopt run with ``--timeout=timeout`` may take before it counts as hung:
    three attempts at a region, and time to start."""
    return 4 * timeout + 30


# The relative (and absolute) tolerance for the outputs of a program whose floating-point
# arithmetic polyopt may have reassociated; see ``tolerance``.
REASSOCIATION_TOLERANCE = 1e-9

OPTIMIZED, DECLINED, FAILED = "optimized", "declined", "failed"

# polyopt's warnings (polyopt.pipeline): a schedule that failed re-verification, and a region out of time
VERIFICATION_FALLBACK = "falling back to the original schedule"
TIME_FALLBACK = "took longer than"
_OPENMP = re.compile(r"#\s*pragma\s+omp\b|\b_OPENMP\b|\bomp_\w+\s*\(")  # what a build without -fopenmp changes


@dataclass(frozen=True)
class Verdict:
    """The check of one program under one option set.

    ``outcome`` is ``OPTIMIZED``, ``DECLINED`` (a region was kept as written) or ``FAILED``;
    ``message`` explains a failure; ``fallback`` is set when polyopt warned that it fell
    back to a simpler schedule (a time budget, or a failed re-verification, which also fails).
    """

    flags: tuple[str, ...]
    outcome: str
    message: str = ""
    fallback: bool = False

    @property
    def kind(self) -> str:
        """The failure's first words (``polyopt failed``, ``outputs differ``, ...), for the shrinker."""
        return self.message.split(":", 1)[0].split("(", 1)[0].strip()


def flags_of(text: str) -> tuple[str, ...]:
    """The flags on a regression case's first line, ``/* polyopt flags: --notile */``."""
    first = text.splitlines()[0] if text else ""
    if not first.startswith(FLAGS_PREFIX):
        return ()
    return tuple(first.removeprefix(FLAGS_PREFIX).removesuffix("*/").split())


def may_reassociate(options: Options) -> bool:
    """Whether polyopt may reorder floating-point arithmetic under ``options`` (reductions
    run in a new order or in parallel, library calls): unless ``--no-reassociate`` or ``--identity``."""
    return options.reassociate and not options.identity


_FLOATING = re.compile(r"\b(?:double|float)\b")


def tolerance(flags: Sequence[str], program: str) -> float | None:
    """The tolerance for outputs of ``program`` optimized with ``flags``: None (exact) unless
    the options they stand for let polyopt reassociate (``may_reassociate``) and the program
    has floating-point data."""
    floating = _FLOATING.search(program) is not None
    return REASSOCIATION_TOLERANCE if floating and may_reassociate(options_from_arguments(flags)) else None


def data_scale(output: str) -> float:
    """The largest finite magnitude among the numbers ``output`` prints, at least 1."""
    numbers = (parse_number(token) for token in output.split())
    return max([1.0, *(abs(n) for n in numbers if n is not None and math.isfinite(n))])


class _TooLong(BaseException):
    """Not an ``Exception``, so that the pipeline's guard against internal errors lets it through."""


@contextlib.contextmanager
def _wall_clock_limit(seconds: float) -> Iterator[None]:
    """Raise ``_TooLong`` in this thread after ``seconds`` (only in the main thread; elsewhere no limit)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def expire(signum: int, frame: object) -> None:
        raise _TooLong

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


@dataclass(frozen=True)
class _Optimized:
    exit_code: int
    stderr: str
    text: str | None  # None when polyopt wrote nothing


def _in_process(text: str, source: Path, flags: tuple[str, ...], timeout: float) -> _Optimized:
    """What ``polyopt flags --timeout=timeout source`` would exit with, print and write, computed in this process."""
    try:
        with _wall_clock_limit(guard(timeout)):
            options = options_from_arguments([*flags, f"--timeout={timeout:g}"])
            outcome = optimize_text(text, str(source), options)
    except _TooLong:
        return _Optimized(1, f"polyopt did not finish in {guard(timeout):g} s", None)
    except PolyoptError as error:
        return _Optimized(1, str(error), None)
    except Exception:  # what the command line would show as a traceback
        return _Optimized(1, traceback.format_exc(), None)
    return _Optimized(0, "".join(f"{warning}\n" for warning in outcome.warnings), outcome.text)


def _with_cli(source: Path, flags: tuple[str, ...], timeout: float) -> _Optimized:
    output = source.with_name(f"{source.stem}.cli.c")
    output.unlink(missing_ok=True)
    try:
        arguments = [*flags, f"--timeout={timeout:g}", str(source), "-o", str(output)]
        process = run_polyopt(arguments, timeout=guard(timeout))
    except ToolchainError as error:
        return _Optimized(1, str(error), None)
    text = output.read_text() if output.exists() else None
    return _Optimized(process.returncode, process.stderr, text)


def _judge_polyopt(text: str, optimized: _Optimized, context: str) -> str | None:
    """The failure message for polyopt's own behaviour, or None."""
    stderr = optimized.stderr
    if optimized.exit_code != 0 or "Traceback" in stderr or "internal error" in stderr:
        return f"polyopt failed (exit {optimized.exit_code}): {context}"
    if optimized.text is None:
        return f"polyopt failed (no output written): {context}"
    if not _declined_regions_kept(text, optimized.text, stderr):
        return f"a region was not optimized but the output does not hold it as written: {context}"
    return None


_DECLINED = re.compile(r"^[^\n]*?:(\d+)(?::\d+)?: warning: region not optimized", re.MULTILINE)


def _declined_regions_kept(text: str, output: str, stderr: str) -> bool:
    """Whether every region of ``text`` that a "region not optimized" warning points into is in ``output`` as
    written."""
    lines = {int(match[1]) for match in _DECLINED.finditer(stderr)}
    if not lines or output == text:
        return True
    try:
        regions = find_regions(text, "input.c")
    except InputError:
        return False
    for region in regions:
        last = text.count("\n", 0, region.end - 1) + 1
        declined = any(region.location.line <= line <= last for line in lines)
        if declined and text[region.start : region.end] not in output:
            return False
    return True


_SUMMARY = re.compile(r"^[ \t]*/\* polyopt .*\*/$", re.MULTILINE)  # a region's one-line summary comment


def _same_code_key(text: str, flags: tuple[str, ...]) -> tuple[str, str]:
    """Option sets whose outputs differ only in the summary comments share one build and its runs."""
    return hashlib.sha256(_SUMMARY.sub("", text).encode()).hexdigest(), str(tolerance(flags, text))


def _variant_source(text: str, folder: Path, number: int) -> Path:
    """The optimized text with its ``main`` renamed, for a binary that holds every variant."""
    source = folder / f"variant{number}.c"
    source.write_text(f'#define main polyopt_fuzz_variant_{number}\n#line 1 "{source.name}"\n{text}')
    return source


def _build_variants(
    texts: dict[int, str], folder: Path, flags: tuple[str, ...]
) -> dict[int, tuple[Path, list[str]] | str]:
    """Build the optimized ``texts`` (by number) with ``flags``: for each, (binary, its arguments) or gcc's failure.

    All of them go into one binary (one gcc run, one link; each text is its own translation
    unit, its ``main`` renamed and chosen by the first argument); if that build fails, each
    text is built alone so that the failure is pinned on the right one.
    """
    build, without = ("omp", "") if "-fopenmp" in flags else ("seq", " without -fopenmp")
    sources = [_variant_source(text, folder, number) for number, text in texts.items()]
    driver = folder / "variants.c"
    calls = "".join(f"  case {k}: return polyopt_fuzz_variant_{k}();\n" for k in texts)
    driver.write_text(
        "#include <stdlib.h>\n"
        + "".join(f"int polyopt_fuzz_variant_{k}(void);\n" for k in texts)
        + f"int main(int argc, char **argv)\n{{\n  switch (argc > 1 ? atoi(argv[1]) : -1) {{\n{calls}  }}\n"
        + "  return 99;\n}\n"
    )
    try:
        binary = compile_c([driver, *sources], folder / f"variants-{build}", flags=flags)
        return {k: (binary, [str(k)]) for k in texts}
    except ToolchainError:
        pass
    built: dict[int, tuple[Path, list[str]] | str] = {}
    for number, text in texts.items():
        source = folder / f"optimized{number}.c"
        source.write_text(text)
        try:
            built[number] = (compile_c(source, folder / f"optimized{number}-{build}", flags=flags), [])
        except ToolchainError as error:
            built[number] = f"compilation of the optimized program{without} failed: {error}"
    return built


def _compare_runs(
    build: tuple[Path, list[str]] | str,
    expected: str,
    flags: tuple[str, ...],
    program: str,
    threads: Sequence[int],
    how: str,
) -> str | None:
    """Run the optimized ``program``'s ``build`` with each of ``threads`` (``how`` names those runs in a
    failure); the first failure, or None."""
    if isinstance(build, str):
        return build
    binary, arguments = build
    rel_tol = tolerance(flags, program)
    abs_tol = None if rel_tol is None else rel_tol * data_scale(expected)
    for count in threads:
        try:
            actual = run_program(binary, arguments=arguments, threads=count, timeout=RUN_SECONDS).stdout
        except ToolchainError as error:
            return f"the optimized program failed: {error}"
        difference = first_difference(expected, actual, rel_tol=rel_tol, abs_tol=abs_tol)
        if difference is not None:
            compared = "exactly" if rel_tol is None else f"within {rel_tol:g}"
            return f"outputs differ (compared {compared}, {how.format(threads=count)}): {difference}"
    return None


@dataclass(frozen=True)
class _Run:
    """One option set's polyopt run, waiting for the build and runs of its output."""

    flags: tuple[str, ...]
    text: str
    context: str
    fallback: bool


def check_program(
    text: str,
    name: str,
    option_sets: Sequence[tuple[str, ...]],
    *,
    folder: Path,
    cli: Collection[tuple[str, ...]] = (),
    timeout: float = REGION_TIMEOUT,
) -> list[Verdict]:
    """Check the program ``text`` (written to ``folder/name.c``) under each of ``option_sets``.

    The option sets in ``cli`` run through the real command line in a new process, the
    others in this process; polyopt gets ``--timeout=timeout``.
    """
    source = folder / f"{name}.c"
    source.write_text(text)
    try:
        original = compile_c(source, folder / f"{name}.original", flags=ORIGINAL_CFLAGS)
        expected = run_program(original, threads=1, timeout=RUN_SECONDS).stdout
    except ToolchainError as error:
        return [Verdict(flags, FAILED, f"the original program failed: {error}") for flags in option_sets]
    verdicts: dict[int, Verdict] = {}
    runs: dict[int, _Run] = {}
    too_slow = ""  # set when a region ran out of time even in its original order (--identity, run first)
    for number in sorted(range(len(option_sets)), key=lambda n: option_sets[n] != ("--identity",)):
        flags = option_sets[number]
        if too_slow:  # every other option set does more work than the original order: skip it
            verdicts[number] = Verdict(flags, DECLINED, f"not run: {too_slow}", fallback=True)
            continue
        via_cli = flags in cli
        optimized = _with_cli(source, flags, timeout) if via_cli else _in_process(text, source, flags, timeout)
        command = " ".join(["polyopt", *flags, str(source)]) + (" (command line)" if via_cli else " (in process)")
        context = f"{command}\nstderr:\n{optimized.stderr or '(empty)'}"
        verification = VERIFICATION_FALLBACK in optimized.stderr
        fallback = verification or TIME_FALLBACK in optimized.stderr
        failure = _judge_polyopt(text, optimized, context)
        if failure is None and verification:
            failure = f"a schedule failed polyopt's verification (it fell back to the original one): {context}"
        if failure is not None:
            verdicts[number] = Verdict(flags, FAILED, failure, fallback)
        elif optimized.text == text:
            declined = "region not optimized" in optimized.stderr
            verdicts[number] = Verdict(flags, DECLINED if declined else OPTIMIZED, optimized.stderr, fallback)
            if flags == ("--identity",) and TIME_FALLBACK in optimized.stderr:
                too_slow = f"{command} ran out of time even in the original order"
        else:
            assert optimized.text is not None
            runs[number] = _Run(flags, optimized.text, context, fallback)
    keys = {number: _same_code_key(run.text, run.flags) for number, run in runs.items()}
    unique = list(dict.fromkeys(keys.values()))
    first = {key: next(runs[number].text for number in runs if keys[number] == key) for key in unique}
    texts = {number: first[key] for number, key in enumerate(unique)}
    built = _build_variants(texts, folder, OPTIMIZED_CFLAGS) if texts else {}
    parallel = {n: text for n, text in texts.items() if _OPENMP.search(text) and not isinstance(built[n], str)}
    sequential = _build_variants(parallel, folder, SEQUENTIAL_CFLAGS) if parallel else {}
    failures: dict[tuple[str, str], str | None] = {}
    for number, run in runs.items():
        key = keys[number]
        if key not in failures:
            variant = unique.index(key)
            failure = _compare_runs(built[variant], expected, run.flags, text, THREADS, "OMP_NUM_THREADS={threads}")
            if failure is None and variant in sequential:
                failure = _compare_runs(sequential[variant], expected, run.flags, text, (1,), "without -fopenmp")
            failures[key] = failure
        failure = failures[key]
        if failure is None:
            verdicts[number] = Verdict(run.flags, OPTIMIZED, fallback=run.fallback)
        else:
            verdicts[number] = Verdict(run.flags, FAILED, f"{failure}\n{run.context}", run.fallback)
    return [verdicts[number] for number in range(len(option_sets))]


def check_file(source: Path, flags: Sequence[str], *, folder: Path, cli: bool = True) -> Verdict:
    """Check the C file ``source`` under ``flags`` (through the command line unless ``cli`` is false)."""
    flags = tuple(flags)
    (verdict,) = check_program(source.read_text(), source.stem, [flags], folder=folder, cli=[flags] if cli else [])
    return verdict
