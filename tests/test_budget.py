"""The time budget of a region (``polyopt.budget`` and ``--timeout``).

Attempts run in a forked child that is killed when the budget is spent; a region that
runs out of time is retried without fusion search and with fixed tiles, then in its
original order, then kept as written.  Slow passes are simulated by making a pipeline
stage sleep (the fork copies the patched module); one test uses real timing on a real
kernel through the command line.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from polyopt import pipeline
from polyopt.budget import Crashed, OutOfTime, attempts, run_limited
from polyopt.driver import optimize_text
from polyopt.options import Options, TilingOptions
from polyopt.passes import fusion, tiling
from polyopt.transform.tiling import FALLBACK_SIZE
from tests.support import EXAMPLES, assert_same_output, compile_c, compile_original, run_binary, run_polyopt


def _raise_value_error() -> None:
    raise ValueError("bad value")


def test_a_result_comes_back_from_the_child() -> None:
    assert run_limited(lambda: ("computed", [1, 2]), 10) == ("computed", [1, 2])
    assert run_limited(os.getpid, 10) != os.getpid()


def _zombie_children() -> list[str]:
    children = Path(f"/proc/self/task/{os.getpid()}/children").read_text().split()
    return [pid for pid in children if Path(f"/proc/{pid}/stat").read_text().split(") ")[1].startswith("Z")]


def test_an_exception_in_the_child_is_raised_again() -> None:
    with pytest.raises(ValueError, match="bad value"):
        run_limited(_raise_value_error, 10)


def test_a_slow_child_is_stopped_and_reaped() -> None:
    started = time.monotonic()

    with pytest.raises(OutOfTime):
        run_limited(lambda: time.sleep(30), 0.3)

    assert time.monotonic() - started < 5
    assert _zombie_children() == []


def test_a_child_that_dies_is_reported_with_its_signal() -> None:
    with pytest.raises(Crashed, match="killed by signal 11, Segmentation fault"):
        run_limited(lambda: os.kill(os.getpid(), signal.SIGSEGV), 10)
    with pytest.raises(Crashed, match="exited with status 3 without a result"):
        run_limited(lambda: os._exit(3), 10)
    assert _zombie_children() == []


def test_attempts_simplify_step_by_step() -> None:
    requested = Options(fusion="max", tiling=TilingOptions(sizes=(3, 5), second_level=True), timeout=2.0)

    first, simple = attempts(requested)  # after them, the region is kept as written

    assert first.options == requested and first.fallback == ""
    assert simple.options.fusion == "none" and simple.options.timeout == 2.0
    assert simple.options.tiling == TilingOptions(default_size=FALLBACK_SIZE)  # no tile-size model
    assert "fusion" in simple.fallback


def test_attempts_skip_what_is_already_simple() -> None:
    simple = TilingOptions(enabled=False, default_size=FALLBACK_SIZE)
    assert len(attempts(Options(fusion="none", tiling=simple))) == 1
    assert len(attempts(Options(identity=True))) == 1


def test_the_timeout_must_be_a_positive_number() -> None:
    for seconds in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(Exception, match="the timeout must be a positive number of seconds"):
            Options(timeout=seconds).validate()


# -- the pipeline's fallbacks ---------------------------------------------------------

GEMM = (EXAMPLES / "gemm.c").read_text()
INCLUDE = (f"-I{EXAMPLES}",)  # its harness: the preprocessor expands the macros of its regions


def _sleep_a_minute() -> None:
    time.sleep(60)


def _segfault() -> None:
    os.kill(os.getpid(), signal.SIGSEGV)


def _slow_when(
    monkeypatch: pytest.MonkeyPatch,
    name: str,
    condition: object = None,
    trouble: object = None,
    module: object = pipeline,
) -> None:
    """Make ``module.name`` sleep for a minute, or call ``trouble`` (when ``condition(*args)`` holds, if given)."""
    real = getattr(module, name)

    def slow(*args: object, **kwargs: object) -> object:
        if condition is None or condition(*args):  # type: ignore[operator]
            (trouble or _sleep_a_minute)()  # type: ignore[operator]
        return real(*args, **kwargs)

    monkeypatch.setattr(module, name, slow)


def test_a_slow_fusion_search_falls_back_to_no_fusion_and_fixed_tiles(monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_when(monkeypatch, "plan_fusion", lambda model, deps, policy, *_: policy != "none", module=fusion)

    outcome = optimize_text(GEMM, "gemm.c", Options(timeout=1.0, cpp_flags=INCLUDE))

    (region,) = outcome.regions
    assert region.code is not None
    assert region.warnings[0].startswith("gemm.c:")
    assert (
        "warning: region took longer than 1 s; optimized without fusion search, with fixed tiles"
        in (region.warnings[0])
    )
    assert "fusion none" in region.code.summary


def test_a_slow_scheduler_keeps_the_region_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    """Out of time in every attempt, the region is its own text: never code regenerated from the model."""
    _slow_when(monkeypatch, "schedule_region", module=fusion)

    outcome = optimize_text(GEMM, "gemm.c", Options(timeout=1.0, cpp_flags=INCLUDE))

    (region,) = outcome.regions
    assert region.code is None
    assert outcome.text == GEMM
    assert region.warnings == (f"{region.region.location}: warning: region took longer than 1 s; kept as written",)


def test_a_crashing_scheduler_keeps_the_region_as_written(monkeypatch: pytest.MonkeyPatch) -> None:
    _slow_when(monkeypatch, "schedule_region", trouble=_segfault, module=fusion)

    outcome = optimize_text(GEMM, "gemm.c", Options(cpp_flags=INCLUDE))

    (region,) = outcome.regions
    assert region.code is None
    assert outcome.text == GEMM
    assert region.warnings == (
        f"{region.region.location}: warning: the process optimizing the region was killed by signal 11, "
        "Segmentation fault (please report it); kept as written",
    )


def test_an_error_in_the_child_is_still_an_internal_error(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> object:
        raise KeyError("boom")

    monkeypatch.setattr(tiling, "plan_tiling", broken)

    outcome = optimize_text(GEMM, "gemm.c", Options(cpp_flags=INCLUDE))

    assert outcome.text == GEMM
    assert "region not optimized: internal error (KeyError: 'boom'); please report it" in outcome.regions[0].warnings[0]


# -- a real kernel, a real clock --------------------------------------------------------


def test_a_tiny_budget_on_a_real_kernel_falls_back_and_keeps_the_output(tmp_path: Path) -> None:
    source = EXAMPLES / "jacobi-2d.c"  # fully optimized in about 0.15 s, in its original order in 0.06 s
    output = tmp_path / "jacobi-2d.polyopt.c"

    process = run_polyopt(source, ["--timeout", "0.08"], output=output)

    assert process.returncode == 0, process.stderr
    assert "Traceback" not in process.stderr
    (warning,) = process.stderr.splitlines()
    assert warning.startswith(f"{source}:")
    assert "region took longer than 0.08 s; " in warning
    expected = run_binary(compile_original(source, defines=["MINI_DATASET"], flags=["-O1"])).stdout
    binary = compile_c(output, defines=["MINI_DATASET"], flags=["-O1", "-fopenmp"], out_dir=tmp_path)
    for threads in (1, 2):
        assert_same_output(expected, run_binary(binary, threads=threads).stdout)
