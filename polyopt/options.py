"""Options of a polyopt run, one frozen dataclass per stage, nested in ``Options``, and the names they may take.

Public: ``Options``, ``TilingOptions``, ``SchedulerOptions``, ``LibraryChoice``, ``Call``, ``DEFAULT_TIMEOUT``,
``NO_PROBE_VARIABLE``, ``BLAS_CHOICES``, ``FUSION_POLICIES``, ``DEFAULT_FUSION``, ``FUSION_CANDIDATE_NAMES``,
``TILE_RULE_NAMES``, ``parse_tile_sizes``, ``parse_tile_rules``, ``parse_fusion_candidates``, ``parse_param``.
The flags that set each field are in ``polyopt.cli.flags``.  Every stage reads its options from here, and this
module imports no stage: the names of the tile-size model's rules and of the fusion candidates are listed here,
in the order their stages apply them (``polyopt.analysis.tile_rules.RULES``,
``polyopt.transform.fusion_candidates.CANDIDATES``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from polyopt.diagnostics import PolyoptError
from polyopt.machine import KEYS, Machine, detect

DEFAULT_TIMEOUT = 10.0  # seconds per attempt at a region
NO_PROBE_VARIABLE = "POLYOPT_NO_PROBE"  # set (not to 0): no probe runs, as with --no-probe
BLAS_CHOICES = ("auto", "cblas", "none")
FUSION_POLICIES = ("model", "smart", "max", "none")
DEFAULT_FUSION = "model"
# the candidate schedules of a fusion group, in the order they are tried (``polyopt.transform.fusion_candidates``)
FUSION_CANDIDATE_NAMES = ("row-fused", "resident", "plane-tiled", "stepwise", "stepwise-vector", "stepwise-cost", "isl")
# the rules of the tile-size model, in the order they apply (``polyopt.analysis.tile_rules``)
TILE_RULE_NAMES = (
    "resident",
    "no-reuse",
    "streamed-rows",
    "scalar-inner",
    "min-tile",
    "whole-lines",
    "within-extent",
    "scalar-square",
    "triangle-cap",
    "per-core",
    "even-out",
    "reduction-whole-row",
)


@dataclass(frozen=True)
class TilingOptions:
    """``enabled`` is cleared by ``--notile``; ``sizes`` come from ``--tile-sizes``;
    ``default_size`` (``--fixed-tile-size``) replaces the tile-size model when set;
    ``disabled_rules``: the tile-size model's rules switched off (``--tile-rule``)."""

    enabled: bool = True
    sizes: tuple[int, ...] = ()
    default_size: int | None = None
    second_level: bool = False
    l2_factor: int = 8
    disabled_rules: frozenset[str] = frozenset()


@dataclass(frozen=True)
class SchedulerOptions:
    """``max_operations`` bounds isl's work; ``outer_parallel`` asks isl for outer parallel loops
    first (no time skewing)."""

    max_operations: int = 2_000_000
    outer_parallel: bool = False


@dataclass(frozen=True)
class Call:
    """When the CBLAS call of one idiom kind (``kind``: the class name) is made: from work ``threshold``,
    never when it is None; ``reason`` says where the threshold came from."""

    kind: str
    threshold: int | None
    reason: str


@dataclass(frozen=True)
class LibraryChoice:
    """The calls of every idiom kind, whether the microkernel computes GEMMs (and SYMMs and TRMMs) where no
    call is made, and where the choice came from (``polyopt.library.choice``); ``closeness`` says how close the
    microkernel's choice was (empty when not measured)."""

    calls: tuple[Call, ...]
    microkernel: bool
    origin: str
    closeness: str = ""

    def threshold(self, kind: str) -> int | None:
        """The work from which an idiom of threshold key ``kind`` (``Idiom.threshold_key``) is called (None: never)."""
        return next(call.threshold for call in self.calls if call.kind == kind)

    def describe(self) -> tuple[str, ...]:
        """``--report`` lines: what computes the GEMMs that are not called, then one line per idiom kind."""
        code = "the microkernel" if self.microkernel else "the loops"
        lines = [f"GEMMs, SYMMs, TRMMs not called: {code}" + (f" ({self.closeness})" if self.closeness else "")]
        for call in self.calls:
            when = "never called" if call.threshold is None else f"called from work {call.threshold}"
            lines.append(f"{call.kind}: {when} ({call.reason})")
        return tuple(lines)


@dataclass(frozen=True)
class Options:
    """All options of a run; ``polyopt.cli.flags.FLAGS`` names the flags that set each field, with their help.

    ``identity``: regenerate each region in its original order with no transformation;
    ``as_written``: weigh each region's original order (with the marks that pay) against its transformed
    schedule and keep it unless that is predicted clearly faster (``polyopt.analysis.as_written``);
    ``fusion``: the fusion policy (``polyopt.transform.fusion``); ``disabled_fusion_candidates``: the
    candidate schedules of fusion groups switched off (``polyopt.transform.fusion_candidates``);
    ``parallel``: mark OpenMP parallel loops;
    ``reassociate``: run reductions in a new order or in parallel, which rounds floating-point sums
    differently; ``expand``: expand scalars that serialize loops and keep scalars in the elements they
    are stored to; ``assume_dead``: arrays not used after any region, which may be contracted;
    ``blas``: library calls for BLAS idioms (``auto``, ``cblas``, ``none``), made when the work reaches
    the machine's ``blas3_threshold`` (matrix-matrix routines: M·N·K) or ``blas2_threshold``
    (matrix-vector routines: M·N); ``microkernel``: compute GEMM idioms with polyopt's microkernel
    (``polyopt.library.microkernel_plan``) where no BLAS call is made; ``tiling``: tiling and tile sizes;
    ``scheduler``: isl's limits; ``timeout``: seconds each attempt at a region may take before it is
    stopped and the region retried with simpler options (``polyopt.budget``); ``machine``: the target's
    facts and profile for the cost models (``polyopt.machine``); ``library``: which of the CBLAS call,
    the microkernel and the loops computes each idiom, by size (``polyopt.library.choice``;
    the probe's, ``polyopt.measure.probe``), None: the machine's thresholds; ``params``: hints for the values of
    region parameters, ``(name, value)`` pairs in flag order (``polyopt.frontend.params``);
    ``cpp_flags``: the preprocessor flags with which the file is compiled, each in its joined form
    (``-Idir``, ``-DN=100``, ``-UX``) in command-line order, used wherever polyopt runs the
    preprocessor (parameter values).  Neither of the last two changes the code by itself, so both go
    with ``identity``.
    """

    identity: bool = False
    as_written: bool = True
    fusion: str = DEFAULT_FUSION
    disabled_fusion_candidates: frozenset[str] = frozenset()
    parallel: bool = True
    reassociate: bool = True
    expand: bool = True
    assume_dead: frozenset[str] = frozenset()
    blas: str = "auto"
    microkernel: bool = True
    tiling: TilingOptions = field(default_factory=TilingOptions)
    scheduler: SchedulerOptions = field(default_factory=SchedulerOptions)
    timeout: float = DEFAULT_TIMEOUT
    machine: Machine = field(default_factory=detect)
    library: LibraryChoice | None = None
    params: tuple[tuple[str, int], ...] = ()
    cpp_flags: tuple[str, ...] = ()

    def validate(self) -> Options:
        """Reject conflicting or invalid options instead of silently rewriting them."""
        if self.fusion not in FUSION_POLICIES:
            raise PolyoptError(f"unknown fusion policy '{self.fusion}' (choose {', '.join(FUSION_POLICIES)})")
        if unknown := sorted(self.disabled_fusion_candidates - set(FUSION_CANDIDATE_NAMES)):
            raise PolyoptError(
                f"unknown fusion candidate '{unknown[0]}' (candidates: {', '.join(FUSION_CANDIDATE_NAMES)})"
            )
        if self.blas not in BLAS_CHOICES:
            raise PolyoptError(f"unknown --blas choice '{self.blas}' (choose {', '.join(BLAS_CHOICES)})")
        if not (0 < self.timeout < math.inf):
            raise PolyoptError(f"the timeout must be a positive number of seconds, not {self.timeout:g}")
        if any(size < 1 for size in self.tiling.sizes):
            raise PolyoptError("tile sizes must be positive integers")
        _validate_machine(self.machine)
        _validate_params(self.params)
        _validate_cpp_flags(self.cpp_flags)
        transforming = not (self.parallel and self.reassociate and self.expand and self.tiling.enabled)
        transforming = transforming or not self.microkernel
        transforming = transforming or self.blas == "cblas" or self.tiling.default_size is not None
        if self.identity and (transforming or self.tiling.sizes or self.fusion != DEFAULT_FUSION):
            raise PolyoptError(
                "'--identity' already disables every transformation; do not combine it with transformation options"
            )
        return self


_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_CPP_FLAG = re.compile(r"-I.+|-D[A-Za-z_][A-Za-z0-9_]*(=.*)?|-U[A-Za-z_][A-Za-z0-9_]*", re.S)


def _validate_machine(machine: Machine) -> None:
    for key in KEYS:
        value = getattr(machine, key.field)
        if value < key.minimum:
            requirement = "0 or positive" if key.minimum == 0 else "positive"
            raise PolyoptError(f"{key.label} must be {requirement}, not {value} (machine {machine.origin})")
    if machine.simd_bytes & (machine.simd_bytes - 1):
        raise PolyoptError(
            f"the vector width in bytes (--simd-bytes) must be a power of two, not {machine.simd_bytes} "
            f"(machine {machine.origin})"
        )


def _validate_params(params: tuple[tuple[str, int], ...]) -> None:
    seen: dict[str, int] = {}
    for name, value in params:
        if _IDENTIFIER.fullmatch(name) is None:
            raise PolyoptError(f"--param: '{name}' is not a C identifier")
        if value < 1:
            raise PolyoptError(f"--param {name}: the value must be a positive integer, not {value}")
        if seen.setdefault(name, value) != value:
            raise PolyoptError(f"--param {name} is given two values, {seen[name]} and {value}")


def _validate_cpp_flags(flags: tuple[str, ...]) -> None:
    for flag in flags:
        if _CPP_FLAG.fullmatch(flag) is None:
            kind = {"-I": "a folder", "-D": "NAME or NAME=VALUE", "-U": "a macro name"}.get(flag[:2])
            expected = f"{flag[:2]} takes {kind}" if kind else "expected -IDIR, -DNAME[=VALUE] or -UNAME"
            raise PolyoptError(f"invalid preprocessor flag '{flag}': {expected}")


def parse_param(text: str) -> tuple[str, int]:
    """``NAME=VALUE`` (``--param``) as ``(NAME, VALUE)``; ``validate`` checks the name and the value."""
    name, _, value = text.partition("=")
    try:
        return name.strip(), int(value)
    except ValueError:
        raise PolyoptError(f"expected NAME=VALUE with an integer VALUE, not '{text}'") from None


def parse_tile_sizes(text: str) -> tuple[int, ...]:
    """``32,32,256``, or the name of a file with one size per line (Pluto's ``tile.sizes``)."""
    source = text
    if not all(part.strip().isdigit() for part in text.split(",")):
        path = Path(text)
        try:
            source = path.read_text(encoding="utf-8")
        except OSError as error:
            raise PolyoptError(f"cannot read tile sizes from '{text}': {error.strerror or error}") from None
        source = ",".join(line.strip() for line in source.splitlines() if line.strip())
    try:
        sizes = tuple(int(part) for part in source.split(","))
    except ValueError:
        raise PolyoptError(f"tile sizes must be integers separated by commas, not '{text}'") from None
    if not sizes or any(size < 1 for size in sizes):
        raise PolyoptError(f"tile sizes must be positive integers, not '{text}'")
    return sizes


def parse_tile_rules(values: Sequence[str]) -> frozenset[str]:
    """The tile-size model's rules switched off by ``--tile-rule`` values: comma-separated ``-NAME``
    (off) and ``+NAME`` (on again), applied in order."""
    return _switched_off(values, "--tile-rule", "rules", TILE_RULE_NAMES)


def parse_fusion_candidates(values: Sequence[str]) -> frozenset[str]:
    """The candidate schedules of fusion groups switched off by ``--fusion-candidate`` values, read as
    ``parse_tile_rules`` reads ``--tile-rule``'s."""
    return _switched_off(values, "--fusion-candidate", "candidates", FUSION_CANDIDATE_NAMES)


def _switched_off(values: Sequence[str], flag: str, kind: str, names: Sequence[str]) -> frozenset[str]:
    """The ``names`` switched off by ``flag``'s values: comma-separated ``-NAME`` (off) and ``+NAME``
    (on again), applied in order; anything else is an error that lists the ``kind`` of names."""
    disabled: set[str] = set()
    for item in (part.strip() for value in values for part in value.split(",")):
        sign, name = item[:1], item[1:]
        if sign not in ("-", "+") or name not in names:
            raise PolyoptError(f"{flag}: expected -NAME or +NAME, not '{item}' ({kind}: {', '.join(names)})")
        if sign == "-":
            disabled.add(name)
        else:
            disabled.discard(name)
    return frozenset(disabled)
