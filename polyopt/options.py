"""Options of a polyopt run, one frozen dataclass per stage, nested in ``Options``.

Public: ``Options``, ``DEFAULT_TIMEOUT``, ``parse_tile_sizes``.  Each field maps to one
command-line flag (see ``polyopt.cli``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path

from polyopt.diagnostics import PolyoptError
from polyopt.transform.fusion import FUSION_POLICIES
from polyopt.transform.scheduling import SchedulerOptions
from polyopt.transform.tiling import TilingOptions

DEFAULT_TIMEOUT = 10.0  # seconds per attempt at a region


@dataclass(frozen=True)
class Options:
    """All options of a run.

    ``identity``: regenerate each region in its original order with no
    transformation (``--identity``); ``fusion``: ``--fuse`` policy;
    ``parallel``: mark OpenMP parallel loops (``--noparallel`` clears it);
    ``tiling``: ``--notile`` and ``--tile-sizes``; ``scheduler``: isl's limits;
    ``timeout``: seconds each attempt at a region may take before it is stopped and the
    region retried with simpler options (``--timeout``; see ``polyopt.budget``).
    """

    identity: bool = False
    fusion: str = "smart"
    parallel: bool = True
    tiling: TilingOptions = field(default_factory=TilingOptions)
    scheduler: SchedulerOptions = field(default_factory=SchedulerOptions)
    timeout: float = DEFAULT_TIMEOUT

    def validate(self) -> Options:
        """Reject conflicting or invalid options instead of silently rewriting them."""
        if self.fusion not in FUSION_POLICIES:
            raise PolyoptError(f"unknown fusion policy '{self.fusion}' (choose {', '.join(FUSION_POLICIES)})")
        if not (0 < self.timeout < math.inf):
            raise PolyoptError(f"the timeout must be a positive number of seconds, not {self.timeout:g}")
        if any(size < 1 for size in self.tiling.sizes):
            raise PolyoptError("tile sizes must be positive integers")
        if self.identity and (
            not self.parallel or not self.tiling.enabled or self.tiling.sizes or self.fusion != "smart"
        ):
            raise PolyoptError(
                "'--identity' already disables every transformation; do not combine it with transformation options"
            )
        return self


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
