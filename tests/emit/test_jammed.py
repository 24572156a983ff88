"""Tests for ``polyopt.emit.jammed``: a loop unrolled and jammed into the vector loop it encloses, and
its remainder loop, run every iteration once; jammed into a scalar loop whose bounds depend on it, they
also keep every column of a row after the same and earlier columns of the rows before it (checked by
compiling the printed loops)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.jammed import JAM_HELPERS, jammed
from tests.support import compile_c, needs_gcc, run_binary

VECTOR = CFor("c2", "0", "c2 < n", "1", (CStmt("C[c2] += A[c1][c2] * (c1 + 1);"),), pragmas=("omp simd",))
LOOP = CFor("c1", "lo", "c1 <= hi", "1", (VECTOR,), bound=("<=", "hi"))
STAMP = (CStmt("X[c1][c2] = t++;"), CStmt("K[c1][c2]++;"))  # the order and the number of runs of a point
ROW = CFor("c2", "polyopt_max(0, c1 - 5)", "c2 <= polyopt_min(n - 1, c1 + 2)", "1", STAMP)
ROWS = CFor("c1", "lo", "c1 <= hi", "1", (ROW,), bound=("<=", "hi"))


def test_the_copies_shadow_the_loop_iterator() -> None:
    (main, rest), helpers = jammed((LOOP,), "c1", 4)

    assert helpers == frozenset()
    assert isinstance(main, CFor) and isinstance(rest, CFor)
    assert (main.iterator, main.step, main.bound) == ("c1_j", "4", ("<=", "(hi) - 3"))
    (vector,) = main.body
    assert isinstance(vector, CFor) and vector.pragmas == ("omp simd",) and len(vector.body) == 4
    text = print_c((main,))
    assert "const int c1 = c1_j + 3;" in text and text.count("C[c2] += A[c1][c2]") == 4
    assert rest == CFor("c1", "(lo) + ((hi) - (lo) + 1) / 4 * 4", "c1 <= hi", "1", (VECTOR,), bound=("<=", "hi"))


def test_a_guarded_loop_is_jammed_inside_its_guard() -> None:
    (guard,), _ = jammed((CIf("n > 0", (LOOP,)),), "c1", 2)

    assert isinstance(guard, CIf) and [loop.iterator for loop in guard.then if isinstance(loop, CFor)] == ["c1_j", "c1"]


def test_loops_that_cannot_be_jammed_are_kept() -> None:
    triangle = CFor("c1", "lo", "c1 <= hi", "1", (CFor("c2", "0", "c2 <= c1", "1", VECTOR.body, ("omp simd",)),))
    two = CFor("c1", "lo", "c1 <= hi", "1", (VECTOR, VECTOR))
    steps = CFor("c1", "lo", "c1 <= hi", "2", (VECTOR,))
    scalar_steps = CFor("c1", "lo", "c1 <= hi", "1", (CFor("c2", "0", "c2 < n", "2", VECTOR.body),))
    parallel = replace(ROWS, pragmas=("omp for",))
    loops: tuple[CNode, ...] = (triangle, two, steps, scalar_steps, parallel)

    assert jammed(loops, "c1", 4) == (loops, frozenset())


def test_a_scalar_loop_runs_each_copy_around_the_common_columns() -> None:
    (main, rest), helpers = jammed((ROWS,), "c1", 3)

    assert helpers == JAM_HELPERS
    assert rest == CFor("c1", "(lo) + ((hi) - (lo) + 1) / 3 * 3", "c1 <= hi", "1", (ROW,), bound=("<=", "hi"))
    assert isinstance(main, CFor) and main.step == "3"
    decls = [node for node in main.body if isinstance(node, CDecl)]
    blocks = [node for node in main.body if isinstance(node, CBlock)]
    (common,) = [node for node in main.body if isinstance(node, CFor)]
    assert len(decls) == 5 and len(blocks) == 6 and len(common.body) == 3
    assert "c2_lo2 = polyopt_max(0, (c1_j + 2) - 5)" in decls[2].text
    assert (common.init, common.cond) == ("c2_from", "c2 <= c2_to")


PROGRAM = """#include <stdio.h>
static double A[40][8], C[8], D[8];
static void jammed_loops(int lo, int hi, int n) {{
{code}}}
int main(void) {{
  int n = 8;
  for (int i = 0; i < 40; i++)
    for (int j = 0; j < 8; j++)
      A[i][j] = (i * 7 + j * 3) % 11;
  for (int lo = 0; lo < 12; lo++)
    for (int hi = lo - 6; hi < 40; hi++) {{
      for (int j = 0; j < n; j++)
        C[j] = D[j] = 0;
      jammed_loops(lo, hi, n);
      for (int i = lo; i <= hi; i++)
        for (int j = 0; j < n; j++)
          D[j] += A[i][j] * (i + 1);
      for (int j = 0; j < n; j++)
        if (C[j] != D[j]) {{
          printf("lo %d hi %d: %g != %g\\n", lo, hi, C[j], D[j]);
          return 1;
        }}
    }}
  printf("same\\n");
  return 0;
}}
"""


@needs_gcc
def test_jammed_loops_run_every_iteration_once(tmp_path: Path) -> None:
    for factor in (2, 3, 4, 8):
        source = tmp_path / f"jammed{factor}.c"
        source.write_text(PROGRAM.format(code=print_c(jammed((LOOP,), "c1", factor)[0], "  ")))
        binary = compile_c(source, flags=["-O2", "-fopenmp"], out_dir=tmp_path)
        assert run_binary(binary).stdout == "same\n"


ORDER = """#include <stdio.h>
#define polyopt_min(x, y) ((x) < (y) ? (x) : (y))
#define polyopt_max(x, y) ((x) > (y) ? (x) : (y))
static int X[40][16], K[40][16];
static void jammed_loops(int lo, int hi, int n) {{
  int t = 1;
{code}}}
static int inside(int r, int c, int lo, int hi, int n) {{
  return r >= lo && r <= hi && c >= {low} && c <= {high};
}}
int main(void) {{
  int n = 16;
  for (int lo = 0; lo < 10; lo++)
    for (int hi = lo - 3; hi < 40; hi++) {{
      for (int r = 0; r < 40; r++)
        for (int c = 0; c < n; c++)
          X[r][c] = K[r][c] = 0;
      jammed_loops(lo, hi, n);
      for (int r = 0; r < 40; r++)
        for (int c = 0; c < n; c++) {{
          if (K[r][c] != inside(r, c, lo, hi, n)) {{
            printf("lo %d hi %d: (%d, %d) run %d\\n", lo, hi, r, c, X[r][c]);
            return 1;
          }}
          for (int q = lo; q <= r; q++)
            for (int d = 0; d <= c; d++)
              if ((q < r || d < c) && inside(q, d, lo, hi, n) && X[q][d] > X[r][c] && X[r][c]) {{
                printf("lo %d hi %d: (%d, %d) after (%d, %d)\\n", lo, hi, q, d, r, c);
                return 1;
              }}
        }}
    }}
  printf("in order\\n");
  return 0;
}}
"""


@needs_gcc
@pytest.mark.parametrize(
    "low, high",
    [
        ("polyopt_max(0, c1 - 5)", "polyopt_min(n - 1, c1 + 2)"),
        ("polyopt_max(0, 12 - c1)", "polyopt_min(n - 1, 3 * c1 - 20)"),
    ],
)
def test_jammed_rows_run_every_point_once_after_the_points_before_it(tmp_path: Path, low: str, high: str) -> None:
    rows = CFor("c1", "lo", "c1 <= hi", "1", (CFor("c2", low, f"c2 <= {high}", "1", ROW.body),), bound=("<=", "hi"))
    for factor in (2, 3, 4):
        source = tmp_path / f"rows{factor}.c"
        code = print_c(jammed((rows,), "c1", factor)[0], "  ")
        source.write_text(ORDER.format(code=code, low=low.replace("c1", "r"), high=high.replace("c1", "r")))
        binary = compile_c(source, flags=["-O2"], out_dir=tmp_path)
        assert run_binary(binary).stdout == "in order\n"
