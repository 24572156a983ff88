"""Differential fuzzing: every generated program prints the same after polyopt.

Each seed is one case; it uses the option set ``OPTION_SETS[seed % 4]`` so that the
whole matrix is covered across seeds at a quarter of the cost.  The selected cases are
checked two at a time in background threads (the checks are mostly gcc and polyopt
subprocesses), and each case waits for its own result.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.fuzz.differential import OPTION_SETS, check
from tests.fuzz.generator import generate

SEEDS = range(200)
JOBS = 2


def _check_seed(seed: int, folder: Path) -> None:
    source = folder / f"fuzz_{seed}.c"
    source.write_text(generate(seed).render())
    check(source, OPTION_SETS[seed % len(OPTION_SETS)])


@pytest.fixture(scope="module")
def pending(request: pytest.FixtureRequest) -> Iterator[dict[int, Future[None]]]:
    """A future per selected seed, all submitted at once to a pool of ``JOBS`` threads."""
    selected = [
        item.callspec.params["seed"]
        for item in request.session.items
        if item.module is request.module and hasattr(item, "callspec")
    ]
    with tempfile.TemporaryDirectory(prefix="polyopt-fuzz-") as folder, ThreadPoolExecutor(JOBS) as pool:
        futures = {seed: pool.submit(_check_seed, seed, Path(folder)) for seed in selected}
        yield futures
        for future in futures.values():
            future.cancel()


@pytest.mark.parametrize("seed", SEEDS)
def test_polyopt_keeps_the_output(seed: int, pending: dict[int, Future[None]]) -> None:
    flags = " ".join(OPTION_SETS[seed % len(OPTION_SETS)]) or "(default)"
    try:
        pending[seed].result()
    except AssertionError as error:
        raise AssertionError(
            f"seed {seed}, flags {flags}: reproduce with\n"
            f"  python -c 'from tests.fuzz.generator import generate; print(generate({seed}).render())' > f.c\n"
            f"{error}"
        ) from None
