"""Which statements of a region BLAS routines compute (seed 000, Sec. 4.4): each idiom family's
matchers, tried on every statement in source order.

Public: ``find_idioms``.

The match is on subscripts, domains and the original order, never on array names.  Matchers of
several statements (SYMM, the batched GEMM) take their statements first; the others match one update
each (``polyopt.library.statements``).
"""

from __future__ import annotations

from collections.abc import Callable

from polyopt.frontend.scop import Statement, opaque_arrays
from polyopt.library.idioms.gemm import match_batched, match_gemm
from polyopt.library.idioms.gemv import match_gemv, match_ger
from polyopt.library.idioms.symmetric import match_rank_k, match_symm
from polyopt.library.idioms.triangular import match_trmm
from polyopt.library.protocol import Idiom
from polyopt.library.statements import Update, update
from polyopt.model import PolyModel

# one update each, the first that matches wins
_SINGLE: tuple[Callable[[PolyModel, Update], Idiom | None], ...] = (
    match_gemm,
    match_rank_k,
    match_gemv,
    match_ger,
    match_trmm,
)
# several statements, found from their last one
_COMBINED: tuple[Callable[[PolyModel, Statement, dict[str, Update]], Idiom | None], ...] = (match_symm, match_batched)


def _single(model: PolyModel, found: Update) -> Idiom | None:
    """The idiom that the one statement ``found`` computes, if any."""
    return next((idiom for matcher in _SINGLE if (idiom := matcher(model, found)) is not None), None)


def find_idioms(model: PolyModel) -> tuple[Idiom, ...]:
    """Every set of statements of ``model`` that a BLAS routine computes, in source order (of their first);
    none that touches an array that an opaque statement touches."""
    opaque = opaque_arrays(model.scop)
    statements = model.scop.statements
    clear = {s.name for s in statements if not {access.array for access in s.reads + s.writes} & opaque}
    updates = {s.name: found for s in statements if s.name in clear and (found := update(model, s)) is not None}
    combined = [idiom for s in statements for match in _COMBINED if (idiom := match(model, s, updates)) is not None]
    combined = [idiom for idiom in combined if set(idiom.statements) <= clear]
    taken = {name for idiom in combined for name in idiom.statements}
    single = [idiom for name, u in updates.items() if name not in taken and (idiom := _single(model, u)) is not None]
    order = {s.name: index for index, s in enumerate(statements)}
    return tuple(sorted([*combined, *single], key=lambda idiom: order[idiom.statements[0]]))
