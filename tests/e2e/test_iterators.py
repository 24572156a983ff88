"""End-to-end checks of the values that loop iterators hold after a region.

The generated loops have iterators of their own, so polyopt assigns each variable that the
region's ``for (i = ...)`` loops iterate over the value the original loops leave in it, when the
value may be read after the region.  The program below returns such values from several
kernels (triangular nests, decreasing and stepped loops, nested loops over the same variable, a
loop inside a loop that may not run, a global iterator) for sizes where the loops run and where
they do not; each option set's build must print what the original prints.
"""

from __future__ import annotations

from pathlib import Path

from polyopt.driver import optimize_text
from polyopt.fuzz.differential import OPTIMIZED, check_program
from polyopt.options import Options
from polyopt.toolchain import compile_c

PROGRAM = r"""#include <stdio.h>
static double a[8][64];
static int g;

static int triangular(int n) {
  int i, j = -1;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j <= i; j++)
      a[0][j] += i - j;
#pragma endscop
  return i * 1000 + j;
}

static int decreasing(int n) {
  int i;
#pragma scop
  for (i = n - 1; i >= 2; i--)
    a[1][i] = a[1][i - 1] + 1;
#pragma endscop
  return i;
}

static int stepped(int n) {
  int i, k;
#pragma scop
  for (i = 1; i < n; i += 3)
    a[2][i] *= 2;
  for (k = n; k > -5; k -= 4)
    a[2][k + 5] += 1;
#pragma endscop
  return i * 1000 + k;
}

static int same_variable(int n, int m) {
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    a[3][i] = i;
  for (j = 0; j < m; j++)
    for (i = j; i < n; i++)
      a[4][i] += a[3][j];
#pragma endscop
  return i * 1000 + j;
}

static int not_run(int n) {
  int i = 7, j = 9;
#pragma scop
  for (j = 0; j < n; j++)
    for (i = 0; i < 3; i++)
      a[5][i + j] += j;
#pragma endscop
  return i * 1000 + j;
}

static void global(int n) {
#pragma scop
  for (g = 0; g < n - 2; g++)
    a[6][g] = a[6][g] * 0.5 + 1;
#pragma endscop
}

int main(void) {
  static const int sizes[] = {-3, 0, 1, 2, 3, 5, 40};
  for (int s = 0; s < 7; s++) {
    int n = sizes[s];
    printf("%d %d %d", triangular(n), decreasing(n), stepped(n));
    printf(" %d %d %d", same_variable(n, 3), same_variable(n, n + 2), not_run(n));
    global(n);
    printf(" %d\n", g);
  }
  for (int r = 0; r < 8; r++)
    for (int c = 0; c < 64; c++)
      printf("%g ", a[r][c]);
  printf("\n");
  return 0;
}
"""

DEAD = """void kernel(int n, double a[100][100])
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      a[i][j] = 0;
#pragma endscop
}
"""


def test_iterators_hold_the_values_the_original_loops_leave(tmp_path: Path) -> None:
    option_sets = [(), ("--identity",), ("--tile-sizes=3,5,7",), ("--fuse=max",), ("--noparallel",)]

    verdicts = check_program(PROGRAM, "iterators", option_sets, folder=tmp_path)

    assert [(v.flags, v.outcome, v.fallback) for v in verdicts] == [(f, OPTIMIZED, False) for f in option_sets], [
        v.message for v in verdicts
    ]


def test_each_live_iterator_is_assigned_after_its_region() -> None:
    """In code regenerated from the model (here: not kept as written), each live iterator is assigned."""
    outcome = optimize_text(PROGRAM, "iterators.c", Options(as_written=False))

    assert outcome.warnings == ()
    assert "  i = n <= -1 ? 0 : n;\n" in outcome.text
    assert "  if (n >= 1) {\n    j = n;\n  }\n" in outcome.text
    assert "  g = n <= 1 ? 0 : n - 2;\n" in outcome.text
    (region, *_) = outcome.regions
    assert region.report is not None
    assert region.report.lines("notes")[-2:] == (
        "after the region, j = n when n >= 1",
        "after the region, i = n <= -1 ? 0 : n",
    )


def test_iterators_that_are_never_read_again_are_not_assigned() -> None:
    outcome = optimize_text(DEAD, "dead.c", Options(as_written=False))

    (region,) = outcome.regions
    assert region.code is not None
    assert "i =" not in region.code.code and "j =" not in region.code.code


def test_iterators_that_are_never_read_again_leave_no_unused_variable(tmp_path: Path) -> None:
    source = tmp_path / "dead.c"
    source.write_text(optimize_text(DEAD, "dead.c", Options()).text)

    compile_c(source, tmp_path / "dead.o", flags=["-c", "-fopenmp", "-Wall", "-Werror"])


WIDE = """#include <stdio.h>
#include <stddef.h>
static double a[300][300], b[300][300];
static void transpose_add(long n) {
#pragma scop
  for (long i = 0; i < n; i++)
    for (long j = 0; j < n; j++)
      a[i][j] += b[j][i];
#pragma endscop
}
static void scaled(size_t n) {
  size_t i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 0; j < n; j++)
      b[i][j] = 0.5 * b[i][j] + a[j][i];
#pragma endscop
}
static void halves(size_t n) {
#pragma scop
  for (size_t i = 0; i < n; i++)
    for (size_t j = 0; j < n; j++)
      a[i][j] = 0.5 * a[j][i] + b[i][j];
#pragma endscop
}
int main(void) {
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 300; j++) { a[i][j] = (i + 2 * j) % 9; b[i][j] = (3 * i + j) % 7; }
  transpose_add(300);
  scaled(299);
  halves(290);
  double s = 0;
  for (int i = 0; i < 300; i++)
    for (int j = 0; j < 300; j++) s += a[i][j] * (j + 1) + b[i][j] * (i + 2);
  printf("%.17g\\n", s);
  return 0;
}
"""


def test_generated_iterators_have_the_width_of_the_source_indices(tmp_path: Path) -> None:
    """A region whose loops count in ``long`` or ``size_t`` (declared in the ``for`` or before the region) gets
    ``long`` iterators in its generated loops, never ``int``; a region of ``int`` loops keeps ``int`` ones."""
    outcome = optimize_text(WIDE, "wide.c", Options(as_written=False))
    codes = [region.code.code for region in outcome.regions if region.code is not None]

    assert outcome.warnings == ()
    assert len(codes) == 3
    for code in codes:
        assert "for (long c0" in code and "for (int" not in code, code
    narrow = optimize_text(DEAD, "dead.c", Options(as_written=False)).regions[0].code
    assert narrow is not None and "for (int c0" in narrow.code
    option_sets = [("--no-as-written",), ("--tile-sizes=3,5",), ("--identity",)]
    verdicts = check_program(WIDE, "wide", option_sets, folder=tmp_path)
    assert [(v.outcome, v.fallback) for v in verdicts] == [(OPTIMIZED, False)] * 3, [v.message for v in verdicts]
