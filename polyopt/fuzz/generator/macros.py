"""Expression macros in loop bounds, steps, subscripts and conditions (the ``macros`` family).

C reads a macro as text: with ``#define W0 n-1``, ``2*W0`` is ``2*n-1``.  The family defines object-like
and function-like macros with and without parentheses, some built on earlier ones (``#define W1 W0*2``,
``#define F0(x) x+W0``), some naming the iterator ``i`` or the size ``n``, and uses them where the model
needs a value: ``for (i = 1; i < 2*W1; i += W0)``, ``A[F0(i)*2]``, ``if (i < W2)``.  Every use is
expanded here as the preprocessor does and evaluated at each iteration, so every access stays in bounds.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from polyopt.fuzz.generator.builder import Builder, Ranges, perfect_nest
from polyopt.fuzz.generator.program import MODULUS, Array, If, Loop, Node, Stmt

_DEFINITION = re.compile(r"([A-Za-z_]\w*)(\(x\))? (.*)")
Points = list[dict[str, int]]  # the iterators' values at each iteration of a nest


def _definitions(builder: Builder) -> tuple[dict[str, str], dict[str, str]]:
    """The object-like and the function-like macros defined so far: name -> body."""
    objects: dict[str, str] = {}
    functions: dict[str, str] = {}
    for definition in builder.macros:
        match = _DEFINITION.fullmatch(definition)
        assert match is not None
        (functions if match[2] else objects)[match[1]] = match[3]
    return objects, functions


def expand(text: str, objects: Mapping[str, str], functions: Mapping[str, str]) -> str:
    """``text`` with every macro expanded as the C preprocessor does (the family's macros have no ``#``, no
    ``##`` and no self-reference, so the order of the replacements does not matter)."""
    for _ in range(100):
        replaced = re.sub(r"\b[A-Za-z_]\w*\b", lambda m: f" {objects[m[0]]} " if m[0] in objects else m[0], text)
        for match in re.finditer(r"\b([A-Za-z_]\w*)\s*\(", replaced):
            if match[1] in functions:
                close = _closing(replaced, match.end() - 1)
                body = re.sub(r"\bx\b", f" {replaced[match.end() : close]} ", functions[match[1]])
                replaced = f"{replaced[: match.start()]} {body} {replaced[close + 1 :]}"
                break
        if replaced == text:
            return text
        text = replaced
    raise ValueError(f"macro expansion does not end: {text}")


def _closing(text: str, opening: int) -> int:
    depth = 0
    for index in range(opening, len(text)):
        depth += {"(": 1, ")": -1}.get(text[index], 0)
        if depth == 0:
            return index
    raise ValueError(f"unbalanced parentheses: {text}")


def _values(builder: Builder, text: str, points: Points) -> list[int]:
    """The value of the C expression ``text`` at each of ``points`` (``n`` is the size)."""
    code = compile(expand(text, *_definitions(builder)).strip(), "<macro>", "eval")
    return [eval(code, {"__builtins__": {}}, {"n": builder.n, **point}) for point in points]  # noqa: S307


def _term(builder: Builder, names: list[str]) -> str:
    """A small operand: a literal 1 to 3, an earlier object-like macro without an iterator, or ``n``."""
    rng = builder.rng
    choice = rng.random()
    if choice < 0.35 and names:
        return rng.choice(names)
    if choice < 0.45:
        return "n"
    return str(rng.randint(1, 3))


def _define(builder: Builder) -> None:
    """One more macro: object-like or function-like, parenthesized or not, perhaps naming earlier ones."""
    rng = builder.rng
    objects, functions = _definitions(builder)
    plain = [name for name, body in objects.items() if not re.search(r"\bi\b", body)]
    operator = rng.choice(("+", "-", "*", "+"))
    spaced = rng.random() < 0.5
    join = (lambda a, b: f"{a} {operator} {b}") if spaced else (lambda a, b: f"{a}{operator}{b}")
    kind = rng.random()
    if kind < 0.45:
        left, right = _term(builder, plain), _term(builder, plain)
        body = join(left, right) if not (operator == "*" and "n" in (left, right) and left == right) else left
        name = f"W{len(objects)}"
        builder.macros.append(f"{name} {f'({body})' if rng.random() < 0.35 else body}")
    elif kind < 0.6:
        body = rng.choice(("i+1", "i*2", "1+i", "i - 1 + 2", "2*i"))
        builder.macros.append(f"W{len(objects)} {f'({body})' if rng.random() < 0.3 else body}")
    else:
        argument = "(x)" if rng.random() < 0.3 else "x"
        body = join(argument, _term(builder, plain)) if rng.random() < 0.6 else join(_term(builder, plain), argument)
        if operator == "*" and "n" in body:
            body = f"{argument} + n"
        builder.macros.append(f"F{len(functions)}(x) {f'({body})' if rng.random() < 0.35 else body}")


def _use(builder: Builder, iterator: str | None) -> str:
    """An expression over the macros (over ``iterator`` too, when given)."""
    rng = builder.rng
    objects, functions = _definitions(builder)
    plain = [name for name, body in objects.items() if not re.search(r"\bi\b", body)]
    with_i = [name for name in objects if name not in plain] if iterator == "i" else []
    pick = rng.choice(plain) if plain else "n"
    forms = [pick, f"2*{pick}", f"{pick}*2", f"{pick} - 1", f"n - {pick}", f"{pick}+{pick}"]
    if functions:
        function = rng.choice(list(functions))
        forms += [f"{function}({pick})", f"2*{function}(1)", f"{function}(2)*2"]
        if iterator is not None:
            forms += [f"{function}({iterator})", f"{function}({iterator})*2", f"{function}({iterator} + 1) - 2"]
    if iterator is not None:
        forms += [f"{iterator} + {pick}", f"{pick} + {iterator}", f"{iterator}*{pick}", f"{iterator} + 2*{pick} - 3"]
        forms += [f"{name}{suffix}" for name in with_i for suffix in ("", "*2", " - 1")]
    return rng.choice(forms)


def _fitting(builder: Builder, points: Points, low: int, high: int, iterator: str | None) -> str | None:
    """A macro expression whose value at every point lies within [``low``, ``high``], or None."""
    for _ in range(12):
        text = _use(builder, iterator)
        values = _values(builder, text, points)
        if all(low <= value <= high for value in values):
            return text
    return None


def _loop(builder: Builder, iterator: str, outer: Points) -> tuple[str, Points] | None:
    """A loop over ``iterator`` bounded and perhaps stepped by macros, and the points inside it."""
    rng = builder.rng
    low = rng.choice((0, 0, 1))
    bound = _fitting(builder, outer, low + 1, builder.n + 4, None)
    if bound is None:
        return None
    step_text, step = "++", 1
    if rng.random() < 0.35:
        found = _fitting(builder, outer, 1, 4, None)
        if found is not None:
            step_text, step = f" += {found}", _values(builder, found, outer[:1])[0]
    ends = _values(builder, bound, outer)
    if len(set(ends)) != 1:
        return None
    points = [{**point, iterator: value} for point in outer for value in range(low, ends[0], step)]
    return f"for ({iterator} = {low}; {iterator} < {bound}; {iterator}{step_text})", points


def _access(builder: Builder, array: Array, points: Points, ranges: Ranges) -> str:
    """``array`` at subscripts over the macros where one fits, else at the builder's."""
    subscripts = []
    for dim in range(array.rank):
        iterator = list(ranges)[min(dim, len(ranges) - 1)]
        found = _fitting(builder, points, 0, array.lengths[dim] - 1, iterator) if builder.rng.random() < 0.8 else None
        subscripts.append(found if found is not None else builder.subscript(array.lengths[dim], ranges).render())
    return array.name + "".join(f"[{subscript}]" for subscript in subscripts)


def macros(builder: Builder) -> list[Node]:
    """One nest of depth one or two whose bounds, steps, subscripts and guards use expression macros."""
    rng = builder.rng
    for _ in range(rng.randint(1, 3) if len(builder.macros) < 8 else 0):
        _define(builder)
    headers: list[str] = []
    points: Points = [{}]
    for iterator in ("i", "j")[: rng.choice((1, 1, 2))]:
        loop = _loop(builder, iterator, points)
        if loop is None:
            break
        headers.append(loop[0])
        points = loop[1]
    if not headers or not points:
        return [builder.statement({})]
    names = ("i", "j")[: len(headers)]
    ranges = {name: (min(p[name] for p in points), max(p[name] for p in points)) for name in names}
    target = rng.choice(builder.writable())
    lhs = _access(builder, target, points, ranges)
    reads = [a for a in builder.arrays if target.ctype == "double" or a.ctype == "int"]
    read = _access(builder, rng.choice(reads), points, ranges) if reads else "t"
    value = f"{read} + {builder.term(target.ctype, ranges)}"
    body: Node = Stmt(f"{lhs} = {value if target.ctype == 'double' else f'({value}) % {MODULUS}'};")
    if rng.random() < 0.3:
        limit = _fitting(builder, [{}], 1, builder.n, None)
        body = If(f"{names[-1]} < {limit}", (body,)) if limit is not None else body
    nest = perfect_nest(headers, (body,))
    return [nest] if isinstance(nest, Loop) else [builder.statement({})]
