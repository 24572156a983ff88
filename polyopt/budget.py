"""The time budget of a region (``--timeout``): attempts that are killed when their time is up.

Public: ``OutOfTime``, ``Crashed``, ``Attempt``, ``attempts``, ``run_limited``.

isl bounds some of its work with an operation counter (``isl_ctx_set_max_operations``,
which the scheduler already uses), but the counter is not checked everywhere: one fuzz
program kept ``compute_schedule`` busy for minutes under a limit of two million
operations, and a signal cannot interrupt a C call.  So each attempt at a region runs in
a forked child process (the region's plain-data outcome comes back pickled through a
pipe) and the child is killed when the attempt takes longer than the budget.  Where
``os.fork`` does not exist the attempt runs in this process, without a limit.

``attempts(options)`` lists what to try, each with the full budget: the options as
given, then (unless they are already that simple) no fusion search and fixed default
tiles, then the original schedule.
"""

from __future__ import annotations

import os
import pickle
import select
import signal
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar

from polyopt.options import Options
from polyopt.transform.tiling import FALLBACK_SIZE

T = TypeVar("T")
KEPT_AS_WRITTEN = "kept as written"  # the last resort of a region whose attempts all ran out of time or crashed


class OutOfTime(Exception):
    """An attempt took longer than its budget and was stopped."""


class Crashed(Exception):
    """The process of an attempt died without a result (a signal, such as a segfault in isl)."""


@dataclass(frozen=True)
class Attempt:
    """Options to try a region with; ``fallback`` says how they simplify the requested ones ("" for those)."""

    options: Options
    fallback: str


def attempts(options: Options) -> tuple[Attempt, ...]:
    """The requested options, then simpler ones for a region that runs out of time (after them, the region
    is kept as written: its own text)."""
    found = [Attempt(options, "")]
    if options.identity:
        return tuple(found)
    fixed = replace(options.tiling, sizes=(), default_size=FALLBACK_SIZE, second_level=False)
    simple = replace(options, fusion="none", tiling=fixed)
    if simple != options:
        found.append(Attempt(simple, "optimized without fusion search, with fixed tiles"))
    return tuple(found)


def run_limited(function: Callable[[], T], seconds: float) -> T:
    """``function()``, computed in a forked child process and returned pickled.

    Raises ``OutOfTime`` (after killing the child) when it takes longer than ``seconds``
    and ``Crashed`` when the child dies without a result; an exception raised by
    ``function`` is raised again here (as a ``RuntimeError`` with the same text when it
    cannot be pickled).
    """
    if not hasattr(os, "fork"):
        return function()
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: compute, send, and leave without running any cleanup of the parent's
        status = 0
        try:
            os.close(read_end)
            try:
                payload = pickle.dumps((True, function()))
            except BaseException as error:  # noqa: B036 -- everything goes back to the parent
                payload = _pickled_error(error)
            with os.fdopen(write_end, "wb") as stream:
                stream.write(payload)
        except BaseException:  # noqa: B036
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        data = _read_until(read_end, time.monotonic() + seconds)
    finally:
        os.close(read_end)
        status = _reap(pid)
    if not data:
        raise Crashed(_death(status))
    ok, value = pickle.loads(data)
    if not ok:
        raise value
    return value


def _pickled_error(error: BaseException) -> bytes:
    try:
        return pickle.dumps((False, error))
    except Exception:
        return pickle.dumps((False, RuntimeError(f"{type(error).__name__}: {error}")))


def _read_until(fd: int, deadline: float) -> bytes:
    """Everything written to ``fd`` until its end; ``OutOfTime`` if that takes past ``deadline``."""
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise OutOfTime
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            raise OutOfTime
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)


def _reap(pid: int) -> int:
    """Kill the child if it still runs, wait for it, and return its wait status."""
    try:
        os.kill(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    return os.waitpid(pid, 0)[1]


def _death(status: int) -> str:
    """How a child that sent no result ended, from its wait status."""
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        return f"the process optimizing the region was killed by signal {number}, {signal.strsignal(number)}"
    return f"the process optimizing the region exited with status {os.waitstatus_to_exitcode(status)} without a result"
