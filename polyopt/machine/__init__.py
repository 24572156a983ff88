"""The target of the optimized code: facts of the machine, and the profile of numbers fitted on it.

The cost models read both from ``Options.machine``.  The facts (cache sizes, cores, vector width and
registers) are detected on the machine polyopt runs on; the profile (where library calls and threads
start to pay, the fusion cost model's prices, the microkernel's and the emitter's limits, isl's
scheduler bounds) takes its defaults.  A target file (``--target FILE``) sets any of them, and some
have a flag of their own (``--l1`` ...).

A target file has one ``key = value`` per line; ``#`` starts a comment::

    # a 2-core AVX-512 server
    l1 = 32K          # bytes of L1 data cache of one core
    cores = 2
    simd-bytes = 64
    blas3-threshold = 7077888

Sizes are plain bytes or take a binary suffix K, M or G (``48K`` is 49152 bytes).  A key that the
file leaves out takes the detected value (a fact) or its default (a profile key).  ``KEYS`` lists
every key with its default and meaning; ``python -m polyopt.measure`` prints them all in this format, with
the machine's limits measured (``polyopt.measure.limits``).

Public: ``Machine``, ``Key``, ``KEYS``, ``DEFAULTS``, ``BLAS_THRESHOLD``,
``BLAS2_THRESHOLD``, ``PARALLEL_WORK``, ``SECTION_LIMIT``, ``parse_size``, ``detect``, ``detect_from``,
``target_settings``, ``load_target``, ``with_overrides``, ``target_text``, ``keys_markdown``.
"""

from __future__ import annotations

import dataclasses
import functools
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from polyopt.diagnostics import Location, PolyoptError
from polyopt.target_keys import (
    BLAS2_THRESHOLD,
    BLAS_THRESHOLD,
    COUNT,
    DEFAULTS,
    FACT,
    KEYS,
    PARALLEL_WORK,
    PRICE,
    PROFILE,
    SECTION_LIMIT,
    SIZE,
    Key,
)

SYS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
PROC_CPUINFO = Path("/proc/cpuinfo")

_BY_NAME = {key.name: key for key in KEYS}  # target file key -> its Key
_BY_FIELD = {key.field: key for key in KEYS}

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
_SIZE = re.compile(r"(\d+)\s*(?:([KMG])(?:iB|B)?|B)?", re.IGNORECASE)
_PRICE = re.compile(r"\d+(\.\d*)?|\.\d+")
_VECTOR_FLAGS = (("avx512f", 64), ("avx2", 32), ("avx", 32))
_REGISTER_FLAGS = (("avx512f", 32),)  # x86-64 has 16 vector registers, 32 with AVX-512


@dataclass(frozen=True)
class Machine:
    """What the cost models know about the target: its facts (sizes in bytes) and its profile
    (``KEYS`` says what each field means); ``origin`` says where the numbers came from."""

    l1: int
    l2: int
    l3: int
    line: int
    cores: int
    simd_bytes: int
    origin: str
    blas3_threshold: int = BLAS_THRESHOLD
    blas2_threshold: int = BLAS2_THRESHOLD
    parallel_work: int = PARALLEL_WORK
    vector_registers: int = DEFAULTS["vector_registers"]
    op_cycles: float = DEFAULTS["op_cycles"]
    byte_cycles: float = DEFAULTS["byte_cycles"]
    section_limit: int = SECTION_LIMIT
    kc_limit: int = DEFAULTS["kc_limit"]
    nc_limit: int = DEFAULTS["nc_limit"]
    isl_max_coefficient: int = DEFAULTS["isl_max_coefficient"]
    isl_max_constant_term: int = DEFAULTS["isl_max_constant_term"]
    tile_l2_share: int = DEFAULTS["tile_l2_share"]
    tile_gamma_floor: float = DEFAULTS["tile_gamma_floor"]
    tile_inner_vectors: int = DEFAULTS["tile_inner_vectors"]
    tile_scalar_inner_lines: int = DEFAULTS["tile_scalar_inner_lines"]
    tile_reduction_min: int = DEFAULTS["tile_reduction_min"]
    tile_balance_slack: float = DEFAULTS["tile_balance_slack"]
    stream_threads: int = DEFAULTS["stream_threads"]
    small_loop_rules: int = DEFAULTS["small_loop_rules"]
    blocks_microkernel: int = DEFAULTS["blocks_microkernel"]
    as_written_below: int = DEFAULTS["as_written_below"]
    rank_k_microkernel: int = DEFAULTS["rank_k_microkernel"]
    unroll_jam: int = DEFAULTS["unroll_jam"]
    peak_gflops_double_core: float = DEFAULTS["peak_gflops_double_core"]
    peak_gflops_double: float = DEFAULTS["peak_gflops_double"]
    peak_gflops_float_core: float = DEFAULTS["peak_gflops_float_core"]
    peak_gflops_float: float = DEFAULTS["peak_gflops_float"]
    bandwidth_l1_core: float = DEFAULTS["bandwidth_l1_core"]
    bandwidth_l1: float = DEFAULTS["bandwidth_l1"]
    bandwidth_l2_core: float = DEFAULTS["bandwidth_l2_core"]
    bandwidth_l2: float = DEFAULTS["bandwidth_l2"]
    bandwidth_l3_core: float = DEFAULTS["bandwidth_l3_core"]
    bandwidth_l3: float = DEFAULTS["bandwidth_l3"]
    bandwidth_dram_core: float = DEFAULTS["bandwidth_dram_core"]
    bandwidth_dram: float = DEFAULTS["bandwidth_dram"]
    peak_gops_int_core: float = DEFAULTS["peak_gops_int_core"]
    peak_gops_int: float = DEFAULTS["peak_gops_int"]
    peak_gdivs_double_core: float = DEFAULTS["peak_gdivs_double_core"]
    peak_gdivs_double: float = DEFAULTS["peak_gdivs_double"]

    @property
    def shared_cache(self) -> int:
        """The bytes of cache all cores share: the L3, else the L2 of every core."""
        return self.l3 if self.l3 else self.l2 * self.cores

    @property
    def private_caches(self) -> int:
        """The bytes of the caches that belong to one core each: the L2 of every core."""
        return self.l2 * self.cores

    def describe(self) -> str:
        """One line, e.g. ``L1d 32 KiB, L2 1 MiB, L3 32 MiB, line 64 B, 2 cores, 32 64-byte vector registers,
        BLAS from ... (detected ...)``."""
        l3 = _binary(self.l3) if self.l3 else "none"
        cores = f"{self.cores} core" + ("" if self.cores == 1 else "s")
        return (
            f"L1d {_binary(self.l1)}, L2 {_binary(self.l2)}, L3 {l3}, line {self.line} B, "
            f"{cores}, {self.vector_registers} {self.simd_bytes}-byte vector registers, "
            f"BLAS from work {self.blas3_threshold} (level 3) "
            f"and {self.blas2_threshold} (level 2), threads from {self.parallel_work} instances ({self.origin})"
        )


def _in_units(size: int) -> tuple[int, str]:
    """``32768`` → ``(32, "K")``: the largest binary unit that divides ``size``; ``(size, "")`` if none."""
    for unit, factor in reversed(_UNITS.items()):
        if size and size % factor == 0:
            return size // factor, unit
    return size, ""


def _binary(size: int) -> str:
    number, unit = _in_units(size)
    return f"{number} {unit}iB" if unit else f"{number} B"


def parse_size(text: str) -> int:
    """Bytes of ``48K``, ``1M``, ``2G`` (binary units, ``KiB``/``KB`` spellings too) or ``65536``."""
    match = _SIZE.fullmatch(text.strip())
    if match is None:
        raise PolyoptError(f"'{text}' is not a size (a number of bytes, or a number followed by K, M or G)")
    return int(match.group(1)) * _UNITS[(match.group(2) or "").upper()]


def _parse_count(text: str) -> int:
    if re.fullmatch(r"\d+", text.strip()) is None:
        raise PolyoptError(f"'{text}' is not a non-negative integer")
    return int(text)


def _parse_price(text: str) -> float:
    if _PRICE.fullmatch(text.strip()) is None:
        raise PolyoptError(f"'{text}' is not a non-negative number")
    return float(text)


_PARSERS: dict[str, Callable[[str], int | float]] = {SIZE: parse_size, COUNT: _parse_count, PRICE: _parse_price}


def _written(key: Key, value: int | float) -> str:
    """``value`` as a target file writes it: sizes in the largest binary unit that divides them."""
    if key.kind == SIZE:
        return "".join(map(str, _in_units(int(value))))
    return str(value)


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return None


def _caches(folder: Path) -> dict[str, int]:
    """``l1``, ``l2``, ``l3`` and ``line`` from the data and unified caches listed in ``folder``."""
    found: dict[str, int] = {}
    for index in sorted(folder.glob("index*")):
        level, kind, size = (_read(index / name) for name in ("level", "type", "size"))
        if kind not in ("Data", "Unified") or level not in ("1", "2", "3") or size is None:
            continue
        try:
            found[f"l{level}"] = parse_size(size)
        except PolyoptError:
            continue
        line = _read(index / "coherency_line_size")
        if level == "1" and line is not None and line.isdigit():
            found["line"] = int(line)
    return found


def _vector_bytes(cpuinfo: Path) -> dict[str, int]:
    text = _read(cpuinfo)
    flags = re.search(r"^flags\s*:(.*)$", text or "", re.MULTILINE)
    if flags is None:
        return {}
    present = set(flags.group(1).split())
    return {
        "simd_bytes": next((width for flag, width in _VECTOR_FLAGS if flag in present), 16),
        "vector_registers": next((count for flag, count in _REGISTER_FLAGS if flag in present), 16),
    }


def _core_count() -> dict[str, int]:
    try:
        return {"cores": len(os.sched_getaffinity(0))}
    except (AttributeError, OSError):
        count = os.cpu_count()
        return {"cores": count} if count else {}


def detect_from(cache_folder: Path, cpuinfo: Path) -> Machine:
    """The machine described by a ``/sys/.../cpu0/cache`` folder and a ``/proc/cpuinfo`` file, with
    the cores this process may run on; a fact not found, and the profile, take their ``DEFAULTS``."""
    found = _caches(cache_folder) | _vector_bytes(cpuinfo) | _core_count()
    missing = [key.field for key in KEYS if key.group == FACT and key.field not in found]
    origin = f"detected from {cache_folder} and {cpuinfo}"
    if missing:
        origin += f"; defaults for {', '.join(missing)}"
    return Machine(**(DEFAULTS | found), origin=origin)


@functools.cache
def detect() -> Machine:
    """The machine polyopt runs on (computed once per process)."""
    return detect_from(SYS_CACHE, PROC_CPUINFO)


def _setting(name: str, value: str, location: Location) -> tuple[str, int | float]:
    key = _BY_NAME.get(name)
    if key is None:
        raise PolyoptError(f"unknown key '{name}' in the target file (keys: {', '.join(_BY_NAME)})", location)
    try:
        return key.field, _PARSERS[key.kind](value)
    except PolyoptError as error:
        raise PolyoptError(f"bad value for '{name}': {error.message}", location) from None


def target_settings(path: Path | str) -> dict[str, int | float]:
    """The settings of a target file (see the module docstring), by ``Machine`` field."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise PolyoptError(f"cannot read target file '{path}': {reason}") from None
    values: dict[str, int | float] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        location = Location(str(path), number)
        key, equals, value = (part.strip() for part in content.partition("="))
        if not equals or not key or not value:
            raise PolyoptError(f"expected 'key = value' in the target file, not '{content}'", location)
        name, setting = _setting(key, value, location)
        if name in values:
            raise PolyoptError(f"'{key}' is set twice in the target file", location)
        values[name] = setting
    return values


def load_target(path: Path | str) -> Machine:
    """The machine of a target file (see the module docstring); facts it leaves out are detected,
    profile keys take their defaults."""
    return dataclasses.replace(detect(), **target_settings(path), origin=f"target file {path}")


def with_overrides(machine: Machine, **values: int | None) -> Machine:
    """``machine`` with the settings given (None: not given) replaced; the origin names their flags."""
    given = {name: value for name, value in values.items() if value is not None}
    if not given:
        return machine
    flags = ", ".join(_BY_FIELD[name].flag or _BY_FIELD[name].name for name in given)
    return dataclasses.replace(machine, **given, origin=f"{machine.origin} + overrides {flags}")


_HEADINGS = {
    FACT: "# facts of the machine (detected when left out)",
    PROFILE: "# profile: numbers fitted by measurement (their defaults when left out)",
}


def target_text(machine: Machine) -> str:
    """``machine`` as a target file that ``load_target`` reads back to the same numbers: its facts,
    then its profile, each key with its meaning as a comment."""
    lines = [f"# polyopt target: {machine.origin}"]
    for group, heading in _HEADINGS.items():
        lines.append(heading)
        for key in KEYS:
            if key.group == group:
                setting = f"{key.name} = {_written(key, getattr(machine, key.field))}"
                lines.append(f"{setting:<32} # {key.meaning}")
    return "\n".join(lines) + "\n"


def keys_markdown() -> str:
    """doc/usage.md's table of the target file's keys: each key, its default (facts: detected) and meaning."""
    rows = [
        f"| `{key.name}` | {'detected' if key.group == FACT else f'`{_written(key, key.default)}`'} | {key.meaning} |"
        for key in KEYS
    ]
    return "\n".join(["| key | default | meaning |", "|---|---|---|", *rows]) + "\n"
