"""A seeded generator of random affine C programs for differential fuzzing.

Public: ``ITERATORS``, ``MODULUS``, ``Stmt``, ``Loop``, ``If``, ``Node``, ``Array``, ``Program``,
``generate``, ``smaller_variants``.

``generate(seed)`` returns a ``Program``; ``Program.render()`` is a complete C file: a
``#define N`` between 5 and 13 used inside the region as the parameter ``n``, one to four
global arrays of one to three dimensions (``double`` or ``int``), two global scalars
(``double s``, ``int t``), a deterministic initialization, a kernel whose body is one
``#pragma scop`` region of one to four top-level nests, and a dump of every array and scalar.

The nests cover: loop nests of depth 1 to 4 with constant, parametric, triangular,
decreasing and stepped bounds; imperfect nesting (statements before or after an inner
loop, sibling inner loops); ``if`` guards; subscripts with offsets, transposes, diagonals
(``A[i][i]``), skews (``A[i + j]``), reversals (``A[n - 1 - i]``) and strides (``A[2 * i]``);
reductions into scalars (``s += ...``) and into vectors (``y[i] += A[i][j] * x[j]``);
in-place stencil updates under a time loop; lone statements between nests.

Every subscript is checked by interval arithmetic over the loop bounds, so every access
stays within bounds for every iteration.  Every integer store is reduced modulo
``MODULUS`` and no integer expression multiplies two reads, so integer arithmetic cannot
overflow.  A program runs in a few milliseconds.

The region is a tree of ``Loop``, ``If`` and ``Stmt`` nodes so that ``smaller_variants``
can delete or unwrap nodes one at a time (and drop unused arrays) for
the shrinker of ``polyopt.fuzz.campaign``.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, replace

ITERATORS = ("i", "j", "k", "m")
MODULUS = 1009  # every integer store is reduced modulo it
MIN_N = 5  # constant loop bounds stay below it


@dataclass(frozen=True)
class Stmt:
    text: str


@dataclass(frozen=True)
class Loop:
    header: str
    body: tuple[Node, ...]


@dataclass(frozen=True)
class If:
    condition: str
    body: tuple[Node, ...]


Node = Stmt | Loop | If


@dataclass(frozen=True)
class Array:
    name: str
    ctype: str  # "double" or "int"
    wide: tuple[bool, ...]  # per dimension: size 2N+4 instead of N+4

    def size(self, n: int, dim: int) -> int:
        return 2 * n + 4 if self.wide[dim] else n + 4

    def declared_size(self, dim: int) -> str:
        return "2 * N + 4" if self.wide[dim] else "N + 4"

    @property
    def rank(self) -> int:
        return len(self.wide)


@dataclass(frozen=True)
class Program:
    seed: int
    n: int
    arrays: tuple[Array, ...]
    nests: tuple[Node, ...]

    def render(self) -> str:
        lines = [f"/* polyopt fuzz program, seed {self.seed} */", "#include <stdio.h>", "", f"#define N {self.n}"]
        lines += ["#define n N", ""]
        for array in self.arrays:
            dims = "".join(f"[{array.declared_size(d)}]" for d in range(array.rank))
            lines.append(f"static {array.ctype} {array.name}{dims};")
        lines += ["static double s;", "static int t;", ""]
        lines += ["static void init(void)", "{", "  int i, j, k;", ""]
        for number, array in enumerate(self.arrays):
            lines += _init_lines(array, number)
        lines += ["  s = 0.25;", "  t = 3;", "}", ""]
        lines += ["static void kernel(void)", "{", f"  int {', '.join(ITERATORS)};", ""]
        lines.append("#pragma scop")
        for nest in self.nests:
            lines += _render_node(nest, 1)
        lines += ["#pragma endscop", "}", "", "static void dump(void)", "{", "  int i, j, k;", ""]
        for array in self.arrays:
            lines += _dump_lines(array)
        lines += ['  printf("begin dump: s\\n%.17g\\n", s);', '  printf("begin dump: t\\n%d\\n", t);']
        lines += ["}", "", "int main(void)", "{", "  init();", "  kernel();", "  dump();", "  return 0;", "}", ""]
        return "\n".join(lines)


def _loops(array: Array) -> tuple[list[str], str]:
    """Loop headers over every element of ``array``, and its element's access."""
    names = "ijk"[: array.rank]
    headers = [f"for ({v} = 0; {v} < {array.declared_size(d)}; {v}++)" for d, v in enumerate(names)]
    return headers, array.name + "".join(f"[{v}]" for v in names)


def _init_lines(array: Array, number: int) -> list[str]:
    headers, element = _loops(array)
    j = "j" if array.rank >= 2 else "0"
    k = "k" if array.rank >= 3 else "0"
    if array.ctype == "double":
        value = f"(double)((i * {3 + number} + {j} * 7 + {k} * 5 + {number}) % 17) / 8.0 - 1.0"
    else:
        value = f"(i * {5 + number} + {j} * 3 + {k} * 2 + {number}) % 11 - 5"
    lines = [f"  {'  ' * d}{header}" for d, header in enumerate(headers)]
    return [*lines, f"  {'  ' * len(headers)}{element} = {value};"]


def _dump_lines(array: Array) -> list[str]:
    headers, element = _loops(array)
    form = "%.17g " if array.ctype == "double" else "%d "
    lines = [f'  printf("begin dump: {array.name}\\n");']
    lines += [
        f"  {'  ' * d}{header} {{" if d == len(headers) - 1 else f"  {'  ' * d}{header}"
        for d, header in enumerate(headers)
    ]
    pad = "  " * len(headers)
    lines += [f'  {pad}printf("{form}", {element});', f"  {'  ' * (len(headers) - 1)}}}", '  printf("\\n");']
    return lines


def _render_node(node: Node, depth: int) -> list[str]:
    pad = "  " * depth
    if isinstance(node, Stmt):
        return [pad + node.text]
    head = node.header if isinstance(node, Loop) else f"if ({node.condition})"
    inner = [line for child in node.body for line in _render_node(child, depth + 1)]
    return [f"{pad}{head} {{", *inner, pad + "}"]


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


class _Builder:
    def __init__(self, rng: random.Random, n: int, arrays: tuple[Array, ...], statements: int) -> None:
        self.rng, self.n, self.arrays = rng, n, arrays
        self.spare = statements  # optional statements (imperfect nesting, siblings) stop when it runs out

    def maybe(self, probability: float) -> bool:
        """Whether to add an optional part (it costs one of the spare statements)."""
        if self.spare <= 0 or self.rng.random() >= probability:
            return False
        self.spare -= 1
        return True

    def _fits(self, subscripts: list[Affine], array: Array, ranges: Ranges) -> bool:
        for dim, subscript in enumerate(subscripts):
            low, high = subscript.bounds(ranges, self.n)
            if low < 0 or high > array.size(self.n, dim) - 1:
                return False
        return True

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
        if pattern is not None and self._fits(pattern, array, ranges):
            subscripts = pattern
        else:
            subscripts = [self.subscript(array.size(self.n, dim), ranges) for dim in range(array.rank)]
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
        candidates = [a for a in self.arrays if a.rank <= len(names)]
        if not candidates:
            return None
        array = self.rng.choice(candidates)
        centre = [Affine(((name, 1),)) for name in names[len(names) - array.rank :]]
        points = [centre]
        for dim in range(array.rank):
            for offset in (-1, 1):
                points.append([c.shifted(offset) if d == dim else c for d, c in enumerate(centre)])
        if not all(self._fits(point, array, ranges) for point in points):
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
        target = rng.choice(self.arrays)
        return self.store(self.access(target, ranges), target.ctype, ranges, update=kind == "update")

    # -- loops ------------------------------------------------------------------------------
    def header(self, v: str, ranges: Ranges) -> tuple[str, tuple[int, int]]:
        rng, n, outer = self.rng, self.n, list(ranges)
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

    def loop(self, level: int, depth: int, ranges: Ranges) -> Loop:
        """A loop nest of ``depth - level`` loops, possibly imperfect, possibly guarded."""
        rng, v = self.rng, ITERATORS[level]
        header, interval = self.header(v, ranges)
        inner = {**ranges, v: interval}
        body: list[Node] = []
        if level + 1 < depth:
            if self.maybe(0.25):
                body.append(self.statement(inner))
            body.append(self.loop(level + 1, depth, inner))
            if self.maybe(0.15):  # a sibling inner loop
                body.append(self.loop(level + 1, rng.randint(level + 2, depth), inner))
            if self.maybe(0.2):
                body.append(self.statement(inner))
        else:
            body.append(self.statement(inner))
            body += [self.statement(inner) for _ in range(rng.choice((0, 0, 1, 2))) if self.maybe(1.0)]
        if rng.random() < 0.15:
            body = [If(self.condition(inner), tuple(body))]
        return Loop(header, tuple(body))

    def accumulator(self) -> Loop:
        """``s = 0; for (...) s += e; X[...] = s;`` inside an outer loop."""
        target = self.rng.choice(self.arrays)
        scalar, zero = ("s", "0.0") if target.ctype == "double" else ("t", "0")
        outer_header, outer_interval = self.header("i", {})
        ranges = {"i": outer_interval}
        inner_header, inner_interval = self.header("j", ranges)
        inner_ranges = {**ranges, "j": inner_interval}
        reduce = self.store(scalar, target.ctype, inner_ranges, update=True)
        store = Stmt(f"{self.access(target, ranges)} = {scalar};")
        return Loop(outer_header, (Stmt(f"{scalar} = {zero};"), Loop(inner_header, (reduce,)), store))

    def reduction(self, depth: int) -> Loop:
        """A vector reduction ``y[i] += A[i][j] * x[j]``: the target indexed by the outer loops only."""
        rng = self.rng
        headers: list[str] = []
        ranges: Ranges = {}
        for level in range(depth):
            header, interval = self.header(ITERATORS[level], ranges)
            headers.append(header)
            ranges = {**ranges, ITERATORS[level]: interval}
        outer = dict(list(ranges.items())[: depth - 1])
        target = rng.choice(self.arrays)
        lhs = self.access(target, outer)
        node: Node = self.store(lhs, target.ctype, ranges, update=True)
        if target.ctype == "double" and rng.random() < 0.5:
            node = Stmt(f"{lhs} += {self.term('double', ranges)} * {self.term('double', ranges)};")
        for header in reversed(headers):
            node = Loop(header, (node,))
        assert isinstance(node, Loop)
        return node

    def stencil_nest(self) -> Loop | None:
        """A time loop over in-place stencil updates of one array (Gauss-Seidel style)."""
        rng = self.rng
        steps = rng.randint(2, 4)
        ranges: Ranges = {"i": (0, steps - 1)}
        space = rng.randint(1, 2)
        headers = [f"for (i = 0; i < {steps}; i++)"]
        for v in ITERATORS[1 : 1 + space]:
            headers.append(f"for ({v} = 1; {v} < n - 1; {v}++)")
            ranges[v] = (1, self.n - 2)
        space_ranges = {v: ranges[v] for v in ITERATORS[1 : 1 + space]}
        statement = self.stencil(space_ranges)
        if statement is None:
            return None
        body: tuple[Node, ...] = (statement,)
        if self.maybe(0.3):
            body += (self.statement(ranges),)
        node: Node = Loop(headers[-1], body)
        for header in reversed(headers[:-1]):
            node = Loop(header, (node,))
        assert isinstance(node, Loop)
        return node

    def nest(self) -> Node:
        rng = self.rng
        kind = rng.choices(("loops", "accumulator", "reduction", "stencil", "statement"), weights=(60, 10, 12, 10, 8))
        if kind[0] == "accumulator":
            return self.accumulator()
        if kind[0] == "reduction":
            return self.reduction(rng.randint(2, 3))
        if kind[0] == "stencil":
            stencil = self.stencil_nest()
            if stencil is not None:
                return stencil
        if kind[0] == "statement":
            return self.statement({})
        return self.loop(0, rng.choices((1, 2, 3, 4), weights=(20, 40, 30, 10))[0], {})


def generate(seed: int) -> Program:
    rng = random.Random(seed)
    n = rng.randint(MIN_N, 13)
    arrays = []
    for name in "ABCD"[: rng.choices((1, 2, 3, 4), weights=(20, 35, 30, 15))[0]]:
        rank = rng.choices((1, 2, 3), weights=(40, 45, 15))[0]
        wide = tuple(rank < 3 and rng.random() < 0.3 for _ in range(rank))
        arrays.append(Array(name, "double" if rng.random() < 0.7 else "int", wide))
    builder = _Builder(rng, n, tuple(arrays), rng.randint(0, 4))
    nests = [builder.nest() for _ in range(rng.choices((1, 2, 3, 4), weights=(30, 35, 25, 10))[0])]
    return Program(seed, n, tuple(arrays), tuple(nests))


def _without(nodes: tuple[Node, ...], path: tuple[int, ...], unwrap: bool) -> tuple[Node, ...]:
    """``nodes`` with the node at ``path`` deleted, or (``unwrap``) replaced by its body."""
    head, rest = path[0], path[1:]
    node = nodes[head]
    if not rest:
        inner = node.body if unwrap and isinstance(node, If) else ()
        return nodes[:head] + inner + nodes[head + 1 :]
    assert isinstance(node, Loop | If)
    return nodes[:head] + (replace(node, body=_without(node.body, rest, unwrap)),) + nodes[head + 1 :]


def _paths(nodes: tuple[Node, ...], prefix: tuple[int, ...] = ()) -> list[tuple[tuple[int, ...], Node]]:
    found = []
    for index, node in enumerate(nodes):
        found.append(((*prefix, index), node))
        if isinstance(node, Loop | If):
            found += _paths(node.body, (*prefix, index))
    return found


def _text(nodes: tuple[Node, ...]) -> str:
    return "\n".join(line for node in nodes for line in _render_node(node, 0))


def smaller_variants(program: Program) -> list[Program]:
    """Programs one step smaller than ``program``, most promising first.

    Each deletes one node of the region (a nest, loop, guard or statement), replaces a
    guard by its body, or drops an array the region does not use.  (``N`` stays: the
    subscripts were proved in bounds for it.)
    """
    variants = []
    for path, node in _paths(program.nests):
        variants.append(replace(program, nests=_without(program.nests, path, unwrap=False)))
        if isinstance(node, If):
            variants.append(replace(program, nests=_without(program.nests, path, unwrap=True)))
    region = _text(program.nests)
    for array in program.arrays:
        if not re.search(rf"\b{array.name}\b", region):
            variants.append(replace(program, arrays=tuple(a for a in program.arrays if a is not array)))
    return variants
