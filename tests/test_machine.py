"""Tests for ``polyopt.machine``: sizes, detection, target files and overrides."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import pytest

from polyopt.diagnostics import PolyoptError
from polyopt.machine import (
    COUNT,
    DEFAULTS,
    FACT,
    KEYS,
    PRICE,
    PROFILE,
    SIZE,
    SYS_CACHE,
    Key,
    Machine,
    detect,
    detect_from,
    keys_markdown,
    load_target,
    parse_size,
    target_settings,
    target_text,
    with_overrides,
)
from polyopt.target_keys import SETTINGS

SERVER = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")


@pytest.mark.parametrize(
    ("text", "size"),
    [
        ("65536", 65536),
        ("48K", 48 * 1024),
        ("48k", 48 * 1024),
        ("1M", 1 << 20),
        ("32768K", 32 << 20),
        ("2G", 2 << 30),
        ("32KiB", 32 * 1024),
        ("32 KB", 32 * 1024),
        (" 64B ", 64),
        ("0", 0),
    ],
)
def test_parse_size(text: str, size: int) -> None:
    assert parse_size(text) == size


@pytest.mark.parametrize("text", ["", "K", "1.5M", "-1", "48X", "48 K B", "0x40", "1T"])
def test_parse_size_rejects(text: str) -> None:
    with pytest.raises(PolyoptError, match="is not a size"):
        parse_size(text)


BLAS_TEXT = "BLAS from work 7077888 (level 3) and 1048576 (level 2), threads from 16777216 instances (test)"


def test_describe_is_one_line_with_binary_units() -> None:
    registers = "16 64-byte vector registers, "
    assert SERVER.describe() == "L1d 32 KiB, L2 1 MiB, L3 32 MiB, line 64 B, 2 cores, " + registers + BLAS_TEXT
    small = dataclasses.replace(SERVER, l1=48 << 10, l2=1280 << 10, l3=0, cores=1)
    assert small.describe() == "L1d 48 KiB, L2 1280 KiB, L3 none, line 64 B, 1 core, " + registers + BLAS_TEXT


# -- detection ---------------------------------------------------------------


def _cache(folder: Path, index: int, level: int, kind: str, size: str, line: str = "64") -> None:
    entry = folder / f"index{index}"
    entry.mkdir(parents=True)
    for name, value in (("level", level), ("type", kind), ("size", size), ("coherency_line_size", line)):
        (entry / name).write_text(f"{value}\n")


def test_detect_from_reads_data_and_unified_caches_and_the_widest_vectors(tmp_path: Path) -> None:
    caches = tmp_path / "cache"
    _cache(caches, 0, 1, "Data", "48K", "128")
    _cache(caches, 1, 1, "Instruction", "64K")
    _cache(caches, 2, 2, "Unified", "1280K")
    _cache(caches, 3, 3, "Unified", "30720K")
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma\n")

    machine = detect_from(caches, cpuinfo)

    assert (machine.l1, machine.l2, machine.l3, machine.line) == (48 << 10, 1280 << 10, 30 << 20, 128)
    assert machine.simd_bytes == 32
    assert machine.cores >= 1
    assert "defaults" not in machine.origin


def test_detect_from_falls_back_to_the_defaults(tmp_path: Path) -> None:
    machine = detect_from(tmp_path / "no-cache", tmp_path / "no-cpuinfo")

    assert (machine.l1, machine.l2, machine.l3) == (32 << 10, 1 << 20, 8 << 20)
    assert (machine.line, machine.simd_bytes) == (64, 16)
    assert machine.origin.endswith("defaults for l1, l2, l3, line, simd_bytes, vector_registers")


def test_detect_from_counts_32_vector_registers_with_avx512(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("flags\t\t: fpu sse2 avx2 avx512f\n")
    avx2 = tmp_path / "avx2"
    avx2.write_text("flags\t\t: fpu sse2 avx avx2\n")

    assert detect_from(tmp_path, cpuinfo).vector_registers == 32
    assert detect_from(tmp_path, avx2).vector_registers == 16


def test_detect_from_without_vector_extensions_assumes_sse(tmp_path: Path) -> None:
    cpuinfo = tmp_path / "cpuinfo"
    cpuinfo.write_text("flags\t\t: fpu sse sse2\n")

    assert detect_from(tmp_path, cpuinfo).simd_bytes == 16


def test_detect_gives_positive_numbers_and_is_cached() -> None:
    machine = detect()

    assert min(machine.l1, machine.l2, machine.line, machine.cores, machine.simd_bytes) > 0
    assert machine.l3 >= 0 and machine.simd_bytes in (16, 32, 64)
    assert detect() is machine


@pytest.mark.skipif(not SYS_CACHE.is_dir(), reason="no /sys cache description on this machine")
def test_detect_matches_sys_for_the_l1_data_cache() -> None:
    l1 = [
        index
        for index in SYS_CACHE.glob("index*")
        if (index / "level").read_text().strip() == "1" and (index / "type").read_text().strip() == "Data"
    ]
    assert l1, "no L1 data cache in /sys"
    size = (l1[0] / "size").read_text().strip()
    assert size.endswith("K")

    assert detect().l1 == int(size[:-1]) * 1024
    assert detect().line == int((l1[0] / "coherency_line_size").read_text())


# -- target files -------------------------------------------------------------


def _target(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "x.target"
    path.write_text(text)
    return path


def test_load_target_reads_sizes_comments_and_counts(tmp_path: Path) -> None:
    text = "# my laptop\nl1 = 48K   # per core\n\nl2=1280K\nl3 = 0\nline = 64\ncores = 8\nsimd-bytes = 32\n"
    text += "vector-registers = 16\n"
    path = _target(tmp_path, text)

    machine = load_target(path)

    assert machine == Machine(48 << 10, 1280 << 10, 0, 64, 8, 32, origin=f"target file {path}")


def test_load_target_takes_missing_keys_from_detection(tmp_path: Path) -> None:
    machine = load_target(_target(tmp_path, "cores = 3\n"))

    assert machine.cores == 3
    assert (machine.l1, machine.l2, machine.l3, machine.simd_bytes) == (
        detect().l1,
        detect().l2,
        detect().l3,
        detect().simd_bytes,
    )


def test_the_printed_target_reads_back_to_the_same_machine(tmp_path: Path) -> None:
    path = _target(tmp_path, target_text(SERVER))

    assert dataclasses.replace(load_target(path), origin="test") == SERVER


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ("l1 = 32K\nl4 = 3\n", 2, "unknown key 'l4' in the target file (keys: l1, l2, l3, line, cores, simd-bytes, "),
        ("# header\n\nl2 = lots\n", 3, "bad value for 'l2': 'lots' is not a size"),
        ("cores = 2K\n", 1, "bad value for 'cores': '2K' is not a non-negative integer"),
        ("l1 32K\n", 1, "expected 'key = value' in the target file, not 'l1 32K'"),
        ("l1 =\n", 1, "expected 'key = value'"),
        ("line = 64\nline = 128\n", 2, "'line' is set twice in the target file"),
        ("simd_bytes = 32\n", 1, "unknown key 'simd_bytes'"),
        ("# fitted\nkc-limit = 128\nkc_limit = 64\n", 3, "unknown key 'kc_limit'"),
        ("op-cycles = fast\n", 1, "bad value for 'op-cycles': 'fast' is not a non-negative number"),
        ("byte-cycles = -1\n", 1, "bad value for 'byte-cycles': '-1' is not a non-negative number"),
        ("section-limit = 1.5\n", 1, "bad value for 'section-limit': '1.5' is not a non-negative integer"),
    ],
)
def test_load_target_errors_name_the_file_and_line(tmp_path: Path, text: str, line: int, message: str) -> None:
    path = _target(tmp_path, text)

    with pytest.raises(PolyoptError) as caught:
        load_target(path)

    assert message in caught.value.message
    assert str(caught.value).startswith(f"{path}:{line}: error: ")


def test_load_target_of_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(PolyoptError, match=r"cannot read target file '.*nothing.target': No such file"):
        load_target(tmp_path / "nothing.target")


def test_load_target_of_a_folder(tmp_path: Path) -> None:
    with pytest.raises(PolyoptError, match="cannot read target file"):
        load_target(tmp_path)


# -- overrides and the command -------------------------------------------------


def test_with_overrides_replaces_the_given_numbers_and_records_their_flags() -> None:
    machine = with_overrides(SERVER, l1=48 << 10, l2=None, simd_bytes=32)

    assert (machine.l1, machine.l2, machine.simd_bytes) == (48 << 10, SERVER.l2, 32)
    assert machine.origin == "test + overrides --l1, --simd-bytes"


def test_with_no_overrides_the_machine_is_unchanged() -> None:
    assert with_overrides(SERVER, l1=None, cores=None) is SERVER


def test_python_m_polyopt_measure_prints_a_target_file_of_the_detected_machine(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "polyopt.measure", "--no-limits"], capture_output=True, text=True, timeout=60, check=True
    )
    path = _target(tmp_path, result.stdout)

    assert result.stdout.startswith("# polyopt target: detected from ")
    assert dataclasses.replace(load_target(path), origin=detect().origin) == detect()
    assert set(target_settings(path)) == set(DEFAULTS) == set(SETTINGS)


def test_the_printed_target_lists_facts_then_profile_each_key_with_its_meaning() -> None:
    lines = target_text(SERVER).splitlines()
    facts = lines.index("# facts of the machine (detected when left out)")
    profile = lines.index("# profile: numbers fitted by measurement (their defaults when left out)")

    assert 0 < facts < lines.index("l1 = 32K                         # bytes of L1 data cache of one core") < profile
    assert lines.index("section-limit = 16384            " + "# " + _KEY["section_limit"].meaning) > profile
    assert {key.group for key in KEYS} == {FACT, PROFILE}


# -- the table of keys ----------------------------------------------------------

_KEY = {key.field: key for key in KEYS}
# a value other than the default for each key, written as a target file writes it
_OTHER = {SIZE: ("48K", 48 << 10), COUNT: ("3", 3), PRICE: ("0.25", 0.25)}


def test_the_machine_has_one_field_per_key_with_the_key_default() -> None:
    fields = {field.name: field for field in dataclasses.fields(Machine)}

    assert set(fields) == {*SETTINGS, "origin"}
    for key in KEYS:
        assert key.default == DEFAULTS[key.field] and key.name == key.field.replace("_", "-")
        if key.field in ("l1", "l2", "l3", "line", "cores", "simd_bytes"):
            continue  # facts a Machine is always given
        assert fields[key.field].default == key.default, key.field


@pytest.mark.parametrize("key", KEYS, ids=lambda key: key.name)
def test_every_key_round_trips_through_a_target_file(tmp_path: Path, key: Key) -> None:
    text, value = _OTHER[key.kind]
    path = _target(tmp_path, f"{key.name} = {text}\n")

    machine = load_target(path)

    assert getattr(machine, key.field) == value != key.default
    again = _target(tmp_path, target_text(machine))
    assert load_target(again) == dataclasses.replace(machine, origin=f"target file {again}")


def test_a_profile_key_left_out_takes_its_default_and_a_fact_is_detected(tmp_path: Path) -> None:
    machine = load_target(_target(tmp_path, "kc-limit = 64\n"))

    assert machine.kc_limit == 64
    assert machine.section_limit == DEFAULTS["section_limit"] and machine.op_cycles == DEFAULTS["op_cycles"]
    assert machine.l1 == detect().l1


def test_the_usage_doc_lists_the_keys_of_the_table() -> None:
    usage = (Path(__file__).resolve().parent.parent / "doc" / "usage.md").read_text(encoding="utf-8")

    assert keys_markdown() in usage
    assert "| `section-limit` | `16384` | most elements of an array section" in keys_markdown()
