"""End-to-end checks that no rewrite changes the C type a value is computed in (``tests.e2e.handwritten``).

Each program mixes types where a rewrite could carry a value in another one: a scalar kept in an
element of another type (``polyopt.analysis.inplace``), a temporary array or an expanded scalar of
another type than the data around it (contraction and expansion declare theirs with ``__typeof__``),
and products whose arrays, accumulators or factors are not all of the updated elements' type
(CBLAS calls and the GEMM microkernel run only where the types agree).  The data make a type change
show far beyond rounding: fractions that an ``int`` truncates, and sums through 1e9 or 1e10 that a
``float`` cannot hold to the unit.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest

from polyopt.library.blas import cblas_available
from tests.e2e.handwritten import check_program

IN_PLACE = """#include <stdio.h>
#define N 20
static {element} A[N][N];
static {term} B[N][N];

static void kernel(void)
{{
  int i, j, k;
  {scalar} w;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++) {{
      w = A[i][j];
      for (k = 0; k < N; k++)
        w += B[i][k];
      A[i][j] = w;
    }}
  w = 0;
#pragma endscop
}}

int main(void)
{{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {{
      A[i][j] = ({element})(i + 2 * j) / 3;
      B[i][j] = j == 0 ? {big} : j == N - 1 ? -{big} : {step};
    }}
  kernel();
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      printf("%.17g ", (double)A[i][j]);
  printf("\\n");
  return 0;
}}
"""
# scalar, element and term types, the first and last term (big) and the others (step)
IN_PLACE_CASES = {
    "int-scalar-in-double-element": ("int", "double", "int", "3", "1"),
    "double-scalar-in-int-element": ("double", "int", "double", "0.25", "0.5"),
    "float-scalar-in-double-element": ("float", "double", "double", "1e10", "1"),
    "double-scalar-in-float-element": ("double", "float", "double", "1e10", "1"),
}


@pytest.mark.parametrize("name", sorted(IN_PLACE_CASES))
def test_a_scalar_of_another_type_stays_a_scalar(tmp_path: Path, name: str) -> None:
    scalar, element, term, big, step = IN_PLACE_CASES[name]
    text = IN_PLACE.format(scalar=scalar, element=element, term=term, big=big, step=step)

    stderr = check_program(tmp_path, name, text, ["--report", "--no-as-written"], expect="")

    assert f"note: w not kept in A[i][j] from S0 to S2: w is {scalar} and A[i][j] is {element}" in stderr
    assert "kept w in" not in (tmp_path / f"{name}.polyopt.c").read_text()


def test_a_scalar_of_the_element_type_is_kept(tmp_path: Path) -> None:
    """By default the region keeps its text (gcc vectorizes the loop over j around the sum over k); the
    transformed schedule keeps w in A[i][j]."""
    text = IN_PLACE.format(scalar="double", element="double", term="double", big="1e10", step="1")

    check_program(tmp_path, "same-type", text, ["--no-as-written"], expect="kept w in A[i][j]")
    check_program(tmp_path, "same-type-default", text, [], expect="kept as written (source text)")


TEMPORARY = """#include <stdio.h>
#define M 23
#define N 37
static double A[M][N], x[N], y[N], z[M];
static {kind} T[M][N], t;

static void kernel(void)
{{
  int i, j;
#pragma scop
#pragma polyopt dead(T)
  for (i = 0; i < M; i++)
    for (j = 0; j < N; j++)
      T[i][j] = A[i][j] * x[j] + 1e9;
  for (i = 0; i < M; i++) {{
    z[i] = 0;
    for (j = 0; j < N; j++)
      z[i] = z[i] + (T[i][j] - 1e9) * 2;
  }}
  for (i = 0; i < M; i++) {{
    t = z[i] * 3 + 1e9 + 0.75;
    for (j = 0; j < N; j++)
      A[i][j] = A[i][j] * (t - 1e9);
  }}
#pragma endscop
}}

int main(void)
{{
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      A[i][j] = (double)((i * 3 + j * 5) % 11 - 4) / 8;
  for (int j = 0; j < N; j++)
    x[j] = (double)(j % 9 + 1) / 5;
  kernel();
  printf("%.17g\\n", (double)t);
  for (int i = 0; i < M; i++)
    printf("%.17g ", z[i]);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++)
      printf("%.17g ", A[i][j]);
  printf("\\n");
  return 0;
}}
"""


@pytest.mark.parametrize("kind", ["float", "int"])
def test_contracted_and_expanded_temporaries_keep_their_type(tmp_path: Path, kind: str) -> None:
    """``T`` becomes the scalar ``T_c`` and ``t`` the array ``t_x``, both of their own type."""
    check_program(tmp_path, f"{kind}-contracted", TEMPORARY.format(kind=kind), [], expect="T_c")
    check_program(tmp_path, f"{kind}-expanded", TEMPORARY.format(kind=kind), [], expect="t_x")


PRODUCT_PROGRAM = """#include <stdio.h>
#ifndef N
# define N {size}
#endif
static {c} C[N][N], D[3][N][N];
static {a} A[N][N], B[N][N];
static {scale} n = {n};
static {accumulator} t, buffer[N];

static void kernel(void)
{{
  int b, i, j, k;
#pragma scop
{body}#pragma endscop
}}

int main(void)
{{
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {{
      C[i][j] = (double)((i * 3 + j) % 7) / 2;
      A[i][j] = (double)((i + 2 * j) % 5 + 1) / 3;
      B[i][j] = {b};
      for (int b = 0; b < 3; b++)
        D[b][i][j] = (double)((b + i * j) % 6 - 2) / 5 + (j == 0 ? {big} : j == N - 1 ? -{big} : 0);
    }}
  kernel();
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      printf("%.17g %.17g ", (double)C[i][j], (double)D[1][i][j]);
  printf("%.17g\\n", (double)t);
  return 0;
}}
"""
GEMM = "for (i = 0; i < N; i++)\n  for (j = 0; j < N; j++)\n    for (k = 0; k < N; k++)\n      {update}\n"
SYMM = (
    "for (i = 0; i < N; i++)\n  for (j = 0; j < N; j++) {\n    t = 0;\n    for (k = 0; k < i; k++) {\n"
    "      C[k][j] += 1.5 * B[i][j] * A[i][k];\n      t += B[k][j] * A[i][k];\n    }\n"
    "    C[i][j] = 1.2 * C[i][j] + 1.5 * B[i][j] * A[i][i] + 1.5 * t;\n  }\n"
)
BATCHED = (
    "for (b = 0; b < 3; b++)\n  for (i = 0; i < N; i++) {\n    for (j = 0; j < N; j++) {\n      buffer[j] = 0;\n"
    "      for (k = 0; k < N; k++)\n        buffer[j] += D[b][i][k] * A[k][j];\n    }\n"
    "    for (j = 0; j < N; j++)\n      D[b][i][j] = buffer[j];\n  }\n"
)


@dataclass(frozen=True)
class Product:
    """A product over ``C`` or ``D`` of type ``c`` and ``A``, ``B`` of type ``a``, with the factor ``n`` of
    type ``scale`` (value ``value``) and the accumulators ``t``, ``buffer`` of type ``accumulator``; ``big``
    is added to the first element of each row of ``D`` and subtracted from the last (a sum along the row
    loses the others in a ``float``), and ``B`` holds ones when ``ones``.  ``declined``: no library call
    nor microkernel."""

    c: str
    a: str
    scale: str
    accumulator: str
    value: str
    big: str
    ones: bool
    body: str
    declined: bool


def _gemm(update: str) -> str:
    return GEMM.format(update=update)


PLAIN = "C[i][j] += A[i][k] * B[k][j];"
PRODUCTS = {
    # CBLAS and the microkernel are called only when the arrays are all double or all float
    "int-c-double-operands": Product("int", "double", "int", "int", "1", "0", False, _gemm(PLAIN), False),
    "float-c-double-operands": Product("float", "double", "int", "float", "1", "0", False, _gemm(PLAIN), False),
    "double-c-float-operands": Product(
        "double", "float", "int", "double", "1", "0", False, _gemm("C[i][j] -= A[i][k] * B[k][j];"), False
    ),
    # n * n overflows in int where the statement multiplies each n into a double product
    "integer-factors": Product(
        "double", "double", "int", "double", "65536", "0", False, _gemm("C[i][j] += A[i][k] * B[k][j] * n * n;"), True
    ),
    "int-symm-accumulator": Product("double", "double", "int", "int", "1", "0", False, SYMM, True),
    "float-symm-accumulator": Product("double", "double", "int", "float", "1", "0", False, SYMM, True),
    "int-batched-buffer": Product("double", "double", "int", "int", "1", "0", True, BATCHED, True),
    "float-batched-buffer": Product("double", "double", "int", "float", "1", "1e10", True, BATCHED, True),
}
# sizes below and above the default BLAS threshold (7077888 = 192^3: the microkernel, then CBLAS)
RUNS = [
    ("default-small", (), 40),
    ("default-large", (), 200),
    ("calls", ("--blas-threshold=1",), 40),
    ("microkernel", ("--blas=none",), 200),
    ("microkernel-one", ("--blas=none",), 1),
]


@pytest.mark.skipif(not cblas_available(), reason="cblas.h not found")
@pytest.mark.parametrize(("run", "flags", "size"), RUNS, ids=[run for run, _, _ in RUNS])
@pytest.mark.parametrize("name", sorted(PRODUCTS))
def test_products_of_mixed_types_keep_the_result(
    tmp_path: Path, name: str, run: str, flags: tuple[str, ...], size: int
) -> None:
    p = PRODUCTS[name]
    b = "1" if p.ones else "(double)((2 * i + j) % 9 - 4) / 3"
    text = PRODUCT_PROGRAM.format(
        size=size, c=p.c, a=p.a, scale=p.scale, accumulator=p.accumulator, n=p.value, big=p.big, b=b, body=p.body
    )

    check_program(tmp_path, name, text, flags, expect="")

    code = (tmp_path / f"{name}.polyopt.c").read_text()
    assert not p.declined or not any(mark in code for mark in ("cblas_", "polyopt microkernel")), code


PRODUCT = """#include <stdio.h>
static {element} A[96][112], B[112][128], C[96][128];

int main(void)
{{
  for (int i = 0; i < 96; i++)
    for (int j = 0; j < 128; j++)
      C[i][j] = (i * 3 + j) % 7;
  for (int i = 0; i < 96; i++)
    for (int k = 0; k < 112; k++)
      A[i][k] = (i + 2 * k) % 5 - 2;
  for (int k = 0; k < 112; k++)
    for (int j = 0; j < 128; j++)
      B[k][j] = (k * j) % 3;
#pragma scop
  for (int i = 0; i < 96; i++)
    for (int j = 0; j < 128; j++)
      for (int k = 0; k < 112; k++)
        C[i][j] += A[i][k] * B[k][j];
#pragma endscop
  for (int i = 0; i < 96; i++)
    for (int j = 0; j < 128; j += 7)
      printf("%g ", (double)C[i][j]);
  printf("\\n");
  return 0;
}}
"""


def test_a_float_product_is_blocked_for_its_elements_size(tmp_path: Path) -> None:
    """The microkernel's register block holds twice as many floats as doubles in its vectors."""
    columns = {}
    for element in ("double", "float"):
        (tmp_path / element).mkdir()
        flags = ["--report", "--blas=none", "--blocks-microkernel=0"]
        report = check_program(tmp_path / element, "product", PRODUCT.format(element=element), flags, "polyopt")
        found = re.search(r"microkernel (\d+) x (\d+) registers", report)
        assert found is not None, report
        columns[element] = int(found.group(2))
    assert columns["float"] == 2 * columns["double"]
