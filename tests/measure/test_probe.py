"""The probe (``polyopt.measure.probe``) and the choice it leads to (``polyopt.library.choice``):
its cache (atomic writes, one probe at a time, a new key when the library or the CPU changes),
``--no-probe``, thresholds set by a target file or flags, and the report.  The measurements are
made up: nothing is timed here."""

from __future__ import annotations

import dataclasses
import fcntl
import json
import os
import re
import threading
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from polyopt.__main__ import main
from polyopt.driver import optimize_text
from polyopt.library.blas import cblas_available
from polyopt.library.choice import (
    AWAITING_PROBE,
    SHARED,
    TIMED,
    Measurements,
    Timing,
    beats,
    crossover,
    default_choice,
    measured_choice,
    microkernel_wins,
)
from polyopt.machine import Machine, detect
from polyopt.measure.probe import (
    CLOSE,
    GEMV_SIZES,
    STREAM_SIZE_LIMIT,
    RunProbe,
    default_gemv_sizes,
    measure,
    sampled,
)
from polyopt.measure.probe_cache import ProbeKey, cache_folder, cache_path, library_file, load, probe_key, probed, store
from polyopt.options import NO_PROBE_VARIABLE, LibraryChoice, Options

MACHINE = Machine(32 << 10, 1 << 20, 32 << 20, 64, 2, 64, origin="test", vector_registers=32)
# a library that loses to the microkernel at every GEMM size, wins GEMV from n = 1024, loses to the
# loops' one pass over a matrix that two GEMVs share at the largest size, and wins batched GEMMs from n = 128
SLOW_GEMM = Measurements(
    gemm=(Timing(128, 1.0, 3.0, 0.8), Timing(400, 10.0, 9.0, 4.0), Timing(800, 80.0, 50.0, 30.0)),
    gemv=(Timing(512, 1.0, 2.0), Timing(1024, 4.0, 3.0), Timing(2048, 16.0, 9.0)),
    corename="Prescott",
    config="OpenBLAS 0.3.21",
    load=0.5,
    shared=(Timing(512, 2.0, 3.0), Timing(1024, 8.0, 6.0), Timing(2048, 20.0, 21.0)),
    batched=(Timing(64, 1.0, 2.0), Timing(128, 10.0, 8.0), Timing(192, 40.0, 30.0)),
)
KEY = ProbeKey("AMD EPYC", "f1a95", 2, "/usr/lib/libopenblas.so", 1000, 17, "")


def _thresholds(choice: LibraryChoice) -> dict[str, int | None]:
    return {call.kind: call.threshold for call in choice.calls}


class FakeRun:
    """Stands for ``polyopt.measure.probe.measure``: counts its calls and returns ``measurements``."""

    def __init__(self, measurements: Measurements = SLOW_GEMM) -> None:
        self.measurements = measurements
        self.calls = 0

    def __call__(self, machine: Machine | None = None) -> Measurements:
        self.calls += 1
        return self.measurements


# -- the choice --------------------------------------------------------------------------------


@pytest.mark.parametrize(("call", "called_from"), [(0.97, None), (0.90, 1024)])
def test_a_call_within_the_tie_margin_of_the_loops_is_not_faster(call: float, called_from: int | None) -> None:
    timings = (Timing(512, 1.0, 2.0), Timing(1024, 1.0, call))
    assert crossover(timings) == called_from
    assert beats(call, 1.0) is (called_from is not None)


def test_a_microkernel_level_with_the_loops_does_not_replace_them() -> None:
    assert not microkernel_wins((Timing(800, 30.0, 40.0, 29.5),))
    assert microkernel_wins((Timing(800, 30.0, 40.0, 20.0),))


# -- the sampling --------------------------------------------------------------------------------


def test_only_the_cases_whose_fastest_variants_are_close_get_more_rounds() -> None:
    base = {("v", 512, "loops"): 1.0, ("v", 512, "call"): 1.0 + CLOSE / 2, ("v", 2048, "loops"): 1.0}
    base[("v", 2048, "call")] = 1.0 + 2 * CLOSE
    times = sampled(list(base), base.__getitem__, runs=3, max_runs=7)
    assert {item: len(values) for item, values in times.items()} == {
        ("v", 512, "loops"): 7,
        ("v", 512, "call"): 7,
        ("v", 2048, "loops"): 3,
        ("v", 2048, "call"): 3,
    }


def test_sampling_stops_once_no_case_is_close() -> None:
    calls: list[tuple[str, int, str]] = []

    def seconds(item: tuple[str, int, str]) -> float:
        calls.append(item)
        slow_phase = sum(1 for done in calls if done == item) <= 2
        return 1.0 if item[2] == "loops" or slow_phase else 2.0

    times = sampled([("m", 800, "loops"), ("m", 800, "call")], seconds, runs=2, max_runs=15)
    assert [len(values) for values in times.values()] == [3, 3]  # the third round set them apart


def test_one_gemv_size_streams_its_matrix_from_memory() -> None:
    assert default_gemv_sizes(MACHINE) == (*GEMV_SIZES, 4096)  # 128 MiB against 32 MiB of L3
    small = dataclasses.replace(MACHINE, l3=4 << 20)
    assert default_gemv_sizes(small) == GEMV_SIZES  # 2048² doubles (32 MiB) already stream
    huge = dataclasses.replace(MACHINE, l3=4 << 30)
    assert default_gemv_sizes(huge) == (*GEMV_SIZES, STREAM_SIZE_LIMIT)


def test_a_library_slower_than_the_microkernel_is_never_called_for_gemm() -> None:
    choice = measured_choice(SLOW_GEMM, MACHINE, frozenset(), microkernel=True, origin="probe")

    assert choice.microkernel
    calls = _thresholds(choice)
    assert calls["Gemm"] is None
    assert calls["BatchedGemm"] == 128**3  # against the loops, on its own shape, which it beats from n = 128
    assert calls["Gemv"] == calls["Ger"] == 1024**2
    assert calls[SHARED] is None  # the loops win at n = 2048
    assert calls["Syrk"] == calls["Symm"] == calls["Trmm"] == MACHINE.blas3_threshold  # not measured


@pytest.mark.parametrize(
    ("syrk", "called_from"),
    [
        ((Timing(800, 50.0, 40.0, 30.0),), None),  # the microkernel on the triangle beats the call
        ((Timing(800, 50.0, 25.0, 30.0),), 800**3),  # the call beats it
    ],
)
def test_syrk_and_syr2k_are_called_from_the_syrk_crossover(syrk: tuple[Timing, ...], called_from: int | None) -> None:
    measured = dataclasses.replace(SLOW_GEMM, syrk=syrk)

    calls = _thresholds(measured_choice(measured, MACHINE, frozenset(), microkernel=True, origin="probe"))

    assert calls["Syrk"] == calls["Syr2k"] == called_from
    assert calls["Trmm"] == calls["Symm"] == MACHINE.blas3_threshold  # not measured


@pytest.mark.parametrize("kind", ["symm", "trmm"])
def test_symm_and_trmm_are_called_from_their_own_crossovers_against_the_microkernel(kind: str) -> None:
    ties_with_the_microkernel = (Timing(800, 50.0, 31.0, 30.0),)  # within TIE: polyopt's code stays
    beats_it = (Timing(800, 50.0, 25.0, 30.0),)
    for timings, called_from in ((ties_with_the_microkernel, None), (beats_it, 800**3)):
        measured = dataclasses.replace(SLOW_GEMM, **{kind: timings})

        calls = _thresholds(measured_choice(measured, MACHINE, frozenset(), microkernel=True, origin="probe"))

        assert calls[kind.capitalize()] == called_from
        assert calls["Gemm"] is None  # GEMM's own crossover


def test_without_the_microkernel_symm_is_weighed_against_the_loops() -> None:
    measured = dataclasses.replace(SLOW_GEMM, symm=(Timing(800, 50.0, 40.0, 30.0),))

    choice = measured_choice(measured, MACHINE, frozenset(), microkernel=False, origin="probe")

    assert not choice.microkernel
    assert _thresholds(choice)["Symm"] == 800**3  # 40 ms beats the loops' 50, not the microkernel's 30


def test_without_the_rank_k_microkernel_syrk_is_weighed_against_the_loops() -> None:
    measured = dataclasses.replace(SLOW_GEMM, syrk=(Timing(800, 50.0, 40.0, 30.0),))
    off = dataclasses.replace(MACHINE, rank_k_microkernel=0)

    calls = _thresholds(measured_choice(measured, off, frozenset(), microkernel=True, origin="probe"))

    assert calls["Syrk"] == calls["Syr2k"] == 800**3  # 40 ms beats the loops' 50


def test_a_shared_matrix_call_is_made_from_its_own_crossover() -> None:
    faster = dataclasses.replace(SLOW_GEMM, shared=(Timing(512, 2.0, 3.0), Timing(1024, 8.0, 6.0)))

    calls = _thresholds(measured_choice(faster, MACHINE, frozenset(), microkernel=True, origin="probe"))
    given = _thresholds(measured_choice(SLOW_GEMM, MACHINE, frozenset({2}), microkernel=True, origin="probe"))

    assert calls[SHARED] == 1024**2
    assert given[SHARED] == given["Gemv"] == MACHINE.blas2_threshold


def test_without_the_microkernel_a_gemm_is_called_from_its_crossover_against_the_loops() -> None:
    choice = measured_choice(SLOW_GEMM, MACHINE, frozenset(), microkernel=False, origin="probe")

    assert not choice.microkernel
    assert _thresholds(choice)["Gemm"] == 400**3


def test_a_microkernel_slower_than_the_loops_is_not_used() -> None:
    slow = dataclasses.replace(SLOW_GEMM, gemm=(Timing(128, 1.0, 3.0, 1.5), Timing(800, 30.0, 20.0, 40.0)))

    choice = measured_choice(slow, MACHINE, frozenset(), microkernel=True, origin="probe")

    assert not choice.microkernel
    assert _thresholds(choice)["Gemm"] == 800**3


def test_a_threshold_given_for_a_level_wins_over_the_measurements_of_that_level() -> None:
    machine = dataclasses.replace(MACHINE, blas3_threshold=5, blas2_threshold=7)

    choice = measured_choice(SLOW_GEMM, machine, frozenset({3}), microkernel=True, origin="probe")

    calls = _thresholds(choice)
    assert calls["Gemm"] == calls["BatchedGemm"] == calls["Syrk"] == 5
    assert calls["Gemv"] == 1024**2


def test_without_measurements_every_idiom_is_called_from_the_machine_threshold_of_its_level() -> None:
    choice = default_choice(MACHINE)

    assert choice.microkernel
    level3, level2 = MACHINE.blas3_threshold, MACHINE.blas2_threshold
    assert _thresholds(choice) == {
        "Gemm": level3,
        "BatchedGemm": level3,
        "Gemv": level2,
        "Ger": level2,
        "Syrk": level3,
        "Syr2k": level3,
        "Trmm": level3,
        "Symm": level3,
        SHARED: level2,
    }


# -- the cache ---------------------------------------------------------------------------------


def test_stored_measurements_read_back_for_their_key_only(tmp_path: Path) -> None:
    path = cache_path(KEY, tmp_path)
    store(path, KEY, SLOW_GEMM, 2.5)

    assert load(path, KEY) == SLOW_GEMM
    assert json.loads(path.read_text())["seconds"] == 2.5
    for changed in ({"library_mtime": 18}, {"library_bytes": 999}, {"library": "/opt/lib.so"}, {"cpu": "Xeon"}):
        other = dataclasses.replace(KEY, **changed)
        assert load(path, other) is None
        assert cache_path(other, tmp_path) != path


def test_a_store_replaces_the_file_whole_and_leaves_no_temporary(tmp_path: Path, monkeypatch) -> None:
    path = cache_path(KEY, tmp_path)
    store(path, KEY, SLOW_GEMM, 1.0)
    replaced: list[tuple[str, str]] = []
    real_replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (replaced.append((str(a), str(b))), real_replace(a, b)))
    faster = dataclasses.replace(SLOW_GEMM, corename="SkylakeX")

    store(path, KEY, faster, 1.0)

    assert [target for _, target in replaced] == [str(path)]
    assert Path(replaced[0][0]).parent == tmp_path
    assert load(path, KEY) == faster
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


def test_a_failed_store_keeps_the_old_file_and_leaves_no_temporary(tmp_path: Path, monkeypatch) -> None:
    path = cache_path(KEY, tmp_path)
    store(path, KEY, SLOW_GEMM, 1.0)

    def broken(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(json, "dump", broken)
    with pytest.raises(OSError):
        store(path, KEY, dataclasses.replace(SLOW_GEMM, corename="other"), 1.0)

    assert load(path, KEY) == SLOW_GEMM
    assert sorted(p.name for p in tmp_path.iterdir()) == [path.name]


@pytest.mark.parametrize("text", ["", "{not json", '{"key": 3}', '{"key": {}, "gemm": []}'])
def test_an_unreadable_cache_file_is_no_measurement(tmp_path: Path, text: str) -> None:
    path = cache_path(KEY, tmp_path)
    path.write_text(text)

    assert load(path, KEY) is None


def test_the_key_changes_with_the_cpu_and_the_library_file(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("model name\t: AMD EPYC\nflags\t\t: fpu sse2 avx512f\n")
    library = tmp_path / "libopenblas.so"
    library.write_bytes(b"x" * 10)
    os.utime(library, ns=(1, 1_000))
    key = probe_key(library, 2, cpuinfo, environ={})

    assert (key.cpu, key.cores, key.library, key.library_bytes) == ("AMD EPYC", 2, str(library), 10)
    os.utime(library, ns=(1, 2_000))
    newer = probe_key(library, 2, cpuinfo, environ={})
    cpuinfo.write_text("model name\t: AMD EPYC\nflags\t\t: fpu sse2 avx2\n")
    other_flags = probe_key(library, 2, cpuinfo, environ={})
    coretype = probe_key(library, 2, cpuinfo, environ={"OPENBLAS_CORETYPE": "SkylakeX"})

    assert len({key.digest(), newer.digest(), other_flags.digest(), coretype.digest()}) == 4
    assert probe_key(library, 4, cpuinfo, environ={}) != other_flags


def test_the_cache_folder_follows_xdg_cache_home() -> None:
    assert cache_folder({"XDG_CACHE_HOME": "/tmp/c"}) == Path("/tmp/c/polyopt")
    assert cache_folder({}) == Path.home() / ".cache" / "polyopt"
    assert cache_folder({"XDG_CACHE_HOME": "relative"}) == Path.home() / ".cache" / "polyopt"


def test_the_probe_runs_once_then_is_read_from_the_cache(tmp_path: Path) -> None:
    run = FakeRun()

    first, status = probed(KEY, tmp_path, run)
    second, again = probed(KEY, tmp_path, run)

    assert first == second == SLOW_GEMM and run.calls == 1
    assert status.startswith("ran in ") and status.endswith(f"cached in {cache_path(KEY, tmp_path)}")
    assert again == f"read from the cache {cache_path(KEY, tmp_path)}"


def test_the_probe_measures_holding_the_lock(tmp_path: Path) -> None:
    lock = cache_path(KEY, tmp_path).with_suffix(".lock")
    held: list[bool] = []

    def run() -> Measurements:
        with open(lock) as other:
            try:
                fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                held.append(True)
        return SLOW_GEMM

    probed(KEY, tmp_path, run)

    assert held == [True]


def test_a_run_waiting_for_a_concurrent_probe_reads_its_result(tmp_path: Path) -> None:
    path = cache_path(KEY, tmp_path)
    run = FakeRun()
    results: list[tuple[Measurements, str]] = []
    with open(path.with_suffix(".lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        waiting = threading.Thread(target=lambda: results.append(probed(KEY, tmp_path, run)))
        waiting.start()
        time.sleep(0.2)
        store(path, KEY, SLOW_GEMM, 1.0)
        fcntl.flock(lock, fcntl.LOCK_UN)
    waiting.join(10)

    assert run.calls == 0
    assert results[0][0] == SLOW_GEMM and results[0][1].startswith(f"read from the cache {path}")


# -- a run ------------------------------------------------------------------------------------


def _run_probe(tmp_path: Path, run: FakeRun, options: Options | None = None, **kwargs: object) -> RunProbe:
    library = tmp_path / "libopenblas.so"
    if not library.exists():  # touching it again would make a new key
        library.touch()
    arguments = {"given": frozenset(), "enabled": True, "environ": {}} | kwargs
    return RunProbe(
        options or Options(machine=MACHINE),
        arguments["given"],  # type: ignore[arg-type]
        arguments["enabled"],  # type: ignore[arg-type]
        run=run,
        folder=tmp_path / "cache",
        environ=arguments["environ"],  # type: ignore[arg-type]
        library=lambda: library,
    )


needs_cblas = pytest.mark.skipif(not cblas_available(), reason="needs cblas.h (libopenblas-dev)")


@needs_cblas
def test_a_run_waits_for_the_probe_until_a_region_needs_it_then_the_next_reads_the_cache(tmp_path: Path) -> None:
    run = FakeRun()
    waiting = _run_probe(tmp_path, run)

    assert waiting.initial == AWAITING_PROBE and run.calls == 0
    assert waiting.report() == ("library: probe not run: no region has a BLAS idiom",)
    choice = waiting()
    assert run.calls == 1 and choice == waiting.choice
    assert waiting.status.startswith("measured by the probe, which ran in ")
    assert waiting.status.endswith("; library Prescott (OpenBLAS 0.3.21); load average 0.5 when measured")

    cached = _run_probe(tmp_path, run)

    assert run.calls == 1
    assert cached.initial == LibraryChoice(choice.calls, choice.microkernel, cached.status, choice.closeness)
    assert cached.status.startswith("measured by the probe, read from the cache ")
    assert cached.report()[1:4] == (
        "  GEMMs, SYMMs, TRMMs not called: the microkernel (it takes 0.38x the loops' time at n = 800)",
        "  Gemm: never called (GEMM call slower than the microkernel up to n = 800, taking 1.67x its time there)",
        "  BatchedGemm: called from work 2097152 (BATCHED call faster than the loops from n = 128, taking 0.80x its"
        " time there)",
    )


@needs_cblas
def test_a_new_library_file_is_probed_again(tmp_path: Path) -> None:
    run = FakeRun()
    _run_probe(tmp_path, run)()
    os.utime(tmp_path / "libopenblas.so", ns=(1, 1_000))  # an upgrade replaces the file

    upgraded = _run_probe(tmp_path, run)

    assert upgraded.initial == AWAITING_PROBE
    upgraded()
    assert run.calls == 2 and len(list((tmp_path / "cache").glob("probe-*.json"))) == 2


@needs_cblas
@pytest.mark.parametrize(
    ("kwargs", "status"),
    [
        ({"enabled": False}, "probe skipped: --no-probe"),
        ({"environ": {NO_PROBE_VARIABLE: "1"}}, f"probe skipped: {NO_PROBE_VARIABLE} is set"),
        ({"given": frozenset({2, 3})}, "probe skipped: the target file or flags set both BLAS thresholds"),
    ],
)
def test_no_probe_runs_when_it_is_disabled_or_both_thresholds_are_given(
    tmp_path: Path, kwargs: dict[str, object], status: str
) -> None:
    run = FakeRun()

    skipped = _run_probe(tmp_path, run, **kwargs)

    assert skipped.initial is None and skipped.status == status
    assert skipped() == default_choice(MACHINE) and run.calls == 0
    assert skipped.report()[:3] == (
        f"library: {status}",
        "  GEMMs, SYMMs, TRMMs not called: the microkernel",
        f"  Gemm: called from work {MACHINE.blas3_threshold} (blas3-threshold of the machine)",
    )


def test_no_probe_without_the_library_or_with_blas_none(tmp_path: Path) -> None:
    run = FakeRun()
    missing = RunProbe(Options(machine=MACHINE), frozenset(), True, run=run, environ={}, library=lambda: None)
    none = _run_probe(tmp_path, run, Options(machine=MACHINE, blas="none"))

    assert none.initial is None and none.status == "probe not needed with --blas=none"
    assert none.report() == ("library: probe not needed with --blas=none",)
    assert missing.initial is None and run.calls == 0
    assert missing.status in ("probe skipped: gcc finds no lib for -lopenblas", "probe skipped: gcc finds no cblas.h")


def test_a_threshold_of_the_target_file_wins_over_the_cached_probe(tmp_path: Path) -> None:
    machine = dataclasses.replace(MACHINE, blas3_threshold=12345)
    _run_probe(tmp_path, FakeRun())()

    if not cblas_available():
        pytest.skip("needs cblas.h (libopenblas-dev)")
    cached = _run_probe(tmp_path, FakeRun(), Options(machine=machine), given=frozenset({3}))

    assert cached.initial is not None
    calls = _thresholds(cached.initial)
    assert calls["Gemm"] == calls["Syrk"] == 12345
    assert calls["Gemv"] == 1024**2


# -- the pipeline and the command ----------------------------------------------------------------

COPY = """\
double A[300][300], B[300][300], C[300][300], D[300];
void kernel(int n)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < n; i++)
    D[i] = A[i][i];
#pragma endscop
"""
GEMM_AND_COPY = (
    COPY
    + """\
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      for (k = 0; k < n; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
}
"""
)


def test_the_first_region_with_an_idiom_runs_the_probe_for_itself_and_the_next() -> None:
    probes: list[int] = []

    def probe() -> LibraryChoice:
        probes.append(1)
        return measured_choice(SLOW_GEMM, MACHINE, frozenset(), microkernel=True, origin="probe")

    options = Options(machine=MACHINE, blas="cblas", library=AWAITING_PROBE)
    outcome = optimize_text(GEMM_AND_COPY, "k.c", options, probe)

    assert probes == [1]
    assert outcome.warnings == ()
    assert "cblas_dgemm" not in outcome.text and "polyopt_kc" in outcome.text  # GEMM: never called
    library = outcome.regions[1].report.lines("library")  # type: ignore[union-attr]
    assert any("microkernel" in line for line in library)
    assert not any("-lopenblas" in line for line in library)


TWO_PRODUCTS = """\
double A[300][300], B[300][300], x[300], y[300], z[300];
void kernel(int n)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      y[i] += A[i][j] * x[j];
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      z[i] += %s[j][i] * x[j];
#pragma endscop
}
"""


@pytest.mark.parametrize(("second", "called"), [("A", ()), ("B", ("cblas_dgemv",) * 2)])
def test_gemvs_on_a_shared_matrix_follow_the_shared_measurement(second: str, called: tuple[str, ...]) -> None:
    choice = measured_choice(SLOW_GEMM, MACHINE, frozenset(), microkernel=True, origin="probe")
    options = Options(machine=MACHINE, blas="cblas", library=choice)

    outcome = optimize_text(TWO_PRODUCTS % second, "k.c", options)

    assert tuple(re.findall(r"cblas_dgemv", outcome.text)) == called
    library = outcome.regions[0].report.lines("library")  # type: ignore[union-attr]
    shared = [line for line in library if "never called on a matrix other statements access" in line]
    assert len(shared) == (2 if not called else 0)


def test_without_an_idiom_no_probe_runs() -> None:
    def probe() -> LibraryChoice:
        raise AssertionError("no region needs the probe")

    options = Options(machine=MACHINE, blas="cblas", library=AWAITING_PROBE)
    outcome = optimize_text(COPY + "}\n", "k.c", options, probe)

    assert outcome.warnings == () and outcome.regions[0].code is not None


def test_the_report_says_the_probe_was_skipped_with_no_probe(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.delenv(NO_PROBE_VARIABLE, raising=False)
    source = tmp_path / "k.c"
    source.write_text(GEMM_AND_COPY)

    result = CliRunner().invoke(main, [str(source), "-o", "-", "--no-probe", "--report"], prog_name="polyopt")

    assert result.exit_code == 0
    assert "library: probe skipped: --no-probe" in result.stderr


def test_the_command_reads_a_cached_probe(tmp_path: Path, monkeypatch) -> None:
    library = library_file()
    if library is None or not cblas_available():
        pytest.skip("needs libopenblas and cblas.h")
    monkeypatch.delenv(NO_PROBE_VARIABLE, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = probe_key(library, detect().cores)
    (tmp_path / "polyopt").mkdir()
    store(cache_path(key, tmp_path / "polyopt"), key, SLOW_GEMM, 1.0)
    source = tmp_path / "k.c"
    source.write_text(GEMM_AND_COPY)

    result = CliRunner().invoke(main, [str(source), "-o", "-", "--report"], prog_name="polyopt")

    assert result.exit_code == 0
    assert f"library: measured by the probe, read from the cache {cache_path(key, tmp_path / 'polyopt')}" in (
        result.stderr
    )
    assert "  Gemm: never called (GEMM call slower than the microkernel up to n = 800, taking 1.67x" in result.stderr
    assert "cblas_dgemm" not in result.stdout


@needs_cblas
def test_the_probe_program_times_every_case_and_variant_at_small_sizes_above_the_vectors_size() -> None:
    measured = measure(
        detect(), gemm_sizes=(24, 32), gemv_sizes=(16,), square_sizes=(32,), batched_sizes=(12, 24), runs=1, max_runs=1
    )

    assert [t.size for t in measured.gemm] == [24, 32] and [t.size for t in measured.batched] == [12, 24]
    for field in TIMED:
        timings = getattr(measured, field)
        assert timings and all(t.loops > 0 and t.call > 0 for t in timings), field
    assert all(t.microkernel is None for t in measured.batched + measured.gemv)
    assert all(t.microkernel is not None and t.microkernel > 0 for t in measured.gemm + measured.trmm)
