"""Library idioms (GEMM, GEMV, GER) with temporaries, and column sums; small or large sizes."""

from __future__ import annotations

from polyopt.fuzz.generator.builder import Affine, Bound, Builder, Ranges, perfect_nest
from polyopt.fuzz.generator.program import MIN_N, Array, Loop, Node, Size, Stmt

# Large sizes, on both sides of each threshold (polyopt.machine, polyopt.library.microkernel_plan
# on the project machine, polyopt.emit.isl_ast.SECTION_LIMIT).
GEMM_SIZES = ((192, 192, 192), (191, 192, 192), (193, 192, 192), (128, 256, 216), (127, 256, 216), (256, 256, 256))
MICRO_M = (13, 14, 15, 27, 28, 29, 251, 252, 253)  # around multiples of mr = 14, and mc = 252
MICRO_N = (15, 16, 17, 31, 32, 33)  # around multiples of nr = 16
MICRO_K = (1, 255, 256, 257, 511, 512, 513)  # around multiples of kc = 256
GEMV_SIZES = ((1024, 1024), (1023, 1024), (1025, 1024), (2048, 512), (512, 2047))
SECTION_LENGTHS = (16383, 16384, 16385, 20000)
HUGE_SECTION = 2_000_001  # a private copy of 16 MB overflows a thread's stack
LARGE_LIBRARY, LARGE_SECTION = 0.3, 0.4  # probabilities


def _bounds(builder: Builder, count: int) -> list[Bound]:
    """Small upper bounds for the loops of a library idiom or a column sum: ``n``, ``n - 1``, ``n - 2``,
    a constant, sometimes a size macro of 0 or 1."""
    rng = builder.rng
    bounds: list[Bound] = []
    for _ in range(count):
        if rng.random() < 0.05:
            size = builder.size(rng.choice((0, 1)))
            bounds.append((size.name, size.value))
        elif rng.random() < 0.25:
            constant = rng.randint(1, MIN_N - 1)
            bounds.append((str(constant), constant))
        else:
            trim = rng.choice((0, 0, 1, 2))
            bounds.append((Affine(n_coeff=1, const=-trim).render(), builder.n - trim))
    return bounds


def _large_values(builder: Builder, count: int) -> tuple[int, ...]:
    rng = builder.rng
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


def library(builder: Builder) -> list[Node]:
    """A GEMM, GEMV or GER nest, often with a temporary read by a later nest and named in
    ``#pragma polyopt dead``: the idiom's output (set to 0 by an earlier nest or not), or an
    array written before the idiom."""
    rng = builder.rng
    idiom = rng.choices(("gemm", "gemv", "ger"), weights=(55, 30, 15))[0]
    large = not builder.large and rng.random() < LARGE_LIBRARY
    builder.large = builder.large or large
    count = 3 if idiom == "gemm" else 2
    sizes: dict[str, Size] = {}
    if large:
        sizes = {v: builder.size(value) for v, value in zip("ijk", _large_values(builder, count), strict=False)}
        bounds = [(size.name, size.value) for size in sizes.values()]
    else:
        bounds = _bounds(builder, count)
    values = {v: value for v, (_, value) in zip("ijk", bounds, strict=False)}
    headers = {v: f"for ({v} = 0; {v} < {text}; {v}++)" for v, (text, _) in zip("ijk", bounds, strict=False)}
    ranges: Ranges = {v: (0, max(0, value - 1)) for v, value in values.items()}

    def operand(dims: str, *, writable: bool, avoid: tuple[Array, ...] = ()) -> Array:
        if large:
            return builder.large_array("double", [sizes[v] for v in dims], readonly=not writable)
        return builder.pool_array(
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
    idiom_nest = perfect_nest([headers[v] for v in order], (Stmt(update),))

    temporary = rng.choices(("output", "separate", "none"), weights=(40, 35, 25))[0]
    if temporary == "none":
        return [idiom_nest]
    if temporary == "output":
        temp, temp_dims = output, out_dims
    elif large:
        temp, temp_dims = builder.large_array("double", [sizes["i"]], readonly=False), "i"
    else:
        temp, temp_dims = builder.pool_array(("double",), 1, writable=True, avoid=(output,)), "i"
    subscript = "".join(f"[{v}]" for v in temp_dims)
    temp_ranges = {v: ranges[v] for v in temp_dims}
    nodes: list[Node] = []
    if temporary == "separate":  # written before the idiom, from the idiom's output: a dependence to respect
        source = f"{output.name}[i]" + ("[0]" if output.rank == 2 else "")
        nodes.append(perfect_nest([headers["i"]], (Stmt(f"{temp.name}[i] = {source} + 1.0;"),)))
    elif rng.random() < 0.6:  # else the idiom adds to the values of the initialization
        zero = "0.0" if large or rng.random() < 0.5 else builder.expression("double", temp_ranges)
        nodes.append(perfect_nest([headers[v] for v in temp_dims], (Stmt(f"{temp.name}{subscript} = {zero};"),)))
    nodes.append(idiom_nest)
    if large:
        consumer = builder.large_array("double", [sizes[v] for v in temp_dims], readonly=False)
    else:
        consumer = builder.pool_array(("double",), len(temp_dims), writable=True, avoid=(temp,))
    target = f"{consumer.name}{subscript}"
    extra = "0.5 * " + target if large else builder.term("double", temp_ranges)
    consume = Stmt(f"{target} = {temp.name}{subscript} + {extra};")
    nodes.append(perfect_nest([headers[v] for v in temp_dims], (consume,)))
    if rng.random() < 0.85:
        pragma = Stmt(f"#pragma polyopt dead({temp.name})")
        nodes.insert(rng.choice((0, nodes.index(idiom_nest))), pragma)
    return nodes


def section(builder: Builder) -> Loop:
    """A column sum ``y[j] += A[i][j]``: a reduction into a section of a vector (large: on both sides of
    the 16384 elements of a private copy, or two million)."""
    rng = builder.rng
    large = not builder.large and rng.random() < LARGE_SECTION
    builder.large = builder.large or large
    form = rng.randrange(4)
    if large:
        length = HUGE_SECTION if rng.random() < 0.1 else rng.choice(SECTION_LENGTHS)
        rows = 2 if length == HUGE_SECTION else rng.randint(1, 4)
        if rng.random() < 0.15:
            rows, length = rng.choice(((0, length), (rows, 0)))
        row_size, length_size = builder.size(rows), builder.size(length)
        y = builder.large_array("double", [length_size], readonly=False)
        a = builder.large_array(rng.choice(("double", "float", "int")), [row_size, length_size], readonly=True)
        x = builder.large_array("double", [row_size], readonly=True) if form == 1 else a
        i_bound, j_bound = row_size.name, length_size.name
    else:
        (i_bound, _), (j_bound, _) = _bounds(builder, 2)
        y = builder.pool_array(("double",), 1, writable=True)
        a = builder.pool_array(("double", "float", "int"), 2, writable=False)
        x = builder.pool_array(("double", "float", "int"), 1, writable=False) if form == 1 else a
    update = (
        f"{y.name}[j] += {a.name}[i][j];",
        f"{y.name}[j] += {a.name}[i][j] * {x.name}[i];",
        f"{y.name}[j] = {y.name}[j] + 0.5 * {a.name}[i][j];",
        f"{y.name}[j] -= {a.name}[i][j];",
    )[form]
    headers = [f"for (i = 0; i < {i_bound}; i++)", f"for (j = 0; j < {j_bound}; j++)"]
    if rng.random() < 0.2:
        headers.reverse()
    return perfect_nest(headers, (Stmt(update),))


def rank_k(builder: Builder) -> list[Node]:
    """A SYRK ``C[i][j] += A[i][k] * A[j][k]`` or SYR2K (two such products, ``A`` and ``B`` swapped) over a
    triangle of ``C``: lower or upper, with or without the diagonal, its operands transposed or not
    (``A[k][i] * A[k][j]``), in loop orders that keep ``j``'s bound inside ``i``'s loop; small, or (large)
    around the microkernel's register and cache blocks."""
    rng = builder.rng
    large = not builder.large and rng.random() < LARGE_LIBRARY
    builder.large = builder.large or large
    if large:
        n_size, k_size = builder.size(rng.choice(MICRO_N + MICRO_M[:6])), builder.size(rng.choice(MICRO_K))
        n_text, k_text = n_size.name, k_size.name
    else:
        (n_text, _), (k_text, _) = _bounds(builder, 2)
    lower, strict, transposed = rng.random() < 0.5, rng.random() < 0.3, rng.random() < 0.4
    edge = "<" if strict else "<="
    j_header = f"for (j = 0; j {edge} i; j++)" if lower else f"for (j = i{' + 1' if strict else ''}; j < {n_text}; j++)"
    headers = {"i": f"for (i = 0; i < {n_text}; i++)", "j": j_header, "k": f"for (k = 0; k < {k_text}; k++)"}

    def operand(*, writable: bool, avoid: tuple[Array, ...] = ()) -> Array:
        if large:
            dims = [n_size, n_size] if writable else ([k_size, n_size] if transposed else [n_size, k_size])
            return builder.large_array("double", dims, readonly=not writable)
        return builder.pool_array(("double",), 2, writable=writable, avoid=avoid)

    def element(array: Array, row: str) -> str:
        return f"{array.name}[k][{row}]" if transposed else f"{array.name}[{row}][k]"

    a = operand(writable=False)
    b = operand(writable=False, avoid=(a,)) if rng.random() < 0.4 else None
    output = operand(writable=True, avoid=(a,) if b is None else (a, b))
    alpha = rng.choice(("", "1.5 * ", "-0.5 * "))
    first = f"{alpha}{element(a, 'i')} * {element(a if b is None else b, 'j')}"
    terms = first if b is None else f"{first} + {alpha}{element(b, 'i')} * {element(a, 'j')}"
    target = f"{output.name}[i][j]"
    update = f"{target} = {target} + {terms};" if rng.random() < 0.3 else f"{target} += {terms};"
    order = rng.choice((("i", "j", "k"), ("i", "k", "j"), ("k", "i", "j")))
    return [perfect_nest([headers[v] for v in order], (Stmt(update),))]


def square(builder: Builder) -> list[Node]:
    """A product with a square operand ``A`` (M x M) into ``B`` or ``C`` (M x N): an in-place TRMM
    ``B[i][j] += A[k][i] * B[k][j]`` (or ``A[i][k]``) over a strict triangle of ``i`` and ``k``, or a SYMM in
    PolyBench's form (the accumulator ``s``, ``A`` read in its lower or upper triangle through ``A[i][k]``
    or ``A[k][i]``, ``alpha`` and ``beta`` factors); the rows run in the order that reads the original
    ``B`` (TRMM) or ``C`` (SYMM), and sometimes the other way (no idiom then); small, or (large) around the
    microkernel's register and cache blocks."""
    rng = builder.rng
    large = not builder.large and rng.random() < LARGE_LIBRARY
    builder.large = builder.large or large
    if large:
        m_size, n_size = builder.size(rng.choice((*MICRO_M, 255, 256, 257))), builder.size(rng.choice(MICRO_N))
        m_text, n_text = m_size.name, n_size.name
    else:
        (m_text, _), (n_text, _) = _bounds(builder, 2)

    def operand(columns: str, *, writable: bool, avoid: tuple[Array, ...] = ()) -> Array:
        if large:
            return builder.large_array("double", [m_size, m_size if columns == "m" else n_size], readonly=not writable)
        return builder.pool_array(("double",), 2, writable=writable, avoid=avoid)

    above, trmm = rng.random() < 0.5, builder.symm or rng.random() < 0.5
    builder.symm = builder.symm or not trmm
    # a TRMM reads rows k > i before they are updated when its rows run up, a SYMM updates rows k > i after
    # their own combination when its rows run down; rarely the other order
    ascending = (above == trmm) != (rng.random() < 0.1)
    i_header = f"for (i = 0; i < {m_text}; i++)" if ascending else f"for (i = {m_text} - 1; i >= 0; i--)"
    k_header = f"for (k = i + 1; k < {m_text}; k++)" if above else "for (k = 0; k < i; k++)"
    j_header = f"for (j = 0; j < {n_text}; j++)"
    a = operand("m", writable=False)
    element = f"{a.name}[{rng.choice(('i][k', 'k][i'))}]"
    if trmm:
        b = operand("n", writable=True, avoid=(a,))
        update = Stmt(f"{b.name}[i][j] += {element} * {b.name}[k][j];")
        order = rng.choice(((i_header, j_header, k_header), (i_header, k_header, j_header)))
        return [perfect_nest(list(order), (update,))]
    b = operand("n", writable=False, avoid=(a,))
    c = operand("n", writable=True, avoid=(a, b))
    alpha, beta = rng.choice(("", "1.5 * ", "-0.5 * ")), rng.choice(("", "0.75 * ", "-1.25 * "))
    body = (
        Stmt("s = 0.0;"),
        Loop(
            k_header,
            (
                Stmt(f"{c.name}[k][j] += {alpha}{b.name}[i][j] * {element};"),
                Stmt(f"s += {b.name}[k][j] * {element};"),
            ),
        ),
        Stmt(f"{c.name}[i][j] = {beta}{c.name}[i][j] + {alpha}{b.name}[i][j] * {a.name}[i][i] + {alpha}s;"),
    )
    return [Loop(i_header, (Loop(j_header, body),))]
