"""Unroll-and-jam of a loop into the vector loop it encloses (``polyopt.transform.unroll_jam``).

Public: ``jammed``.

``for (c3 = lo; c3 <= hi; c3++) simd-for (c4 ...) S(c3, c4)`` becomes a loop over ``c3_j`` in steps
of ``u`` whose vector loop runs ``u`` copies of its body, each in a block that declares
``const int c3 = c3_j + q``, then the loop over ``c3`` for the remaining iterations.  The copies are
the printed body as it is: the inner declaration shadows nothing the body uses but ``c3``.
"""

from __future__ import annotations

import re
from dataclasses import replace

from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode


def jammed(nodes: tuple[CNode, ...], iterator: str, factor: int) -> tuple[CNode, ...]:
    """``nodes`` with each loop over ``iterator`` that directly encloses one vector loop, whose bounds
    do not use ``iterator``, unrolled by ``factor`` and jammed into it; looks through guards and blocks
    but never into another loop."""
    result: list[CNode] = []
    for node in nodes:
        if isinstance(node, CFor) and node.iterator == iterator:
            result.extend(_jammed_loop(node, factor))
            continue
        if isinstance(node, CIf):
            node = replace(node, then=jammed(node.then, iterator, factor), other=jammed(node.other, iterator, factor))
        elif isinstance(node, CBlock):
            node = replace(node, body=jammed(node.body, iterator, factor))
        result.append(node)
    return tuple(result)


def _last(loop: CFor) -> str | None:
    """The loop's last value as C, when its condition is an upper bound on its iterator."""
    match = re.fullmatch(rf"{re.escape(loop.iterator)} (<=|<) (.+)", loop.cond)
    if loop.step != "1" or match is None:
        return None
    operator, bound = match.groups()
    return f"({bound})" if operator == "<=" else f"({bound}) - 1"


def _jammed_loop(loop: CFor, factor: int) -> tuple[CNode, ...]:
    last = _last(loop)
    uses = re.compile(rf"\b{re.escape(loop.iterator)}\b")
    if last is None or len(loop.body) != 1 or not isinstance(loop.body[0], CFor):
        return (loop,)
    vector = loop.body[0]
    if not vector.pragmas or uses.search(f"{vector.init} {vector.cond} {vector.step}"):
        return (loop,)
    outer = f"{loop.iterator}_j"
    copies = tuple(
        CBlock((CDecl(f"const int {loop.iterator} = {outer} + {copy};"), *vector.body)) for copy in range(factor)
    )
    main = CFor(
        outer,
        loop.init,
        f"{outer} <= {last} - {factor - 1}",
        str(factor),
        (replace(vector, body=copies),),
        bound=("<=", f"{last} - {factor - 1}"),
    )
    rest = f"({loop.init}) + ({last} - ({loop.init}) + 1) / {factor} * {factor}"
    return main, replace(loop, init=rest)
