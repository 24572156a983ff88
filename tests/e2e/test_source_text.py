"""A region kept as written is printed as its own text, with only the pragmas that pay inserted before its
``for`` keywords (``polyopt.emit.source_text``), and the program computes what the original computes.

The program below has regions that keep their order: sums over a large matrix whose rows run in parallel
(their iterators declared outside the loops, read after the region or not), a loop written on the line of the
loop around it, an index of the first minimum with ``long`` indices and an induction variable advanced under
an ``if``.  Each option set's build must print what the original prints, with 1 and 2 threads.
"""

from __future__ import annotations

import re
from pathlib import Path

from polyopt.diagnostics import Location
from polyopt.driver import optimize_text
from polyopt.emit.source_text import SourcePragma, with_pragmas
from polyopt.frontend.regions import find_regions
from polyopt.fuzz.differential import OPTIMIZED, check_program
from polyopt.options import Options

PROGRAM = r"""#include <stdio.h>
#define N 3000
static double x[N][N], v[4001], a[4001], b[4001];
static double total;
static long m, k;

static void rows(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      total += x[i][j] * 0.5;
#pragma endscop
}

static int rows_then_inner(void) {
  int i, j;
#pragma scop
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j++)
      total += x[i][j];
#pragma endscop
  return j;
}

static int rows_then_outer(void) {
  int i;
#pragma scop
  for (i = 0; i < N; i++) for (int j = 0; j < N; j++)
      total -= x[i][j] * 0.25;
#pragma endscop
  return i;
}

static void first_min(void) {
#pragma scop
  m = 0;
  for (k = 1; k < 4001; k++) {
    if (v[k] < v[m]) m = k;
  }
#pragma endscop
}

static int packed(void) {
  int j;
#pragma scop
  j = -1;
  for (int i = 0; i < 4001; i++) {
    if (b[i] > 0.5) {
      j++;
      a[j] = b[i] * 2;
    } else {
      j++;
      a[j] = -b[i];
    }
  }
#pragma endscop
  return j;
}

int main(void) {
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      x[i][j] = (i * 3 + j) % 11 * 0.125;
  for (int i = 0; i < 4001; i++) {
    v[i] = (i * 37) % 101 - i * 1e-3;
    b[i] = (i % 7) * 0.25;
  }
  rows();
  int j = rows_then_inner();
  int i = rows_then_outer();
  first_min();
  int p = packed();
  printf("%.17g %d %d %ld %ld %d\n", total, j, i, m, k, p);
  for (int q = 0; q < 4001; q += 97)
    printf("%g ", a[q]);
  printf("\n");
  return 0;
}
"""
_ADDED = re.compile(r"^[ \t]*(#pragma omp .*|/\* polyopt .*\*/)\n", re.MULTILINE)


def tokens(code: str) -> list[str]:
    """The words of ``code`` without the lines polyopt adds (a pragma put before a ``for`` that follows another
    statement on its line also adds a line break, which the comparison of words ignores)."""
    return _ADDED.sub("", code).split()


def test_regions_kept_as_written_compute_what_the_original_computes(tmp_path: Path) -> None:
    option_sets = [(), ("--noparallel",), ("--fuse=max",)]

    verdicts = check_program(PROGRAM, "source_text", option_sets, folder=tmp_path)

    assert [(v.flags, v.outcome, v.fallback) for v in verdicts] == [(f, OPTIMIZED, False) for f in option_sets], [
        v.message for v in verdicts
    ]


def test_each_region_kept_as_written_is_its_own_text_with_pragmas() -> None:
    outcome = optimize_text(PROGRAM, "source_text.c", Options())

    assert outcome.warnings == ()
    originals = [region.body for region in find_regions(PROGRAM, "source_text.c")]
    for index, (region, original) in enumerate(zip(outcome.regions, originals, strict=True)):
        assert region.code is not None and region.report is not None
        if index == 1:  # its rows' parallel loop would leave j, read after it, at a thread's last value
            assert "1 parallel loop(s)" in region.code.summary and "source text" not in region.code.summary
            continue
        assert region.code.summary.startswith("kept as written (source text)"), region.code.summary
        assert "printed as the source text" in region.report.lines("as_written")
        assert tokens(region.code.code) == original.split()
    rows, inner, outer, *_ = (region.code.code for region in outcome.regions if region.code is not None)
    assert "#pragma omp parallel for reduction(+:total) if(" in rows and rows.rstrip().endswith("private(j)") is False
    assert re.search(r"#pragma omp parallel for reduction\(\+:total\) if\([^\n]*\) private\(j\)\n  for \(i", rows)
    assert "#pragma omp parallel for" in inner
    assert re.search(r"#pragma omp parallel for [^\n]*lastprivate\(i\)\n  for \(i = 0; i < N; i\+\+\) \n", outer)
    assert "#pragma omp simd" in outer


def test_a_pragma_goes_on_a_line_of_its_own_before_its_for() -> None:
    body = "  for (i = 0; i < n; i++) for (j = 0; j < n; j++)\n    s += a[i][j];\n"
    inner = body.index("for (j") + 1
    pragmas = (
        SourcePragma(Location("k.c", 7, 3), "omp parallel for"),
        SourcePragma(Location("k.c", 7, inner), "omp simd"),
    )

    text = with_pragmas(body, 7, pragmas)

    assert text == (
        "  #pragma omp parallel for\n"
        "  for (i = 0; i < n; i++) \n"
        "  #pragma omp simd\n"
        "  for (j = 0; j < n; j++)\n"
        "    s += a[i][j];\n"
    )


def test_a_pragma_whose_place_is_not_a_for_keyword_is_refused() -> None:
    body = "  x = 1;\n  for (i = 0; i < n; i++)\n    s += a[i];\n"

    assert with_pragmas(body, 3, (SourcePragma(Location("k.c", 3, 3), "omp simd"),)) is None
    assert with_pragmas(body, 3, (SourcePragma(Location("k.c", 9, 3), "omp simd"),)) is None
    assert with_pragmas(body, 3, (SourcePragma(Location("k.c", 4, 3), "omp simd"),)) == (
        "  x = 1;\n  #pragma omp simd\n  for (i = 0; i < n; i++)\n    s += a[i];\n"
    )


def test_a_file_with_crlf_line_ends_keeps_them_in_a_region_kept_as_written() -> None:
    text = PROGRAM.replace("\n", "\r\n")

    outcome = optimize_text(text, "crlf.c", Options())

    assert "\r\r" not in outcome.text
    assert outcome.text.count("\n") == outcome.text.count("\r\n")


# Scalars declared in loop bodies (Cephes' expf, and a row update through a temporary): each is private to its
# iteration in the text as written, so a region that keeps its order is its text, pragmas and all.
LOCALS = r"""#include <math.h>
#include <stdio.h>
#define N 2000
static float xin[40001], y[40001];
static double u[N][N], w[N][N];

static void expf_like(void) {
#pragma scop
  for (int i = 0; i < 40001; i++) {
    float x = xin[i];
    float z = floorf(1.44269504088896341f * x + 0.5f);
    x -= z * 0.693359375f;
    int n = (int)z;
    z = x * x * 0.5f + x + 1.0f;
    y[i] = ldexpf(z, n);
  }
#pragma endscop
}

static void rows(void) {
#pragma scop
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double t = u[i][j] * 0.5;
      w[i][j] = t * t + t;
    }
#pragma endscop
}

int main(void) {
  for (int i = 0; i < 40001; i++)
    xin[i] = (i % 37) * 0.125f - 2.0f;
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++)
      u[i][j] = (i * 5 + j) % 13 * 0.25;
  expf_like();
  rows();
  double sum = 0;
  for (int i = 0; i < 40001; i++)
    sum += y[i];
  for (int i = 0; i < N; i += 7)
    sum += w[i][(i * 3) % N];
  printf("%.9g\n", sum);
  return 0;
}
"""


def test_regions_with_locals_in_their_loops_are_their_own_text() -> None:
    outcome = optimize_text(LOCALS, "locals.c", Options())

    originals = [region.body for region in find_regions(LOCALS, "locals.c")]
    for region, original in zip(outcome.regions, originals, strict=True):
        assert region.code is not None
        assert region.code.summary.startswith("kept as written (source text)"), region.code.summary
        assert tokens(region.code.code) == original.split()


def test_regions_with_locals_in_their_loops_compute_what_the_original_computes(tmp_path: Path) -> None:
    option_sets = [(), ("--noparallel",)]

    verdicts = check_program(LOCALS, "locals", option_sets, folder=tmp_path)

    assert [(v.flags, v.outcome, v.fallback) for v in verdicts] == [(f, OPTIMIZED, False) for f in option_sets], [
        v.message for v in verdicts
    ]


# A band of width 41 above the diagonal (a banded solver's update): the inner loop's test is two comparisons,
# which OpenMP's canonical loop form does not allow, so no pragma goes on it in the text.
BAND = r"""#include <stdio.h>
#define N 3000
static double A[N][N], x[N];

int main(void) {
  int i, j;
  for (i = 0; i < N; i++) {
    x[i] = i % 7;
    for (j = 0; j < N; j++)
      A[i][j] = (i + j) % 5;
  }
#pragma scop
  for (int r = 0; r < N; r++)
    for (int c = r; c <= r + 40 && c < N; c++)
      A[r][c] = A[r][c] * 0.5 + x[c];
#pragma endscop
  double s = 0;
  for (i = 0; i < N; i++)
    for (j = 0; j < N; j += 13)
      s += A[i][j];
  printf("%.17g\n", s);
  return 0;
}
"""


def test_no_pragma_goes_on_a_loop_whose_test_is_not_one_comparison(tmp_path: Path) -> None:
    option_sets = [(), ("--noparallel",)]

    verdicts = check_program(BAND, "band", option_sets, folder=tmp_path)

    assert [(v.flags, v.outcome, v.fallback) for v in verdicts] == [(f, OPTIMIZED, False) for f in option_sets], [
        v.message for v in verdicts
    ]
    code = optimize_text(BAND, "band.c", Options()).text
    assert "#pragma omp simd\n    for (int c = r; c <= r + 40 && c < N; c++)" not in code
