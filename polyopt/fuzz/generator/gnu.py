"""The ``gnu`` family: nests of the other kinds written with GNU C spellings, often in a region of their own.

Public: ``gnu``.

Spellings that polyopt reads as standard C: ``__builtin_expect(c, 1)`` around a guard's condition,
``__extension__`` before an expression, an ``__attribute__((unused))`` on a declared temporary.  Constructs
that decline their region: a statement expression ``({ e; })``, ``#pragma GCC ivdep`` before a loop, a
``__restrict__`` pointer declared in the region.  A nest often starts a region of its own
(``#pragma endscop`` / ``#pragma scop`` before it), so that a campaign checks that one declined region
costs the file nothing else and never changes the other regions' results.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

from polyopt.fuzz.generator.builder import Builder
from polyopt.fuzz.generator.program import If, Loop, Node, Stmt

# kinds of nest to dress: those without ``#pragma polyopt dead`` (a later region may read a dead array)
KINDS = ("loops", "accumulator", "reduction", "stencil", "statement", "data_dependent", "declared", "mixed")
REGION_BREAK = "#pragma endscop\n#pragma scop"
_ASSIGNMENT = re.compile(r"^(\w[^=]*?\s*(?:[-+*]?=)\s*)(.+);$")
_DECLARATION = re.compile(r"^((?:double|float|int) \w+)( = .+;)$")


def _statement(builder: Builder, node: Stmt) -> Stmt:
    """``node`` with its declaration given an attribute, or its expression wrapped in ``__extension__`` or (rarely)
    in a statement expression."""
    rng = builder.rng
    declaration = _DECLARATION.match(node.text)
    if declaration is not None:
        return Stmt(f"{declaration[1]} __attribute__((unused)){declaration[2]}") if rng.random() < 0.5 else node
    assignment = _ASSIGNMENT.match(node.text)
    if assignment is None or node.text.startswith("#"):
        return node
    choice = rng.random()
    if choice < 0.3:
        return Stmt(f"{assignment[1]}__extension__ ({assignment[2]});")
    if choice < 0.4:
        return Stmt(f"{assignment[1]}({{ {assignment[2]}; }});")
    return node


def _dressed(builder: Builder, node: Node) -> Node:
    if isinstance(node, Stmt):
        return _statement(builder, node)
    body = tuple(_dressed(builder, child) for child in node.body)
    if isinstance(node, If) and builder.rng.random() < 0.6:
        return If(f"__builtin_expect({node.condition}, {builder.rng.randint(0, 1)})", body)
    return replace(node, body=body)


def gnu(builder: Builder, top_level_nest: Callable[[Builder, str], list[Node]]) -> list[Node]:
    """One nest of ``KINDS`` (made by ``top_level_nest(builder, kind)``) dressed in GNU spellings, maybe after a
    region break, a ``#pragma GCC ivdep`` or a ``__restrict__`` pointer."""
    rng = builder.rng
    nodes = [_dressed(builder, node) for node in top_level_nest(builder, rng.choice(KINDS))]
    if nodes and isinstance(nodes[0], Loop) and rng.random() < 0.1:
        nodes.insert(0, Stmt("#pragma GCC ivdep"))
    if rng.random() < 0.05:
        nodes.insert(0, Stmt("{ double *__restrict__ gnu_p = &s; (void)gnu_p; }"))
    return [Stmt(REGION_BREAK), *nodes] if rng.random() < 0.6 else nodes
