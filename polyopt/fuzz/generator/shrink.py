"""Smaller variants of a program, for the shrinker of ``polyopt.fuzz.campaign``."""

from __future__ import annotations

import re
from dataclasses import replace

from polyopt.fuzz.generator.program import STATIC, If, Loop, Node, Program, region_text


def _without(nodes: tuple[Node, ...], path: tuple[int, ...], unwrap: bool) -> tuple[Node, ...]:
    """``nodes`` with the node at ``path`` deleted, or (``unwrap``) replaced by its body."""
    head, rest = path[0], path[1:]
    node = nodes[head]
    if not rest:
        inner = node.body if unwrap and isinstance(node, If) else ()
        return nodes[:head] + inner + nodes[head + 1 :]
    assert isinstance(node, Loop | If)
    return nodes[:head] + (replace(node, body=_without(node.body, rest, unwrap)),) + nodes[head + 1 :]


def _paths(nodes: tuple[Node, ...], prefix: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Node]]:
    found = []
    for index, node in enumerate(nodes):
        found.append(((*prefix, index), node))
        if isinstance(node, Loop | If):
            found += _paths(node.body, (*prefix, index))
    return found


def smaller_variants(program: Program) -> list[Program]:
    """Programs one step smaller than ``program``, most promising first.

    Each deletes one node of the region (a nest, loop, guard, statement or pragma), replaces
    a guard by its body, drops an array or a size macro the region does not use (or the
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
