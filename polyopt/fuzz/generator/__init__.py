"""A seeded generator of random affine C programs for differential fuzzing.

Public: ``ITERATORS``, ``MODULUS``, ``DUMP_LIMIT``, ``STATIC``, ``HEAP``, ``ROWS``, ``PARAMETER``, ``Stmt``,
``Loop``, ``If``, ``Node``, ``Size``, ``Array``, ``Local``, ``Program``, ``FAMILIES``, ``generate``,
``smaller_variants``.

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
- rank-k updates (SYRK, SYR2K) over a lower or upper triangle, with or without its diagonal, their
  operands transposed or not, small or around the microkernel's blocks (``rank_k``);
- products with a square operand (``square``): an in-place TRMM ``B[i][j] += A[k][i] * B[k][j]`` over
  a strict triangle, or a SYMM in PolyBench's form (an accumulator, ``A`` read in one triangle), their rows
  in the order that reads the original values or, rarely, the other one;
- loops bounded by size macros (``#define SZ0 0``): empty loops, and the large sizes below;
- temporaries declared in a loop body (``double v0 = A[i] * 2; B[i] = v0 + ...;``) or an
  accumulator declared in an outer loop's body, stored at subscripts modulo or divided by a named
  constant (``#define K0 3``: ``B[i % K0]``, ``B[j / K0]``);
- pivot updates (``for k, for i, for j: A[i][j] = A[i][j] < A[i][k] + A[k][j] ? A[i][j] : ...``, or
  ``for i, for j``) reading elements the nest writes on a hyperplane (``A[i][k + 1]``, ``A[k][j]``,
  ``A[i][0]``, ``A[i][n - 1 - k]``, ``A[i][i]``), for the index-set splits, sometimes with triangular
  bounds (from ``k`` or ``k + 1``), a second statement in the innermost body or a guard;
- out-of-place sweeps under a time loop (``B[j][k] = 0.2 * (A[j][k] + A[j][k - 1] + ...)``, then
  ``A`` from ``B``; jacobi-1d, jacobi-2d, fdtd-2d), over one or two space dimensions, two or three
  arrays, with one-sided neighbours, accumulating updates or a boundary statement beside them, or
  one array swept in place (seidel-2d);
- expression macros (``macros``), object-like and function-like, with and without parentheses, chained
  (``#define W1 W0*2``, ``#define F0(x) x+n``), in loop bounds, steps, subscripts and guards;
- forward or backward substitution with a triangular matrix (``x[i] -= 0.25 * L[i][j] * x[j]`` for
  ``j < i``, or ``j > i`` with ``i`` descending; trisolv), sometimes after a copy of a right-hand side
  and before a scaling by the diagonal, for the wavefronts of two-member bands;
- dynamic programs over a triangular table (``T[i][j]`` from its best split ``k``, a min or max written
  as a ternary or an ``if``, rows backward or forward, ``j`` from ``i + 1``; matrix-chain order, nussinov),
  sometimes beside statements that read the neighbours ``T[i + 1][j]``, ``T[i][j - 1]``, ``T[i + 1][j - 1]``
  and a 1-D input, for the wavefronts of two-member bands over loops of their own (``tables``, only in
  campaigns of that family);
- loops as people write them, where the best code is often the loop as written (``written``, only in
  campaigns of that family): a counter advanced under a data test (``j = -1; ... if (B[i] > 0.0) { j++;
  A[j] = ...; } else { ... }``, ``A[c0++] = ...``); a loop unrolled by hand by 2 to 5 (``i += 3``), gathering
  through an index array whose values lie in ``[0, N)``, into partial sums, or followed by a clean-up loop; a
  statement pair that a shift makes parallel (``A[i + 1] = B[i] + C[i]; A[i] = B[i] * 2.0;``); iterators of
  type ``long``, ``unsigned`` or ``size_t`` declared in the ``for`` or before the region, and a first-min or
  first-max search returning an index; a chain through scalar temporaries (``t0 = A[i][4]; t1 = t0 - B[i][4];
  B[i][4] = t0; ...``); a loop bounded by a scalar computed in the region (``n0 = n - 1;``) or before it.  Its
  scalars are declared in the kernel before the region and printed after it (``Program.locals``).

``generate(seed, family)`` makes every top-level nest one of ``FAMILIES`` (``"pivots"``: the pivot
updates; ``"sweeps"``: the sweeps under a time loop; ``"solves"``: the substitutions; ``"tables"``: the
dynamic programs over a table; ``"gnu"``: nests written with GNU C spellings, often in regions of their own,
``polyopt.fuzz.generator.gnu``; ``"written"``: loops as people write them, ``polyopt.fuzz.generator.written``),
for a campaign that targets one rewrite.

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

Modules: ``program`` (the tree and the rendered file), ``builder`` (arrays, subscripts, statements,
loop headers), one module per family of nests, ``shrink`` (``smaller_variants``).
"""

from __future__ import annotations

import random
from dataclasses import replace

from polyopt.fuzz.generator.builder import Builder
from polyopt.fuzz.generator.data_dependent import data_dependent
from polyopt.fuzz.generator.declared import declared
from polyopt.fuzz.generator.gnu import gnu
from polyopt.fuzz.generator.in_place import in_place
from polyopt.fuzz.generator.library import library, rank_k, section, square
from polyopt.fuzz.generator.loops import accumulator, loop, reduction, stencil_nest
from polyopt.fuzz.generator.macros import macros
from polyopt.fuzz.generator.mixed import mixed, pointer_nest
from polyopt.fuzz.generator.pivots import pivot_updates
from polyopt.fuzz.generator.program import (
    DUMP_LIMIT,
    HEAP,
    ITERATORS,
    MIN_N,
    MODULUS,
    PARAMETER,
    ROWS,
    STATIC,
    Array,
    If,
    Local,
    Loop,
    Node,
    Program,
    Size,
    Stmt,
)
from polyopt.fuzz.generator.shrink import smaller_variants
from polyopt.fuzz.generator.solves import solves
from polyopt.fuzz.generator.sweeps import sweeps
from polyopt.fuzz.generator.tables import tables
from polyopt.fuzz.generator.written import written

__all__ = [
    "DUMP_LIMIT",
    "HEAP",
    "ITERATORS",
    "MODULUS",
    "PARAMETER",
    "ROWS",
    "STATIC",
    "Array",
    "If",
    "Local",
    "Loop",
    "Node",
    "Program",
    "Size",
    "Stmt",
    "FAMILIES",
    "generate",
    "smaller_variants",
]


# the kinds of nest that ``generate`` can be restricted to
FAMILIES = ("pivots", "sweeps", "solves", "tables", "rank_k", "square", "gnu", "macros", "written")


def top_level_nest(builder: Builder, family: str | None = None) -> list[Node]:
    """One top-level nest, of kind ``family`` if given (a family may add a few more top-level nodes around it)."""
    rng = builder.rng
    kinds = ("loops", "accumulator", "reduction", "stencil", "statement")
    kinds += ("in_place", "library", "mixed", "pointer", "section", "data_dependent", "declared", "pivots", "sweeps")
    kinds += ("solves", "rank_k", "square")
    kind = family or rng.choices(kinds, weights=(50, 9, 10, 9, 7, 5, 6, 5, 2, 4, 7, 5, 6, 5, 4, 3, 3))[0]
    if kind == "accumulator":
        return [accumulator(builder)]
    if kind == "reduction":
        return [reduction(builder, rng.randint(2, 3))]
    if kind == "stencil":
        stencil = stencil_nest(builder)
        if stencil is not None:
            return [stencil]
    if kind == "statement":
        return [builder.statement({})]
    if kind == "in_place":
        return in_place(builder)
    if kind == "library":
        return library(builder)
    if kind == "mixed":
        return [mixed(builder)]
    if kind == "pointer":
        return [pointer_nest(builder)]
    if kind == "section":
        return [section(builder)]
    if kind == "data_dependent":
        return data_dependent(builder)
    if kind == "declared":
        return [declared(builder)]
    if kind == "pivots":
        return pivot_updates(builder)
    if kind == "sweeps":
        return sweeps(builder)
    if kind == "solves":
        return solves(builder)
    if kind == "tables":
        return tables(builder)
    if kind == "rank_k":
        return rank_k(builder)
    if kind == "square":
        return square(builder)
    if kind == "gnu":
        return gnu(builder, top_level_nest)
    if kind == "macros":
        return macros(builder)
    if kind == "written":
        return written(builder)
    return [loop(builder, 0, rng.choices((1, 2, 3, 4), weights=(20, 40, 30, 10))[0], {})]


def generate(seed: int, family: str | None = None) -> Program:
    """Seed ``seed``'s program; with ``family`` (one of ``FAMILIES``), every top-level nest is of that kind."""
    rng = random.Random(seed)
    n = rng.randint(MIN_N, 13)
    builder = Builder(rng, n, rng.randint(0, 4))
    for name in "ABCD"[: rng.choices((1, 2, 3, 4), weights=(20, 35, 30, 15))[0]]:
        rank = rng.choices((1, 2, 3), weights=(40, 45, 15))[0]
        wide = tuple(rank < 3 and rng.random() < 0.3 for _ in range(rank))
        builder.add("double" if rng.random() < 0.7 else "int", wide, name=name)
    for _ in range(rng.choices((0, 1, 2), weights=(50, 35, 15))[0]):
        builder.bounded_source(("double", "float", "int"))
    count = rng.choices((1, 2, 3, 4), weights=(30, 35, 25, 10))[0]
    nests = [node for _ in range(count) for node in top_level_nest(builder, family)]
    parametric, show_iterators = rng.random() < 0.2, rng.random() < 0.15
    pointer = 2 * builder.pointer_reach + 1 if builder.pointer_reach else 0
    arrays = tuple(builder.arrays + builder.extra)
    sizes, constants = tuple(builder.sizes), tuple(builder.constants)
    program = Program(seed, n, arrays, tuple(nests), sizes, parametric, show_iterators, pointer, constants, family)
    return replace(program, macros=tuple(builder.macros), locals=tuple(builder.locals))
