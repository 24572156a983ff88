"""The ``written`` family: loops as people write them, where the best code is often the loop as written.

Public: ``SHAPES``, ``written``.

Each nest is one of ``SHAPES``, its parameters random:

- ``induction``: a counter advanced under a data test, in both branches of an ``if``/``else`` or in one
  (``j = -1; for (i ...) { if (B[i] > 0.0) { j++; A[j] = ...; } else { j++; A[j] = ...; } }``, or a
  compaction ``A[c0++] = ...;``), sometimes restarted for each row of a 2-D array;
- ``unrolled``: a loop unrolled by hand by 2 to 5 (``for (i = 0; i < n - 3 + 1; i += 3) { A[i] += 0.5 *
  B[G[i]]; A[i + 1] += ...; ... }``), sometimes gathering through an ``int`` index array whose values lie in
  ``[0, N)`` (``Array.init``), sometimes into partial sums declared before the region, sometimes followed by a
  clean-up loop (``for (; i < n; i++)``, ``for (i = n - n % 3; i < n; i++)``);
- ``shifted``: a statement pair that a shift makes parallel (``A[i + 1] = B[i] + C[i]; A[i] = B[i] * 2.0;``, or
  the second statement reading the neighbour the first one wrote: ``D[i] = A[i] * 2.0;``);
- ``typed``: iterators of type ``long``, ``unsigned`` or ``size_t``, declared in the ``for`` (sometimes
  shadowing ``i``) or before the region, around statements or a first-min/first-max search that returns an
  index (``m0 = 0; for (q0 = 1; q0 < n; q0++) if (X[q0] < X[m0]) m0 = q0;``, a strict comparison);
- ``chain``: a short chain through scalar temporaries declared before the region (``t0 = A[i][4];
  t1 = t0 - B[i][4]; B[i][4] = t0; A[i][4] = 0.5 * t1;``);
- ``bound``: a loop bounded by a scalar computed earlier in the region (``n0 = n - 1;``) or set before it.

The scalars declared before the region (``Program.locals``) are printed after it.  A nest after the first
often starts a region of its own (``#pragma endscop`` / ``#pragma scop`` before it), so that a region the
frontend declines (a clean-up loop without an initialization, a ``size_t`` declared in a ``for``, a bound
written in the region) leaves the other nests to be optimized.

Values stay in range: every subscript is checked against its loop bounds (a counter advanced at most once
per iteration stays below the iteration count, an index array's values below ``N``), every integer store of
an array is reduced modulo ``MODULUS`` or stores a value read from one, and no integer expression multiplies
two reads.  An unsigned iterator only counts up from its start, and every subscript over it is at least 0
in every iteration.
"""

from __future__ import annotations

from dataclasses import replace

from polyopt.fuzz.generator.builder import Builder, Ranges
from polyopt.fuzz.generator.gnu import REGION_BREAK
from polyopt.fuzz.generator.program import MIN_N, MODULUS, Array, If, Loop, Node, Stmt

SHAPES = ("induction", "unrolled", "shifted", "typed", "chain", "bound")
ITERATOR_TYPES = ("long", "unsigned", "size_t")


def _modulo(ctype: str, value: str) -> str:
    return f"({value}) % {MODULUS}" if ctype == "int" else value


def _sources(builder: Builder, ctype: str, rank: int, avoid: tuple[Array, ...] = ()) -> Array:
    """An array to read in a ``ctype`` expression (over ``int``, an ``int`` one)."""
    ctypes = ("int",) if ctype == "int" else ("double", "double", "float", "int")
    return builder.pool_array(ctypes, rank, writable=False, avoid=avoid)


def _test(builder: Builder, element: str, ctype: str) -> str:
    """A data test on ``element``, an array element of type ``ctype``."""
    if ctype == "int":
        return builder.rng.choice((f"{element} > 0", f"{element} % 2 == 0", f"{element} < t", f"{element} != 1"))
    return builder.rng.choice((f"{element} > 0.0", f"{element} < s", f"{element} >= -0.25", f"{element} <= 0.5"))


def _advance(builder: Builder, counter: str) -> Stmt:
    spellings = (f"{counter}++;", f"++{counter};", f"{counter} += 1;", f"{counter} = {counter} + 1;")
    return Stmt(builder.rng.choice(spellings))


def _kept(builder: Builder, target: Array, prefix: str, counter: str, style: str, ranges: Ranges) -> list[Node]:
    """The counter's advance and the store of a value at it, in ``style``: ``pre`` (advance, then store at
    ``counter``), ``post`` (store, then advance) or ``inline`` (``T[counter++] = ...``)."""
    value = builder.expression(target.ctype, ranges)
    if style == "inline":
        return [Stmt(f"{target.name}{prefix}[{counter}++] = {value};")]
    store = Stmt(f"{target.name}{prefix}[{counter}] = {value};")
    return [_advance(builder, counter), store] if style == "pre" else [store, _advance(builder, counter)]


def _induction(builder: Builder) -> list[Node]:
    """A counter advanced under a data test (see the module docstring)."""
    rng, n = builder.rng, builder.n
    rows = rng.random() < 0.25  # the counter restarts for each row i and counts along j
    target = builder.pool_array(("double", "double", "int"), 2 if rows else 1, writable=True)
    counter = "j" if not rows and rng.random() < 0.4 else builder.local(rng.choice(("int", "int", "long")), "c", "0")
    style = rng.choice(("pre", "pre", "post", "inline"))
    start = "-1" if style == "pre" else "0"
    low, trim = rng.choice((0, 0, 1)), rng.choice((0, 0, 1, 2))
    inner = "j" if rows else "i"
    header = f"for ({inner} = {low}; {inner} < {f'n - {trim}' if trim else 'n'}; {inner}++)"
    ranges: Ranges = {"i": (0, n - 1), "j": (low, n - 1 - trim)} if rows else {"i": (low, n - 1 - trim)}
    prefix = "[i]" if rows else ""
    source = builder.pool_array(("double", "float", "int"), 2 if rows else 1, writable=False)
    condition = _test(builder, f"{source.name}{'[i][j]' if rows else '[i]'}", source.ctype)
    kept = _kept(builder, target, prefix, counter, style, ranges)
    if rng.random() < 0.55:  # both branches advance the counter
        guard = If(condition, tuple(kept), tuple(_kept(builder, target, prefix, counter, style, ranges)))
    elif rng.random() < 0.5:  # the other branch does something else
        guard = If(condition, tuple(kept), (builder.statement(ranges),))
    else:
        guard = If(condition, tuple(kept))
    loop = Loop(header, (guard,))
    reset = Stmt(f"{counter} = {start};")
    if rows:
        return [Loop("for (i = 0; i < n; i++)", (reset, loop))]
    nodes: list[Node] = [reset, loop]
    if counter == "j" or rng.random() < 0.3:  # the number of elements kept
        nodes.append(Stmt(f"t = {counter} + 1;" if style == "pre" else f"t = {counter};"))
    return nodes


def _lane(builder: Builder, form: str, target: Array, prefix: str, offset: str, reads: dict[str, str]) -> Stmt:
    """One lane of an unrolled body at ``i`` plus ``offset`` (``" + 2"``, or ``""``)."""
    at = f"i{offset}"
    if form == "gather":
        read = f"{reads['source']}[{reads['index']}[{at}]]"
    elif form == "sum":
        read = f"{reads['source']}[{at}] + {reads['other']}[{at}]"
    else:
        read = f"{reads['source']}[{at}]"
    element = f"{target.name}{prefix}[{at}]"
    if target.ctype == "int":
        return Stmt(f"{element} = ({element} + {reads['factor']} * {read}) % {MODULUS};")
    if form == "sum":
        return Stmt(f"{element} = {read};")
    return Stmt(f"{element} {reads['operator']} {reads['factor']} * {read};")


def _index_array(builder: Builder) -> Array:
    """A read-only ``int`` array whose values lie in ``[0, N)``, for gathers (a pool one if there is one)."""
    rng = builder.rng
    indices = [array for array in builder.arrays if array.init]
    if indices and rng.random() < 0.7:
        return rng.choice(indices)
    array = builder.add("int", (False,), readonly=True)
    init = f"(i * {rng.choice((1, 2, 3, 5, 7))} + {rng.randint(0, builder.n - 1)}) % N"
    builder.arrays[-1] = replace(array, init=init)
    return builder.arrays[-1]


def _unrolled(builder: Builder) -> list[Node]:
    """A loop unrolled by hand (see the module docstring)."""
    rng = builder.rng
    factor = rng.randint(2, 5)
    low = rng.choice((0, 0, 0, 1))
    test = rng.choice((f"i < n - {factor} + 1", f"i <= n - {factor}", f"i < n - {factor - 1}", f"i + {factor - 1} < n"))
    rows = rng.random() < 0.2  # inside a loop over the rows j of a 2-D target
    form = rng.choice(("gather", "gather", "axpy", "sum", "partial"))
    ctype = "double" if form == "partial" else rng.choice(("double", "double", "int"))
    target = builder.pool_array((ctype,), 2 if rows else 1, writable=True)
    prefix = "[j]" if rows else ""
    source = _sources(builder, ctype, 1)
    reads = {
        "source": source.name,
        "other": _sources(builder, ctype, 1).name,
        "factor": rng.choice(("0.5", "2.0", "-1.5", "s")) if ctype == "double" else str(rng.randint(1, 3)),
        "operator": rng.choice(("+=", "+=", "-=")),
    }
    offsets = [f" + {u}" if u else "" for u in range(factor)]
    nodes: list[Node] = []
    sums: list[str] = []
    if form == "partial":  # partial sums a0, a1, ... of a dot product, added up after the loop
        sums = [builder.local("double", "a", "0.0") for _ in range(factor)]
        other = reads["other"]
        lanes = [Stmt(f"{a} += {source.name}[i{o}] * {other}[i{o}];") for a, o in zip(sums, offsets, strict=True)]
        nodes += [Stmt(f"{a} = 0.0;") for a in sums]
        cleanup_body = Stmt(f"{sums[0]} += {source.name}[i] * {other}[i];")
    else:
        if form == "gather":
            reads["index"] = _index_array(builder).name
        lanes = [_lane(builder, form, target, prefix, offset, reads) for offset in offsets]
        cleanup_body = _lane(builder, form, target, prefix, "", reads)
    body: list[Node] = [Loop(f"for (i = {low}; {test}; i += {factor})", tuple(lanes))]
    if rng.random() < 0.6:  # the iterations left over
        starts = ["", "i = n - n % {0}", "i = n / {0} * {0}"] if low == 0 else [""]
        start = rng.choice(starts).format(factor)
        body.append(Loop(f"for ({start}; i < n; i++)", (cleanup_body,)))
    if rows:
        nodes.append(Loop(f"for (j = 0; j < {rng.choice(('n', 'n - 1', '3'))}; j++)", tuple(body)))
    else:
        nodes += body
    if sums:
        total = " + ".join(sums)
        nodes.append(Stmt(rng.choice((f"s = {total};", f"s += {total};"))))
    return nodes


def _shifted(builder: Builder) -> list[Node]:
    """A statement pair that a shift makes parallel (see the module docstring)."""
    rng = builder.rng
    ctype = rng.choice(("double", "double", "int"))
    rank = 2 if rng.random() < 0.2 else 1
    written = builder.pool_array((ctype,), rank, writable=True)
    first = _sources(builder, ctype, rank, (written,))
    second = _sources(builder, ctype, rank, (written, first))
    distance = rng.choice((1, 1, 1, 2))
    low, trim = rng.choice((0, 0, 1)), rng.choice((0, 0, 1))
    row = "[j]" if rank == 2 else ""
    x, b, c = (f"{array.name}{row}" for array in (written, first, second))
    if ctype == "int":
        produced = rng.choice((f"({b}[i] + {c}[i]) % {MODULUS}", f"({b}[i] - 2 * {c}[i]) % {MODULUS}"))
    else:
        produced = rng.choice((f"{b}[i] + {c}[i]", f"{b}[i] * {c}[i]", f"{b}[i] - 0.5 * {c}[i]"))
    producer = Stmt(f"{x}[i + {distance}] = {produced};")
    kind = rng.choice(("overwrite", "overwrite", "neighbour", "update"))
    low = 1 if kind != "overwrite" and rng.random() < 0.4 else low  # room for a read at i - 1
    if kind == "overwrite":  # A[i] is written twice: at i - distance, then here
        value = f"({b}[i] * 2) % {MODULUS}" if ctype == "int" else rng.choice((f"{b}[i] * 2.0", f"{c}[i] + 1.0"))
        consumer = Stmt(f"{x}[i] = {value};")
    else:  # reads what the producer wrote distance iterations before (or, at offset -1 from i >= 1, earlier)
        offset = rng.choice(("", " - 1")) if low >= 1 else ""
        read = f"{x}[i{offset}]"
        if kind == "update":
            consumer = Stmt(f"{x}[i] = {_modulo(ctype, f'{read} + {b}[i]')};")
        else:
            other = builder.pool_array((ctype,), rank, writable=True, avoid=(written,))
            factor = "2" if ctype == "int" else rng.choice(("2.0", "0.5"))
            consumer = Stmt(f"{other.name}{row}[i] = {_modulo(ctype, f'{read} * {factor}')};")
    pair = (producer, consumer) if rng.random() < 0.8 else (consumer, producer)
    loop = Loop(f"for (i = {low}; i < {f'n - {trim}' if trim else 'n'}; i++)", pair)
    return [Loop("for (j = 0; j < n; j++)", (loop,)) if rank == 2 else loop]


def _typed_header(builder: Builder, itype: str, name: str, declare: bool, ranges: Ranges) -> tuple[str, Ranges]:
    """A loop over ``name`` of type ``itype`` (declared in the ``for`` if ``declare``), counting down only
    when signed, and the ranges with it."""
    rng, n = builder.rng, builder.n
    declared = f"{itype} " if declare else ""
    outer = [v for v in ranges if v != name]
    kind = rng.random()
    if outer and kind < 0.3:  # triangular over the outer iterator
        u = outer[-1]
        if rng.random() < 0.5:
            interval = (ranges[u][0] + 1, n - 1)
            return f"for ({declared}{name} = {u} + 1; {name} < n; {name}++)", {**ranges, name: interval}
        return f"for ({declared}{name} = 0; {name} <= {u}; {name}++)", {**ranges, name: (0, ranges[u][1])}
    low, trim = rng.choice((0, 0, 1, 2)), rng.choice((0, 0, 1))
    interval = (low, n - 1 - trim)
    if itype == "long" and kind < 0.5:
        return f"for ({declared}{name} = n - {1 + trim}; {name} >= {low}; {name}--)", {**ranges, name: interval}
    bound = f"n - {trim}" if trim else rng.choice(("n", "n", f"({itype})n"))
    step = "++" if rng.random() < 0.8 else " += 2"
    return f"for ({declared}{name} = {low}; {name} < {bound}; {name}{step})", {**ranges, name: interval}


def _typed(builder: Builder) -> list[Node]:
    """Loops over iterators of type ``long``, ``unsigned`` or ``size_t`` (see the module docstring)."""
    rng = builder.rng
    itype = rng.choice(ITERATOR_TYPES)
    declare = rng.random() < 0.5  # in the for (else before the region)

    def iterator(shadowed: str, fresh: str) -> str:
        if not declare:
            return builder.local(itype, "q", "0")
        return shadowed if rng.random() < 0.5 else fresh

    if rng.random() < 0.4:  # a first-min or first-max search returning an index
        searched = builder.pool_array(("double", "double", "float", "int"), 1, writable=rng.random() < 0.3)
        best = builder.local(rng.choice((itype, itype, "int")), "m", "0")
        low = rng.choice((0, 0, 1))
        name = iterator("k", "kk")
        better = rng.choice(("<", ">"))
        test = If(f"{searched.name}[{name}] {better} {searched.name}[{best}]", (Stmt(f"{best} = {name};"),))
        end = rng.choice(("n", "n", "n - 1"))
        nodes: list[Node] = [
            Stmt(f"{best} = {low};"),
            Loop(f"for ({f'{itype} ' if declare else ''}{name} = {low + 1}; {name} < {end}; {name}++)", (test,)),
        ]
        if rng.random() < 0.4:  # the element found is used
            found = f"{searched.name}[{best}]"
            nodes.append(Stmt(f"t = ({found} + t) % {MODULUS};" if searched.ctype == "int" else f"s += {found};"))
        return nodes
    outer_name = iterator("i", "ii")
    header, ranges = _typed_header(builder, itype, outer_name, declare, {})
    headers = [header]
    if rng.random() < 0.4:
        inner_name = iterator("j", "jj")
        header, ranges = _typed_header(builder, itype, inner_name, declare, ranges)
        headers.append(header)
    body: tuple[Node, ...] = tuple(builder.statement(ranges) for _ in range(rng.choice((1, 1, 2))))
    for header in reversed(headers):
        body = (Loop(header, body),)
    return list(body)


def _chain(builder: Builder) -> list[Node]:
    """A short chain through scalar temporaries declared before the region (see the module docstring)."""
    rng = builder.rng
    ctype = rng.choice(("double", "double", "int"))
    rank = rng.choice((1, 2, 2))
    first = builder.pool_array((ctype,), rank, writable=True)
    second = builder.pool_array((ctype,), rank, writable=True, avoid=(first,))
    low, trim = rng.choice((0, 0, 1)), rng.choice((0, 0, 1))
    header = f"for (i = {low}; i < {f'n - {trim}' if trim else 'n'}; i++)"
    if rng.random() < 0.25:
        header = f"for (i = n - {1 + trim}; i >= {low}; i--)"
    inner = rank == 2 and rng.random() < 0.35  # over the columns j too
    column = "[j]" if inner else f"[{rng.randint(0, MIN_N - 1)}]" if rank == 2 else ""
    shift = rng.random() < 0.2  # the second array at the next row
    a = f"{first.name}[i]{column}"
    b = f"{second.name}[i{' + 1' if shift else ''}]{column}"
    zero = "0.0" if ctype == "double" else "0"
    temps = [builder.local(ctype, "t", zero) for _ in range(rng.choice((2, 2, 3)))]
    t0, t1 = temps[0], temps[1]
    if ctype == "int":
        steps = [f"{t0} = {a};", f"{t1} = {rng.choice((f'({t0} - {b}) % {MODULUS}', f'({t0} + {b}) % {MODULUS}'))};"]
    else:
        steps = [f"{t0} = {a};", f"{t1} = {rng.choice((f'{t0} - {b}', f'{t0} + 0.5 * {b}', f'{t0} * {b}'))};"]
    last = t1
    if len(temps) == 3:
        steps.append(f"{temps[2]} = {_modulo(ctype, f'2 * {t1} + {t0}' if ctype == 'int' else f'{t1} * 0.5 + {t0}')};")
        last = temps[2]
    stores = [f"{b} = {t0};", f"{a} = {last if ctype == 'int' else rng.choice((f'0.5 * {last}', last))};"]
    if rng.random() < 0.3:
        stores.reverse()
    body: tuple[Node, ...] = tuple(Stmt(text) for text in steps + stores)
    if inner:
        body = (Loop(f"for (j = 0; j < {rng.choice(('n', 'n - 1', 'i + 1'))}; j++)", body),)
    return [Loop(header, body)]


def _bound(builder: Builder) -> list[Node]:
    """A loop bounded by a scalar computed earlier (see the module docstring)."""
    rng, n = builder.rng, builder.n
    expression, value = rng.choice((("n - 1", n - 1), ("n - 2", n - 2), ("n / 2", n // 2), ("n", n), ("n + 1", n + 1)))
    in_region = rng.random() < 0.5
    bound = builder.local(rng.choice(("int", "int", "long")), "n", "0" if in_region else expression)
    nodes: list[Node] = [Stmt(f"{bound} = {expression};")] if in_region else []
    low = rng.choice((0, 0, 1))
    form = rng.random()
    if form < 0.2:
        header, ranges = f"for (i = {bound} - 1; i >= {low}; i--)", {"i": (low, value - 1)}
    elif form < 0.35:
        header, ranges = f"for (i = {low}; i <= {bound} - 1; i++)", {"i": (low, value - 1)}
    else:
        header, ranges = f"for (i = {low}; i < {bound}; i++)", {"i": (low, value - 1)}
    headers = [header]
    if rng.random() < 0.4:
        if rng.random() < 0.5:
            inner, interval = f"for (j = 0; j < {bound}; j++)", (0, value - 1)
        else:
            inner, interval = builder.header("j", ranges)
        headers.append(inner)
        ranges = {**ranges, "j": interval}
    body: tuple[Node, ...] = tuple(builder.statement(ranges) for _ in range(rng.choice((1, 1, 2))))
    for header in reversed(headers):
        body = (Loop(header, body),)
    return nodes + list(body)


def written(builder: Builder) -> list[Node]:
    """One nest of a shape of ``SHAPES``, maybe (after the first) in a region of its own."""
    rng = builder.rng
    builder.written += 1
    shape = rng.choice(SHAPES)
    nodes = {
        "induction": _induction,
        "unrolled": _unrolled,
        "shifted": _shifted,
        "typed": _typed,
        "chain": _chain,
        "bound": _bound,
    }[shape](builder)
    return [Stmt(REGION_BREAK), *nodes] if rng.random() < 0.5 and builder.written > 1 else nodes
