"""The generator's state and its building blocks: arrays, in-bounds subscripts, reads, statements,
loop headers and conditions."""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from polyopt.fuzz.generator.program import (
    HEAP,
    ITERATORS,
    MIN_N,
    MODULUS,
    PARAMETER,
    ROWS,
    STATIC,
    Array,
    Local,
    Loop,
    Node,
    Size,
    Stmt,
)

_NAMES = "EFGHIJKLMOPQRUVWXYZ"  # arrays beyond A to D (not N, the size macro; not S or T)
ZERO_LOOP = 0.03  # probability of a loop bounded by a size macro of 0 or 1


# An affine expression: coefficients per iterator, a coefficient of n, and a constant.
@dataclass(frozen=True)
class Affine:
    coeffs: tuple[tuple[str, int], ...] = ()
    n_coeff: int = 0
    const: int = 0

    def bounds(self, ranges: dict[str, tuple[int, int]], n: int) -> tuple[int, int]:
        low = high = self.n_coeff * n + self.const
        for name, coeff in self.coeffs:
            a, b = coeff * ranges[name][0], coeff * ranges[name][1]
            low, high = low + min(a, b), high + max(a, b)
        return low, high

    def shifted(self, offset: int) -> Affine:
        return replace(self, const=self.const + offset)

    def render(self) -> str:
        parts = [(c, v) for v, c in self.coeffs] + ([(self.n_coeff, "n")] if self.n_coeff else [])
        text = ""
        for c, v in parts:
            term = v if abs(c) == 1 else f"{abs(c)} * {v}"
            text += (" - " if c < 0 else " + ") + term if text else ("-" if c < 0 else "") + term
        if self.const or not text:
            text += (f" - {-self.const}" if self.const < 0 else f" + {self.const}") if text else str(self.const)
        return text


Ranges = dict[str, tuple[int, int]]  # iterator -> (lowest, highest) value, outermost first
Bound = tuple[str, int]  # a loop's upper bound (exclusive) in the region, and its value


class Builder:
    """The state of one program's generation: its random source, arrays, sizes and spare statements."""

    def __init__(self, rng: random.Random, n: int, statements: int) -> None:
        self.rng, self.n = rng, n
        self.arrays: list[Array] = []  # the pool: every nest may read them and write the writable ones
        self.extra: list[Array] = []  # the arrays of a nest with large sizes, which no other nest touches
        self.sizes: list[Size] = []
        self.spare = statements  # optional statements (imperfect nesting, siblings) stop when it runs out
        self.large = False  # a nest has large sizes already (at most one per program)
        self.symm = False  # a SYMM accumulates in s already (a second one sharing it is no SYMM)
        self.pointer_reach = 0  # how far the pointer p may move from its start
        self.constants: list[Size] = []  # named constants of the declared family
        self.macros: list[str] = []  # expression macros of the macros family: "W0 n-1", "F0(x) x*2"
        self.locals: list[Local] = []  # scalars of the kernel declared before the region (the written family)
        self.written = 0  # nests of the written family made so far

    def maybe(self, probability: float) -> bool:
        """Whether to add an optional part (it costs one of the spare statements)."""
        if self.spare <= 0 or self.rng.random() >= probability:
            return False
        self.spare -= 1
        return True

    def fits(self, subscripts: list[Affine], array: Array, ranges: Ranges) -> bool:
        for dim, subscript in enumerate(subscripts):
            low, high = subscript.bounds(ranges, self.n)
            if low < 0 or high > array.lengths[dim] - 1:
                return False
        return True

    def local(self, ctype: str, stem: str, value: str) -> str:
        """The name of a new scalar of the kernel (``stem`` and a number: ``c0``, ``q1``), declared before the
        region as ``ctype name = value;`` and printed after it."""
        name = f"{stem}{sum(local.name.startswith(stem) for local in self.locals)}"
        self.locals.append(Local(ctype, name, value))
        return name

    # -- arrays and sizes -------------------------------------------------------------------
    def size(self, value: int) -> Size:
        size = Size(f"SZ{len(self.sizes)}", value)
        self.sizes.append(size)
        return size

    def storage(self, rank: int) -> str:
        choice = self.rng.random()
        if choice < 0.6:
            return STATIC
        if choice < 0.72:
            return HEAP
        if choice < 0.86:
            return ROWS if rank >= 2 else HEAP
        return PARAMETER

    def _name(self) -> str:
        taken = {array.name for array in self.arrays + self.extra}
        return next(name for name in _NAMES if name not in taken)

    def add(self, ctype: str, wide: tuple[bool, ...], *, readonly: bool = False, name: str = "") -> Array:
        """A new pool array of ``N + 4`` (or, ``wide``, ``2 * N + 4``) elements per dimension."""
        extents = tuple("2 * N + 4" if w else "N + 4" for w in wide)
        lengths = tuple(2 * self.n + 4 if w else self.n + 4 for w in wide)
        array = Array(name or self._name(), ctype, extents, lengths, self.storage(len(wide)), readonly)
        self.arrays.append(array)
        return array

    def large_array(self, ctype: str, sizes: list[Size], *, readonly: bool) -> Array:
        """A new array of a nest with large sizes, ``sizes`` elements per dimension (one more when padded
        or empty, so that no dimension is 0)."""
        pads = [1 if size.value == 0 or self.rng.random() < 0.3 else 0 for size in sizes]
        extents = tuple(size.macro + (f" + {pad}" if pad else "") for size, pad in zip(sizes, pads, strict=True))
        lengths = tuple(size.value + pad for size, pad in zip(sizes, pads, strict=True))
        array = Array(self._name(), ctype, extents, lengths, self.storage(len(sizes)), readonly)
        self.extra.append(array)
        return array

    def writable(self) -> list[Array]:
        return [array for array in self.arrays if not array.readonly]

    def pool_array(self, ctypes: tuple[str, ...], rank: int, *, writable: bool, avoid: tuple[Array, ...] = ()) -> Array:
        """A pool array of one of ``ctypes`` and ``rank`` (writable if asked) other than ``avoid``, or a new one."""
        candidates = [
            array
            for array in self.arrays
            if array.ctype in ctypes and array.rank == rank and array not in avoid and not (writable and array.readonly)
        ]
        if candidates and self.rng.random() < 0.8:
            return self.rng.choice(candidates)
        wide = tuple(rank < 3 and self.rng.random() < 0.3 for _ in range(rank))
        return self.add(self.rng.choice(ctypes), wide, readonly=not writable)

    def bounded_source(self, ctypes: tuple[str, ...]) -> Array:
        """A read-only pool array (its values stay those of the initialization) of one of ``ctypes``, or a new one."""
        candidates = [array for array in self.arrays if array.readonly and array.ctype in ctypes]
        if candidates and self.rng.random() < 0.85:
            return self.rng.choice(candidates)
        return self.add(self.rng.choice(ctypes), (self.rng.random() < 0.3,) * self.rng.randint(1, 2), readonly=True)

    # -- subscripts and reads ------------------------------------------------------------
    def subscript(self, size: int, ranges: Ranges) -> Affine:
        """One random in-bounds subscript of a dimension of ``size`` elements."""
        rng, names = self.rng, list(ranges)
        for _ in range(12):
            choice = rng.random()
            if not names or choice < 0.05:
                candidate = Affine(const=rng.randint(0, 2))
            elif choice < 0.65:
                candidate = Affine(((rng.choice(names), 1),), const=rng.choice((-1, 0, 0, 1)))
            elif choice < 0.8 and len(names) >= 2:
                u, v = rng.sample(names, 2)
                candidate = Affine(((u, 1), (v, 1)), const=rng.choice((-1, 0, 1)))
            elif choice < 0.95:
                candidate = Affine(((rng.choice(names), -1),), n_coeff=1, const=-1)
            else:
                candidate = Affine(((rng.choice(names), 2),), const=rng.choice((0, 1)))
            low, high = candidate.bounds(ranges, self.n)
            if low >= 0 and high <= size - 1:
                return candidate
        return Affine(((names[0], 1),)) if names else Affine()

    def _pattern(self, array: Array, ranges: Ranges) -> list[Affine] | None:
        """Subscripts that follow one access pattern over the iterators, or None."""
        rng, names, rank = self.rng, list(ranges), array.rank
        if not names:
            return None
        kind = rng.choices(("aligned", "transposed", "diagonal", "skewed"), weights=(50, 20, 15, 15))[0]
        if kind == "diagonal":  # A[i][i]
            name = rng.choice(names)
            return [Affine(((name, 1),), const=rng.choice((0, 0, 1))) for _ in range(rank)]
        picked = sorted(rng.sample(range(len(names)), min(rank, len(names))))
        chosen = [names[p] for p in picked]
        chosen += [rng.choice(names) for _ in range(rank - len(chosen))]
        if kind == "transposed":  # A[j][i]
            chosen.reverse()
        subscripts = [Affine(((name, 1),), const=rng.choice((-1, 0, 0, 0, 1))) for name in chosen]
        if kind == "skewed" and len(names) >= 2:  # A[i + j]
            dim = rng.randrange(rank)
            other = rng.choice([name for name in names if name != chosen[dim]])
            subscripts[dim] = Affine(((chosen[dim], 1), (other, 1)), const=rng.choice((-1, 0)))
        return subscripts

    def access(self, array: Array, ranges: Ranges) -> str:
        pattern = self._pattern(array, ranges) if self.rng.random() < 0.75 else None
        if pattern is not None and self.fits(pattern, array, ranges):
            subscripts = pattern
        else:
            subscripts = [self.subscript(array.lengths[dim], ranges) for dim in range(array.rank)]
        return array.name + "".join(f"[{s.render()}]" for s in subscripts)

    def term(self, ctype: str, ranges: Ranges) -> str:
        rng = self.rng
        choice = rng.random()
        if choice < 0.12:
            return rng.choice(("0.5", "1.25", "2.0", "-0.75")) if ctype == "double" else str(rng.randint(1, 3))
        if choice < 0.2:
            read = rng.choice(("s", "t")) if ctype == "double" else "t"
        else:
            sources = [a for a in self.arrays if ctype == "double" or a.ctype == "int"]
            read = self.access(rng.choice(sources), ranges) if sources else "t"
        if rng.random() < 0.25:
            factor = rng.choice(("0.5", "3.0", "-1.5")) if ctype == "double" else str(rng.randint(-3, 3))
            return f"{factor} * {read}"
        return read

    def expression(self, ctype: str, ranges: Ranges) -> str:
        text = self.term(ctype, ranges)
        for _ in range(self.rng.randint(0, 2)):
            operators = ("+", "-", "*") if ctype == "double" else ("+", "-")
            text += f" {self.rng.choice(operators)} {self.term(ctype, ranges)}"
        return text if ctype == "double" else f"({text}) % {MODULUS}"

    def store(self, lhs: str, ctype: str, ranges: Ranges, update: bool) -> Stmt:
        """``lhs = e`` or an update of ``lhs`` (``+=`` for doubles, modulo for integers)."""
        value = self.expression(ctype, ranges)
        if not update:
            return Stmt(f"{lhs} = {value};")
        if ctype == "int":
            return Stmt(f"{lhs} = ({lhs} + {value}) % {MODULUS};")
        return Stmt(f"{lhs} {self.rng.choice(('+=', '+=', '-='))} {value};")

    def stencil(self, ranges: Ranges) -> Stmt | None:
        """An in-place update from the neighbours: ``A[i] = 0.25 * (A[i - 1] + A[i] + A[i + 1])``."""
        names = list(ranges)
        candidates = [a for a in self.writable() if a.rank <= len(names)]
        if not candidates:
            return None
        array = self.rng.choice(candidates)
        centre = [Affine(((name, 1),)) for name in names[len(names) - array.rank :]]
        points = [centre]
        for dim in range(array.rank):
            for offset in (-1, 1):
                points.append([c.shifted(offset) if d == dim else c for d, c in enumerate(centre)])
        if not all(self.fits(point, array, ranges) for point in points):
            return None
        reads = [array.name + "".join(f"[{s.render()}]" for s in point) for point in points]
        total = " + ".join(reads)
        value = f"0.2 * ({total})" if array.ctype == "double" else f"({total}) % {MODULUS}"
        return Stmt(f"{reads[0]} = {value};")

    def statement(self, ranges: Ranges) -> Stmt:
        rng = self.rng
        kind = rng.choices(("assign", "update", "scalar", "stencil"), weights=(45, 35, 10, 10))[0]
        if kind == "stencil":
            stencil = self.stencil(ranges)
            if stencil is not None:
                return stencil
        if kind == "scalar":
            ctype = rng.choice(("double", "int"))
            return self.store("s" if ctype == "double" else "t", ctype, ranges, update=True)
        target = rng.choice(self.writable())
        return self.store(self.access(target, ranges), target.ctype, ranges, update=kind == "update")

    # -- loops ------------------------------------------------------------------------------
    def header(self, v: str, ranges: Ranges) -> tuple[str, tuple[int, int]]:
        rng, n, outer = self.rng, self.n, list(ranges)
        if rng.random() < ZERO_LOOP:  # a size macro of 0 (an empty loop: its body is checked for one iteration) or 1
            size = self.size(rng.choice((0, 0, 1)))
            return f"for ({v} = 0; {v} < {size.name}; {v}++)", (0, 0)
        low, trim = rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1, 2))
        kind = rng.random()
        if outer and kind < 0.3:  # triangular
            u = rng.choice(outer)
            u_low, u_high = ranges[u]
            form = rng.randrange(5)
            if form == 0:
                return f"for ({v} = {low}; {v} <= {u}; {v}++)", (low, u_high)
            if form == 1:
                return f"for ({v} = {low}; {v} < {u}; {v}++)", (low, u_high - 1)
            if form == 2:
                bound = Affine(const=-trim, n_coeff=1).render()
                return f"for ({v} = {u} + 1; {v} < {bound}; {v}++)", (u_low + 1, n - 1 - trim)
            if form == 3:
                return f"for ({v} = {u}; {v} >= {low}; {v}--)", (low, u_high)
            return f"for ({v} = {u}; {v} <= {u} + 2 && {v} < n; {v}++)", (u_low, min(u_high + 2, n - 1))
        if kind < 0.42:  # decreasing
            start = Affine(n_coeff=1, const=-1 - trim).render()
            return f"for ({v} = {start}; {v} >= {low}; {v}--)", (low, n - 1 - trim)
        if kind < 0.5:  # constant
            high = rng.randint(low + 2, MIN_N - 1)
            return f"for ({v} = {low}; {v} < {high}; {v}++)", (low, high - 1)
        if kind < 0.56:  # stepped
            bound = Affine(n_coeff=1, const=-trim).render()
            return f"for ({v} = {low}; {v} < {bound}; {v} += 2)", (low, n - 1 - trim)
        if trim and rng.random() < 0.5:
            bound = Affine(n_coeff=1, const=-1 - trim).render()
            return f"for ({v} = {low}; {v} <= {bound}; {v}++)", (low, n - 1 - trim)
        bound = Affine(n_coeff=1, const=-trim).render()
        return f"for ({v} = {low}; {v} < {bound}; {v}++)", (low, n - 1 - trim)

    def headers(self, depth: int) -> tuple[list[str], Ranges]:
        """``depth`` random loop headers over ``i``, ``j``, ..., and their iterators' ranges."""
        headers: list[str] = []
        ranges: Ranges = {}
        for level in range(depth):
            header, interval = self.header(ITERATORS[level], ranges)
            headers.append(header)
            ranges = {**ranges, ITERATORS[level]: interval}
        return headers, ranges

    def condition(self, ranges: Ranges) -> str:
        rng, names = self.rng, list(ranges)
        form = rng.randrange(6)
        if form == 0 and len(names) >= 2:
            u, v = rng.sample(names, 2)
            return f"{u} {rng.choice(('<', '<=', '>', '>='))} {v}"
        if form == 1 and len(names) >= 2:
            u, v = rng.sample(names, 2)
            return f"{u} + {v} {rng.choice(('<', '<=', '>='))} n"
        if form == 2:
            return f"2 * {rng.choice(names)} {rng.choice(('<', '>='))} n"
        if form == 3:
            return f"{rng.choice(names)} % 2 == {rng.randint(0, 1)}"
        if form == 4:
            u = rng.choice(names)
            return f"{u} >= 1 {rng.choice(('&&', '||'))} {rng.choice(names)} < n - 2"
        return f"{rng.choice(names)} {rng.choice(('>=', '<=', '=='))} {rng.randint(1, 4)}"


def perfect_nest(headers: list[str], body: tuple[Node, ...]) -> Loop:
    """Perfectly nested loops with ``headers``, outermost first, around ``body``."""
    node: Node = Loop(headers[-1], body)
    for header in reversed(headers[:-1]):
        node = Loop(header, (node,))
    assert isinstance(node, Loop)
    return node
