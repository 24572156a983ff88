"""Accumulations of mixed types, and a pointer advanced by a sum."""

from __future__ import annotations

import math

from polyopt.fuzz.generator.builder import Builder, perfect_nest
from polyopt.fuzz.generator.program import Loop, Stmt


def mixed(builder: Builder) -> Loop:
    """An accumulation whose accumulator and terms have different types (``t += (float)R[i] / 4``,
    ``t += D[i]``, ``f += R[i]``, ``s += F[i] * 2.5f``); the terms read arrays the region never writes."""
    rng = builder.rng
    ctype = rng.choice(("int", "int", "float", "double"))
    depth = rng.choice((1, 2, 2, 3)) if ctype == "double" else rng.choice((1, 2))
    headers, ranges = builder.headers(depth)
    accumulator = {"int": "t", "float": "f", "double": "s"}[ctype]
    targets = [array for array in builder.writable() if array.ctype == ctype]
    if depth >= 2 and targets and rng.random() < 0.3:  # an element, indexed by the outer loops
        accumulator = builder.access(rng.choice(targets), dict(list(ranges.items())[:-1]))
    source = builder.bounded_source(("double", "float", "int"))
    read = builder.access(source, ranges)
    if ctype == "int":
        forms = [f"(float){read} / 4", f"(double){read} / 8", f"{read} * 0.375", f"{read}"]
    elif ctype == "float":
        forms = [read, f"(float){read} / 2", f"{read} * 0.5f"]
        if source.ctype != "int":
            forms.append(f"{read} * {builder.access(source, ranges)}")
    else:
        forms = [f"(float){read} / 8", read, f"{read} * 2.5f"]
    term = rng.choice(forms)
    form = rng.choice(("+=", "+=", "-=", "= +"))
    update = f"{accumulator} = {accumulator} + {term};" if form == "= +" else f"{accumulator} {form} {term};"
    return perfect_nest(headers, (Stmt(update),))


def pointer_nest(builder: Builder) -> Loop:
    """A pointer advanced by a sum of steps (``p += R[i]``) read from a read-only integer array."""
    rng = builder.rng
    headers, ranges = builder.headers(rng.choice((1, 1, 2)))
    read = builder.access(builder.bounded_source(("int",)), ranges)  # its values lie in [-5, 5]
    step, most = rng.choice(((read, 5), (f"{read} + 1", 6), ("2", 2)))
    update = rng.choice((f"p += {step};", f"p -= {step};", f"p = p + {step};"))
    # at least 1, so that p is declared even where the ranges' estimate is empty
    builder.pointer_reach += max(1, math.prod(max(0, high - low + 1) for low, high in ranges.values()) * most)
    return perfect_nest(headers, (Stmt(update),))
