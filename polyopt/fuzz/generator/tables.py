"""Tables: dynamic programs over a triangular table, each cell taking the best split between its ends
(matrix-chain order, optimal search trees, RNA folding): ``for i (down or up), for j from i + 1: for k:
T[i][j] = T[i][j] < T[i][k] + T[k + 1][j] ? T[i][j] : T[i][k] + T[k + 1][j];`` or ``if (v < T[i][j])
T[i][j] = v;``, sometimes with statements before or after the split loop that read the neighbours
``T[i + 1][j]``, ``T[i][j - 1]``, ``T[i + 1][j - 1]`` and a 1-D input.  The table's two loops form one
two-member band outside any loop, and the split loop below it is too small for threads, so its tiles run
as a wavefront when a loop over them starts threads (``polyopt.analysis.parallel_loops.runs_wavefront``).

Every subscript stays in bounds: ``i`` and ``j`` lie in ``[0, n)`` and the pool arrays have ``n + 4``
elements per dimension or more.  Values stay bounded: every integer store is reduced modulo ``MODULUS``
and no integer expression multiplies two reads; floating values add multiples of 1/8 and are never
scaled by a negative factor (no ``-0.0``, whose sign a min or max would pick by the order of its
candidates)."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Builder
from polyopt.fuzz.generator.program import MODULUS, Array, If, Loop, Node, Stmt

# the split loop and the two cells it combines: (header, left cell, right cell)
_SPLITS = (
    ("for (k = i; k < j; k++)", "[i][k]", "[k + 1][j]"),  # matrix chain: the halves [i, k] and [k + 1, j]
    ("for (k = i + 1; k < j; k++)", "[i][k]", "[k + 1][j]"),  # RNA folding's split
    ("for (k = i + 1; k < j; k++)", "[i][k]", "[k][j]"),  # polygon triangulation: both halves share k
    ("for (k = i; k <= j; k++)", "[i][k]", "[k][j]"),  # search trees over the roots k, ends included
)

# the rows of the table, backward (each row reads the rows below it, already final) or forward
_ROWS = (
    "for (i = n - 1; i >= 0; i--)",
    "for (i = n - 2; i >= 0; i--)",
    "for (i = 0; i < n; i++)",
    "for (i = 0; i < n - 1; i++)",
)


def _select(cell: str, value: str, ctype: str, best: str, ternary: bool) -> Node:
    """``cell`` becomes ``value`` when that is better (``best``: ``"min"`` or ``"max"``): a ternary select or
    a comparison ``if``; over ``int``, the stored value modulo ``MODULUS``."""
    better = "<" if best == "min" else ">"
    if ternary:
        select = f"{cell} {better} {value} ? {cell} : {value}"
        return Stmt(f"{cell} = ({select}) % {MODULUS};" if ctype == "int" else f"{cell} = {select};")
    stored = f"({value}) % {MODULUS}" if ctype == "int" else value
    return If(f"{value} {better} {cell}", (Stmt(f"{cell} = {stored};"),))


def _weight(builder: Builder, ctype: str, seq: Array) -> str:
    """A bounded term added to a split's cost: none, a constant, or the input at the split or at the ends."""
    rng = builder.rng
    form = rng.choice(("none", "constant", "split", "ends"))
    if form == "constant":
        return f" + {rng.randint(1, 3)}" if ctype == "int" else f" + {rng.choice(('0.125', '0.5', '1.25'))}"
    if form == "split":
        return f" + {seq.name}[k]" if ctype == "int" else f" + 0.25 * {seq.name}[k]"
    if form == "ends":
        if ctype == "int":
            return f" + {seq.name}[i] + {seq.name}[j]"
        return f" + 0.125 * ({seq.name}[i] + {seq.name}[j])"
    return ""


def _split_loop(builder: Builder, table: Array, seq: Array, best: str, ternary: bool) -> Loop:
    """The loop over the splits ``k`` of the cell ``T[i][j]``, keeping the best sum of two cells."""
    rng = builder.rng
    header, left, right = rng.choice(_SPLITS)
    pair = f"{table.name}{left} + {table.name}{right}"
    if table.ctype == "double" and rng.random() < 0.3:
        pair = f"0.5 * ({pair})"
    value = pair + _weight(builder, table.ctype, seq)
    return Loop(header, (_select(f"{table.name}[i][j]", value, table.ctype, best, ternary),))


def _match(ctype: str, seq: Array) -> str:
    """A bounded bonus when the input's ends pair up (RNA folding's base pairs)."""
    if ctype == "int":
        return f"({seq.name}[i] + {seq.name}[j] == 3 ? 1 : 0)"
    return f"({seq.name}[i] + {seq.name}[j] > 0.0 ? 1.0 : 0.0)"


def _neighbour(builder: Builder, table: Array, seq: Array, best: str, ternary: bool) -> Node:
    """A statement beside the split loop reading the cell's neighbours: the best of the cell and one
    neighbour (plus a bonus on the diagonal one), or a mix of the cell and a neighbour."""
    rng, name, ctype = builder.rng, table.name, table.ctype
    cell = f"{name}[i][j]"
    neighbour = rng.choice(("[i + 1][j]", "[i][j - 1]", "[i + 1][j - 1]"))
    if rng.random() < 0.3:
        if ctype == "int":
            return Stmt(f"{cell} = ({cell} + {name}{neighbour}) % {MODULUS};")
        return Stmt(f"{cell} = 0.5 * {cell} + 0.25 * {name}{neighbour};")
    value = f"{name}{neighbour}"
    if neighbour == "[i + 1][j - 1]":
        value += f" + {_match(ctype, seq)}"
    return _select(cell, value, ctype, best, ternary)


def tables(builder: Builder) -> list[Node]:
    """One table, its rows backward or forward, its cells the best (min or max, as a ternary or an ``if``)
    of their splits, sometimes with a statement reading the neighbours before or after the split loop."""
    rng = builder.rng
    ctype = rng.choice(("double", "int"))
    table = builder.pool_array((ctype,), 2, writable=True)
    seq = builder.pool_array((ctype,), 1, writable=False)
    best = rng.choice(("min", "max"))
    body: list[Node] = [_split_loop(builder, table, seq, best, rng.random() < 0.6)]
    if rng.random() < 0.5:
        body.insert(0, _neighbour(builder, table, seq, best, rng.random() < 0.6))
    if rng.random() < 0.4:
        body.append(_neighbour(builder, table, seq, best, rng.random() < 0.6))
    rows = rng.choices(_ROWS, weights=(3, 2, 2, 1))[0]
    return [Loop(rows, (Loop("for (j = i + 1; j < n; j++)", tuple(body)),))]
