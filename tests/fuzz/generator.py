"""A seeded generator of random affine C programs for differential fuzzing.

``generate(seed)`` returns a ``Program``; ``Program.render()`` is a complete C file: a
``#define N`` between 5 and 13 used inside the region as the parameter ``n``, one to
three global arrays of one or two dimensions (``double`` or ``int``), a deterministic
initialization, a kernel whose body is one ``#pragma scop`` region of one to three loop
nests, and a dump of every array.  Every subscript is checked by interval arithmetic
over the loop bounds, so every access stays within bounds for every iteration.  Integer
statements reduce their value modulo a small prime and never multiply two reads, so
integer arithmetic cannot overflow.

The region is a tree of ``Loop``, ``If`` and ``Stmt`` nodes so that ``shrink`` (see
``tests.fuzz.__main__``) can delete nodes one at a time and re-render.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

ITERATORS = ("i", "j", "k")
MODULUS = 1009  # integer statement values stay below it in magnitude


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
            dims = "".join(f"[{array.declared_size(d)}]" for d in range(len(array.wide)))
            lines.append(f"static {array.ctype} {array.name}{dims};")
        lines += ["", "static void init(void)", "{", "  int i, j;", ""]
        for number, array in enumerate(self.arrays):
            lines += _init_lines(array, number)
        lines += ["}", "", "static void kernel(void)", "{", "  int i, j, k;", "  double s = 0.0;", "  int t = 0;", ""]
        lines.append("#pragma scop")
        for nest in self.nests:
            lines += _render_node(nest, 1)
        lines += [
            "#pragma endscop",
            "  (void)s;",
            "  (void)t;",
            "}",
            "",
            "static void dump(void)",
            "{",
            "  int i, j;",
            "",
        ]
        for array in self.arrays:
            lines += _dump_lines(array)
        lines += ["}", "", "int main(void)", "{", "  init();", "  kernel();", "  dump();", "  return 0;", "}", ""]
        return "\n".join(lines)


def _loops(array: Array) -> tuple[list[str], str]:
    """Loop headers over every element of ``array``, and its element's access."""
    headers = [
        f"for ({v} = 0; {v} < {array.declared_size(d)}; {v}++)"
        for d, v in zip(range(len(array.wide)), "ij", strict=False)
    ]
    return headers, array.name + "".join(f"[{v}]" for v in "ij"[: len(array.wide)])


def _init_lines(array: Array, number: int) -> list[str]:
    headers, element = _loops(array)
    j = "j" if len(array.wide) == 2 else "0"
    if array.ctype == "double":
        value = f"(double)((i * {3 + number} + {j} * 7 + {number}) % 17) / 8.0 - 1.0"
    else:
        value = f"(i * {5 + number} + {j} * 3 + {number}) % 11 - 5"
    lines = [f"  {'  ' * d}{header}" for d, header in enumerate(headers)]
    return [*lines, f"  {'  ' * len(headers)}{element} = {value};"]


def _dump_lines(array: Array) -> list[str]:
    headers, element = _loops(array)
    form = "%.17g " if array.ctype == "double" else "%d "
    lines = [f'  printf("begin dump: {array.name}\\n");']
    lines += [
        f"  {'  ' * d}{header} {{" if d == len(headers) - 1 else f"  {header}" for d, header in enumerate(headers)
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

    def render(self) -> str:
        parts = [(c, v) for v, c in self.coeffs] + ([(self.n_coeff, "n")] if self.n_coeff else [])
        text = ""
        for c, v in parts:
            term = v if abs(c) == 1 else f"{abs(c)} * {v}"
            text += (" - " if c < 0 else " + ") + term if text else ("-" if c < 0 else "") + term
        if self.const or not text:
            text += (f" - {-self.const}" if self.const < 0 else f" + {self.const}") if text else str(self.const)
        return text


class _Builder:
    def __init__(self, rng: random.Random, n: int, arrays: tuple[Array, ...]) -> None:
        self.rng, self.n, self.arrays = rng, n, arrays

    # -- subscripts and reads ------------------------------------------------------------
    def subscript(self, size: int, ranges: dict[str, tuple[int, int]]) -> Affine:
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
            elif choice < 0.9:
                candidate = Affine(((rng.choice(names), -1),), n_coeff=1, const=-1)
            else:
                candidate = Affine(((rng.choice(names), 2),), const=rng.choice((0, 1)))
            low, high = candidate.bounds(ranges, self.n)
            if low >= 0 and high <= size - 1:
                return candidate
        return Affine(((names[0], 1),)) if names else Affine()

    def access(self, array: Array, ranges: dict[str, tuple[int, int]], order: list[str]) -> str:
        # Prefer the nest's iterators in order (or transposed) so that reads and writes overlap.
        subscripts = []
        for dim in range(len(array.wide)):
            size = array.size(self.n, dim)
            if order and self.rng.random() < 0.5:
                name = order[dim % len(order)] if self.rng.random() < 0.7 else self.rng.choice(order)
                offset = self.rng.choice((-1, 0, 0, 1))
                candidate = Affine(((name, 1),), const=offset)
                low, high = candidate.bounds(ranges, self.n)
                if low >= 0 and high <= size - 1:
                    subscripts.append(candidate)
                    continue
            subscripts.append(self.subscript(size, ranges))
        return array.name + "".join(f"[{s.render()}]" for s in subscripts)

    def term(self, ctype: str, ranges: dict[str, tuple[int, int]], order: list[str]) -> str:
        sources = [a for a in self.arrays if ctype == "double" or a.ctype == "int"]
        rng = self.rng
        if rng.random() < 0.15:
            return rng.choice(("0.5", "1.25", "2.0", "-0.75")) if ctype == "double" else str(rng.randint(1, 3))
        read = self.access(rng.choice(sources), ranges, order)
        if rng.random() < 0.25:
            factor = rng.choice(("0.5", "3.0", "-1.5")) if ctype == "double" else str(rng.randint(-3, 3))
            return f"{factor} * {read}"
        return read

    def expression(self, ctype: str, ranges: dict[str, tuple[int, int]], order: list[str]) -> str:
        text = self.term(ctype, ranges, order)
        for _ in range(self.rng.randint(0, 2)):
            operators = ("+", "-", "*") if ctype == "double" else ("+", "-")
            text += f" {self.rng.choice(operators)} {self.term(ctype, ranges, order)}"
        return text if ctype == "double" else f"({text}) % {MODULUS}"

    def statement(self, ranges: dict[str, tuple[int, int]], order: list[str]) -> Stmt:
        target = self.rng.choice(self.arrays)
        lhs = self.access(target, ranges, order)
        operator = self.rng.choice(("=", "+="))
        return Stmt(f"{lhs} {operator} {self.expression(target.ctype, ranges, order)};")

    # -- loops ------------------------------------------------------------------------------
    def header(self, v: str, ranges: dict[str, tuple[int, int]]) -> tuple[str, tuple[int, int]]:
        rng, n, outer = self.rng, self.n, list(ranges)
        low, trim = rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1, 2))
        kind = rng.random()
        if outer and kind < 0.35:  # triangular
            u = rng.choice(outer)
            u_low, u_high = ranges[u]
            form = rng.randrange(4)
            if form == 0:
                return f"for ({v} = {low}; {v} <= {u}; {v}++)", (low, u_high)
            if form == 1:
                return f"for ({v} = {low}; {v} < {u}; {v}++)", (low, u_high - 1)
            if form == 2:
                bound = Affine(const=-trim, n_coeff=1).render()
                return f"for ({v} = {u} + 1; {v} < {bound}; {v}++)", (u_low + 1, n - 1 - trim)
            return f"for ({v} = {u}; {v} >= {low}; {v}--)", (low, u_high)
        if kind < 0.5:  # decreasing
            start = Affine(n_coeff=1, const=-1 - trim).render()
            return f"for ({v} = {start}; {v} >= {low}; {v}--)", (low, n - 1 - trim)
        if trim and rng.random() < 0.5:
            bound = Affine(n_coeff=1, const=-1 - trim).render()
            return f"for ({v} = {low}; {v} <= {bound}; {v}++)", (low, n - 1 - trim)
        bound = Affine(n_coeff=1, const=-trim).render()
        return f"for ({v} = {low}; {v} < {bound}; {v}++)", (low, n - 1 - trim)

    def condition(self, ranges: dict[str, tuple[int, int]]) -> str:
        rng, names = self.rng, list(ranges)
        form = rng.randrange(4)
        if form == 0 and len(names) >= 2:
            u, v = rng.sample(names, 2)
            return f"{u} {rng.choice(('<', '<=', '>', '>='))} {v}"
        if form == 1 and len(names) >= 2:
            u, v = rng.sample(names, 2)
            return f"{u} + {v} {rng.choice(('<', '<=', '>='))} n"
        if form == 2:
            return f"2 * {rng.choice(names)} {rng.choice(('<', '>='))} n"
        return f"{rng.choice(names)} {rng.choice(('>=', '<=', '=='))} {rng.randint(1, 4)}"

    def loop(self, level: int, depth: int, ranges: dict[str, tuple[int, int]]) -> Loop:
        v = ITERATORS[level]
        header, interval = self.header(v, ranges)
        inner = {**ranges, v: interval}
        order = list(inner)
        body: list[Node] = []
        if level + 1 < depth:
            if self.rng.random() < 0.25:
                body.append(self.statement(inner, order))
            body.append(self.loop(level + 1, depth, inner))
            if self.rng.random() < 0.2:
                body.append(self.statement(inner, order))
        else:
            body += [self.statement(inner, order) for _ in range(self.rng.randint(1, 2))]
        if self.rng.random() < 0.15:
            body = [If(self.condition(inner), tuple(body))]
        return Loop(header, tuple(body))

    def accumulator(self, depth: int) -> Loop | None:
        """``s = 0; for (...) s += e; X[...] = s;`` inside an outer loop, or at the top."""
        target = self.rng.choice(self.arrays)
        scalar, zero = ("s", "0.0") if target.ctype == "double" else ("t", "0")
        outer_header, outer_interval = self.header("i", {})
        ranges = {"i": outer_interval}
        inner_header, inner_interval = self.header("j", ranges)
        inner_ranges = {**ranges, "j": inner_interval}
        expression = self.expression(target.ctype, inner_ranges, ["i", "j"])
        store = Stmt(f"{self.access(target, ranges, ['i'])} = {scalar};")
        body = (Stmt(f"{scalar} = {zero};"), Loop(inner_header, (Stmt(f"{scalar} += {expression};"),)), store)
        return Loop(outer_header, body)


def generate(seed: int) -> Program:
    rng = random.Random(seed)
    n = rng.randint(5, 13)
    arrays = tuple(
        Array(
            name,
            "double" if rng.random() < 0.7 else "int",
            tuple(rng.random() < 0.3 for _ in range(rng.randint(1, 2))),
        )
        for name in "ABC"[: rng.randint(1, 3)]
    )
    builder = _Builder(rng, n, arrays)
    nests: list[Node] = []
    for _ in range(rng.randint(1, 3)):
        if rng.random() < 0.15:
            nests.append(builder.accumulator(2))
        else:
            nests.append(builder.loop(0, rng.randint(1, 3), {}))
    return Program(seed, n, arrays, tuple(nests))


def _without(nodes: tuple[Node, ...], path: tuple[int, ...]) -> tuple[Node, ...]:
    head, rest = path[0], path[1:]
    if not rest:
        return nodes[:head] + nodes[head + 1 :]
    node = nodes[head]
    assert isinstance(node, Loop | If)
    return nodes[:head] + (replace(node, body=_without(node.body, rest)),) + nodes[head + 1 :]


def _paths(nodes: tuple[Node, ...], prefix: tuple[int, ...] = ()) -> list[tuple[int, ...]]:
    found = []
    for index, node in enumerate(nodes):
        found.append((*prefix, index))
        if isinstance(node, Loop | If):
            found += _paths(node.body, (*prefix, index))
    return found


def smaller_variants(program: Program) -> list[Program]:
    """Each program with one node (a nest, loop, guard or statement) of the region deleted."""
    return [replace(program, nests=_without(program.nests, path)) for path in _paths(program.nests)]
