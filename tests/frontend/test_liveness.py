"""Tests for ``polyopt.frontend.liveness``: which loop variables a region leaves a value in that may be read."""

from __future__ import annotations

import pytest

from polyopt.frontend.liveness import live_after
from polyopt.frontend.regions import find_regions

REGION = "#pragma scop\n  for (i = 0; i < n; i++)\n    a[i] = 0;\n#pragma endscop\n"


def _live(before: str, after: str = "", outside: str = "") -> frozenset[str]:
    text = f"{outside}void kernel(int n, double *a)\n{{\n{before}{REGION}{after}}}\nint main(void) {{ return 0; }}\n"
    (region,) = find_regions(text, "k.c")
    return live_after(region, text, {"i"})


@pytest.mark.parametrize(
    "before",
    [
        "  int i;\n",
        "  int j, k = 2, i;\n",
        "  int m = polyopt_f(1, 2), i;\n",
        "  unsigned long *p, i;\n",
        "  int j;\n  {\n    double x;\n    int i;\n",
        "  int i; /* i is read after the region */\n",
    ],
)
def test_a_local_the_function_mentions_nowhere_else_is_dead(before: str) -> None:
    after = "  }\n" if before.count("{") > 0 else ""
    assert _live(before, after) == frozenset()


@pytest.mark.parametrize(
    ("before", "after", "outside"),
    [
        pytest.param("  int i;\n", "  return;\n  n = i;\n", "", id="read after the region"),
        pytest.param("  int i;\n  a[0] = i;\n", "", "", id="read before the region (which may loop)"),
        pytest.param("", "", "int i;\n", id="global"),
        pytest.param("", "", "", id="declared elsewhere"),
        pytest.param("  static int i;\n", "", "", id="static local"),
        pytest.param("  extern int i;\n", "", "", id="extern"),
        pytest.param("  int i;\n", "  USE;\n", "#define USE (a[0] = i)\n", id="mentioned by a macro"),
        pytest.param("  int *p = &i;\n", "", "int i;\n", id="address taken"),
        pytest.param("  { int i; }\n", "", "int i;\n", id="declared in a closed block"),
        pytest.param("  int j = (1, i;\n", "", "", id="inside parentheses"),
        pytest.param("  return i;\n", "", "", id="not a declaration"),
    ],
)
def test_any_other_variable_may_be_live(before: str, after: str, outside: str) -> None:
    assert _live(before, after, outside) == {"i"}


def test_a_region_outside_any_function_keeps_every_variable_live() -> None:
    text = "#pragma scop\nfor (i = 0; i < n; i++)\n  a[i] = 0;\n#pragma endscop\n"
    (region,) = find_regions(text, "k.c")

    assert live_after(region, text, {"i"}) == {"i"}
