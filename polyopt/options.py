"""Options of a polyopt run, one frozen dataclass per stage, nested in ``Options``.

Public: ``TransformOptions``, ``Options``.  Each field maps to one command-line
flag (see ``polyopt.cli``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from polyopt.diagnostics import PolyoptError


@dataclass(frozen=True)
class TransformOptions:
    """``parallel``: mark OpenMP parallel loops (``--noparallel`` clears it).
    ``tile``: tile permutable bands (``--notile`` clears it)."""

    parallel: bool = True
    tile: bool = True


@dataclass(frozen=True)
class Options:
    """``identity``: regenerate each region from its model in the original order,
    with no transformation (``--identity``, the round-trip check)."""

    identity: bool = False
    transform: TransformOptions = field(default_factory=TransformOptions)

    def validate(self) -> Options:
        """Reject conflicting options instead of silently rewriting them."""
        if self.identity and not (self.transform.parallel and self.transform.tile):
            raise PolyoptError(
                "'--identity' already disables every transformation; "
                "do not combine it with '--noparallel' or '--notile'"
            )
        return self
