"""Sweeps: a time loop over out-of-place stencil sweeps that pass values from array to array
(jacobi-1d, jacobi-2d, fdtd-2d): ``B[j][k] = 0.2 * (A[j][k] + A[j][k - 1] + ...)``, then
``A[j][k] = 0.2 * (B[j][k] + ...)``.  isl skews such a nest into one band whose tiles run as a
wavefront, and the sweeps share the rows of a tile's point band until they are distributed
(``polyopt.transform.distribution``).  Sometimes one array is swept in place (seidel-2d's
Gauss-Seidel sweep): its innermost loop carries a recurrence, and its rows are jammed into it
where no dependence runs to a later row and an earlier column (``polyopt.transform.unroll_jam``).
Over three space dimensions (heat-3d) the band is too deep for a wavefront, and the time loop is
skewed along the outer space loop in tiles of whole planes (``polyopt.transform.stepping``)."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Affine, Builder, Ranges
from polyopt.fuzz.generator.program import ITERATORS, MODULUS, Array, Loop, Node, Stmt

Point = list[Affine]


def _space(builder: Builder, rank: int) -> tuple[list[str], Ranges]:
    """The headers of the space loops of one sweep and their ranges: from 1 (sometimes 2) to ``n - 1``
    (sometimes ``n`` or ``n - 2``), so that every neighbour stays within the pool's ``n + 4`` elements."""
    rng, n = builder.rng, builder.n
    headers: list[str] = []
    ranges: Ranges = {}
    for v in ITERATORS[1 : 1 + rank]:
        low = rng.choice((1, 1, 1, 2))
        trim = rng.choice((1, 1, 1, 0, 2))
        upper = Affine(n_coeff=1, const=-trim).render()
        headers.append(f"for ({v} = {low}; {v} < {upper}; {v}++)")
        ranges[v] = (low, n - 1 - trim)
    return headers, ranges


def _neighbours(builder: Builder, rank: int) -> list[Point]:
    """The centre and some of its neighbours at distance one along each dimension (all of them, or a
    one-sided few, as in fdtd-2d's differences)."""
    rng = builder.rng
    centre = [Affine(((v, 1),)) for v in ITERATORS[1 : 1 + rank]]
    points = [centre]
    for dim in range(rank):
        offsets = rng.choice(((-1, 1), (-1, 1), (-1,), (1,), ()))
        points += [[c.shifted(offset) if d == dim else c for d, c in enumerate(centre)] for offset in offsets]
    return points


def _element(array: Array, point: Point) -> str:
    return array.name + "".join(f"[{s.render()}]" for s in point)


def _sweep(builder: Builder, source: Array, target: Array, rank: int) -> Node:
    """One sweep: ``target`` at the centre from ``source`` around it, assigned or (fdtd-2d's
    updates) accumulated."""
    rng = builder.rng
    headers, ranges = _space(builder, rank)
    points = _neighbours(builder, rank)
    centre = points[0]
    reads = " + ".join(_element(source, point) for point in points)
    lhs = _element(target, centre)
    integer = target.ctype == "int" or source.ctype == "int"
    if rng.random() < 0.25:
        value = f"({lhs} + {reads}) % {MODULUS}" if integer else f"0.5 * {lhs} - 0.1 * ({reads})"
    else:
        value = f"({reads}) % {MODULUS}" if integer else f"0.2 * ({reads})"
    node: Node = Stmt(f"{lhs} = {value};")
    for header in reversed(headers):
        node = Loop(header, (node,))
    return node


def _boundary(builder: Builder, target: Array, rank: int, steps: int) -> Stmt:
    """A statement of the time loop beside the sweeps (fdtd-2d's ``ey[0][j] = _fict_[t]``), at element
    ``[t][0]`` (``steps`` is at most 5, the pool's arrays have ``n + 4`` elements)."""
    ranges: Ranges = {ITERATORS[0]: (0, steps - 1)}
    point = [Affine(((ITERATORS[0], 1),))] + [Affine(const=0)] * (rank - 1)
    source = builder.bounded_source(("int",) if target.ctype == "int" else ("double", "int"))
    return Stmt(f"{_element(target, point)} = {builder.access(source, ranges)};")


def sweeps(builder: Builder) -> list[Node]:
    """A time loop over two or three sweeps, each reading the array the previous one wrote, or over one
    sweep in place, over one, two or three space dimensions, sometimes with a statement beside them."""
    rng = builder.rng
    rank = rng.choice((1, 2, 2, 2, 3))
    ctype = rng.choice(("double", "double", "double", "int"))
    first = builder.pool_array((ctype,), rank, writable=True)
    second = builder.pool_array((ctype,), rank, writable=True, avoid=(first,))
    cycle = [first, second]
    if rng.random() < 0.3:
        cycle.append(builder.pool_array((ctype,), rank, writable=True, avoid=(first, second)))
    steps = rng.randint(2, 5)
    body = [_sweep(builder, source, cycle[(position + 1) % len(cycle)], rank) for position, source in enumerate(cycle)]
    if rng.random() < 0.25:
        body = [_sweep(builder, first, first, rank)]
    if builder.maybe(0.25):
        body.insert(rng.randrange(len(body) + 1), _boundary(builder, first, rank, steps))
    return [Loop(f"for ({ITERATORS[0]} = 0; {ITERATORS[0]} < {steps}; {ITERATORS[0]}++)", tuple(body))]
