"""Smaller variants of a program, for the shrinker of ``polyopt.fuzz.campaign``."""

from __future__ import annotations

import re
from dataclasses import replace

from polyopt.fuzz.generator.program import STATIC, If, Loop, Node, Program, region_text


def _children(node: Loop | If) -> tuple[Node, ...]:
    """A loop's body, or a guard's body followed by its ``else`` branch."""
    return node.body + node.orelse if isinstance(node, If) else node.body


def _without(nodes: tuple[Node, ...], path: tuple[int, ...], unwrap: bool) -> tuple[Node, ...]:
    """``nodes`` with the node at ``path`` deleted, or (``unwrap``) replaced by its body (a guard's ``if``
    branch: its ``else`` branch goes with its condition).  Below a guard, the indices past its body's
    address its ``else`` branch (``_children``)."""
    head, rest = path[0], path[1:]
    node = nodes[head]
    if not rest:
        inner = node.body if unwrap and isinstance(node, If) else ()
        return nodes[:head] + inner + nodes[head + 1 :]
    assert isinstance(node, Loop | If)
    if rest[0] < len(node.body):
        smaller: Node = replace(node, body=_without(node.body, rest, unwrap))
    else:
        assert isinstance(node, If)
        smaller = replace(node, orelse=_without(node.orelse, (rest[0] - len(node.body), *rest[1:]), unwrap))
    return nodes[:head] + (smaller,) + nodes[head + 1 :]


def _paths(nodes: tuple[Node, ...], prefix: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Node]]:
    found = []
    for index, node in enumerate(nodes):
        found.append(((*prefix, index), node))
        if isinstance(node, Loop | If):
            found += _paths(_children(node), (*prefix, index))
    return found


def smaller_variants(program: Program) -> list[Program]:
    """Programs one step smaller than ``program``, most promising first.

    Each deletes one node of the region (a nest, loop, guard, statement or pragma), replaces
    a guard by its body, drops an array, a size macro or a local scalar the region does not use (or the
    pointer), or turns one feature off: the parametric kernel, the printed iterators, an
    array's storage other than static.  (``N`` and the sizes stay: the subscripts were proved
    in bounds for them.)
    """
    variants = []
    for path, node in _paths(program.nests):
        variants.append(replace(program, nests=_without(program.nests, path, unwrap=False)))
        if isinstance(node, If):
            variants.append(replace(program, nests=_without(program.nests, path, unwrap=True)))
    region = region_text(program.nests)
    for array in program.arrays:
        if not re.search(rf"\b{array.name}\b", region):
            variants.append(replace(program, arrays=tuple(a for a in program.arrays if a is not array)))
    extents = " ".join(extent for array in program.arrays for extent in array.extents)
    for size in program.sizes:
        if not re.search(rf"\b{size.name}\b", region) and not re.search(rf"\b{size.macro}\b", extents):
            variants.append(replace(program, sizes=tuple(s for s in program.sizes if s is not size)))
    for local in program.locals:
        if not re.search(rf"\b{local.name}\b", region):
            variants.append(replace(program, locals=tuple(v for v in program.locals if v is not local)))
    if program.pointer and not re.search(r"\bp\b", region):
        variants.append(replace(program, pointer=0))
    if program.parametric:
        variants.append(replace(program, parametric=False))
    if program.show_iterators:
        variants.append(replace(program, show_iterators=False))
    for index, array in enumerate(program.arrays):
        if array.storage != STATIC:
            arrays = (*program.arrays[:index], replace(array, storage=STATIC), *program.arrays[index + 1 :])
            variants.append(replace(program, arrays=arrays))
    return variants
