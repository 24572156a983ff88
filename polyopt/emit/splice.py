"""Splice generated regions back into the file text.

Public: ``HELPER_DEFINITIONS``, ``HELPER_HEADERS``, ``RegionCode``, ``render_template``, ``render_region``, ``splice``.
Text outside the regions is copied unchanged; each region is replaced by its
code, rendered through ``polyopt/templates/region.c.j2``.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from importlib import resources

import jinja2

from polyopt import __version__
from polyopt.frontend.regions import Region

HELPER_DEFINITIONS = {
    "polyopt_floord": "(n, d) (((n) < 0) ? -((-(n) + (d) - 1) / (d)) : (n) / (d))",
    "polyopt_min": "(x, y) ((x) < (y) ? (x) : (y))",
    "polyopt_max": "(x, y) ((x) > (y) ? (x) : (y))",
    "polyopt_float_kind": "(x) _Generic((x), double: 2, float: 1, default: 0)",
    "polyopt_blas_kind": "(x) polyopt_float_kind(x)",
    "polyopt_aligned_alloc": "(bytes) aligned_alloc(64, ((bytes) + 63) / 64 * 64)",
    # the cast keeps -Wsizeof-pointer-div quiet in the branch not taken for pointer rows
    "polyopt_leading_dimension": "(a) __builtin_choose_expr(__builtin_types_compatible_p(__typeof__((a)[0]), "
    "__typeof__(&(a)[0][0])), (size_t)0, (size_t)sizeof((a)[0]) / sizeof((a)[0][0]))",
}
# Headers a region's helpers need at file scope, added once at the top of the file.  OpenBLAS's
# cblas.h includes <complex.h> unless told not to, and its macro ``I`` would take a user's name.
HELPER_HEADERS = {
    "polyopt_blas_kind": "#define FORCE_OPENBLAS_COMPLEX_STRUCT 1\n#include <cblas.h>",
    "polyopt_aligned_alloc": "#include <stdlib.h>",
    "polyopt_leading_dimension": "#include <stddef.h>",
}


@dataclass(frozen=True)
class RegionCode:
    """The replacement of one region: printed loop code and what it needs."""

    region: Region
    code: str
    helpers: frozenset[str]
    summary: str


@functools.cache
def _environment() -> jinja2.Environment:
    """One environment per process, so that the template is compiled once."""
    loader = jinja2.FunctionLoader(
        lambda name: resources.files("polyopt.templates").joinpath(name).read_text(encoding="utf-8")
    )
    return jinja2.Environment(
        loader=loader,
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )


def render_template(name: str, **values: object) -> str:
    """The template ``polyopt/templates/<name>`` filled in with ``values``."""
    return _environment().get_template(name).render(**values)


def render_region(item: RegionCode, indent: str) -> str:
    """The text that replaces one region, with the helper macros it uses.

    Every region defines its helpers behind ``#ifndef`` guards, so each macro
    is defined once (by the first region the preprocessor keeps) and a region
    never depends on another one that conditional compilation may remove.
    """
    helpers = [{"name": name, "definition": HELPER_DEFINITIONS[name]} for name in sorted(item.helpers)]
    return render_template(
        "region.c.j2",
        indent=indent,
        version=__version__,
        index=item.region.index,
        origin=f"line {item.region.location.line}",
        summary=item.summary,
        helpers=helpers,
        code=item.code.rstrip("\n"),
    )


def splice(text: str, replacements: list[RegionCode], newline: str = "\n") -> str:
    """``text`` with each replaced region's span substituted by its rendered code, and the
    headers that the regions' helpers need included once at the top.  Lines end in ``newline``, except
    those that already end in ``\r\n`` (a region's own text)."""
    headers = sorted({HELPER_HEADERS[h] for item in replacements for h in item.helpers if h in HELPER_HEADERS})
    pieces: list[str] = [f"{header}\n".replace("\n", newline) for header in headers]
    cursor = 0
    for item in sorted(replacements, key=lambda r: r.region.start):
        pieces.append(text[cursor : item.region.start])
        pieces.append(re.sub(r"(?<!\r)\n", newline, render_region(item, item.region.indent)))
        cursor = item.region.end
    pieces.append(text[cursor:])
    return "".join(pieces)
