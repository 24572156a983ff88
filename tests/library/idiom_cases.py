"""Regions and helpers shared by the idiom recognition tests (``polyopt.library``)."""

from __future__ import annotations

import re
from collections.abc import Callable

import islpy as isl

from polyopt import isl_util
from polyopt.library import Gemm, find_idioms
from polyopt.model import PolyModel
from tests.support import EXAMPLES

ModelOf = Callable[..., PolyModel]

GEMM = (
    "for (i = 0; i < ni; i++) {\n  for (j = 0; j < nj; j++)\n    C[i][j] *= beta;\n"
    "  for (k = 0; k < nk; k++)\n    for (j = 0; j < nj; j++)\n      C[i][j] += alpha * A[i][k] * B[k][j];\n}\n"
)


def product_body(update: str, order: str = "ijk") -> str:
    """``update`` in the loops ``i``, ``j``, ``k`` (over ``ni``, ``nj``, ``nk``) nested in ``order``."""
    bounds = {"i": "ni", "j": "nj", "k": "nk"}
    loops = "".join(f"{'  ' * depth}for ({v} = 0; {v} < {bounds[v]}; {v}++)\n" for depth, v in enumerate(order))
    return loops + "  " * len(order) + update + "\n"


def gemms(model_of: ModelOf, body: str) -> list[tuple[str, str, str, str, bool, bool, str]]:
    """Each GEMM of ``body`` as (statement, C, A, B, trans_a, trans_b, alpha)."""
    idioms = [idiom for idiom in find_idioms(model_of(body)) if isinstance(idiom, Gemm)]
    return [(", ".join(g.statements), g.c, g.a, g.b, g.trans_a, g.trans_b, g.alpha) for g in idioms]


def size_text(size: isl.PwAff) -> str:
    """A size as text (``nj``, ``_PB_N``)."""
    text = str(isl_util.extended(size))
    match = re.search(r"\{ \[\((.*)\)\] \}", text)
    assert match is not None, text
    return match.group(1)


def idioms_of(model_of: ModelOf, body: str, declarations: str = "") -> list[tuple[str, str, str, tuple[str, ...]]]:
    """Each idiom as (statement, routine, formula, sizes), with the names of ``body`` declared by ``declarations``."""
    return [
        (
            ", ".join(idiom.statements),
            idiom.ROUTINE,
            idiom.formula(),
            tuple(size_text(size) for size in idiom.sizes),
        )
        for idiom in find_idioms(model_of(body, declarations))
    ]


def kernel_region(name: str) -> tuple[str, str]:
    """The region of the example ``name`` and the file before it (its declarations)."""
    before, region = (EXAMPLES / f"{name}.c").read_text().split("#pragma scop\n")
    return region.split("#pragma endscop")[0], before


GEMV = "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++)\n    {};\n"
GEMV_JI = "for (j = 0; j < n; j++)\n  for (i = 0; i < m; i++)\n    {};\n"
SYRK = "for (i = 0; i < n; i++)\n  for (k = 0; k < m; k++)\n    for (j = {}; j {}; j++)\n      {};\n"
TRMM = "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++)\n    for (k = {}; k < {}; k++)\n      {};\n"

SYMM = (
    "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++) {{\n    t = 0;\n    for (k = 0; k < i; k++) {{\n"
    "      {update}\n      {accumulate}\n    }}\n    {final}\n  }}\n"
)
UPDATE = "C[k][j] += alpha * B[i][j] * A[i][k];"
ACCUMULATE = "t += B[k][j] * A[i][k];"
FINAL = "C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * t;"


SYMM_DECLARED = "double A[9][9], B[9][9], C[9][9], t, alpha, beta, s;\n"


def symm(update: str = UPDATE, accumulate: str = ACCUMULATE, final: str = FINAL) -> str:
    """PolyBench's symm with its statements replaced."""
    return SYMM.format(update=update, accumulate=accumulate, final=final)


DOITGEN = (
    "for (r = 0; r < nr; r++)\n  for (q = 0; q < nq; q++) {{\n    for (p = 0; p < np; p++) {{\n"
    "      sum[p] = 0;\n      for (s = 0; s < ns; s++)\n        {product}\n    }}\n"
    "    for (p = 0; p < np; p++)\n      {copy}\n  }}\n"
)
PRODUCT = "sum[p] += A[r][q][s] * W[s][p];"
COPY = "A[r][q][p] = sum[p];"


DOITGEN_DECLARED = "double A[9][9][9], B[9][9][9], W[9][9], sum[9], a, t;\n"


def doitgen(product: str = PRODUCT, copy: str = COPY) -> str:
    """PolyBench's doitgen with its statements replaced."""
    return DOITGEN.format(product=product, copy=copy)


def matrix_arguments(array: str) -> tuple[str, str]:
    """How a call passes the matrix ``array``: its first element and its leading dimension."""
    return f"(void *)&{array}[0][0]", f"(int)polyopt_leading_dimension({array})"


def vector_arguments(array: str) -> tuple[str, str]:
    """How a call passes the vector ``array``: its first element and its increment."""
    return f"(void *)&{array}[0]", "1"
