"""The types visible at a region and the types of expressions (``polyopt.frontend.declarations``)."""

from __future__ import annotations

import pytest
from pycparser import c_parser

from polyopt.frontend.declarations import (
    BOOLEAN,
    FLOATING,
    INTEGER,
    UNKNOWN,
    CType,
    Declarations,
    base_type,
    declared_types,
    expression_type,
)
from polyopt.frontend.regions import find_regions

_FILE = """#include <stdio.h>
#define N 100
#define ALPHA 1.5
#ifdef USE_FLOAT
# define real float
#else
# define real double
#endif
typedef unsigned char byte;
static real g[N][N], h;
static int x;  /* shadowed by the parameter */
struct point { double x, y; } origin;
double other(float hidden, int n) { double local = hidden; return local * n; }
int prototype(double also_hidden);
void kernel(int n, float *p, byte mask[N], double POLYBENCH_2D(A, N, N, n, n), long x)
{
  int i, j = 0, *q = 0;
  char c = 'a';
  for (int k = 0; k < 3; k++) { double gone = k; }
  {
    short inner = 1;
  }
  for (int t = 0; t < n; t++) {
    float (*rows)[N] = 0;
#pragma scop
    for (i = 0; i < n; i++)
      h += g[i][i];
#pragma endscop
  }
}
"""


def _declarations() -> Declarations:
    (region,) = find_regions(_FILE, "k.c")
    return declared_types(_FILE, region)


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("N", CType(INTEGER)),  # number macros
        ("ALPHA", CType(FLOATING)),
        ("g", CType(FLOATING, 2)),  # globals, through a type macro
        ("h", CType(FLOATING)),
        ("x", CType(INTEGER)),  # the parameter, not the global
        ("n", CType(INTEGER)),  # parameters
        ("p", CType(FLOATING, 1)),
        ("mask", CType(INTEGER, 1)),  # through a typedef
        ("A", CType(FLOATING, 2)),  # PolyBench's array declarator
        ("i", CType(INTEGER)),  # locals, a declarator list
        ("j", CType(INTEGER)),
        ("q", CType(INTEGER, 1)),
        ("c", CType(INTEGER)),
        ("t", CType(INTEGER)),  # the header of a loop around the region
        ("rows", CType(FLOATING, 2)),
        ("origin", CType(UNKNOWN)),
    ],
)
def test_declarations_visible_at_the_region(name: str, expected: CType) -> None:
    assert _declarations().objects[name] == expected


@pytest.mark.parametrize("name", ["hidden", "local", "also_hidden", "k", "gone", "inner", "other", "prototype"])
def test_declarations_out_of_scope_are_not_seen(name: str) -> None:
    assert name not in _declarations().objects


def test_a_macro_defined_as_two_types_is_unknown() -> None:
    text = "#ifdef INT\n#define DATA_TYPE int\n#else\n#define DATA_TYPE double\n#endif\nDATA_TYPE s;\n"
    text += "void f(void)\n{\n#pragma scop\ns = 0;\n#pragma endscop\n}\n"
    (region,) = find_regions(text, "k.c")

    assert declared_types(text, region).objects["s"] == CType(UNKNOWN)


_TYPES = Declarations(
    {"i": CType(INTEGER), "f": CType(FLOATING), "a": CType(INTEGER, 1), "d": CType(FLOATING, 2)},
    {"real": CType(FLOATING), "bool": CType(BOOLEAN)},
)


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("i + a[i] * 3", CType(INTEGER)),
        ("i + 0.5", CType(FLOATING)),
        ("i + 1.0f", CType(FLOATING)),
        ("(float) i / 2", CType(FLOATING)),
        ("(real) i", CType(FLOATING)),
        ("(int) (f * 2)", CType(INTEGER)),
        ("d[i][i] - i", CType(FLOATING)),
        ("d[i]", CType(FLOATING, 1)),
        ("a + i", CType(INTEGER, 1)),
        ("f > i", CType(INTEGER)),
        ("i ? f : 1", CType(FLOATING)),
        ("-f", CType(FLOATING)),
        ("sqrt(i)", CType(UNKNOWN)),
        ("i + undeclared", CType(UNKNOWN)),
        ("f + undeclared", CType(FLOATING)),
        ("a[i][i]", CType(UNKNOWN)),  # more subscripts than declared levels
    ],
)
def test_expression_types_follow_the_usual_arithmetic_conversions(expression: str, expected: CType) -> None:
    unit = c_parser.CParser().parse(f"typedef int real; void g(void) {{ x = {expression}; }}")
    assignment = unit.ext[-1].body.block_items[0]

    assert expression_type(assignment.rvalue, _TYPES) == expected


_SPELLINGS = """#ifdef F
#define T float
#else
#define T double
#endif
#define REAL double
typedef double real;
typedef unsigned long size;
long unsigned int a;
size b;
const double c;
REAL d;
real e[3];
float f;
DATA_TYPE g, h[3];
T i, j;
long double k;
signed l;
int m;
"""


@pytest.mark.parametrize(
    ("left", "right", "same"),
    [
        ("a", "b", True),  # one C type spelled two ways
        ("c", "d", True),
        ("d", "e[0]", True),
        ("l", "m", True),
        ("g", "h[0]", True),  # a type from a header, by its name
        ("i", "j", True),  # a macro of two types, by its name
        ("c", "f", False),
        ("c", "k", False),
        ("c", "g", False),
        ("c", "i", False),
        ("a", "m", False),
        ("c", "e", False),  # an array is not its element
        ("c", "undeclared", False),
        ("undeclared", "undeclared", False),
    ],
)
def test_declared_types_are_told_apart_by_their_spelling(left: str, right: str, same: bool) -> None:
    text = _SPELLINGS + "void f(void)\n{\n#pragma scop\nm = 0;\n#pragma endscop\n}\n"
    (region,) = find_regions(text, "k.c")
    declarations = declared_types(text, region)
    parser = c_parser.CParser()
    left_type, right_type = (
        expression_type(parser.parse(f"void g(void) {{ x = {e}; }}").ext[-1].body.block_items[0].rvalue, declarations)
        for e in (left, right)
    )

    assert left_type.same(right_type) == same


@pytest.mark.parametrize(
    ("spelling", "expected"),
    [
        ("float", CType(FLOATING, 0, "float")),
        ("  double ", CType(FLOATING, 0, "double")),
        ("int unsigned", CType(INTEGER, 0, "unsigned int")),
        ("long long", CType(INTEGER, 0, "long long")),
        ("DATA_TYPE", None),
        ("", None),
    ],
)
def test_base_type_names_a_type_of_c_by_its_one_spelling(spelling: str, expected: CType | None) -> None:
    found = base_type(spelling)

    assert found == expected and (found is None or found.name == expected.name)
