"""A seeded generator of random affine C programs for differential fuzzing.

Public: ``ITERATORS``, ``MODULUS``, ``DUMP_LIMIT``, ``STATIC``, ``HEAP``, ``ROWS``, ``PARAMETER``, ``Stmt``,
``Loop``, ``If``, ``Node``, ``Size``, ``Array``, ``Program``, ``generate``, ``smaller_variants``.

``generate(seed)`` returns a ``Program``; ``Program.render()`` is a complete C file: a
``#define N`` between 5 and 13 used inside the region as ``n``, one to four arrays ``A`` to
``D`` of one to three dimensions (``double`` or ``int``), sometimes read-only inputs
(``double``, ``float`` or ``int``), three global scalars (``double s``, ``int t``,
``float f``), a deterministic initialization, a kernel whose body is one ``#pragma scop``
region of one to four top-level nests (a nest may bring a few more top-level nodes: a
producer, a consumer, a pragma, a later write), and a dump of every array and scalar.

The nests cover: loop nests of depth 1 to 4 with constant, parametric, triangular,
decreasing and stepped bounds; imperfect nesting (statements before or after an inner
loop, sibling inner loops); ``if`` guards; subscripts with offsets, transposes, diagonals
(``A[i][i]``), skews (``A[i + j]``), reversals (``A[n - 1 - i]``) and strides (``A[2 * i]``);
reductions into scalars (``s += ...``) and into vectors (``y[i] += A[i][j] * x[j]``);
in-place stencil updates under a time loop; lone statements between nests; and these
families, each at the edge of a rewrite's precondition:

- scalars kept in place (``w = A[i][j]; w -= A[i][k] * A[k][j]; A[i][j] = w;``) with the
  load, the store or both under an ``if``, and usually a later write of ``w``;
- library idioms (GEMM ``C[i][j] += A[i][k] * B[k][j]`` in any loop order and either operand
  transposed, GEMV, GER) with a temporary (the idiom's output or an array written before it)
  read by a later nest, often named in ``#pragma polyopt dead(T)``; the temporary starts
  with the nonzero values of the initialization;
- accumulators and terms of mixed types (``t += (float)R[i] / 4``, ``t += D[i]``, ``f += R[i]``,
  ``s += F[i] * 2.5f``), whose terms read arrays the region never writes;
- a pointer advanced by a sum (``p += R[i]``), its distance from its buffer printed;
- data-dependent statements: a scatter or gather through an index read from an integer array
  (``X[(G[i] % 7 + 7) % (n + 4)] += e``, the array possibly written in the region), and ``if``
  guards that read an array element or a scalar (``if (B[i][j] > 0.0)``, ``if (A[i] > s) s = A[i];``)
  around one statement, or around a block whose statements do not write what the guard reads;
- column sums ``y[j] += A[i][j]`` (array-section reductions);
- loops bounded by size macros (``#define SZ0 0``): empty loops, and the large sizes below;
- temporaries declared in a loop body (``double v0 = A[i] * 2; B[i] = v0 + ...;``) or an
  accumulator declared in an outer loop's body, stored at subscripts modulo or divided by a named
  constant (``#define K0 3``: ``B[i % K0]``, ``B[j / K0]``).

Arrays are static, on the heap (``double (*A)[N + 4]``), arrays of row pointers
(``double **A``, every row ``malloc``'ed) or kernel parameters (``double A[n + 4][n + 4]``,
VLAs when the kernel is parametric: ``kernel(int n, ...)`` instead of ``#define n N``).
Sometimes every iterator is given a value before the region and printed after it.

Sizes stay small except in at most one nest per program (a library idiom or a column sum,
about one program in fifteen): then the loops run to size macros on both sides of a
threshold, the level-3 BLAS work 192^3 (and 2^24, the parallel work), the level-2 work
1024^2, the microkernel's blocks on the project machine (``mr`` 14, ``nr`` 16, ``kc`` 256,
``mc`` 252) and the 16384 elements of an array-section reduction (and a vector of two million
elements, whose private copy cannot live on a stack).  Their arrays stay out of the other
nests, hold multiples of 1/8 so that their sums are exact in any order, and are dumped as a
weighted sum when they have more than ``DUMP_LIMIT`` elements.

Every subscript is checked by interval arithmetic over the loop bounds, so every access
stays within bounds for every iteration.  Every integer store of an array is reduced modulo
``MODULUS`` (other integer accumulations have bounded terms) and no integer expression
multiplies two reads, so integer arithmetic cannot overflow.  ``float`` sums add multiples of
1/64 small enough to be exact in any order.  A program runs in a few milliseconds (the
large ones in tens).

The region is a tree of ``Loop``, ``If`` and ``Stmt`` nodes so that ``smaller_variants``
can delete or unwrap nodes one at a time, drop unused arrays and sizes, and turn the
program's features off, for the shrinker of ``polyopt.fuzz.campaign``.
"""

from __future__ import annotations

import math
import random
import re
from dataclasses import dataclass, replace

ITERATORS = ("i", "j", "k", "m")
MODULUS = 1009  # every integer store of an array is reduced modulo it
MIN_N = 5  # constant loop bounds stay below it
DUMP_LIMIT = 5000  # arrays with more elements (only those of large sizes) are dumped as one weighted sum
STATIC, HEAP, ROWS, PARAMETER = "static", "heap", "rows", "parameter"  # how an array is stored

# Large sizes, on both sides of each threshold (polyopt.machine, polyopt.analysis.microkernel
# on the project machine, polyopt.emit.isl_ast.SECTION_LIMIT).
GEMM_SIZES = ((192, 192, 192), (191, 192, 192), (193, 192, 192), (128, 256, 216), (127, 256, 216), (256, 256, 256))
MICRO_M = (13, 14, 15, 27, 28, 29, 251, 252, 253)  # around multiples of mr = 14, and mc = 252
MICRO_N = (15, 16, 17, 31, 32, 33)  # around multiples of nr = 16
MICRO_K = (1, 255, 256, 257, 511, 512, 513)  # around multiples of kc = 256
GEMV_SIZES = ((1024, 1024), (1023, 1024), (1025, 1024), (2048, 512), (512, 2047))
SECTION_LENGTHS = (16383, 16384, 16385, 20000)
HUGE_SECTION = 2_000_001  # a private copy of 16 MB overflows a thread's stack
LARGE_LIBRARY, LARGE_SECTION, ZERO_LOOP = 0.3, 0.4, 0.03  # probabilities

_NAMES = "EFGHIJKLMOPQRUVWXYZ"  # arrays beyond A to D (not N, the size macro; not S or T)
_DEAD = re.compile(r"#pragma polyopt dead\(([^)]*)\)")


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
class Size:
    """``#define SZ0 value``, read in the region as ``sz0``: a macro for it, or a parameter of a parametric kernel."""

    macro: str
    value: int

    @property
    def name(self) -> str:
        return self.macro.lower()


@dataclass(frozen=True)
class Array:
    name: str
    ctype: str  # "double", "float" or "int"
    extents: tuple[str, ...]  # each dimension's declared size over the macros: "N + 4", "2 * N + 4", "SZ0 + 1"
    lengths: tuple[int, ...]  # their values
    storage: str = STATIC
    readonly: bool = False  # only read in the region

    @property
    def rank(self) -> int:
        return len(self.extents)

    @property
    def elements(self) -> int:
        return math.prod(self.lengths)

    def declaration(self) -> str:
        if self.storage == HEAP:
            rows = "".join(f"[{extent}]" for extent in self.extents[1:])
            return f"static {self.ctype} (*{self.name}){rows};" if rows else f"static {self.ctype} *{self.name};"
        if self.storage == ROWS:
            return f"static {self.ctype} {'*' * self.rank}{self.name};"
        return f"static {self.ctype} {self.name}{''.join(f'[{extent}]' for extent in self.extents)};"


@dataclass(frozen=True)
class Program:
    seed: int
    n: int
    arrays: tuple[Array, ...]
    nests: tuple[Node, ...]
    sizes: tuple[Size, ...] = ()
    parametric: bool = False  # the kernel takes n and the sizes as parameters
    show_iterators: bool = False  # the iterators get a value before the region and are printed after it
    pointer: int = 0  # elements of the buffer in which the pointer p moves (0: no pointer)
    constants: tuple[Size, ...] = ()  # named constants (``#define K0 3``), never parameters

    @property
    def dead(self) -> frozenset[str]:
        """The arrays that the region's ``#pragma polyopt dead(...)`` lines name (not dumped)."""
        return frozenset(name.strip() for match in _DEAD.finditer(_text(self.nests)) for name in match[1].split(","))

    def _in_region(self, extent: str) -> str:
        return extent.lower() if self.parametric else extent

    def _kernel_interface(self) -> tuple[str, str]:
        """The kernel's parameter list and main's arguments."""
        declared: list[str] = []
        passed: list[str] = []
        if self.parametric:
            for macro in ("N", *(size.macro for size in self.sizes)):
                declared.append(f"int {macro.lower()}")
                passed.append(macro)
        for array in self.arrays:
            if array.storage == PARAMETER:
                dims = "".join(f"[{self._in_region(extent)}]" for extent in array.extents)
                declared.append(f"{array.ctype} {array.name}{dims}")
                passed.append(array.name)
        return ", ".join(declared) or "void", ", ".join(passed)

    def render(self) -> str:
        heap = any(array.storage in (HEAP, ROWS) for array in self.arrays)
        lines = [f"/* polyopt fuzz program, seed {self.seed} */", "#include <stdio.h>"]
        lines += ["#include <stdlib.h>"] if heap else []
        lines += ["", f"#define N {self.n}", *(f"#define {size.macro} {size.value}" for size in self.sizes)]
        lines += [f"#define {constant.macro} {constant.value}" for constant in self.constants]
        if not self.parametric:
            lines += ["#define n N", *(f"#define {size.name} {size.macro}" for size in self.sizes)]
        lines.append("")
        lines += [array.declaration() for array in self.arrays]
        lines += ["static double s;", "static int t;", "static float f;"]
        if self.pointer:
            lines += [f"static double PB[{self.pointer}];", "static double *p;"]
        lines += ["", "static void init(void)", "{", "  int i, j, k;", ""]
        for array in self.arrays:
            lines += _allocation_lines(array) + _init_lines(array)
        lines += ["  s = 0.25;", "  t = 3;", "  f = 1.5f;"]
        lines += [f"  p = PB + {self.pointer // 2};"] if self.pointer else []
        parameters, arguments = self._kernel_interface()
        iterators = ", ".join(f"{v} = -1" if self.show_iterators else v for v in ITERATORS)
        lines += ["}", "", f"static void kernel({parameters})", "{", f"  int {iterators};", ""]
        lines.append("#pragma scop")
        for nest in self.nests:
            lines += _render_node(nest, 1)
        lines.append("#pragma endscop")
        if self.show_iterators:
            values = ", ".join(ITERATORS)
            lines.append(f'  printf("begin dump: iterators\\n{" ".join("%d" for _ in ITERATORS)}\\n", {values});')
        lines += ["}", "", "static void dump(void)", "{", "  int i, j, k;", ""]
        dead = self.dead
        for array in self.arrays:
            lines += [] if array.name in dead else _dump_lines(array)
        lines += ['  printf("begin dump: s\\n%.17g\\n", s);', '  printf("begin dump: t\\n%d\\n", t);']
        lines += ['  printf("begin dump: f\\n%.9g\\n", f);']
        lines += ['  printf("begin dump: p\\n%ld\\n", (long)(p - PB));'] if self.pointer else []
        lines += ["}", "", "int main(void)", "{", "  init();", f"  kernel({arguments});", "  dump();"]
        lines += ["  return 0;", "}", ""]
        return "\n".join(lines)


def _loops(array: Array) -> tuple[list[str], str]:
    """Loop headers over every element of ``array``, and its element's access."""
    names = "ijk"[: array.rank]
    headers = [f"for ({v} = 0; {v} < {array.extents[d]}; {v}++)" for d, v in enumerate(names)]
    return headers, array.name + "".join(f"[{v}]" for v in names)


def _allocation_lines(array: Array) -> list[str]:
    """``malloc`` calls for an array on the heap (every row, for row pointers)."""
    if array.storage not in (HEAP, ROWS):
        return []
    lines = [f"  {array.name} = malloc(sizeof *{array.name} * ({array.extents[0]}));"]
    if array.storage == HEAP:
        return lines
    element = array.name
    for d in range(1, array.rank):
        v = "ijk"[d - 1]
        lines.append(f"{'  ' * d}for ({v} = 0; {v} < {array.extents[d - 1]}; {v}++) {{")
        element += f"[{v}]"
        lines.append(f"{'  ' * (d + 1)}{element} = malloc(sizeof *{element} * ({array.extents[d]}));")
    return lines + [f"{'  ' * d}}}" for d in range(array.rank - 1, 0, -1)]


def _init_lines(array: Array) -> list[str]:
    headers, element = _loops(array)
    number = (ord(array.name) - ord("A")) % 13  # by name, so that dropping another array keeps the values
    j = "j" if array.rank >= 2 else "0"
    k = "k" if array.rank >= 3 else "0"
    mixed = f"i * {3 + number} + {j} * 7 + {k} * 5 + {number}"
    if array.ctype == "double":
        value = f"(double)(({mixed}) % 17) / 8.0 - 1.0"
    elif array.ctype == "float":
        value = f"(float)(({mixed}) % 17) / 8.0f - 1.0f"
    else:
        value = f"(i * {5 + number} + {j} * 3 + {k} * 2 + {number}) % 11 - 5"
    lines = [f"  {'  ' * d}{header}" for d, header in enumerate(headers)]
    return [*lines, f"  {'  ' * len(headers)}{element} = {value};"]


def _dump_lines(array: Array) -> list[str]:
    headers, element = _loops(array)
    pad = "  " * len(headers)
    if array.elements > DUMP_LIMIT:  # one sum, weighted so that a misplaced value shows
        weight = " + ".join(f"{v} * {w}" for v, w in zip("ijk"[: array.rank], (7, 3, 5), strict=False))
        total, form = ("long", "%ld") if array.ctype == "int" else ("double", "%.17g")
        lines = [f'  printf("begin dump: {array.name} (weighted sum)\\n");', "  {", f"    {total} sum = 0;"]
        lines += [f"    {'  ' * d}{header}" for d, header in enumerate(headers)]
        lines += [f"    {pad}sum += {element} * (({weight}) % 5 + 1);", f'    printf("{form}\\n", sum);', "  }"]
        return lines
    form = "%d " if array.ctype == "int" else "%.17g "
    lines = [f'  printf("begin dump: {array.name}\\n");']
    lines += [
        f"  {'  ' * d}{header} {{" if d == len(headers) - 1 else f"  {'  ' * d}{header}"
        for d, header in enumerate(headers)
    ]
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
Bound = tuple[str, int]  # a loop's upper bound (exclusive) in the region, and its value


class _Builder:
    def __init__(self, rng: random.Random, n: int, statements: int) -> None:
        self.rng, self.n = rng, n
        self.arrays: list[Array] = []  # the pool: every nest may read them and write the writable ones
        self.extra: list[Array] = []  # the arrays of a nest with large sizes, which no other nest touches
        self.sizes: list[Size] = []
        self.spare = statements  # optional statements (imperfect nesting, siblings) stop when it runs out
        self.large = False  # a nest has large sizes already (at most one per program)
        self.pointer_reach = 0  # how far the pointer p may move from its start
        self.constants: list[Size] = []  # named constants of the declared family

    def maybe(self, probability: float) -> bool:
        """Whether to add an optional part (it costs one of the spare statements)."""
        if self.spare <= 0 or self.rng.random() >= probability:
            return False
        self.spare -= 1
        return True

    def _fits(self, subscripts: list[Affine], array: Array, ranges: Ranges) -> bool:
        for dim, subscript in enumerate(subscripts):
            low, high = subscript.bounds(ranges, self.n)
            if low < 0 or high > array.lengths[dim] - 1:
                return False
        return True

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
        if pattern is not None and self._fits(pattern, array, ranges):
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
        target = self.rng.choice(self.writable())
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
        headers, ranges = self.headers(depth)
        outer = dict(list(ranges.items())[: depth - 1])
        target = rng.choice(self.writable())
        lhs = self.access(target, outer)
        node: Node = self.store(lhs, target.ctype, ranges, update=True)
        if target.ctype == "double" and rng.random() < 0.5:
            node = Stmt(f"{lhs} += {self.term('double', ranges)} * {self.term('double', ranges)};")
        return _nest(headers, (node,))

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
        return _nest(headers, body)

    # -- the families at the edges of the rewrites' preconditions ---------------------------
    def in_place(self) -> list[Node]:
        """``w = A[i][j]; for (k ...) w -= A[i][k] * A[k][j]; A[i][j] = w;`` with the load, the store or
        both possibly under an ``if``, usually followed by a later write of ``w``."""
        rng = self.rng
        integer = rng.random() < 0.3
        ctype, scalar = ("int", "t") if integer else ("double", "s")
        target = self.pool_array((ctype,), 2, writable=True)
        i_header, i_range = self.header("i", {})
        ranges: Ranges = {"i": i_range}
        j_header, j_range = ("for (j = 0; j < i; j++)", (0, i_range[1] - 1))
        if rng.random() < 0.4:
            j_header, j_range = self.header("j", ranges)
        ranges = {**ranges, "j": j_range}
        k_header, k_range = ("for (k = 0; k < j; k++)", (0, j_range[1] - 1))
        if rng.random() < 0.4:
            k_header, k_range = self.header("k", ranges)
        inner = {**ranges, "k": k_range}
        i, j, k = (Affine(((v, 1),)) for v in "ijk")
        element = f"{target.name}[i][j]"
        if not (self._fits([i, j], target, ranges) and all(self._fits(s, target, inner) for s in ([i, k], [k, j]))):
            return [self.loop(0, 3, {})]
        if integer:  # no product of reads: the values of the chain stay far from overflowing
            update = f"t -= {target.name}[i][k];"
        elif rng.random() < 0.6:
            update = f"s -= {target.name}[i][k] * {target.name}[k][j];"
        else:
            update = f"s -= {self.term('double', inner)} * {target.name}[k][j];"
        load: Node = Stmt(f"{scalar} = {element};")
        stored = f"{scalar} % {MODULUS}" if integer else rng.choice((scalar, scalar, f"{scalar} * 0.5"))
        store: Node = Stmt(f"{element} = {stored};")
        guarded = rng.choice(("none", "load", "load", "store", "store", "both"))
        if guarded in ("load", "both"):
            load = If(self.condition(ranges), (load,))
        if guarded in ("store", "both"):
            store = If(self.condition(ranges), (store,))
        body: list[Node] = [load, Loop(k_header, (Stmt(update),))]
        if not integer and self.maybe(0.3):
            body.append(Stmt(f"s += {self.term('double', ranges)};"))
        nodes: list[Node] = [Loop(i_header, (Loop(j_header, (*body, store)),))]
        if rng.random() < 0.8:  # the scalar's last value is dead
            nodes.append(Stmt(f"{scalar} = {'2' if integer else '0.25'};"))
        return nodes

    def _bounds(self, count: int) -> list[Bound]:
        """Small upper bounds for the loops of a library idiom or a column sum: ``n``, ``n - 1``, ``n - 2``,
        a constant, sometimes a size macro of 0 or 1."""
        rng = self.rng
        bounds: list[Bound] = []
        for _ in range(count):
            if rng.random() < 0.05:
                size = self.size(rng.choice((0, 1)))
                bounds.append((size.name, size.value))
            elif rng.random() < 0.25:
                constant = rng.randint(1, MIN_N - 1)
                bounds.append((str(constant), constant))
            else:
                trim = rng.choice((0, 0, 1, 2))
                bounds.append((Affine(n_coeff=1, const=-trim).render(), self.n - trim))
        return bounds

    def _large_values(self, count: int) -> tuple[int, ...]:
        rng = self.rng
        choice = rng.random()
        if count == 3 and choice < 0.4:
            return rng.choice(GEMM_SIZES)
        if count == 3 and choice < 0.85:
            return rng.choice(MICRO_M), rng.choice(MICRO_N), rng.choice(MICRO_K)
        if count == 3:
            return tuple(rng.choice((0, 1, 2, 16, 256)) for _ in range(3))
        if choice < 0.8:
            return rng.choice(GEMV_SIZES)
        return rng.choice((0, 1, 1024)), rng.choice((0, 1, 2048))

    def library(self) -> list[Node]:
        """A GEMM, GEMV or GER nest, often with a temporary read by a later nest and named in
        ``#pragma polyopt dead``: the idiom's output (set to 0 by an earlier nest or not), or an
        array written before the idiom."""
        rng = self.rng
        idiom = rng.choices(("gemm", "gemv", "ger"), weights=(55, 30, 15))[0]
        large = not self.large and rng.random() < LARGE_LIBRARY
        self.large = self.large or large
        count = 3 if idiom == "gemm" else 2
        sizes: dict[str, Size] = {}
        if large:
            sizes = {v: self.size(value) for v, value in zip("ijk", self._large_values(count), strict=False)}
            bounds = [(size.name, size.value) for size in sizes.values()]
        else:
            bounds = self._bounds(count)
        values = {v: value for v, (_, value) in zip("ijk", bounds, strict=False)}
        headers = {v: f"for ({v} = 0; {v} < {text}; {v}++)" for v, (text, _) in zip("ijk", bounds, strict=False)}
        ranges: Ranges = {v: (0, max(0, value - 1)) for v, value in values.items()}

        def operand(dims: str, *, writable: bool, avoid: tuple[Array, ...] = ()) -> Array:
            if large:
                return self.large_array("double", [sizes[v] for v in dims], readonly=not writable)
            return self.pool_array(
                ("double",) if writable else ("double", "float"), len(dims), writable=writable, avoid=avoid
            )

        alpha = rng.choice(("", "", "1.5 * ", "-0.5 * "))
        if idiom == "gemm":
            a_dims, b_dims = rng.choice(("ik", "ki")), rng.choice(("kj", "jk"))
            a = operand(a_dims, writable=False)
            b = operand(b_dims, writable=False)
            output = operand("ij", writable=True, avoid=(a, b))
            element = f"{output.name}[i][j]"
            product = f"{alpha}{a.name}[{a_dims[0]}][{a_dims[1]}] * {b.name}[{b_dims[0]}][{b_dims[1]}]"
            out_dims = "ij"
        elif idiom == "gemv":
            a_dims = rng.choice(("ij", "ji"))
            a = operand(a_dims, writable=False)
            x = operand("j", writable=False)
            output = operand("i", writable=True, avoid=(a, x))
            element = f"{output.name}[i]"
            product = f"{alpha}{a.name}[{a_dims[0]}][{a_dims[1]}] * {x.name}[j]"
            out_dims = "i"
        else:
            x, y = operand("i", writable=False), operand("j", writable=False)
            output = operand("ij", writable=True, avoid=(x, y))
            element = f"{output.name}[i][j]"
            product = f"{alpha}{x.name}[i] * {y.name}[j]"
            out_dims = "ij"
        form = rng.choice(("+=", "+=", "-=", "= +"))
        update = f"{element} = {element} + {product};" if form == "= +" else f"{element} {form} {product};"
        order = list(values)
        if rng.random() < 0.5:
            rng.shuffle(order)
        idiom_nest = _nest([headers[v] for v in order], (Stmt(update),))

        temporary = rng.choices(("output", "separate", "none"), weights=(40, 35, 25))[0]
        if temporary == "none":
            return [idiom_nest]
        if temporary == "output":
            temp, temp_dims = output, out_dims
        elif large:
            temp, temp_dims = self.large_array("double", [sizes["i"]], readonly=False), "i"
        else:
            temp, temp_dims = self.pool_array(("double",), 1, writable=True, avoid=(output,)), "i"
        subscript = "".join(f"[{v}]" for v in temp_dims)
        temp_ranges = {v: ranges[v] for v in temp_dims}
        nodes: list[Node] = []
        if temporary == "separate":  # written before the idiom, from the idiom's output: a dependence to respect
            source = f"{output.name}[i]" + ("[0]" if output.rank == 2 else "")
            nodes.append(_nest([headers["i"]], (Stmt(f"{temp.name}[i] = {source} + 1.0;"),)))
        elif rng.random() < 0.6:  # else the idiom adds to the values of the initialization
            zero = "0.0" if large or rng.random() < 0.5 else self.expression("double", temp_ranges)
            nodes.append(_nest([headers[v] for v in temp_dims], (Stmt(f"{temp.name}{subscript} = {zero};"),)))
        nodes.append(idiom_nest)
        if large:
            consumer = self.large_array("double", [sizes[v] for v in temp_dims], readonly=False)
        else:
            consumer = self.pool_array(("double",), len(temp_dims), writable=True, avoid=(temp,))
        target = f"{consumer.name}{subscript}"
        extra = "0.5 * " + target if large else self.term("double", temp_ranges)
        nodes.append(_nest([headers[v] for v in temp_dims], (Stmt(f"{target} = {temp.name}{subscript} + {extra};"),)))
        if rng.random() < 0.85:
            pragma = Stmt(f"#pragma polyopt dead({temp.name})")
            nodes.insert(rng.choice((0, nodes.index(idiom_nest))), pragma)
        return nodes

    def section(self) -> Loop:
        """A column sum ``y[j] += A[i][j]``: a reduction into a section of a vector (large: on both sides of
        the 16384 elements of a private copy, or two million)."""
        rng = self.rng
        large = not self.large and rng.random() < LARGE_SECTION
        self.large = self.large or large
        form = rng.randrange(4)
        if large:
            length = HUGE_SECTION if rng.random() < 0.1 else rng.choice(SECTION_LENGTHS)
            rows = 2 if length == HUGE_SECTION else rng.randint(1, 4)
            if rng.random() < 0.15:
                rows, length = rng.choice(((0, length), (rows, 0)))
            row_size, length_size = self.size(rows), self.size(length)
            y = self.large_array("double", [length_size], readonly=False)
            a = self.large_array(rng.choice(("double", "float", "int")), [row_size, length_size], readonly=True)
            x = self.large_array("double", [row_size], readonly=True) if form == 1 else a
            i_bound, j_bound = row_size.name, length_size.name
        else:
            (i_bound, _), (j_bound, _) = self._bounds(2)
            y = self.pool_array(("double",), 1, writable=True)
            a = self.pool_array(("double", "float", "int"), 2, writable=False)
            x = self.pool_array(("double", "float", "int"), 1, writable=False) if form == 1 else a
        update = (
            f"{y.name}[j] += {a.name}[i][j];",
            f"{y.name}[j] += {a.name}[i][j] * {x.name}[i];",
            f"{y.name}[j] = {y.name}[j] + 0.5 * {a.name}[i][j];",
            f"{y.name}[j] -= {a.name}[i][j];",
        )[form]
        headers = [f"for (i = 0; i < {i_bound}; i++)", f"for (j = 0; j < {j_bound}; j++)"]
        if rng.random() < 0.2:
            headers.reverse()
        return _nest(headers, (Stmt(update),))

    def mixed(self) -> Loop:
        """An accumulation whose accumulator and terms have different types (``t += (float)R[i] / 4``,
        ``t += D[i]``, ``f += R[i]``, ``s += F[i] * 2.5f``); the terms read arrays the region never writes."""
        rng = self.rng
        ctype = rng.choice(("int", "int", "float", "double"))
        depth = rng.choice((1, 2, 2, 3)) if ctype == "double" else rng.choice((1, 2))
        headers, ranges = self.headers(depth)
        accumulator = {"int": "t", "float": "f", "double": "s"}[ctype]
        targets = [array for array in self.writable() if array.ctype == ctype]
        if depth >= 2 and targets and rng.random() < 0.3:  # an element, indexed by the outer loops
            accumulator = self.access(rng.choice(targets), dict(list(ranges.items())[:-1]))
        source = self.bounded_source(("double", "float", "int"))
        read = self.access(source, ranges)
        if ctype == "int":
            forms = [f"(float){read} / 4", f"(double){read} / 8", f"{read} * 0.375", f"{read}"]
        elif ctype == "float":
            forms = [read, f"(float){read} / 2", f"{read} * 0.5f"]
            if source.ctype != "int":
                forms.append(f"{read} * {self.access(source, ranges)}")
        else:
            forms = [f"(float){read} / 8", read, f"{read} * 2.5f"]
        term = rng.choice(forms)
        form = rng.choice(("+=", "+=", "-=", "= +"))
        update = f"{accumulator} = {accumulator} + {term};" if form == "= +" else f"{accumulator} {form} {term};"
        return _nest(headers, (Stmt(update),))

    def pointer_nest(self) -> Loop:
        """A pointer advanced by a sum of steps (``p += R[i]``) read from a read-only integer array."""
        rng = self.rng
        headers, ranges = self.headers(rng.choice((1, 1, 2)))
        read = self.access(self.bounded_source(("int",)), ranges)  # its values lie in [-5, 5]
        step, most = rng.choice(((read, 5), (f"{read} + 1", 6), ("2", 2)))
        update = rng.choice((f"p += {step};", f"p -= {step};", f"p = p + {step};"))
        # at least 1, so that p is declared even where the ranges' estimate is empty
        self.pointer_reach += max(1, math.prod(max(0, high - low + 1) for low, high in ranges.values()) * most)
        return _nest(headers, (Stmt(update),))

    def index(self, ranges: Ranges) -> str:
        """A subscript read from an integer array (one the region may write): ``(G[i] % 7 + 7) % (n + 4)``,
        within every dimension of a pool array."""
        source = self.pool_array(("int",), self.rng.choice((1, 1, 2)), writable=self.rng.random() < 0.5)
        return f"({self.access(source, ranges)} % 7 + 7) % (n + 4)"

    def indirect(self, array: Array, ranges: Ranges) -> str:
        """An access to ``array`` with one subscript read from an integer array (``index``)."""
        indirect = self.rng.randrange(array.rank)
        subscripts = [
            self.index(ranges) if dim == indirect else self.subscript(array.lengths[dim], ranges).render()
            for dim in range(array.rank)
        ]
        return array.name + "".join(f"[{subscript}]" for subscript in subscripts)

    def guard(self, ranges: Ranges, avoid: set[str]) -> str:
        """A condition that reads an array element (of an array not in ``avoid``) and maybe a scalar."""
        candidates = [array for array in self.arrays if array.name not in avoid]
        if not candidates:
            candidates = [self.bounded_source(("double", "float", "int"))]
        array = self.rng.choice(candidates)
        element = self.access(array, ranges)
        if array.ctype == "int":
            scalar = self.rng.choice(("0", "1", "t")) if "t" not in avoid else "0"
            return self.rng.choice((f"{element} > {scalar}", f"{element} % 2 == 0"))
        scalar = self.rng.choice(("0.0", "-0.25", "s")) if "s" not in avoid else "0.0"
        return f"{element} {self.rng.choice(('>', '<=', '<'))} {scalar}"

    def data_dependent(self) -> list[Node]:
        """A loop nest around a data-dependent statement: a scatter, a gather, a running extremum, or
        statements under a guard that reads an array (see the module docstring)."""
        rng = self.rng
        headers, ranges = self.headers(rng.choice((1, 1, 2, 2, 3)))
        kind = rng.choice(("scatter", "gather", "single", "block", "negated", "extremum"))
        if kind == "scatter":
            target = rng.choice(self.writable())
            store = self.store(self.indirect(target, ranges), target.ctype, ranges, update=rng.random() < 0.6)
            return [_nest(headers, (store,))]
        if kind == "gather":
            target = rng.choice(self.writable())
            sources = [a for a in self.arrays if target.ctype == "double" or a.ctype == "int"]
            read = self.indirect(rng.choice(sources), ranges) if sources else "t"
            value = f"{read} + {self.term(target.ctype, ranges)}"
            value = f"({value}) % {MODULUS}" if target.ctype == "int" else value
            return [_nest(headers, (Stmt(f"{self.access(target, ranges)} = {value};"),))]
        if kind == "extremum":
            source = self.pool_array(("double", "float"), rng.choice((1, 2)), writable=False)
            element = self.access(source, ranges)
            test = rng.choice((">", "<"))
            return [_nest(headers, (If(f"{element} {test} s", (Stmt(f"s = {element};"),)),))]
        body = [self.statement(ranges) for _ in range(1 if kind == "single" else rng.randint(2, 3))]
        written = {re.match(r"\s*(\w+)", stmt.text)[1] for stmt in body} if kind != "single" else set()
        condition = self.guard(ranges, written)
        nodes: list[Node] = [If(condition, tuple(body))]
        if kind == "negated":  # a second if on the negated condition, read after the first's statements
            nodes.append(If(f"!({condition})", (self.statement(ranges),)))
        return [_nest(headers, tuple(nodes))]

    def constant_access(self, array: Array, ranges: Ranges) -> str:
        """An access to ``array`` with one subscript modulo or divided by a named constant (``B[i % K0]``)."""
        rng = self.rng
        if not self.constants or rng.random() < 0.3:
            self.constants.append(Size(f"K{len(self.constants)}", rng.randint(2, MIN_N - 1)))
        constant = rng.choice(self.constants)
        subscripts = [self.subscript(array.lengths[dim], ranges).render() for dim in range(array.rank)]
        dim, name = rng.randrange(array.rank), rng.choice(list(ranges))
        subscripts[dim] = f"{name} {rng.choice(('%', '/'))} {constant.macro}"  # within [0, n - 1]: i >= 0
        return array.name + "".join(f"[{subscript}]" for subscript in subscripts)

    def declared(self) -> Loop:
        """Temporaries declared in a loop body, or an accumulator declared in an outer loop's body,
        stored at a subscript with a named constant (``constant_access``)."""
        rng = self.rng
        depth = rng.choice((1, 2, 2, 3))
        headers, ranges = self.headers(depth)
        target = rng.choice(self.writable())
        ctype = target.ctype
        wrap = (lambda value: f"({value}) % {MODULUS}") if ctype == "int" else (lambda value: value)
        if depth >= 2 and rng.random() < 0.35:
            outer = dict(list(ranges.items())[:-1])
            update = wrap(f"v0 + {self.term(ctype, ranges)}")
            inner = Loop(headers[-1], (Stmt(f"v0 = {update};"),))
            store = Stmt(f"{self.constant_access(target, outer)} = {wrap(f'v0 + {self.term(ctype, outer)}')};")
            return _nest(headers[:-1], (Stmt(f"{ctype} v0 = 0;"), inner, store))
        body = [Stmt(f"{ctype} v0 = {self.expression(ctype, ranges)};")]
        value = f"v0 + {self.term(ctype, ranges)}"
        if rng.random() < 0.4:
            body.append(Stmt(f"{ctype} v1 = {wrap(f'v0 - {self.term(ctype, ranges)}')};"))
            value = "v0 + v1"
        body.append(Stmt(f"{self.constant_access(target, ranges)} = {wrap(value)};"))
        return _nest(headers, tuple(body))

    def nest(self) -> list[Node]:
        """One top-level nest (a family may add a few more top-level nodes around it)."""
        rng = self.rng
        kinds = ("loops", "accumulator", "reduction", "stencil", "statement")
        kinds += ("in_place", "library", "mixed", "pointer", "section", "data_dependent", "declared")
        kind = rng.choices(kinds, weights=(50, 9, 10, 9, 7, 5, 6, 5, 2, 4, 7, 5))[0]
        if kind == "accumulator":
            return [self.accumulator()]
        if kind == "reduction":
            return [self.reduction(rng.randint(2, 3))]
        if kind == "stencil":
            stencil = self.stencil_nest()
            if stencil is not None:
                return [stencil]
        if kind == "statement":
            return [self.statement({})]
        if kind == "in_place":
            return self.in_place()
        if kind == "library":
            return self.library()
        if kind == "mixed":
            return [self.mixed()]
        if kind == "pointer":
            return [self.pointer_nest()]
        if kind == "section":
            return [self.section()]
        if kind == "data_dependent":
            return self.data_dependent()
        if kind == "declared":
            return [self.declared()]
        return [self.loop(0, rng.choices((1, 2, 3, 4), weights=(20, 40, 30, 10))[0], {})]


def _nest(headers: list[str], body: tuple[Node, ...]) -> Loop:
    """Perfectly nested loops with ``headers``, outermost first, around ``body``."""
    node: Node = Loop(headers[-1], body)
    for header in reversed(headers[:-1]):
        node = Loop(header, (node,))
    assert isinstance(node, Loop)
    return node


def generate(seed: int) -> Program:
    rng = random.Random(seed)
    n = rng.randint(MIN_N, 13)
    builder = _Builder(rng, n, rng.randint(0, 4))
    for name in "ABCD"[: rng.choices((1, 2, 3, 4), weights=(20, 35, 30, 15))[0]]:
        rank = rng.choices((1, 2, 3), weights=(40, 45, 15))[0]
        wide = tuple(rank < 3 and rng.random() < 0.3 for _ in range(rank))
        builder.add("double" if rng.random() < 0.7 else "int", wide, name=name)
    for _ in range(rng.choices((0, 1, 2), weights=(50, 35, 15))[0]):
        builder.bounded_source(("double", "float", "int"))
    nests = [node for _ in range(rng.choices((1, 2, 3, 4), weights=(30, 35, 25, 10))[0]) for node in builder.nest()]
    parametric, show_iterators = rng.random() < 0.2, rng.random() < 0.15
    pointer = 2 * builder.pointer_reach + 1 if builder.pointer_reach else 0
    arrays = tuple(builder.arrays + builder.extra)
    sizes, constants = tuple(builder.sizes), tuple(builder.constants)
    return Program(seed, n, arrays, tuple(nests), sizes, parametric, show_iterators, pointer, constants)


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

    Each deletes one node of the region (a nest, loop, guard, statement or pragma), replaces
    a guard by its body, drops an array or a size macro the region does not use (or the
    pointer), or turns one feature off: the parametric kernel, the printed iterators, an
    array's storage other than static.  (``N`` and the sizes stay: the subscripts were proved
    in bounds for them.)
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
    extents = " ".join(extent for array in program.arrays for extent in array.extents)
    for size in program.sizes:
        if not re.search(rf"\b{size.name}\b", region) and not re.search(rf"\b{size.macro}\b", extents):
            variants.append(replace(program, sizes=tuple(s for s in program.sizes if s is not size)))
    if program.pointer and not re.search(r"\bp\b", region):
        variants.append(replace(program, pointer=0))
    if program.parametric:
        variants.append(replace(program, parametric=False))
    if program.show_iterators:
        variants.append(replace(program, show_iterators=False))
    for index, array in enumerate(program.arrays):
        if array.storage != STATIC:
            arrays = (*program.arrays[:index], replace(array, storage=STATIC), *program.arrays[index + 1 :])
            variants.append(replace(program, arrays=arrays))
    return variants
