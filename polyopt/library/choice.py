"""Which of the CBLAS call, the GEMM microkernel and the loops computes each BLAS idiom, by size.

Public: ``Timing``, ``Measurements``, ``SHARED``, ``AWAITING_PROBE``, ``ProbeNeeded``,
``KINDS``, ``TIMED``, ``TIE``, ``beats``, ``crossover``, ``microkernel_wins``, ``default_choice``, ``measured_choice``.

The choice is a ``polyopt.options.LibraryChoice``.  The numbers come from the probe (``polyopt.measure.probe``):
region times of a matrix-matrix product (GEMM) with polyopt's loops, its microkernel and the library call, and of
a matrix-vector product (GEMV) with the loops and the call, and of two matrix-vector products over one matrix
(``y = A x`` and ``z = Aᵀ w``, which the loops fuse into one pass over the matrix and the calls read twice), at a
few sizes n.  From them:

- the microkernel computes GEMMs, and SYMMs and TRMMs as GEMMs on blocks, when it beats the loops at the
  largest measured GEMM size;
- a GEMM is called from the crossover against what runs otherwise (the microkernel, or the
  loops without it), never when the call loses at the largest measured size;
- a batched GEMM (the microkernel does not compute it) from the crossover of its own case (n products of
  n×n matrices by one n×n matrix, n times: its loops are not a square GEMM's) against the loops;
- GEMV and GER from the GEMV crossover against the loops, or, when another statement of the region
  accesses their matrix (``shared``), from the crossover of the two products over one matrix;
- SYRK and SYR2K from the SYRK crossover against what runs otherwise (the microkernel on the triangle
  when the machine's ``rank-k-microkernel`` lets it run, else the loops), measured on ``C += A Aᵀ``
  (``C += Aᵀ A`` runs as fast on the microkernel: bench/RESULTS.md, 'Rank-k updates on the microkernel');
- SYMM and TRMM from their own crossovers against what runs otherwise (the microkernel when it computes
  GEMMs, else the loops): the library's routines for them need not be as fast as its GEMM (on this
  project's VM, at PolyBench's LARGE sizes, the library's GEMM took 1.13x the microkernel's time, its SYMM
  1.21x and its TRMM 1.42x: bench/RESULTS.md, 'SYMM and TRMM on the microkernel').

The crossover is the smallest measured n from which the call is faster at every larger measured
n, by more than ``TIE`` (a near tie keeps polyopt's own code: the choice does not flip from one probe
to the next, and no library thread shares the cores); the threshold is its work (n³ or n²), checked at
run time.  The microkernel, too, replaces the loops only when faster by more than ``TIE``.  A threshold
that a target file or a flag sets for a BLAS level (``given``) wins over the measurements of that level.  Without
measurements every idiom is called from the machine's threshold of its level and the microkernel
runs where no call is made (``default_choice``).
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.library import BatchedGemm, Gemm, Gemv, Ger, Idiom, Symm, Syr2k, Syrk, Trmm
from polyopt.library.protocol import BLOCKS, SHARED, TRIANGLE
from polyopt.machine import Machine
from polyopt.options import Call, LibraryChoice

KINDS: tuple[type[Idiom], ...] = (Gemm, BatchedGemm, Gemv, Ger, Syrk, Syr2k, Trmm, Symm)
_FIELDS = {3: "blas3_threshold", 2: "blas2_threshold"}  # the machine's threshold of each BLAS level
# a variant replaces the simpler code (the call the loops or the microkernel, the microkernel the loops) only when
# faster by more than this share: nearer, the two are level within the probe's noise, and the choice would flip
TIE = 0.05


@dataclass(frozen=True)
class Timing:
    """Median region seconds at size ``n``: polyopt's loops, the library call, and the microkernel
    (None where it was not measured)."""

    size: int
    loops: float
    call: float
    microkernel: float | None = None


@dataclass(frozen=True)
class Measurements:
    """What the probe measured: GEMM (n×n×n), GEMV (n×n), shared-matrix (two n×n GEMVs over one matrix)
    and SYRK (``C += A Aᵀ`` on the lower triangle), SYMM and TRMM (n×n×n, ``polyopt.measure.probe``) timings, the
    library as it reports itself (``openblas_get_corename()``, ``openblas_get_config()``; empty when
    unknown), and the machine's load average over the last minute when the probe started (a busy machine
    skews them)."""

    gemm: tuple[Timing, ...]
    gemv: tuple[Timing, ...]
    corename: str = ""
    config: str = ""
    load: float = 0.0
    shared: tuple[Timing, ...] = ()
    syrk: tuple[Timing, ...] = ()
    symm: tuple[Timing, ...] = ()
    trmm: tuple[Timing, ...] = ()
    batched: tuple[Timing, ...] = ()


# the fields of ``Measurements`` that hold timings
TIMED = ("gemm", "gemv", "shared", "syrk", "symm", "trmm", "batched")


# the choice of a run whose probe has not run yet: the first region with an idiom raises ``ProbeNeeded``
AWAITING_PROBE = LibraryChoice((), True, "awaiting the probe")


class ProbeNeeded(Exception):
    """A region needs the library choice, which waits for the probe (run by the caller, outside the region)."""


def beats(seconds: float, other: float) -> bool:
    """Whether a time of ``seconds`` beats ``other`` by more than ``TIE`` of it."""
    return seconds < other * (1 - TIE)


def crossover(timings: tuple[Timing, ...], microkernel: bool = False) -> int | None:
    """The smallest size from which the call beats the alternative (the microkernel when
    ``microkernel``, else the loops) at every larger measured size; None when it does not at the largest."""
    found: int | None = None
    for timing in sorted(timings, key=lambda t: t.size, reverse=True):
        if not beats(timing.call, _alternative(timing, microkernel)):
            break
        found = timing.size
    return found


def microkernel_wins(timings: tuple[Timing, ...]) -> bool:
    """Whether the microkernel beat the loops at the largest measured GEMM size."""
    largest = max(timings, key=lambda t: t.size)
    return largest.microkernel is not None and beats(largest.microkernel, largest.loops)


def _machine_call(kind: str, level: int, machine: Machine) -> Call:
    field = _FIELDS[level]
    return Call(kind, getattr(machine, field), f"{field.replace('_', '-')} of the machine")


_LEVELS = {**{kind.__name__: kind.LEVEL for kind in KINDS}, SHARED: 2}


def _machine_calls(machine: Machine) -> tuple[Call, ...]:
    """Every idiom kind, and level-2 idioms on a shared matrix, called from the machine's threshold of its level."""
    return tuple(_machine_call(kind, level, machine) for kind, level in _LEVELS.items())


def default_choice(machine: Machine) -> LibraryChoice:
    """Every idiom called from the machine's threshold of its level; the microkernel where no call is made."""
    return LibraryChoice(_machine_calls(machine), True, f"machine ({machine.origin})")


def _alternative(timing: Timing, microkernel: bool) -> float:
    """The time of what runs instead of the call: the microkernel when ``microkernel`` and measured, else the loops."""
    return timing.microkernel if microkernel and timing.microkernel is not None else timing.loops


def _ratio(seconds: float, other: float) -> str:
    """How close a call was: ``seconds`` as a multiple of ``other``."""
    return f"{seconds / other:.2f}x" if other > 0 else "an unmeasured multiple of"


def _measured_call(kind: str, timings: tuple[Timing, ...], power: int, microkernel: bool, name: str) -> Call:
    """The call of ``kind`` from its crossover, the reason saying how close the call was: the call's time as a
    multiple of the alternative's at the largest size (never called) or at the crossover."""
    size = crossover(timings, microkernel)
    against = "the microkernel" if microkernel else "the loops"
    at = {t.size: t for t in timings}[size if size is not None else max(t.size for t in timings)]
    close = f"taking {_ratio(at.call, _alternative(at, microkernel))} its time there"
    if size is None:
        return Call(kind, None, f"{name} call slower than {against} up to n = {at.size}, {close}")
    return Call(kind, size**power, f"{name} call faster than {against} from n = {size}, {close}")


def measured_choice(
    measurements: Measurements, machine: Machine, given: frozenset[int], microkernel: bool, origin: str
) -> LibraryChoice:
    """The choice from ``measurements`` (see the module docstring): ``given`` are the BLAS levels whose
    threshold a target file or a flag sets; ``microkernel``: whether the microkernel may run at all."""
    kernel = microkernel and microkernel_wins(measurements.gemm)
    # what runs where no call is made, by the kind's MICROKERNEL: True when it is the microkernel
    against = {BLOCKS: kernel, TRIANGLE: microkernel and machine.rank_k_microkernel > 0, None: False}
    measured = {
        kind.__name__: _measured_call(kind.__name__, timings, kind.LEVEL, against[kind.MICROKERNEL], kind.PROBE.upper())
        for kind in KINDS
        if (timings := getattr(measurements, kind.PROBE))
    }
    if measurements.shared:
        measured[SHARED] = _measured_call(SHARED, measurements.shared, 2, False, "shared-matrix GEMV")
    calls = tuple(
        measured[call.kind] if call.kind in measured and _LEVELS[call.kind] not in given else call
        for call in _machine_calls(machine)
    )
    largest = max(measurements.gemm, key=lambda t: t.size)
    closeness = (
        f"it takes {_ratio(largest.microkernel, largest.loops)} the loops' time at n = {largest.size}"
        if largest.microkernel is not None
        else ""
    )
    return LibraryChoice(calls, kernel, origin, closeness)
