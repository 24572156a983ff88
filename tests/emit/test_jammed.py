"""Tests for ``polyopt.emit.jammed``: a loop unrolled and jammed into the vector loop it encloses, and
its remainder loop, run every iteration once (checked by compiling the printed loops)."""

from __future__ import annotations

from pathlib import Path

from polyopt.emit.cast import CFor, CIf, CNode, CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.jammed import jammed
from tests.support import compile_c, needs_gcc, run_binary

VECTOR = CFor("c2", "0", "c2 < n", "1", (CStmt("C[c2] += A[c1][c2] * (c1 + 1);"),), pragmas=("omp simd",))
LOOP = CFor("c1", "lo", "c1 <= hi", "1", (VECTOR,), bound=("<=", "hi"))


def test_the_copies_shadow_the_loop_iterator() -> None:
    main, rest = jammed((LOOP,), "c1", 4)

    assert isinstance(main, CFor) and isinstance(rest, CFor)
    assert (main.iterator, main.step, main.bound) == ("c1_j", "4", ("<=", "(hi) - 3"))
    (vector,) = main.body
    assert isinstance(vector, CFor) and vector.pragmas == ("omp simd",) and len(vector.body) == 4
    text = print_c((main,))
    assert "const int c1 = c1_j + 3;" in text and text.count("C[c2] += A[c1][c2]") == 4
    assert rest == CFor("c1", "(lo) + ((hi) - (lo) + 1) / 4 * 4", "c1 <= hi", "1", (VECTOR,), bound=("<=", "hi"))


def test_a_guarded_loop_is_jammed_inside_its_guard() -> None:
    (guard,) = jammed((CIf("n > 0", (LOOP,)),), "c1", 2)

    assert isinstance(guard, CIf) and [loop.iterator for loop in guard.then if isinstance(loop, CFor)] == ["c1_j", "c1"]


def test_loops_that_cannot_be_jammed_are_kept() -> None:
    triangle = CFor("c1", "lo", "c1 <= hi", "1", (CFor("c2", "0", "c2 <= c1", "1", VECTOR.body, ("omp simd",)),))
    scalar = CFor("c1", "lo", "c1 <= hi", "1", (CFor("c2", "0", "c2 < n", "1", VECTOR.body),))
    two = CFor("c1", "lo", "c1 <= hi", "1", (VECTOR, VECTOR))
    steps = CFor("c1", "lo", "c1 <= hi", "2", (VECTOR,))
    loops: tuple[CNode, ...] = (triangle, scalar, two, steps)

    assert jammed(loops, "c1", 4) == loops


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
        source.write_text(PROGRAM.format(code=print_c(jammed((LOOP,), "c1", factor), "  ")))
        binary = compile_c(source, flags=["-O2", "-fopenmp"], out_dir=tmp_path)
        assert run_binary(binary).stdout == "same\n"
