"""Keep scalars in the elements they are stored to (``polyopt.analysis.inplace`` decides where).

Public: ``hold_in_place``.  The result is a new ``Scop``, modelled and
analysed again like any region: from each load to its store the scalar is
replaced by the stored element, and a statement left as ``X[g] = X[g]`` is dropped.
"""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast, c_generator

from polyopt.analysis.inplace import InPlace
from polyopt.frontend.scop import Scop, Statement
from polyopt.transform.expansion import replace_scalar


def _copies_itself(statement: Statement) -> bool:
    body = statement.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=":
        return False
    printer = c_generator.CGenerator()
    return printer.visit(body.lvalue) == printer.visit(body.rvalue)


def hold_in_place(scop: Scop, places: tuple[InPlace, ...]) -> Scop:
    """``scop`` with each range's scalar replaced by the element its store writes."""
    statements = {statement.name: statement for statement in scop.statements}
    for place in places:
        element = statements[place.store].body.lvalue
        for name in place.statements:
            statements[name] = replace_scalar(statements[name], place.scalar, place.element, element)
    kept = frozenset(name for name, statement in statements.items() if not _copies_itself(statement))
    rewritten = replace(scop, statements=tuple(statements[s.name] for s in scop.statements))
    return rewritten.restricted(kept)
