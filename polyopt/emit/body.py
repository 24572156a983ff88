"""Print a statement's body with its iterators replaced by new expressions.

Public: ``print_statement``, ``print_expression``.  Uses pycparser's generator so that everything
else (macros such as ``SCALAR_VAL(1.5)``, literals, casts) prints as written.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator


class _Substituting(c_generator.CGenerator):
    def __init__(self, substitution: dict[str, str], elements: dict[str, str], scalars: dict[str, str]) -> None:
        super().__init__()
        self.substitution = substitution
        self.elements = elements
        self.scalars = scalars

    def visit_ID(self, n: c_ast.ID) -> str:
        return self.substitution.get(n.name, n.name)

    def visit_ArrayRef(self, n: c_ast.ArrayRef) -> str:
        base = n.name
        while isinstance(base, c_ast.ArrayRef):
            base = base.name
        if isinstance(base, c_ast.ID) and base.name in self.scalars:
            return self.scalars[base.name]
        text = super().visit_ArrayRef(n)
        return self.elements.get(text, text)


def _generator(
    substitution: dict[str, str], elements: dict[str, str] | None = None, scalars: dict[str, str] | None = None
) -> _Substituting:
    wrapped = {name: text if _is_atom(text) else f"({text})" for name, text in substitution.items()}
    return _Substituting(wrapped, elements or {}, scalars or {})


def print_statement(
    body: c_ast.Node,
    substitution: dict[str, str],
    elements: dict[str, str] | None = None,
    scalars: dict[str, str] | None = None,
) -> str:
    """``body`` as a C statement with each iterator name replaced by its expression, each
    array element in ``elements`` (its text after substitution) by a local, and every
    element of each array in ``scalars`` by that array's scalar.  A body that is an ``if``
    around one statement (a data-dependent statement's guards) prints on one line."""
    generator = _generator(substitution, elements, scalars)
    guards = ""
    while isinstance(body, c_ast.If):
        guards += f"if ({generator.visit(body.cond)}) "
        body = body.iftrue
    return guards + generator.visit(body) + ";"


def print_expression(expr: c_ast.Node, substitution: dict[str, str]) -> str:
    """``expr`` with each iterator name replaced by its expression."""
    return _generator(substitution).visit(expr)


def _is_atom(text: str) -> bool:
    return text.isidentifier() or text.lstrip("-").isdigit() and not text.startswith("-")
