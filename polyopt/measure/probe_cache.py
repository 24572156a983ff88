"""The probe's cache: its measurements per machine and library, one JSON file per key.

Public: ``CacheKey``, ``ProbeKey``, ``cache_folder``, ``library_file``, ``cpu_identity``, ``probe_key``,
``cache_path``, ``load``, ``write_json``, ``store``, ``computed_once``, ``probed``.  ``CacheKey``, ``cpu_identity``,
``write_json`` and ``computed_once`` also serve ``polyopt tune``'s cache (``polyopt.program.tune``) and the
measured limits' (``polyopt.measure.limits``).

The measurements are cached per user in ``$XDG_CACHE_HOME/polyopt`` (``~/.cache/polyopt`` by default), one
JSON file per key: the CPU (model, flags), the cores, the library file that ``gcc -lopenblas`` links
(resolved path, size, modification time), ``OPENBLAS_CORETYPE`` and polyopt's version and cache
format.  A new library or CPU is a new key, so a new probe.  The file is written to a temporary
file and renamed over the cache file (atomic); a lock file (``fcntl.flock``) makes concurrent runs
(``make -j``) wait for the one that probes and then read its result, so the programs are timed one
probe at a time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import fcntl
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from polyopt import __version__
from polyopt.library.choice import TIMED, Measurements, Timing
from polyopt.machine import PROC_CPUINFO
from polyopt.toolchain import CBLAS_LIBRARY, CC

CACHE_VERSION = 8
T = TypeVar("T")


class CacheKey:
    """A cache key (a frozen dataclass deriving from this class) and its digest, the name of its cache file."""

    def digest(self) -> str:
        """A short hash of the key's fields."""
        text = json.dumps(dataclasses.asdict(self), sort_keys=True)  # type: ignore[call-overload]
        return hashlib.sha256(text.encode()).hexdigest()[:16]


@dataclass(frozen=True)
class ProbeKey(CacheKey):
    """What the measurements depend on: the CPU (model, a hash of its flags), the cores, the library
    file (resolved path, bytes, modification time in ns), ``OPENBLAS_CORETYPE`` and polyopt's version."""

    cpu: str
    flags: str
    cores: int
    library: str
    library_bytes: int
    library_mtime: int
    coretype: str
    polyopt: str = __version__
    version: int = CACHE_VERSION


def cache_folder(environ: Mapping[str, str] = os.environ) -> Path:
    """``$XDG_CACHE_HOME/polyopt``, or ``~/.cache/polyopt`` when the variable is unset or not absolute."""
    base = environ.get("XDG_CACHE_HOME", "")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "polyopt"


def cache_path(key: ProbeKey, folder: Path) -> Path:
    return folder / f"probe-{key.digest()}.json"


def library_file() -> Path | None:
    """The library file that ``gcc ... -lopenblas`` links (symbolic links resolved), None when gcc finds none."""
    name = f"lib{CBLAS_LIBRARY.removeprefix('-l')}.so"
    try:
        found = subprocess.run([CC, f"-print-file-name={name}"], capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    path = Path(found.stdout.strip())
    return path.resolve() if found.returncode == 0 and path.is_absolute() and path.exists() else None


def cpuinfo_field(text: str, name: str) -> str:
    """The value of the first ``name : value`` line of ``/proc/cpuinfo``'s ``text`` (``model name``), or ''."""
    match = re.search(rf"^{name}\s*:(.*)$", text, re.MULTILINE)
    return match.group(1).strip() if match else ""


def cpu_identity(cpuinfo: Path = PROC_CPUINFO) -> tuple[str, str]:
    """This CPU's ``model name`` and a short hash of its ``flags`` (``cpuinfo``; empty when unreadable)."""
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        text = ""
    return cpuinfo_field(text, "model name"), hashlib.sha256(cpuinfo_field(text, "flags").encode()).hexdigest()[:16]


def probe_key(
    library: Path, cores: int, cpuinfo: Path = PROC_CPUINFO, environ: Mapping[str, str] = os.environ
) -> ProbeKey:
    """The key of the measurements with ``library`` on this CPU (``cpuinfo``) with ``cores``."""
    model, flags = cpu_identity(cpuinfo)
    stat = library.stat()
    coretype = environ.get("OPENBLAS_CORETYPE", "")
    return ProbeKey(model, flags, cores, str(library), stat.st_size, stat.st_mtime_ns, coretype)


def _timings(items: list[dict[str, float]]) -> tuple[Timing, ...]:
    return tuple(Timing(int(item["size"]), item["loops"], item["call"], item.get("microkernel")) for item in items)


def load(path: Path, key: ProbeKey) -> Measurements | None:
    """The measurements cached in ``path`` for ``key``; None when there are none, or they are of another
    key or unreadable."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("key") != dataclasses.asdict(key):
            return None
        timings = {name: _timings(data[name]) for name in TIMED}
        return Measurements(**timings, corename=data["corename"], config=data["config"], load=float(data["load"]))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


def store(path: Path, key: ProbeKey, measurements: Measurements, seconds: float) -> None:
    """Write the measurements of ``key`` to ``path`` atomically (``write_json``)."""
    write_json(path, {"key": dataclasses.asdict(key), "seconds": round(seconds, 3), **dataclasses.asdict(measurements)})


def write_json(path: Path, data: object) -> None:
    """Write ``data`` as JSON to ``path`` atomically: into a temporary file in its folder, then renamed over it."""
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            json.dump(data, stream, indent=1)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive ``flock`` on ``path`` (created when missing) until the block ends."""
    with open(path, "a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


def computed_once(
    path: Path, load: Callable[[], T | None], compute: Callable[[], T], store: Callable[[T, float], None]
) -> tuple[T, str]:
    """What ``load`` reads from the cache file ``path``, else what ``compute`` gives, then written there by
    ``store`` (with the seconds it took); one computation at a time: other runs wait on a lock file beside
    ``path``, then ``load`` its result.  Also says what happened."""
    found = load()
    if found is not None:
        return found, f"read from the cache {path}"
    path.parent.mkdir(parents=True, exist_ok=True)
    with _locked(path.with_suffix(".lock")):
        found = load()
        if found is not None:
            return found, f"read from the cache {path}, written by a concurrent run"
        start = time.monotonic()
        value = compute()
        seconds = time.monotonic() - start
        store(value, seconds)
    return value, f"ran in {seconds:.1f} s, cached in {path}"


def probed(key: ProbeKey, folder: Path, run: Callable[[], Measurements]) -> tuple[Measurements, str]:
    """The measurements of ``key``: read from the cache in ``folder``, else measured by ``run`` and stored
    there (one probe at a time: others wait on the lock, then read its result); and what happened."""
    path = cache_path(key, folder)
    return computed_once(
        path, lambda: load(path, key), run, lambda measurements, seconds: store(path, key, measurements, seconds)
    )
