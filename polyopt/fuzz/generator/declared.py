"""Temporaries declared in a loop body, stored at subscripts with a named constant."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Builder, Ranges, perfect_nest
from polyopt.fuzz.generator.program import MIN_N, MODULUS, Array, Loop, Size, Stmt


def constant_access(builder: Builder, array: Array, ranges: Ranges) -> str:
    """An access to ``array`` with one subscript modulo or divided by a named constant (``B[i % K0]``)."""
    rng = builder.rng
    if not builder.constants or rng.random() < 0.3:
        builder.constants.append(Size(f"K{len(builder.constants)}", rng.randint(2, MIN_N - 1)))
    constant = rng.choice(builder.constants)
    subscripts = [builder.subscript(array.lengths[dim], ranges).render() for dim in range(array.rank)]
    dim, name = rng.randrange(array.rank), rng.choice(list(ranges))
    subscripts[dim] = f"{name} {rng.choice(('%', '/'))} {constant.macro}"  # within [0, n - 1]: i >= 0
    return array.name + "".join(f"[{subscript}]" for subscript in subscripts)


def declared(builder: Builder) -> Loop:
    """Temporaries declared in a loop body, or an accumulator declared in an outer loop's body,
    stored at a subscript with a named constant (``constant_access``)."""
    rng = builder.rng
    depth = rng.choice((1, 2, 2, 3))
    headers, ranges = builder.headers(depth)
    target = rng.choice(builder.writable())
    ctype = target.ctype
    wrap = (lambda value: f"({value}) % {MODULUS}") if ctype == "int" else (lambda value: value)
    if depth >= 2 and rng.random() < 0.35:
        outer = dict(list(ranges.items())[:-1])
        update = wrap(f"v0 + {builder.term(ctype, ranges)}")
        inner = Loop(headers[-1], (Stmt(f"v0 = {update};"),))
        store = Stmt(f"{constant_access(builder, target, outer)} = {wrap(f'v0 + {builder.term(ctype, outer)}')};")
        return perfect_nest(headers[:-1], (Stmt(f"{ctype} v0 = 0;"), inner, store))
    body = [Stmt(f"{ctype} v0 = {builder.expression(ctype, ranges)};")]
    value = f"v0 + {builder.term(ctype, ranges)}"
    if rng.random() < 0.4:
        body.append(Stmt(f"{ctype} v1 = {wrap(f'v0 - {builder.term(ctype, ranges)}')};"))
        value = "v0 + v1"
    body.append(Stmt(f"{constant_access(builder, target, ranges)} = {wrap(value)};"))
    return perfect_nest(headers, tuple(body))
