"""Pivot updates: ``for k, for i, for j: A[i][j] = A[i][j] < A[i][k] + A[k][j] ? A[i][j] : A[i][k] + A[k][j];``
and kin, whose loops carry dependences only through the hyperplane on which the pivot is written (the
index-set splits of ``polyopt.analysis.splitting``)."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Affine, Builder, Ranges, perfect_nest
from polyopt.fuzz.generator.program import MODULUS, Array, If, Loop, Node, Stmt

Subscripts = tuple[Affine, Affine]


def _var(name: str, const: int = 0) -> Affine:
    return Affine(((name, 1),), const=const)


def _reversed(name: str) -> Affine:
    """``n - 1 - name``."""
    return Affine(((name, -1),), n_coeff=1, const=-1)


def _element(array: Array, subscripts: Subscripts) -> str:
    return array.name + "".join(f"[{s.render()}]" for s in subscripts)


def _inner_header(builder: Builder, v: str, u: str, ranges: Ranges) -> tuple[str, tuple[int, int]]:
    """A header of loop ``v`` over ``[0, n)``, or triangular on the outer iterator ``u``: from ``u``,
    from ``u + 1`` or below ``u`` (LU's bounds)."""
    rng, n = builder.rng, builder.n
    u_low, u_high = ranges[u]
    forms = ["full", "from", "after"] + (["below"] if u_high >= 1 else [])
    form = rng.choices(forms, weights=(5, 2, 2, 1)[: len(forms)])[0]
    if form == "from":
        return f"for ({v} = {u}; {v} < n; {v}++)", (u_low, n - 1)
    if form == "after":
        return f"for ({v} = {u} + 1; {v} < n; {v}++)", (min(u_low + 1, n - 1), n - 1)
    if form == "below":
        return f"for ({v} = 0; {v} < {u}; {v}++)", (0, u_high - 1)
    return f"for ({v} = 0; {v} < n; {v}++)", (0, n - 1)


def _headers(builder: Builder, depth: int) -> tuple[list[str], Ranges]:
    """``for k, for i, for j`` (``depth`` 3, ``k`` ascending or descending) or ``for i, for j``."""
    rng, n = builder.rng, builder.n
    low, trim = rng.choice((0, 0, 1)), rng.choice((0, 0, 1))
    outer = "k" if depth == 3 else "i"
    if rng.random() < 0.15:
        header = f"for ({outer} = {Affine(n_coeff=1, const=-1 - trim).render()}; {outer} >= {low}; {outer}--)"
    else:
        header = f"for ({outer} = {low}; {outer} < {Affine(n_coeff=1, const=-trim).render()}; {outer}++)"
    headers, ranges = [header], {outer: (low, n - 1 - trim)}
    for v in ("i", "j") if depth == 3 else ("j",):
        header, interval = _inner_header(builder, v, outer, ranges)
        headers.append(header)
        ranges = {**ranges, v: interval}
    return headers, ranges


def _pivot_subscripts(builder: Builder, depth: int) -> list[Subscripts]:
    """Elements that the nest writes on a hyperplane of its inner loops, read by every iteration of them:
    pivot rows and columns (offset by -1 to 1), a constant or a reversed row or column, the diagonal."""
    rng, i, j = builder.rng, _var("i"), _var("j")
    first, last = Affine(), Affine(n_coeff=1, const=-1)
    if depth == 3:
        k = _var("k", rng.choice((-1, 0, 0, 0, 1)))
        return [(i, k), (k, j), (k, k), (i, first), (i, last), (first, j), (last, j), (i, _reversed("k"))]
    diagonal = _var("i", rng.choice((-1, 0, 0, 1)))
    return [(i, first), (i, last), (first, j), (last, j), (i, diagonal), (i, _reversed("i"))]


def _pivots(builder: Builder, target: Array, depth: int, ranges: Ranges) -> list[str]:
    """One or two in-bounds pivot reads of ``target`` (``A[i][0]`` is always in bounds: pool arrays have
    ``n + 4`` elements per dimension or more)."""
    rng = builder.rng
    candidates = [s for s in _pivot_subscripts(builder, depth) if builder.fits(list(s), target, ranges)]
    count = min(len(candidates), rng.choice((1, 2, 2)))
    return [_element(target, s) for s in rng.sample(candidates, count)]


def _second(builder: Builder, target: Array, ranges: Ranges) -> str:
    """The second operand of a pivot update with one pivot: a small constant or a bounded input."""
    rng = builder.rng
    integer = target.ctype == "int"
    if rng.random() < 0.7:
        return str(rng.randint(1, 3)) if integer else rng.choice(("0.5", "1.25", "0.75"))
    return builder.access(builder.bounded_source(("int",) if integer else ("double", "int")), ranges)


def _update(builder: Builder, target: Array, pivots: list[str], ranges: Ranges) -> Stmt:
    """``A[i][j]`` updated in place from ``pivots``: a min or max select (``x < y ? x : y``) of a sum, a mean
    or a scaled product.  Values stay bounded: integers modulo ``MODULUS`` (no product of two integer
    reads); a floating sum of two pivots (min-plus, which may double a value per step) is often halved."""
    rng = builder.rng
    x, p = f"{target.name}[i][j]", pivots[0]
    q = pivots[1] if len(pivots) > 1 else _second(builder, target, ranges)
    total = f"{p} {rng.choice(('+', '+', '-'))} {q}"
    if len(pivots) > 1 and target.ctype == "double" and rng.random() < 0.5:
        total = f"0.5 * ({total})"
    form = rng.choice(("min", "min", "max", "other"))
    if form != "other":
        select = f"{x} {'<' if form == 'min' else '>'} {total} ? {x} : {total}"
        return Stmt(f"{x} = ({select}) % {MODULUS};" if target.ctype == "int" else f"{x} = {select};")
    if target.ctype == "int":
        return Stmt(f"{x} = ({x} + {rng.randint(1, 3)} * {p} - {q}) % {MODULUS};")
    if rng.random() < 0.5:
        return Stmt(f"{x} = 0.5 * ({x} + {total});")
    return Stmt(f"{x} = 0.5 * {x} - 0.25 * {p} * {q};")


def _companion(builder: Builder, target: Array, pivots: list[str], ranges: Ranges) -> Stmt:
    """A second statement of the innermost body: one that reads a pivot (its dependence on the update is
    carried by the innermost loop, which blocks the inner split) or a random one."""
    rng = builder.rng
    if rng.random() < 0.4:
        return builder.statement(ranges)
    other = builder.pool_array((target.ctype,), 2, writable=True, avoid=(target,))
    y = f"{other.name}[i][j]"
    if target.ctype == "int":
        return Stmt(f"{y} = ({y} + {pivots[0]}) % {MODULUS};")
    return Stmt(f"{y} = 0.5 * {y} + {pivots[0]};")


def _guard(builder: Builder, ranges: Ranges) -> str:
    """A random condition, or one on the hyperplane (``j != k``, ``i > k``)."""
    rng = builder.rng
    if rng.random() < 0.5:
        return builder.condition(ranges)
    u, v = rng.sample(list(ranges), 2)
    return f"{u} {rng.choice(('!=', '>', '<=', '=='))} {v}"


def pivot_updates(builder: Builder) -> list[Node]:
    """A ``for k, for i, for j`` (or ``for i, for j``) nest updating ``A[i][j]`` in place from pivot elements
    the nest writes on a hyperplane, sometimes with triangular bounds, a second statement in the innermost
    body, a statement between the loops, or a guard."""
    rng = builder.rng
    depth = rng.choice((2, 3, 3))
    target = builder.pool_array(("double", "double", "int"), 2, writable=True)
    headers, ranges = _headers(builder, depth)
    pivots = _pivots(builder, target, depth, ranges)
    body: list[Node] = [_update(builder, target, pivots, ranges)]
    if builder.maybe(0.3):
        companion = _companion(builder, target, pivots, ranges)
        body = [*body, companion] if rng.random() < 0.6 else [companion, *body]
    if rng.random() < 0.2:
        body = [If(_guard(builder, ranges), tuple(body))]
    inner = Loop(headers[-1], tuple(body))
    if depth == 3 and builder.maybe(0.15):  # a statement beside the innermost loop: no outer split
        outer = {v: ranges[v] for v in ("k", "i")}
        beside = builder.statement(outer)
        return [perfect_nest(headers[:-1], (beside, inner) if rng.random() < 0.5 else (inner, beside))]
    return [perfect_nest(headers[:-1], (inner,))]
