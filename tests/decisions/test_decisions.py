"""Golden decisions: what polyopt decides for each example kernel on each reference target.

``<kernel>.<target>.txt`` here holds the decisions of ``examples/<kernel>.c`` optimized for
``<target>.target`` (``render.render_decisions`` of its ``--report=json``, with the probe off,
CBLAS calls on and a region time-out far above any example's time, so that nothing depends on the
machine running the tests or on its load).  Each file is compared with a fresh run;
``pytest --update-decisions`` rewrites them instead, so that a change of a cost model shows its
effect on every kernel in one diff.

The runs of the selected cases start together when the first one is needed, as many at a time as
there are cores (pytest-xdist is not needed): the 60 runs take about 55 s of CPU time.
"""

from __future__ import annotations

import difflib
import json
import os
import tempfile
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.decisions.render import render_decisions
from tests.support import EXAMPLES, run_polyopt

FOLDER = Path(__file__).resolve().parent
TARGETS = sorted(path.stem for path in FOLDER.glob("*.target"))
KERNELS = sorted(path.stem for path in EXAMPLES.glob("*.c"))
FLAGS = ("--no-probe", "--blas=cblas", "--timeout=600", "--report=json")
TIMEOUT = 1200.0  # seconds for one polyopt run (each region may take 600 s, see FLAGS)
CASES = [(kernel, target) for kernel in KERNELS for target in TARGETS]


def golden_path(kernel: str, target: str) -> Path:
    return FOLDER / f"{kernel}.{target}.txt"


def decisions_text(kernel: str, target: str) -> str:
    """The rendered decisions of one run of polyopt (in an empty folder: no ``tile.sizes`` there)."""
    with tempfile.TemporaryDirectory(prefix="polyopt-decisions-") as folder:
        flags = ["--target", str(FOLDER / f"{target}.target"), *FLAGS]
        process = run_polyopt(
            EXAMPLES / f"{kernel}.c", flags, output=Path(folder) / "out.c", cwd=folder, timeout=TIMEOUT
        )
    assert process.returncode == 0, f"polyopt failed on {kernel} for {target}:\n{process.stderr}"
    command = f"# polyopt --target {target}.target {' '.join(FLAGS)} examples/{kernel}.c\n"
    return command + render_decisions(json.loads(process.stderr))


@pytest.fixture(scope="session")
def decisions(request: pytest.FixtureRequest) -> Iterator[dict[tuple[str, str], Future[str]]]:
    """The runs of all selected cases of ``test_decisions``, started together on first use (under
    pytest-xdist, where each worker runs only some of them, none: each case then runs on its own)."""
    selected = [
        item.callspec.params
        for item in request.session.items
        if getattr(item, "originalname", None) == "test_decisions" and hasattr(item, "callspec")
    ]
    if hasattr(request.config, "workerinput"):
        selected = []
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        yield {
            (case["kernel"], case["target"]): pool.submit(decisions_text, case["kernel"], case["target"])
            for case in selected
        }
        pool.shutdown(cancel_futures=True)


@pytest.mark.parametrize(("kernel", "target"), CASES)
def test_decisions(
    decisions: dict[tuple[str, str], Future[str]], request: pytest.FixtureRequest, kernel: str, target: str
) -> None:
    run = decisions.get((kernel, target))
    actual = run.result() if run is not None else decisions_text(kernel, target)
    golden = golden_path(kernel, target)
    if request.config.getoption("update_decisions"):
        golden.write_text(actual, encoding="utf-8")
        return
    assert golden.exists(), f"{golden.name} is missing: run python3 -m pytest {__file__} --update-decisions"
    expected = golden.read_text(encoding="utf-8")
    if actual != expected:
        diff = difflib.unified_diff(
            expected.splitlines(keepends=True), actual.splitlines(keepends=True), golden.name, "this run"
        )
        pytest.fail(
            f"the decisions for {kernel} on {target} changed (pytest --update-decisions accepts them):\n"
            + "".join(diff),
            pytrace=False,
        )


def test_every_kernel_and_target_has_a_golden_file() -> None:
    assert KERNELS and TARGETS == ["desktop", "server"]
    expected = {golden_path(kernel, target).name for kernel, target in CASES}
    found = {path.name for path in FOLDER.glob("*.txt")}
    assert found == expected, f"missing: {sorted(expected - found)}; stale: {sorted(found - expected)}"


def test_the_rendering_leaves_out_findings_and_positions_and_keeps_unknown_fields() -> None:
    document = {
        "format": 1,
        "source": "k.c",
        "machine": "L1d 32 KiB (detected)",
        "warnings": ["k.c:8:5: warning: region not optimized: 'break' changes control flow"],
        "regions": [
            {
                "index": 1,
                "location": {"file": "k.c", "line": 5, "column": 1},
                "optimized": True,
                "statements": [{"name": "S0", "location": {"file": "k.c", "line": 6, "column": 3}}],
                "tiles": ["band at [0]: sizes [32, 32]"],
                "vector": [],
                "passes": [{"name": "tiling", "rules": ["even-out"]}],
            }
        ],
    }

    assert render_decisions(document) == (
        "warnings:\n"
        "  warning: region not optimized: 'break' changes control flow\n"
        "region 1\n"
        "  optimized: yes\n"
        "  tiles:\n"
        "    band at [0]: sizes [32, 32]\n"
        "  passes:\n"
        "    - name: tiling\n"
        "      rules:\n"
        "        even-out\n"
    )
