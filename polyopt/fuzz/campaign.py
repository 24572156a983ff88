"""A fuzz campaign: ``python -m polyopt.fuzz --count 5000 --seed 0``.

Public: ``REGRESSIONS``, ``SeedResult``, ``check_seed``, ``start_pool``, ``run_campaign``, ``shrink``, ``main``.

Each seed's program (``polyopt.fuzz.generator``; ``--family``: of that family's nests only) is
checked under every option set of ``polyopt.fuzz.differential.OPTION_SETS`` (``--rotate``: one set
per seed, in turn) by a pool of ``--jobs`` worker processes, each of which imports polyopt once and optimizes
in-process with ``--timeout`` seconds per region (``polyopt --timeout``; a region that
takes longer falls back to a simpler schedule and counts as a fallback).  A worker that
hangs (no result long after that) is killed and its seed reported; a seed whose worker
crashes is run again alone and reported if it crashes again.  Failures are shrunk (region nodes deleted while the same
kind of failure remains) and the shrunk programs are written to ``--out`` (or, with
``--save-regressions``, to ``tests/regressions/``) as ``case_<seed>.c`` with their flags
on the first line, the format ``tests/regressions/test_regressions.py`` runs.

The last line reads ``programs P, option sets O, runs R, declined D, fallbacks F,
failures X, seconds S (S/P per program)``: a run is one (program, option set) check, each
with one build of the optimized program and a run per OpenMP thread count.
"""

from __future__ import annotations

import argparse
import functools
import multiprocessing
import tempfile
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path

from polyopt.fuzz.differential import (
    DECLINED,
    FAILED,
    FLAGS_PREFIX,
    OPTION_SETS,
    REGION_TIMEOUT,
    Verdict,
    check_program,
    guard,
)
from polyopt.fuzz.generator import FAMILIES, Program, generate, smaller_variants

REGRESSIONS = Path(__file__).resolve().parents[2] / "tests" / "regressions"
SHRINK_CHECKS = 400  # at most this many candidate programs are checked per shrink


@dataclass(frozen=True)
class SeedResult:
    seed: int
    verdicts: tuple[Verdict, ...]
    seconds: float


def check_seed(
    seed: int,
    option_sets: Sequence[tuple[str, ...]],
    cli: Sequence[tuple[str, ...]] = (),
    timeout: float = REGION_TIMEOUT,
    family: str | None = None,
) -> SeedResult:
    """Generate seed ``seed``'s program (of ``family``'s nests only, if given) and check it under
    ``option_sets`` (``cli`` ones via the command line)."""
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix=f"polyopt-fuzz-{seed}-") as folder:
        text = generate(seed, family).render()
        verdicts = check_program(text, f"fuzz_{seed}", option_sets, folder=Path(folder), cli=cli, timeout=timeout)
    return SeedResult(seed, tuple(verdicts), time.perf_counter() - started)


def start_pool(jobs: int) -> ProcessPoolExecutor:
    """Worker processes started from a clean server process (not forked from a busy parent)."""
    return ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("forkserver"))


def _stop(pool: ProcessPoolExecutor) -> None:
    """Kill the pool's workers and shut it down.

    Python 3.11 has no public way to kill a pool's workers (3.14 adds ``terminate_workers``),
    so this reads the executor's own table of them rather than killing every child process.
    """
    workers: dict[int, multiprocessing.process.BaseProcess] = getattr(pool, "_processes", None) or {}
    for worker in list(workers.values()):
        worker.kill()
    pool.shutdown(wait=True, cancel_futures=True)


def _failed(seed: int, option_sets: Sequence[tuple[str, ...]], message: str) -> SeedResult:
    return SeedResult(seed, tuple(Verdict(flags, FAILED, message) for flags in option_sets), 0.0)


def run_campaign(
    seeds: Sequence[int],
    sets_of: Callable[[int], Sequence[tuple[str, ...]]],
    *,
    jobs: int,
    timeout: float,
    progress: Callable[[SeedResult], None],
    patience: Callable[[int], float] | None = None,
    work: Callable[..., SeedResult] = check_seed,
) -> list[SeedResult]:
    """Check every seed with ``work(seed, sets_of(seed), (), timeout)`` on a pool of ``jobs``
    workers, at most ``jobs`` seeds in flight.

    A seed with no result after ``patience(seed)`` seconds (default: ``guard(timeout)`` per
    option set, plus a minute) is reported as hung and its worker killed; a seed whose worker
    died is run again alone and reported as crashed if its worker dies again.
    """
    if patience is None:

        def patience(seed: int) -> float:
            return guard(timeout) * len(sets_of(seed)) + 60

    pending, alone = list(reversed(seeds)), []
    results: list[SeedResult] = []
    pool = start_pool(jobs)
    running: dict[Future[SeedResult], tuple[int, float, bool]] = {}  # -> (seed, deadline, alone)
    try:
        while pending or alone or running:
            while pending and not alone and len(running) < jobs or alone and not running:
                by_itself = bool(alone)
                seed = alone.pop() if by_itself else pending.pop()
                deadline = time.monotonic() + patience(seed)
                running[pool.submit(work, seed, sets_of(seed), (), timeout)] = (seed, deadline, by_itself)
            left = max(0.0, min(deadline for _, deadline, _ in running.values()) - time.monotonic())
            done, _ = wait(running, timeout=left, return_when=FIRST_COMPLETED)
            broken = False
            for future in done:
                seed, _, by_itself = running.pop(future)
                try:
                    result = future.result()
                except BrokenProcessPool:
                    broken = True
                    if not by_itself:
                        alone.append(seed)
                        continue
                    result = _failed(seed, sets_of(seed), "crashed: the worker process died checking this seed")
                results.append(result)
                progress(result)
            hung = [future for future, (_, deadline, _) in running.items() if deadline <= time.monotonic()]
            for future in hung:
                seed, _, _ = running.pop(future)
                result = _failed(seed, sets_of(seed), f"hung: no result within {patience(seed):g} s")
                results.append(result)
                progress(result)
            if hung or broken:
                alone += [seed for seed, _, _ in running.values()]
                running.clear()
                _stop(pool)
                pool = start_pool(jobs)
    finally:
        pool.shutdown(cancel_futures=True)
    return sorted(results, key=lambda result: result.seed)


def shrink(program: Program, verdict: Verdict, *, timeout: float, checks: int = SHRINK_CHECKS) -> Program:
    """Make ``program`` smaller while it still fails with ``verdict.flags`` in the same way."""
    flags = verdict.flags

    def fails(candidate: Program) -> bool:
        with tempfile.TemporaryDirectory(prefix="polyopt-shrink-") as folder:
            text = candidate.render()
            (result,) = check_program(text, f"fuzz_{candidate.seed}", [flags], folder=Path(folder), timeout=timeout)
        return result.outcome == FAILED and result.kind == verdict.kind

    improved = True
    while improved and checks > 0:
        improved = False
        for smaller in smaller_variants(program):
            checks -= 1
            if fails(smaller):
                program, improved = smaller, True
                break
            if checks <= 0:
                break
    return program


def _flags_text(flags: Sequence[str]) -> str:
    return " ".join(flags) or "(default)"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m polyopt.fuzz", description=__doc__.split("\n\n")[0])
    parser.add_argument("--count", type=int, default=200, help="number of programs (default 200)")
    parser.add_argument("--seed", type=int, default=0, help="first seed (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (default 2)")
    parser.add_argument("--rotate", action="store_true", help="one option set per seed, in turn, instead of all")
    parser.add_argument(
        "--timeout", type=float, default=REGION_TIMEOUT, help=f"polyopt's --timeout (default {REGION_TIMEOUT:g})"
    )
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"), help="folder for shrunk failures")
    parser.add_argument("--save-regressions", action="store_true", help=f"write shrunk failures to {REGRESSIONS}")
    parser.add_argument("--no-shrink", action="store_true", help="save failing programs as generated")
    parser.add_argument("--family", choices=FAMILIES, help="generate only this family's nests")
    options = parser.parse_args(argv)
    if options.save_regressions and not REGRESSIONS.is_dir():
        parser.error(f"--save-regressions needs a source checkout ({REGRESSIONS} does not exist)")
    out = REGRESSIONS if options.save_regressions else options.out

    def sets_of(seed: int) -> Sequence[tuple[str, ...]]:
        return [OPTION_SETS[seed % len(OPTION_SETS)]] if options.rotate else OPTION_SETS

    seeds = list(range(options.seed, options.seed + options.count))
    finished = 0

    def progress(result: SeedResult) -> None:
        nonlocal finished
        finished += 1
        for verdict in result.verdicts:
            if verdict.outcome == FAILED:
                print(f"seed {result.seed}, flags {_flags_text(verdict.flags)}: {verdict.message[:2000]}\n", flush=True)
        if finished % 100 == 0:
            print(f"... {finished} of {len(seeds)} programs, {time.perf_counter() - started:.0f} s", flush=True)

    started = time.perf_counter()
    work = functools.partial(check_seed, family=options.family)
    results = run_campaign(seeds, sets_of, jobs=options.jobs, timeout=options.timeout, progress=progress, work=work)
    seconds = time.perf_counter() - started
    verdicts = [verdict for result in results for verdict in result.verdicts]
    failures = [(result.seed, v) for result in results for v in result.verdicts if v.outcome == FAILED]
    print(
        f"programs {len(seeds)}, option sets {len(OPTION_SETS)}{' (one per program)' if options.rotate else ''}, "
        f"runs {len(verdicts)}, declined {sum(v.outcome == DECLINED for v in verdicts)}, "
        f"fallbacks {sum(v.fallback for v in verdicts)}, failures {len(failures)}, "
        f"seconds {seconds:.1f} ({seconds / max(1, len(seeds)):.3f} per program)",
        flush=True,
    )
    slow = [result.seed for result in results if any(v.fallback for v in result.verdicts)]
    if slow:
        shown = ", ".join(map(str, slow[:20])) + (", ..." if len(slow) > 20 else "")
        print(f"programs with a fallback (a region out of time, or a schedule that failed verification): {shown}")
    saved: set[int] = set()
    for seed, verdict in failures:
        if seed in saved:
            continue
        saved.add(seed)
        program = generate(seed, options.family)
        if not options.no_shrink and verdict.kind not in ("hung", "crashed"):
            program = shrink(program, verdict, timeout=options.timeout)
        out.mkdir(parents=True, exist_ok=True)
        case = out / f"case_{seed}.c"
        case.write_text(f"{FLAGS_PREFIX} {' '.join(verdict.flags)} */\n{program.render()}")
        print(f"seed {seed}, flags {_flags_text(verdict.flags)}: {verdict.kind}; reproducer: {case}", flush=True)
    return 1 if failures else 0
