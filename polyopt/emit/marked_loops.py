"""The pragma a mark decides, put on the loops that isl generated over the marked member, each loop
wrapped in the locals that keep its reduced elements."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace

from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt


@dataclass
class KeptLocals:
    """Array elements kept in locals during one loop over a marked member: element -> the element
    (or the enclosing loop's local for it) its local starts from, and element -> its local."""

    arrays: frozenset[str]
    sources: dict[str, str] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class LoopDecision:
    """What a mark does to the loops over ``iterator``: each loop's pragma clauses and kept elements,
    and the condition for running them with the pragma (empty: always)."""

    pragma: str
    iterator: str
    loops: tuple[tuple[CFor, tuple[str, ...], KeptLocals], ...]
    guard: str


def apply_pragma(nodes: tuple[CNode, ...], decision: LoopDecision) -> tuple[CNode, ...]:
    """Put the decision's pragma on the loops over its iterator (the marked member) in ``nodes``,
    looking through guards and blocks but never into another loop."""
    result: list[CNode] = []
    for node in nodes:
        if isinstance(node, CFor) and node.iterator == decision.iterator:
            node = _decided_loop(node, decision)
        elif isinstance(node, CIf):
            then, other = apply_pragma(node.then, decision), apply_pragma(node.other, decision)
            node = replace(node, then=then, other=other)
        elif isinstance(node, CBlock):
            node = replace(node, body=apply_pragma(node.body, decision))
        result.append(node)
    return tuple(result)


def _decided_loop(loop: CFor, decision: LoopDecision) -> CNode:
    """The loop with the pragma, guarded by the section limits and wrapped in its kept elements."""
    clauses, scope = next((clauses, scope) for printed, clauses, scope in decision.loops if printed is loop)
    node: CNode = replace(loop, pragmas=(decision.pragma,), clauses=clauses)
    if decision.guard:
        node = CIf(decision.guard, (node,), (loop,))
    if not scope.names:
        return node
    first = re.sub(rf"\b{loop.iterator}\b", f"({loop.init})", loop.cond)
    pairs = [(scope.sources[element], name) for element, name in scope.names.items()]
    kept = tuple(CDecl(f"__typeof__({source}) {name} = {source};") for source, name in pairs)
    back = tuple(CStmt(f"{source} = {name};") for source, name in pairs)
    return CIf(first, (CBlock(kept + (node,) + back),))
