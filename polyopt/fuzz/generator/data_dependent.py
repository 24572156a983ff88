"""Data-dependent statements: scatters, gathers, running extrema and guards that read arrays."""

from __future__ import annotations

import re

from polyopt.fuzz.generator.builder import Builder, Ranges, perfect_nest
from polyopt.fuzz.generator.program import MODULUS, Array, If, Node, Stmt


def index(builder: Builder, ranges: Ranges) -> str:
    """A subscript read from an integer array (one the region may write): ``(G[i] % 7 + 7) % (n + 4)``,
    within every dimension of a pool array."""
    source = builder.pool_array(("int",), builder.rng.choice((1, 1, 2)), writable=builder.rng.random() < 0.5)
    return f"({builder.access(source, ranges)} % 7 + 7) % (n + 4)"


def indirect(builder: Builder, array: Array, ranges: Ranges) -> str:
    """An access to ``array`` with one subscript read from an integer array (``index``)."""
    indirect = builder.rng.randrange(array.rank)
    subscripts = [
        index(builder, ranges) if dim == indirect else builder.subscript(array.lengths[dim], ranges).render()
        for dim in range(array.rank)
    ]
    return array.name + "".join(f"[{subscript}]" for subscript in subscripts)


def guard(builder: Builder, ranges: Ranges, avoid: set[str]) -> str:
    """A condition that reads an array element (of an array not in ``avoid``) and maybe a scalar."""
    candidates = [array for array in builder.arrays if array.name not in avoid]
    if not candidates:
        candidates = [builder.bounded_source(("double", "float", "int"))]
    array = builder.rng.choice(candidates)
    element = builder.access(array, ranges)
    if array.ctype == "int":
        scalar = builder.rng.choice(("0", "1", "t")) if "t" not in avoid else "0"
        return builder.rng.choice((f"{element} > {scalar}", f"{element} % 2 == 0"))
    scalar = builder.rng.choice(("0.0", "-0.25", "s")) if "s" not in avoid else "0.0"
    return f"{element} {builder.rng.choice(('>', '<=', '<'))} {scalar}"


def data_dependent(builder: Builder) -> list[Node]:
    """A loop nest around a data-dependent statement: a scatter, a gather, a running extremum, or
    statements under a guard that reads an array (see the module docstring)."""
    rng = builder.rng
    headers, ranges = builder.headers(rng.choice((1, 1, 2, 2, 3)))
    kind = rng.choice(("scatter", "gather", "single", "block", "negated", "extremum"))
    if kind == "scatter":
        target = rng.choice(builder.writable())
        store = builder.store(indirect(builder, target, ranges), target.ctype, ranges, update=rng.random() < 0.6)
        return [perfect_nest(headers, (store,))]
    if kind == "gather":
        target = rng.choice(builder.writable())
        sources = [a for a in builder.arrays if target.ctype == "double" or a.ctype == "int"]
        read = indirect(builder, rng.choice(sources), ranges) if sources else "t"
        value = f"{read} + {builder.term(target.ctype, ranges)}"
        value = f"({value}) % {MODULUS}" if target.ctype == "int" else value
        return [perfect_nest(headers, (Stmt(f"{builder.access(target, ranges)} = {value};"),))]
    if kind == "extremum":
        source = builder.pool_array(("double", "float"), rng.choice((1, 2)), writable=False)
        element = builder.access(source, ranges)
        test = rng.choice((">", "<"))
        return [perfect_nest(headers, (If(f"{element} {test} s", (Stmt(f"s = {element};"),)),))]
    body = [builder.statement(ranges) for _ in range(1 if kind == "single" else rng.randint(2, 3))]
    written = {re.match(r"\s*(\w+)", stmt.text)[1] for stmt in body} if kind != "single" else set()
    condition = guard(builder, ranges, written)
    nodes: list[Node] = [If(condition, tuple(body))]
    if kind == "negated":  # a second if on the negated condition, read after the first's statements
        nodes.append(If(f"!({condition})", (builder.statement(ranges),)))
    return [perfect_nest(headers, tuple(nodes))]
