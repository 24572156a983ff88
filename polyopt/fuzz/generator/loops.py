"""Loop nests: general (imperfect, guarded), a scalar accumulator, a vector reduction, an in-place stencil."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Builder, Ranges, perfect_nest
from polyopt.fuzz.generator.program import ITERATORS, If, Loop, Node, Stmt


def loop(builder: Builder, level: int, depth: int, ranges: Ranges) -> Loop:
    """A loop nest of ``depth - level`` loops, possibly imperfect, possibly guarded."""
    rng, v = builder.rng, ITERATORS[level]
    header, interval = builder.header(v, ranges)
    inner = {**ranges, v: interval}
    body: list[Node] = []
    if level + 1 < depth:
        if builder.maybe(0.25):
            body.append(builder.statement(inner))
        body.append(loop(builder, level + 1, depth, inner))
        if builder.maybe(0.15):  # a sibling inner loop
            body.append(loop(builder, level + 1, rng.randint(level + 2, depth), inner))
        if builder.maybe(0.2):
            body.append(builder.statement(inner))
    else:
        body.append(builder.statement(inner))
        body += [builder.statement(inner) for _ in range(rng.choice((0, 0, 1, 2))) if builder.maybe(1.0)]
    if rng.random() < 0.15:
        body = [If(builder.condition(inner), tuple(body))]
    return Loop(header, tuple(body))


def accumulator(builder: Builder) -> Loop:
    """``s = 0; for (...) s += e; X[...] = s;`` inside an outer loop."""
    target = builder.rng.choice(builder.writable())
    scalar, zero = ("s", "0.0") if target.ctype == "double" else ("t", "0")
    outer_header, outer_interval = builder.header("i", {})
    ranges = {"i": outer_interval}
    inner_header, inner_interval = builder.header("j", ranges)
    inner_ranges = {**ranges, "j": inner_interval}
    reduce = builder.store(scalar, target.ctype, inner_ranges, update=True)
    store = Stmt(f"{builder.access(target, ranges)} = {scalar};")
    return Loop(outer_header, (Stmt(f"{scalar} = {zero};"), Loop(inner_header, (reduce,)), store))


def reduction(builder: Builder, depth: int) -> Loop:
    """A vector reduction ``y[i] += A[i][j] * x[j]``: the target indexed by the outer loops only."""
    rng = builder.rng
    headers, ranges = builder.headers(depth)
    outer = dict(list(ranges.items())[: depth - 1])
    target = rng.choice(builder.writable())
    lhs = builder.access(target, outer)
    node: Node = builder.store(lhs, target.ctype, ranges, update=True)
    if target.ctype == "double" and rng.random() < 0.5:
        node = Stmt(f"{lhs} += {builder.term('double', ranges)} * {builder.term('double', ranges)};")
    return perfect_nest(headers, (node,))


def stencil_nest(builder: Builder) -> Loop | None:
    """A time loop over in-place stencil updates of one array (Gauss-Seidel style)."""
    rng = builder.rng
    steps = rng.randint(2, 4)
    ranges: Ranges = {"i": (0, steps - 1)}
    space = rng.randint(1, 2)
    headers = [f"for (i = 0; i < {steps}; i++)"]
    for v in ITERATORS[1 : 1 + space]:
        headers.append(f"for ({v} = 1; {v} < n - 1; {v}++)")
        ranges[v] = (1, builder.n - 2)
    space_ranges = {v: ranges[v] for v in ITERATORS[1 : 1 + space]}
    statement = builder.stencil(space_ranges)
    if statement is None:
        return None
    body: tuple[Node, ...] = (statement,)
    if builder.maybe(0.3):
        body += (builder.statement(ranges),)
    return perfect_nest(headers, body)
