"""Apply scalar expansions to a region: ``temp2`` becomes ``temp2_x[i][j]`` in every statement.

Public: ``expand``, ``replace_scalar``.  The result is a new ``Scop`` (accesses and statement
bodies rewritten), modelled and analysed again like any region; the
decision of what to expand is ``polyopt.analysis.expansion``'s.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from polyopt.analysis.expansion import Expansion
from polyopt.frontend.declarations import UNKNOWN, CType
from polyopt.frontend.locals import renamed
from polyopt.frontend.scop import Access, Affine, BinOp, Const, Scop, Statement, Var


def _subscripts(expansion: Expansion) -> tuple[Affine, ...]:
    return tuple(
        Var(loop) if low == 0 else BinOp("-", Var(loop), Const(low))
        for loop, low in zip(expansion.loops, expansion.lows, strict=True)
    )


def _element(expansion: Expansion) -> c_ast.Node:
    node: c_ast.Node = c_ast.ID(expansion.name)
    for loop, low in zip(expansion.loops, expansion.lows, strict=True):
        index: c_ast.Node = c_ast.ID(loop)
        if low:
            index = c_ast.BinaryOp("-", index, c_ast.Constant("int", str(low)))
        node = c_ast.ArrayRef(node, index)
    return node


def _accesses(accesses: tuple[Access, ...], scalar: str, access: Access) -> tuple[Access, ...]:
    return tuple(access if read_or_write.array == scalar else read_or_write for read_or_write in accesses)


def replace_scalar(statement: Statement, scalar: str, access: Access, element: c_ast.Node) -> Statement:
    """``statement`` with the scalar ``scalar`` replaced by the array element ``access``, printed ``element``."""
    if not any(a.array == scalar for a in statement.reads + statement.writes):
        return statement
    return replace(
        statement,
        reads=_accesses(statement.reads, scalar, access),
        writes=_accesses(statement.writes, scalar, access),
        body=renamed(statement.body, {scalar: element}),
    )


def expand(scop: Scop, expansions: tuple[Expansion, ...]) -> Scop:
    """``scop`` with each expansion's scalar replaced by its array."""
    statements = scop.statements
    for expansion in expansions:
        access = Access(expansion.name, _subscripts(expansion))
        element = _element(expansion)
        statements = tuple(replace_scalar(s, expansion.scalar, access, element) for s in statements)
    names = frozenset(expansion.name for expansion in expansions)
    declarations = scop.declarations.with_objects({e.name: _array_type(scop, e) for e in expansions})
    return replace(scop, statements=statements, identifiers=scop.identifiers | names, declarations=declarations)


def _array_type(scop: Scop, expansion: Expansion) -> CType:
    """The type of the array that replaces the expansion's scalar: one level per loop over the scalar's."""
    scalar = scop.declarations.objects.get(expansion.scalar, CType(UNKNOWN))
    return CType(scalar.kind, scalar.levels + len(expansion.loops), scalar.name)
