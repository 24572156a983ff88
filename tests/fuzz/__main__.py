"""A fuzz campaign outside pytest: ``python -m tests.fuzz --count 600 --seed 1000``.

Each seed's program is checked under every option set (``--one`` for the round-robin
choice the pytest test makes).  Failures are shrunk by deleting region nodes while the
same check still fails, and the shrunk programs are written to ``--out`` as
``case_<seed>.c`` with their flags on the first line, ready for ``tests/regressions/``.
"""

from __future__ import annotations

import argparse
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from tests.fuzz.differential import FLAGS_PREFIX, OPTION_SETS, check
from tests.fuzz.generator import Program, generate, smaller_variants


def _fails(program: Program, flags: tuple[str, ...], folder: Path) -> str | None:
    source = folder / f"fuzz_{program.seed}.c"
    source.write_text(program.render())
    try:
        check(source, flags)
    except AssertionError as error:
        return str(error)
    return None


def shrink(program: Program, flags: tuple[str, ...], folder: Path) -> Program:
    """Delete region nodes one at a time while the program still fails with ``flags``."""
    improved = True
    while improved:
        improved = False
        for smaller in smaller_variants(program):
            if _fails(smaller, flags, folder) is not None:
                program, improved = smaller, True
                break
    return program


def _run(seed: int, flags: tuple[str, ...]) -> tuple[int, tuple[str, ...], str, str]:
    with tempfile.TemporaryDirectory(prefix="polyopt-campaign-") as folder:
        source = Path(folder) / f"fuzz_{seed}.c"
        source.write_text(generate(seed).render())
        try:
            return seed, flags, check(source, flags), ""
        except AssertionError as error:
            return seed, flags, "failed", str(error)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m tests.fuzz", description=__doc__)
    parser.add_argument("--count", type=int, default=600)
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--one", action="store_true", help="one option set per seed (seed %% 4)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path("fuzz-failures"))
    options = parser.parse_args()

    seeds = range(options.seed, options.seed + options.count)
    runs = (
        [(s, OPTION_SETS[s % len(OPTION_SETS)]) for s in seeds]
        if options.one
        else [(s, flags) for s in seeds for flags in OPTION_SETS]
    )
    with ThreadPoolExecutor(options.jobs) as pool:
        results = list(pool.map(lambda run: _run(*run), runs))
    failures = [(seed, flags, message) for seed, flags, outcome, message in results if outcome == "failed"]
    declined = sum(outcome == "declined" for _, _, outcome, _ in results)
    print(
        f"programs {len(seeds)}, option sets {len(OPTION_SETS)}, runs {len(runs)}, declined {declined}, "
        f"failures {len(failures)}"
    )
    for seed, flags, message in failures:
        print(f"\n=== seed {seed}, flags {' '.join(flags) or '(default)'}\n{message[:1500]}")
    shrunk: set[int] = set()
    for seed, flags, _ in failures:
        if seed in shrunk:
            continue
        shrunk.add(seed)
        options.out.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="polyopt-shrink-") as folder:
            small = shrink(generate(seed), flags, Path(folder))
        case = options.out / f"case_{seed}.c"
        case.write_text(f"{FLAGS_PREFIX} {' '.join(flags)} */\n{small.render()}")
        print(f"shrunk reproducer: {case}")


if __name__ == "__main__":
    main()
