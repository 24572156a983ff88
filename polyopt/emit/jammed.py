"""Unroll-and-jam of a loop into the vector loop it encloses (``polyopt.transform.unroll_jam``).

Public: ``jammed``.

``for (c3 = lo; c3 <= hi; c3++) simd-for (c4 ...) S(c3, c4)`` becomes a loop over ``c3_j`` in steps
of ``u`` whose vector loop runs ``u`` copies of its body, each in a block that declares
``const int c3 = c3_j + q``, then the loop over ``c3`` for the remaining iterations.  The copies are
the printed body as it is: the inner declaration shadows nothing the body uses but ``c3``.

Around a scalar loop whose bounds may use ``c3`` (a jammed recurrence), each block of ``u`` copies
first runs each copy's columns below the range common to all of them, one copy after the other, then
the common range with the copies jammed, then each copy's columns above it: every column of a copy
still comes after the same and earlier columns of the copies before it.
"""

from __future__ import annotations

import re
from dataclasses import replace

from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode
from polyopt.emit.cexpr import call

JAM_HELPERS = frozenset({"polyopt_min", "polyopt_max"})  # the helpers a jammed scalar loop's bounds call


def jammed(nodes: tuple[CNode, ...], iterator: str, factor: int) -> tuple[tuple[CNode, ...], frozenset[str]]:
    """``nodes`` with each loop over ``iterator`` that directly encloses one vector loop whose bounds
    do not use ``iterator``, or one scalar loop, unrolled by ``factor`` and jammed into it; looks
    through guards and blocks but never into another loop.  Also the helper macros the new code calls."""
    result: list[CNode] = []
    helpers: set[str] = set()
    for node in nodes:
        if isinstance(node, CFor) and node.iterator == iterator:
            loops, loop_helpers = _jammed_loop(node, factor)
            helpers |= loop_helpers
            result.extend(loops)
            continue
        if isinstance(node, CIf):
            then, then_helpers = jammed(node.then, iterator, factor)
            other, other_helpers = jammed(node.other, iterator, factor)
            node = replace(node, then=then, other=other)
            helpers |= then_helpers | other_helpers
        elif isinstance(node, CBlock):
            body, body_helpers = jammed(node.body, iterator, factor)
            node = replace(node, body=body)
            helpers |= body_helpers
        result.append(node)
    return tuple(result), frozenset(helpers)


def _last(loop: CFor) -> str | None:
    """The loop's last value as C, when its condition is an upper bound on its iterator."""
    match = re.fullmatch(rf"{re.escape(loop.iterator)} (<=|<) (.+)", loop.cond)
    if loop.step != "1" or match is None:
        return None
    operator, bound = match.groups()
    return f"({bound})" if operator == "<=" else f"({bound}) - 1"


def _jammed_loop(loop: CFor, factor: int) -> tuple[tuple[CNode, ...], frozenset[str]]:
    """The rewritten loop (itself when it cannot be rewritten: an OpenMP loop is never split) and the
    helper macros it calls."""
    last = _last(loop)
    uses = re.compile(rf"\b{re.escape(loop.iterator)}\b")
    if last is None or loop.pragmas or len(loop.body) != 1 or not isinstance(loop.body[0], CFor):
        return (loop,), frozenset()
    vector = loop.body[0]
    if not vector.pragmas:
        return _interleaved(loop, last, factor)
    if uses.search(f"{vector.init} {vector.cond} {vector.step}"):
        return (loop,), frozenset()
    copies = tuple(_copy(loop, q, vector.body) for q in range(factor))
    return _blocks(loop, last, factor, (replace(vector, body=copies),)), frozenset()


def _copy(loop: CFor, copy: int, body: tuple[CNode, ...]) -> CBlock:
    """``body`` in a block that declares the unrolled ``loop``'s iterator for copy ``copy``."""
    iterator = loop.iterator
    return CBlock((CDecl(f"const {loop.ctype} {iterator} = {iterator}_j + {copy};"), *body))


def _blocks(loop: CFor, last: str, factor: int, body: tuple[CNode, ...]) -> tuple[CNode, ...]:
    """A loop over ``loop``'s iterations in blocks of ``factor`` (``body`` handles one block), then ``loop``
    over the iterations that remain."""
    outer = f"{loop.iterator}_j"
    bound = f"{last} - {factor - 1}"
    main = CFor(outer, loop.init, f"{outer} <= {bound}", str(factor), body, bound=("<=", bound), ctype=loop.ctype)
    rest = f"({loop.init}) + ({last} - ({loop.init}) + 1) / {factor} * {factor}"
    return main, replace(loop, init=rest)


def _interleaved(loop: CFor, last: str, factor: int) -> tuple[tuple[CNode, ...], frozenset[str]]:
    """The rows of ``loop`` in blocks of ``factor`` around its scalar inner loop, whose bounds may use the
    row: each copy's columns below the common range, the common range jammed, each copy's columns above."""
    inner = loop.body[0]
    assert isinstance(inner, CFor)
    inner_last = _last(inner)
    if inner_last is None:
        return (loop,), frozenset()
    outer, column = f"{loop.iterator}_j", inner.iterator
    row = re.compile(rf"\b{re.escape(loop.iterator)}\b")
    decls: list[CNode] = []
    for copy in range(factor):
        value = f"({outer} + {copy})"
        low, high = row.sub(value, inner.init), row.sub(value, inner_last)
        decls.append(CDecl(f"const {inner.ctype} {column}_lo{copy} = {low}, {column}_hi{copy} = {high};"))
    lows = [f"{column}_lo{copy}" for copy in range(factor)]
    highs = [f"{column}_hi{copy}" for copy in range(factor)]
    common_low, common_high = f"{column}_from", f"{column}_to"
    kind = inner.ctype
    decls.append(CDecl(f"const {kind} {common_low} = {_fold('polyopt_max', lows)};"))
    decls.append(CDecl(f"const {kind} {common_high} = polyopt_max({_fold('polyopt_min', highs)}, {common_low} - 1);"))

    def columns(copy: int, low: str, high: str) -> CBlock:
        return _copy(loop, copy, (replace(inner, init=low, cond=f"{column} <= {high}", bound=("<=", high)),))

    below = [columns(q, lows[q], call("polyopt_min", [highs[q], f"{common_low} - 1"])) for q in range(factor)]
    common = replace(
        inner,
        init=common_low,
        cond=f"{column} <= {common_high}",
        bound=("<=", common_high),
        body=tuple(_copy(loop, q, inner.body) for q in range(factor)),
    )
    above = [columns(q, call("polyopt_max", [lows[q], f"{common_high} + 1"]), highs[q]) for q in range(factor)]
    return _blocks(loop, last, factor, (*decls, *below, common, *above)), JAM_HELPERS


def _fold(function: str, arguments: list[str]) -> str:
    """``function`` applied pairwise over ``arguments``: ``f(a, f(b, c))``."""
    text = arguments[-1]
    for argument in reversed(arguments[:-1]):
        text = call(function, [argument, text])
    return text
