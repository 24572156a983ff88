"""The machine that the optimized code will run on: cache sizes, cores and vector width.

The cost models (tile sizes, fusion) read these numbers from ``Options.machine``.
They are detected on the machine polyopt runs on, read from a target file
(``--target FILE``), or set one by one on the command line (``--l1`` ...).

A target file has one ``key = value`` per line; ``#`` starts a comment::

    # a 2-core AVX-512 server
    l1 = 32K          # bytes of L1 data cache of one core
    l2 = 1M           # bytes of L2 as seen by one core
    l3 = 32M          # bytes of L3 (0: none)
    line = 64         # cache line bytes
    cores = 2
    simd-bytes = 64   # vector register width: 16 SSE, 32 AVX2, 64 AVX-512
    vector-registers = 32        # vector registers: 16 SSE/AVX2, 32 AVX-512
    blas3-threshold = 7077888    # M·N·K from which GEMM-like calls pay (python -m polyopt.calibrate)
    blas2-threshold = 1048576    # M·N from which GEMV and GER calls pay
    parallel-work = 16777216     # statement instances from which a parallel loop starts threads

Sizes are plain bytes or take a binary suffix K, M or G (``48K`` is 49152 bytes).
A key that the file leaves out takes the detected value.  ``python -m polyopt.machine``
prints the detected machine in this format.

Public: ``Machine``, ``SETTINGS``, ``DEFAULTS``, ``parse_size``, ``detect``, ``detect_from``,
``target_settings``, ``load_target``, ``with_overrides``, ``target_text``, ``main``.
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

SYS_CACHE = Path("/sys/devices/system/cpu/cpu0/cache")
PROC_CPUINFO = Path("/proc/cpuinfo")

# Work from which CBLAS calls are made, as `python -m polyopt.calibrate --runs 3` measured it on the
# 2-core project VM on 2026-11-23 (gcc 12 -O3 -march=native -fopenmp, OpenBLAS 0.3.21 pthreads,
# 2 threads, polyopt's own loops against the call, one call per fresh process, median of 3):
# C += A*B, n^3:  n=128: loops 0.44 ms, call 0.50 ms; n=192: 0.90 / 0.83; n=256: 9.47 / 2.66;
#                 n=384: 7.93 / 4.31; n=512: 19.3 / 9.08  -> 192^3 (the seed thesis says 256^3)
# y += A*x, n^2:  n=512: 0.069 / 0.115 ms; n=1024: 0.47 / 0.36; n=2048: 2.57 / 1.40;
#                 n=4096: 6.03 / 4.84; n=6144: 12.8 / 10.7  -> 1024^2
# At 1024^2 the calls also won on PolyBench's LARGE atax, bicg, mvt, gemver and gesummv (2.34x -> 2.69x,
# 5.78x -> 5.76x, 4.16x -> 4.98x, 2.27x -> 2.46x, 2.71x -> 5.94x over the original, median of 5), where an
# earlier hand measurement against other loops had put the level-2 crossover near 3000^2.
BLAS_THRESHOLD = 192**3
BLAS2_THRESHOLD = 1024**2
# Statement instances from which a parallel region starts threads (an ``if`` clause evaluated at
# run time): about 10 ms of work on one core; on the 2-core project VM the first parallel region
# of a process costs 5 to 10 ms, and as much again when an idle core has to wake up.
PARALLEL_WORK = 1 << 24
SETTINGS = (
    "l1",
    "l2",
    "l3",
    "line",
    "cores",
    "simd_bytes",
    "vector_registers",
    "blas3_threshold",
    "blas2_threshold",
    "parallel_work",
)
# the fields a target file or a flag may set
_FLAGS = {"blas3_threshold": "--blas-threshold"}  # flags not named after their field
_DETECTED = SETTINGS[:7]  # read off the machine; the thresholds are measured (polyopt.calibrate)
_KEYS = {name.replace("_", "-"): name for name in SETTINGS}  # target file key -> field
# plain integers, not sizes
_COUNTS = ("cores", "simd_bytes", "vector_registers", "blas3_threshold", "blas2_threshold", "parallel_work")
DEFAULTS = {
    "l1": 32 << 10,
    "l2": 1 << 20,
    "l3": 8 << 20,
    "line": 64,
    "cores": 1,
    "simd_bytes": 16,
    "vector_registers": 16,
    "blas3_threshold": BLAS_THRESHOLD,
    "blas2_threshold": BLAS2_THRESHOLD,
    "parallel_work": PARALLEL_WORK,
}

_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
_SIZE = re.compile(r"(\d+)\s*(?:([KMG])(?:iB|B)?|B)?", re.IGNORECASE)
_VECTOR_FLAGS = (("avx512f", 64), ("avx2", 32), ("avx", 32))
_REGISTER_FLAGS = (("avx512f", 32),)  # x86-64 has 16 vector registers, 32 with AVX-512


@dataclass(frozen=True)
class Machine:
    """What the cost models know about the target machine (sizes in bytes)."""

    l1: int  # L1 data cache of one core
    l2: int  # L2 cache as seen by one core
    l3: int  # L3 cache (0 if none)
    line: int  # cache line
    cores: int  # cores the program may run on
    simd_bytes: int  # vector register width: 16 SSE, 32 AVX2, 64 AVX-512
    origin: str  # where the numbers came from
    blas3_threshold: int = BLAS_THRESHOLD  # work (M·N·K) from which matrix-matrix routines pay
    blas2_threshold: int = BLAS2_THRESHOLD  # work (M·N) from which matrix-vector routines pay
    parallel_work: int = PARALLEL_WORK  # statement instances from which a parallel region pays
    vector_registers: int = 16  # vector registers the compiler may allocate: 16 SSE/AVX2, 32 AVX-512

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


def _parser(name: str) -> Callable[[str], int]:
    return _parse_count if name in _COUNTS else parse_size


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
    the cores this process may run on; anything not found takes its value in ``DEFAULTS``."""
    found = _caches(cache_folder) | _vector_bytes(cpuinfo) | _core_count()
    missing = [name for name in _DETECTED if name not in found]
    origin = f"detected from {cache_folder} and {cpuinfo}"
    if missing:
        origin += f"; defaults for {', '.join(missing)}"
    return Machine(**(DEFAULTS | found), origin=origin)


@functools.cache
def detect() -> Machine:
    """The machine polyopt runs on (computed once per process)."""
    return detect_from(SYS_CACHE, PROC_CPUINFO)


def _setting(key: str, value: str, location: Location) -> tuple[str, int]:
    name = _KEYS.get(key)
    if name is None:
        raise PolyoptError(f"unknown key '{key}' in the target file (keys: {', '.join(_KEYS)})", location)
    try:
        return name, _parser(name)(value)
    except PolyoptError as error:
        raise PolyoptError(f"bad value for '{key}': {error.message}", location) from None


def target_settings(path: Path | str) -> dict[str, int]:
    """The settings of a target file (see the module docstring), by ``Machine`` field."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise PolyoptError(f"cannot read target file '{path}': {reason}") from None
    values: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        content = line.split("#", 1)[0].strip()
        if not content:
            continue
        location = Location(str(path), number)
        key, equals, value = (part.strip() for part in content.partition("="))
        if not equals or not key or not value:
            raise PolyoptError(f"expected 'key = value' in the target file, not '{content}'", location)
        name, size = _setting(key, value, location)
        if name in values:
            raise PolyoptError(f"'{key}' is set twice in the target file", location)
        values[name] = size
    return values


def load_target(path: Path | str) -> Machine:
    """The machine of a target file (see the module docstring); keys it leaves out are detected."""
    return dataclasses.replace(detect(), **target_settings(path), origin=f"target file {path}")


def with_overrides(machine: Machine, **values: int | None) -> Machine:
    """``machine`` with the settings given (None: not given) replaced; the origin names their flags."""
    given = {name: value for name, value in values.items() if value is not None}
    if not given:
        return machine
    flags = ", ".join(_FLAGS.get(name, "--" + name.replace("_", "-")) for name in given)
    return dataclasses.replace(machine, **given, origin=f"{machine.origin} + overrides {flags}")


def target_text(machine: Machine) -> str:
    """``machine`` as a target file that ``load_target`` reads back to the same numbers."""
    lines = [f"# polyopt target: {machine.origin}"]
    for key, name in _KEYS.items():
        value = getattr(machine, name)
        text = str(value) if name in _COUNTS else "".join(map(str, _in_units(value)))
        lines.append(f"{key} = {text}")
    return "\n".join(lines) + "\n"


def main() -> None:
    """``python -m polyopt.machine``: print the detected machine as a target file."""
    print(target_text(detect()), end="")


if __name__ == "__main__":
    main()
