"""Scalars kept in place: ``w = A[i][j]; w -= A[i][k] * A[k][j]; A[i][j] = w;``."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Affine, Builder, Ranges
from polyopt.fuzz.generator.loops import loop
from polyopt.fuzz.generator.program import MODULUS, If, Loop, Node, Stmt


def in_place(builder: Builder) -> list[Node]:
    """``w = A[i][j]; for (k ...) w -= A[i][k] * A[k][j]; A[i][j] = w;`` with the load, the store or
    both possibly under an ``if``, usually followed by a later write of ``w``."""
    rng = builder.rng
    integer = rng.random() < 0.3
    ctype, scalar = ("int", "t") if integer else ("double", "s")
    target = builder.pool_array((ctype,), 2, writable=True)
    i_header, i_range = builder.header("i", {})
    ranges: Ranges = {"i": i_range}
    j_header, j_range = ("for (j = 0; j < i; j++)", (0, i_range[1] - 1))
    if rng.random() < 0.4:
        j_header, j_range = builder.header("j", ranges)
    ranges = {**ranges, "j": j_range}
    k_header, k_range = ("for (k = 0; k < j; k++)", (0, j_range[1] - 1))
    if rng.random() < 0.4:
        k_header, k_range = builder.header("k", ranges)
    inner = {**ranges, "k": k_range}
    i, j, k = (Affine(((v, 1),)) for v in "ijk")
    element = f"{target.name}[i][j]"
    if not (builder.fits([i, j], target, ranges) and all(builder.fits(s, target, inner) for s in ([i, k], [k, j]))):
        return [loop(builder, 0, 3, {})]
    if integer:  # no product of reads: the values of the chain stay far from overflowing
        update = f"t -= {target.name}[i][k];"
    elif rng.random() < 0.6:
        update = f"s -= {target.name}[i][k] * {target.name}[k][j];"
    else:
        update = f"s -= {builder.term('double', inner)} * {target.name}[k][j];"
    load: Node = Stmt(f"{scalar} = {element};")
    stored = f"{scalar} % {MODULUS}" if integer else rng.choice((scalar, scalar, f"{scalar} * 0.5"))
    store: Node = Stmt(f"{element} = {stored};")
    guarded = rng.choice(("none", "load", "load", "store", "store", "both"))
    if guarded in ("load", "both"):
        load = If(builder.condition(ranges), (load,))
    if guarded in ("store", "both"):
        store = If(builder.condition(ranges), (store,))
    body: list[Node] = [load, Loop(k_header, (Stmt(update),))]
    if not integer and builder.maybe(0.3):
        body.append(Stmt(f"s += {builder.term('double', ranges)};"))
    nodes: list[Node] = [Loop(i_header, (Loop(j_header, (*body, store)),))]
    if rng.random() < 0.8:  # the scalar's last value is dead
        nodes.append(Stmt(f"{scalar} = {'2' if integer else '0.25'};"))
    return nodes
