"""The state of a region's extraction into a ``Scop``: what encloses a node, and what has been found."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from pycparser import c_ast

from polyopt.diagnostics import Location, UnsupportedRegion
from polyopt.frontend.declarations import CType, Declarations
from polyopt.frontend.scop import Access, Condition, Local, LoopExit, Statement


def node_location(node: c_ast.Node, fallback: Location) -> Location:
    coord = getattr(node, "coord", None)
    if coord is None or not getattr(coord, "line", 0):
        return fallback
    return Location(fallback.file, coord.line, coord.column or 0)


@dataclass
class Context:
    """What encloses the node being extracted (immutable use: copied on descent): the iterators,
    the conditions, ``(rank, iterator, direction)`` of each enclosing loop, the data-dependent
    ``if`` conditions (outermost first) with what they read, and the model names of the region's
    declarations in scope."""

    iterators: tuple[str, ...] = ()
    constraints: tuple[Condition, ...] = ()
    loops: tuple[tuple[int, str, int], ...] = ()
    guards: tuple[c_ast.Node, ...] = ()
    guard_reads: tuple[Access, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)  # a declaration of the region in scope -> model name
    numeric: bool = False  # named constants give their values (where the model needs a number)


@dataclass
class ExtractorState:
    """What the extraction of one region has found so far, and what it reads from."""

    fallback: Location
    written: set[str]
    file_text: str = ""
    constants: Mapping[str, int] = field(default_factory=dict)
    declarations: Declarations = field(default_factory=Declarations)
    clashing: frozenset[str] = frozenset()  # declared names that need another name in the model
    taken: set[str] = field(default_factory=set)  # names a renamed declaration must avoid
    locals: list[Local] = field(default_factory=list)
    declared: set[str] = field(default_factory=set)  # the names the region declares, as written
    local_types: dict[str, CType] = field(default_factory=dict)
    members: dict[str, str] = field(default_factory=dict)  # a member's spelling (``p->f``) -> its model name
    whole: dict[str, c_ast.Node] = field(default_factory=dict)  # names accessed whole -> a use
    statements: list[Statement] = field(default_factory=list)
    parameters: dict[str, None] = field(default_factory=dict)
    all_iterators: set[str] = field(default_factory=set)
    array_ranks: dict[str, int] = field(default_factory=dict)
    exits: list[LoopExit] = field(default_factory=list)
    rank: int = 0
    used_under: dict[str, set[int]] = field(default_factory=dict)  # name -> ranks of outermost loops of its uses

    def fail(self, message: str, node: c_ast.Node) -> UnsupportedRegion:
        return UnsupportedRegion(message, node_location(node, self.fallback))
