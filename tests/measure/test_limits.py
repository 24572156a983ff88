"""Tests for ``polyopt.measure.limits``: the generated program, its parser, the cache and the profile keys."""

from __future__ import annotations

import dataclasses
import os
import subprocess
import sys
from pathlib import Path

import pytest

from polyopt.machine import Machine, detect, load_target, target_text
from polyopt.measure.limits import (
    Limits,
    LimitsError,
    limits_key,
    measured_limits,
    parse,
    program,
    run_limits,
    stable_limits,
    working_sets,
)
from polyopt.target_keys import LIMIT_FIELDS

ROOT = Path(__file__).resolve().parents[2]
# a tiny machine: its working sets fit a few KiB, so that the program runs in well under a second
TINY = Machine(4 << 10, 16 << 10, 64 << 10, 64, 2, detect().simd_bytes, "test", vector_registers=16)
NO_L3 = dataclasses.replace(TINY, l3=0)
PRINTED = "".join(
    f"{field} {'add' if 'int' in field else 'div' if 'divs' in field else 'fma' if 'peak' in field else 'triad'}"
    f" {index + 1.5}\n"
    for index, field in enumerate(LIMIT_FIELDS)
)


@pytest.mark.parametrize("machine", [TINY, NO_L3], ids=["l3", "no-l3"])
def test_the_program_compiles_and_prints_a_positive_number_per_limit(machine: Machine) -> None:
    limits = run_limits(machine, min_seconds=0.001, trials=1)

    settings = limits.settings()
    measured = {field for field, value in settings.items() if value > 0}
    assert measured == {field for field in LIMIT_FIELDS if machine.l3 or "_l3" not in field}
    assert dict(limits.kernels).keys() == measured
    assert {kernel for field, kernel in limits.kernels if "bandwidth" in field} <= {"copy", "triad"}


def test_the_program_has_a_loop_per_level_and_thread_count() -> None:
    text = program(TINY)

    assert 'level("bandwidth_dram_core", 1, 524288L);' in text
    assert 'level("bandwidth_l3", 2, 16384L);' in text
    assert f"vector_size({TINY.simd_bytes})" in text and "#define ACC 12" in text


def test_working_sets_are_half_a_cache_and_four_times_the_last_level() -> None:
    assert working_sets(TINY, 1) == {"l1": 2 << 10, "l2": 8 << 10, "l3": 32 << 10, "dram": 512 << 10}
    assert working_sets(TINY, 2) == {"l1": 2 << 10, "l2": 8 << 10, "l3": 16 << 10, "dram": 256 << 10}
    assert working_sets(NO_L3, 1) == {"l1": 2 << 10, "l2": 8 << 10, "dram": 256 << 10}


def test_the_parser_reads_every_field_and_its_kernel() -> None:
    limits = parse(PRINTED)

    assert limits.peak_gflops_double_core == 1.5 and limits.bandwidth_dram == 12.5
    assert limits.peak_gops_int == LIMIT_FIELDS.index("peak_gops_int") + 1.5
    assert dict(limits.kernels)["peak_gops_int"] == "add"
    assert limits.peak_gdivs_double == LIMIT_FIELDS.index("peak_gdivs_double") + 1.5
    assert dict(limits.kernels)["peak_gdivs_double"] == "div"
    assert dict(limits.kernels)["bandwidth_l1"] == "triad"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (PRINTED + "garbage\n", f"line {len(LIMIT_FIELDS) + 1} is not 'field kernel value': 'garbage'"),
        (PRINTED.replace("bandwidth_l1 triad", "bandwidth_l1 scale"), "line 6 is not 'field kernel value'"),
        (PRINTED.replace("bandwidth_l2 triad 8.5", "bandwidth_l2 triad nan"), "line 8 has no positive number"),
        (PRINTED.replace("bandwidth_l2 triad 8.5", "bandwidth_l2 triad -1"), "line 8 has no positive number"),
        (PRINTED.replace("bandwidth_l2 triad 8.5", "bandwidth_l2 triad x"), "line 8 has no positive number"),
        (PRINTED + "bandwidth_l1 copy 3\n", f"printed 'bandwidth_l1' twice (line {len(LIMIT_FIELDS) + 1})"),
        ("peak_gflops_double_core fma 3\n", "printed no peak_gflops_double, peak_gflops_float_core"),
    ],
)
def test_the_parser_rejects_malformed_output(text: str, message: str) -> None:
    with pytest.raises(LimitsError, match="the limits program") as raised:
        parse(text)

    assert message in str(raised.value)


def test_the_limits_are_measured_once_then_read_from_the_cache(tmp_path: Path) -> None:
    runs: list[Machine] = []

    def run(machine: Machine):
        runs.append(machine)
        return parse(PRINTED)

    first, what = measured_limits(TINY, tmp_path, run)
    again, what_again = measured_limits(TINY, tmp_path, run)

    assert runs == [TINY, TINY] and again == first == dataclasses.replace(parse(PRINTED), runs=2)
    assert what.startswith("ran in ") and what_again.startswith("read from the cache ")
    other, _ = measured_limits(dataclasses.replace(TINY, cores=3), tmp_path, run)
    assert len(runs) == 4 and limits_key(TINY) != limits_key(dataclasses.replace(TINY, cores=3))


def _scaled(factor: float, kernel: str = "triad") -> Limits:
    """PRINTED's limits times ``factor``, each bandwidth measured by ``kernel``."""
    limits = parse(PRINTED.replace("triad", kernel))
    return dataclasses.replace(limits, **{field: value * factor for field, value in limits.settings().items()})


def test_the_program_runs_again_until_no_limit_rises_by_more_than_five_percent() -> None:
    measurements = iter([_scaled(1.0), _scaled(1.5, "copy"), _scaled(1.52), _scaled(9.0)])

    limits = stable_limits(TINY, lambda machine: next(measurements))

    assert limits.runs == 3 and limits.settings() == _scaled(1.52).settings()
    assert dict(limits.kernels)["bandwidth_l1"] == "triad" and dict(limits.kernels)["peak_gflops_float"] == "fma"


def test_a_slower_run_lowers_no_limit_and_the_runs_are_capped() -> None:
    slower = iter([_scaled(1.0), _scaled(0.5, "copy")])
    rising = iter(_scaled(2.0**k) for k in range(10))

    kept = stable_limits(TINY, lambda machine: next(slower))
    capped = stable_limits(TINY, lambda machine: next(rising), runs=3)

    assert kept.runs == 2 and kept.settings() == _scaled(1.0).settings()
    assert dict(kept.kernels)["bandwidth_l2"] == "triad"
    assert capped.runs == 3 and capped.settings() == _scaled(4.0).settings()


def test_the_limits_round_trip_through_a_target_file(tmp_path: Path) -> None:
    machine = parse(PRINTED).applied(TINY)
    path = tmp_path / "limits.target"
    path.write_text(target_text(machine))

    read = load_target(path)

    assert {field: getattr(read, field) for field in LIMIT_FIELDS} == parse(PRINTED).settings()
    assert "bandwidth-dram = 12.5 " in target_text(machine)


def _machine_command(tmp_path: Path, *arguments: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "polyopt.measure", *arguments],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "XDG_CACHE_HOME": str(tmp_path), "PYTHONPATH": str(ROOT)},
    )


def test_python_m_polyopt_measure_prints_the_cached_limits(tmp_path: Path) -> None:
    measured_limits(detect(), tmp_path / "polyopt", lambda machine: parse(PRINTED))

    result = _machine_command(tmp_path)

    assert result.returncode == 0
    assert "peak-gflops-double-core = 1.5 " in result.stdout and "\nl1 = " in result.stdout
    assert result.stderr.startswith("limits: read from the cache ") and "bandwidth-l1 triad" in result.stderr
    assert "best of 2 runs" in result.stderr


def test_python_m_polyopt_measure_no_limits_measures_nothing(tmp_path: Path) -> None:
    result = _machine_command(tmp_path, "--no-limits")
    wrong = _machine_command(tmp_path, "--limits")

    assert result.returncode == 0 and result.stderr == ""
    assert "peak-gflops-double-core = 0.0 " in result.stdout and not (tmp_path / "polyopt").exists()
    assert wrong.returncode == 1 and "unknown arguments: --limits" in wrong.stderr
