"""Solves: forward or backward substitution with a triangular matrix (trisolv, ludcmp's solves):
``x[i] = b[i]; for (j = 0; j < i; j++) x[i] -= 0.25 * L[i][j] * x[j]; x[i] = ...;``.  The loops of
the nest are all the loops of its statements and form one two-member band with no parallel member,
so its tiles run as a wavefront when a loop over them starts threads
(``polyopt.analysis.parallel_loops.runs_wavefront``), and the inner loop updates ``x[i]`` as a
reduction (or, over ``int``, modulo a prime, as no reduction)."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Builder
from polyopt.fuzz.generator.program import MODULUS, Loop, Node, Stmt


def _update(ctype: str, x: str, matrix: str, compound: bool) -> str:
    """The statement of the inner loop: ``x[i]`` less a multiple of ``matrix[i][j] * x[j]`` (over ``int``,
    of ``x[j]`` plus ``matrix[i][j]``: no product of two reads)."""
    if ctype == "int":
        return f"{x}[i] = ({x}[i] - 3 * {x}[j] + {matrix}[i][j]) % {MODULUS};"
    if compound:
        return f"{x}[i] -= 0.25 * {matrix}[i][j] * {x}[j];"
    return f"{x}[i] = {x}[i] - 0.25 * {matrix}[i][j] * {x}[j];"


def _diagonal(ctype: str, x: str, matrix: str) -> str:
    """The statement after the inner loop (trisolv's division by the diagonal, here a scaling that keeps
    the values bounded)."""
    if ctype == "int":
        return f"{x}[i] = ({x}[i] + {matrix}[i][i]) % {MODULUS};"
    return f"{x}[i] = 0.5 * {x}[i] + 0.125 * {matrix}[i][i];"


def solves(builder: Builder) -> list[Node]:
    """One solve, forward (``j < i``) or backward (``i`` descending, ``j > i``), sometimes starting from a
    copy of a right-hand side, sometimes scaling by the diagonal after the inner loop."""
    rng = builder.rng
    ctype = rng.choice(("double", "double", "int"))
    x = builder.pool_array((ctype,), 1, writable=True)
    matrix = builder.pool_array((ctype,), 2, writable=False)
    if rng.random() < 0.3:
        outer, inner = "for (i = n - 1; i >= 0; i--)", "for (j = i + 1; j < n; j++)"
    else:
        outer, inner = "for (i = 0; i < n; i++)", "for (j = 0; j < i; j++)"
    body: list[Node] = [Loop(inner, (Stmt(_update(ctype, x.name, matrix.name, rng.random() < 0.5)),))]
    if rng.random() < 0.7:
        rhs = builder.pool_array((ctype,), 1, writable=False, avoid=(x,))
        body.insert(0, Stmt(f"{x.name}[i] = {rhs.name}[i];"))
    if rng.random() < 0.6:
        body.append(Stmt(_diagonal(ctype, x.name, matrix.name)))
    return [Loop(outer, tuple(body))]
