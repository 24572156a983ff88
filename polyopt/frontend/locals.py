"""Declarations inside a region: which are scalars polyopt models, and which names must change.

Public: ``declaration_problem``, ``type_spelling``, ``clashing_declarations``, ``member_name``,
``members_overlap``, ``renamed``.

A scalar declared in a loop body is a new object in each iteration: the model gives it one element
per iteration of the loops around its declaration (``polyopt.transform.privatization``), so that
reusing its name makes no dependence.  Its initializer is an assignment statement.  A declared
name that the region declares twice, or also uses for an object declared outside the declaration's
scope, gets a new name in the model and in the printed statements, since the optimized code
declares it once for the whole region.  Arrays, pointers, structures and ``static`` or ``extern``
objects declared inside a region are not modelled.

A structure member (``s.f``, ``a[i].f``, ``p->f[i]``) is an array of its own in the model, under an
identifier made of its spelling (``s_f``); statements keep the spelling.
"""

from __future__ import annotations

import copy
import re
from collections import Counter
from collections.abc import Collection, Mapping

from pycparser import c_ast


def declaration_problem(decl: c_ast.Decl) -> str | None:
    """Why ``decl`` (an item of a region's block) is not a scalar polyopt models, or None."""
    if decl.name is None:
        return "type declaration inside the region"
    if decl.storage:
        return f"'{' '.join(decl.storage)}' declaration of '{decl.name}' inside the region"
    kinds = {c_ast.ArrayDecl: "array", c_ast.PtrDecl: "pointer", c_ast.FuncDecl: "function"}
    for kind, word in kinds.items():
        if isinstance(decl.type, kind):
            return f"{word} '{decl.name}' declared inside the region"
    if not isinstance(decl.type, c_ast.TypeDecl) or not isinstance(decl.type.type, c_ast.IdentifierType):
        return f"'{decl.name}' of a structure, union or enum type declared inside the region"
    if "volatile" in decl.type.quals:
        return f"volatile '{decl.name}' declared inside the region"
    if isinstance(decl.init, c_ast.InitList):
        return f"initializer list of '{decl.name}' inside the region"
    return None


def type_spelling(decl: c_ast.Decl) -> str:
    """The base type of a scalar declaration as written, without qualifiers (``unsigned long``)."""
    return " ".join(decl.type.type.names)


def clashing_declarations(region: c_ast.Node) -> frozenset[str]:
    """The names that ``region`` declares twice, or also uses outside the scope of their declaration."""
    declared: Counter[str] = Counter()
    outside: set[str] = set()
    scopes: list[set[str]] = [set()]

    class Visitor(c_ast.NodeVisitor):
        def scoped(self, node: c_ast.Node) -> None:
            scopes.append(set())
            self.generic_visit(node)
            scopes.pop()

        visit_Compound = visit_For = scoped

        def visit_Decl(self, node: c_ast.Decl) -> None:
            if node.init is not None:
                self.visit(node.init)
            if node.name:
                declared[node.name] += 1
                scopes[-1].add(node.name)

        def visit_StructRef(self, node: c_ast.StructRef) -> None:
            self.visit(node.name)

        def visit_ID(self, node: c_ast.ID) -> None:
            if not any(node.name in scope for scope in scopes):
                outside.add(node.name)

    Visitor().visit(region)
    return frozenset(name for name, count in declared.items() if count > 1 or name in outside)


def member_name(spelling: str, taken: Collection[str]) -> str:
    """The model name of the structure member ``spelling`` (``p->f``, ``a[].f``): an identifier, not in ``taken``."""
    name = re.sub(r"\W+", "_", spelling.replace("[]", "")).strip("_")
    while name in taken:
        name += "_"
    return name


def members_overlap(first: str, second: str) -> bool:
    """Whether the member spellings ``first`` and ``second`` may name overlapping memory: they reach one
    base differently (``p->x`` and ``p[].x``), or one holds the other (``s.in`` and ``s.in.v``)."""
    base = re.match(r"\w*", first)[0]
    if re.match(r"\w*", second)[0] != base:
        return False
    if first[len(base) : len(base) + 1] != second[len(base) : len(base) + 1]:
        return True
    shorter, longer = sorted((first, second), key=len)
    return longer.startswith(shorter) and longer[len(shorter) : len(shorter) + 1] in (".", "-", "[")


def renamed(node: c_ast.Node, names: Mapping[str, c_ast.Node]) -> c_ast.Node:
    """A copy of ``node`` with each identifier in ``names`` replaced by a copy of its node (member
    names of ``s.f`` and ``p->f`` are no identifiers)."""
    if isinstance(node, c_ast.ID):
        replacement = names.get(node.name)
        return node if replacement is None else copy.deepcopy(replacement)
    node = copy.copy(node)
    for attribute in node.__slots__:
        value = getattr(node, attribute, None)
        if isinstance(node, c_ast.StructRef) and attribute == "field":
            continue
        if isinstance(value, c_ast.Node):
            setattr(node, attribute, renamed(value, names))
        elif isinstance(value, list):
            setattr(node, attribute, [renamed(v, names) if isinstance(v, c_ast.Node) else v for v in value])
    return node
