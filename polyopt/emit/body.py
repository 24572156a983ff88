"""Print a statement's body with its iterators replaced by new expressions.

Public: ``print_statement``.  Uses pycparser's generator so that everything
else (macros such as ``SCALAR_VAL(1.5)``, literals, casts) prints as written.
"""

from __future__ import annotations

from pycparser import c_ast, c_generator


class _Substituting(c_generator.CGenerator):
    def __init__(self, substitution: dict[str, str]) -> None:
        super().__init__()
        self.substitution = substitution

    def visit_ID(self, n: c_ast.ID) -> str:
        return self.substitution.get(n.name, n.name)


def print_statement(body: c_ast.Node, substitution: dict[str, str]) -> str:
    """``body`` as a C statement with each iterator name replaced by its expression."""
    wrapped = {name: text if _is_atom(text) else f"({text})" for name, text in substitution.items()}
    return _Substituting(wrapped).visit(body) + ";"


def _is_atom(text: str) -> bool:
    return text.isidentifier() or text.lstrip("-").isdigit() and not text.startswith("-")
