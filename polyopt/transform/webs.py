"""Rename the webs of scalars (``polyopt.analysis.webs``): each renamed web's statements use a
fresh scalar of the same type (declared around the region's code by ``polyopt.emit.storage.with_webs``).

Public: ``renamed_webs``.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from polyopt.analysis.webs import Web
from polyopt.frontend.declarations import UNKNOWN, CType
from polyopt.frontend.scop import Access, Scop
from polyopt.transform.expansion import replace_scalar


def renamed_webs(scop: Scop, webs: tuple[Web, ...]) -> Scop:
    """``scop`` with each web's statements using its new name, declared like its scalar."""
    statements = scop.statements
    for web in webs:
        access, element = Access(web.name, ()), c_ast.ID(web.name)
        statements = tuple(
            replace_scalar(s, web.scalar, access, element) if s.name in web.statements else s for s in statements
        )
    types = {web.name: scop.declarations.objects.get(web.scalar, CType(UNKNOWN)) for web in webs}
    return replace(
        scop,
        statements=statements,
        identifiers=scop.identifiers | frozenset(types),
        declarations=scop.declarations.with_objects(types),
    )
