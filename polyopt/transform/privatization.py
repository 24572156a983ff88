"""Privatization: each scalar declared inside a region's loops gets one element per iteration of them.

Public: ``private_locals``, ``privatized``.  A scalar declared in a loop body (``polyopt.frontend.locals``) is a new
object in every iteration, so ``t`` declared in the body of loops ``i`` and ``j`` is modelled as
``t[i][j]``: no iteration reads another's ``t``, and reusing the name orders nothing.  The
printed code needs a scalar again (``polyopt.analysis.contraction``, where the schedule allows it).
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from polyopt.frontend.declarations import UNKNOWN, CType
from polyopt.frontend.scop import Access, Local, Scop, Var
from polyopt.transform.expansion import replace_scalar


def private_locals(scop: Scop) -> tuple[Local, ...]:
    """The scalars that ``scop`` declares inside loops and that its statements use."""
    used = {access.array for statement in scop.statements for access in statement.reads + statement.writes}
    return tuple(local for local in scop.locals if local.loops and local.name in used)


def _element(local: Local) -> c_ast.Node:
    node: c_ast.Node = c_ast.ID(local.name)
    for loop in local.loops:
        node = c_ast.ArrayRef(node, c_ast.ID(loop))
    return node


def privatized(scop: Scop, names: frozenset[str]) -> Scop:
    """``scop`` with each of its ``private_locals`` in ``names`` an array over the loops around its declaration."""
    statements = scop.statements
    objects: dict[str, CType] = {}
    for local in private_locals(scop):
        if local.name not in names:
            continue
        access = Access(local.name, tuple(Var(loop) for loop in local.loops))
        element = _element(local)
        statements = tuple(replace_scalar(s, local.name, access, element) for s in statements)
        scalar = scop.declarations.objects.get(local.name, CType(UNKNOWN))
        objects[local.name] = CType(scalar.kind, scalar.levels + len(local.loops), scalar.name)
    return replace(scop, statements=statements, declarations=scop.declarations.with_objects(objects))
