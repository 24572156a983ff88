"""Which statements of a region BLAS routines compute (PolyMage dense-matrix thesis, Sec. 4.4): each idiom
kind's ``match``, tried on every statement in source order.

Public: ``find_idioms``.

The match is on subscripts, domains and the original order, never on array names.  Kinds of several
statements (``Idiom.GROUPED``: SYMM, the batched GEMM) take their statements first; the others match one
update each (``polyopt.library.statements``), the first kind that matches wins.
"""

from __future__ import annotations

from collections.abc import Mapping

from polyopt.frontend.scop import Statement, opaque_arrays
from polyopt.library.idioms.batched_gemm import BatchedGemm
from polyopt.library.idioms.gemm import Gemm
from polyopt.library.idioms.gemv import Gemv
from polyopt.library.idioms.ger import Ger
from polyopt.library.idioms.rank_k import RankK
from polyopt.library.idioms.symm import Symm
from polyopt.library.idioms.trmm import Trmm
from polyopt.library.protocol import Idiom
from polyopt.library.statements import Update, update
from polyopt.model import PolyModel

# the kinds in the order they are tried: several statements first, then one update each
KINDS: tuple[type[Idiom], ...] = (Symm, BatchedGemm, Gemm, RankK, Gemv, Ger, Trmm)


def _grouped(model: PolyModel, statement: Statement, updates: Mapping[str, Update]) -> list[Idiom]:
    """The idioms of several statements that ``statement`` is the last of, one per kind that matches."""
    return [idiom for kind in KINDS if kind.GROUPED and (idiom := kind.match(model, statement, updates)) is not None]


def _single(model: PolyModel, statement: Statement, updates: Mapping[str, Update]) -> Idiom | None:
    """The idiom that the one statement ``statement`` computes, of the first kind that matches, if any."""
    kinds = (kind for kind in KINDS if not kind.GROUPED)
    return next((idiom for kind in kinds if (idiom := kind.match(model, statement, updates)) is not None), None)


def find_idioms(model: PolyModel) -> tuple[Idiom, ...]:
    """Every set of statements of ``model`` that a BLAS routine computes, in source order (of their first);
    none that touches an array that an opaque statement touches."""
    opaque = opaque_arrays(model.scop)
    statements = model.scop.statements
    clear = {s.name for s in statements if not {access.array for access in s.reads + s.writes} & opaque}
    updates = {s.name: found for s in statements if s.name in clear and (found := update(model, s)) is not None}
    combined = [idiom for s in statements for idiom in _grouped(model, s, updates)]
    combined = [idiom for idiom in combined if set(idiom.statements) <= clear]
    taken = {name for idiom in combined for name in idiom.statements}
    single = [idiom for s in statements if s.name not in taken and (idiom := _single(model, s, updates)) is not None]
    order = {s.name: index for index, s in enumerate(statements)}
    return tuple(sorted([*combined, *single], key=lambda idiom: order[idiom.statements[0]]))
