"""GNU C spellings that gcc accepts: read as standard C, or the one region that holds them kept as written.

Each program has two regions: the first uses the spelling (or a file-scope declaration does), the second is
a plain loop.  polyopt must not reject the file: the first region is optimized or kept with a warning that
names the construct, the second is optimized, and the output compiles and prints what the original prints.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt import __version__
from polyopt.command import options_from_arguments
from polyopt.diagnostics import RegionSyntaxError
from polyopt.driver import optimize_text
from polyopt.frontend import read
from polyopt.toolchain import CHECK_FLAGS, compile_c, first_difference, run_program
from tests.support import needs_gcc

PROGRAM = """#include <stdio.h>
#define N 24
static double a[N], b[N], c[N];
{decl}
static void kernel(void)
{{
  int i;
#pragma scop
{first}
#pragma endscop
#pragma scop
  for (i = 1; i < N; i++)
    c[i] = c[i - 1] * 0.5 + b[i];
#pragma endscop
}}

int main(void)
{{
  int i;
  for (i = 0; i < N; i++) {{
    a[i] = 0;
    b[i] = (i % 7) - 3.5;
    c[i] = i;
  }}
  kernel();
  for (i = 0; i < N; i++)
    printf("%g %g\\n", a[i], c[i]);
  return 0;
}}
"""
LOOP = "  for (i = 0; i < N; i++)\n"
TWICE = "double twice(double x) { return 2 * x; }"
WARNING = "warning: region not optimized: "

# name, file-scope declarations, the first region, what polyopt says about it (None: it is optimized, no warning)
CASES = [
    ("__restrict__", "static double *__restrict__ rp = b;", LOOP + "    a[i] = rp[i] * 2;", None),
    ("__restrict", "static double *__restrict rp = b;", LOOP + "    a[i] = rp[i] * 2;", None),
    ("__restrict__ local", "", "  double *__restrict__ P = a;\n" + LOOP + "    P[i] = b[i];", "pointer 'P'"),
    ("__inline__", f"static __inline__ {TWICE}", LOOP + "    a[i] = twice(b[i]);", None),
    ("__inline", f"static __inline {TWICE}", LOOP + "    a[i] = twice(b[i]);", None),
    (
        "__attribute__",
        "static double d[N] __attribute__((aligned(64), __unused__));",
        LOOP + "  {\n    double t __attribute__((aligned((16)))) = b[i];\n    __attribute__((unused)) int k = i;\n"
        "    a[i] = t;\n  }",
        None,
    ),
    (
        "__attribute__ mode",
        "",
        LOOP + "  {\n    int k __attribute__((mode(DI))) = i;\n    a[i] = k;\n  }",
        "'__attribute__((mode(DI)))' inside the region",
    ),
    ("__extension__", "__extension__ static long long big = 1;", LOOP + "    a[i] = __extension__ (b[i] + big);", None),
    ("__typeof__", "", LOOP + "  {\n    __typeof__(a[0]) t = b[i];\n    a[i] = t;\n  }", "'__typeof__' inside"),
    ("typeof", "", LOOP + "  {\n    typeof(a[0]) t = b[i];\n    a[i] = t;\n  }", "'typeof' inside"),
    ("__builtin_expect", "", LOOP + "    if (__builtin_expect(i > 3, 1))\n      a[i] = b[i];", None),
    ("__builtin_fabs", "", LOOP + "    a[i] = __builtin_fabs(b[i]) + __builtin_sqrt(4.0);", None),
    (
        "__builtin_prefetch",
        "",
        LOOP + "  {\n    __builtin_prefetch(&b[i]);\n    a[i] = b[i];\n  }",
        "call to GCC builtin '__builtin_prefetch'",
    ),
    ("statement expression", "", LOOP + "    a[i] = ({ double q = b[i]; q; });", "statement expression '({ ... })'"),
    ("_Pragma", "", '  _Pragma("GCC ivdep")\n' + LOOP + "    a[i] = b[i];", "'_Pragma' inside"),
    ("pragma omp simd", "", "#pragma omp simd\n" + LOOP + "    a[i] = b[i];", "'#pragma omp simd' inside"),
    ("pragma GCC ivdep", "", "#pragma GCC ivdep\n" + LOOP + "    a[i] = b[i];", "'#pragma GCC ivdep' inside"),
    ("pragma GCC unroll", "", "#pragma GCC unroll 4\n" + LOOP + "    a[i] = b[i];", "'#pragma GCC unroll' inside"),
    ("__asm__", "", LOOP + '  {\n    __asm__ __volatile__("");\n    a[i] = b[i];\n  }', "'__asm__' inside"),
    ("__volatile__", "", LOOP + "  {\n    __volatile__ int v = i;\n    a[i] = v;\n  }", "volatile 'v' declared"),
    ("__const", "", LOOP + "  {\n    __const double t = b[i];\n    a[i] = t;\n  }", None),
    ("__signed__", "", LOOP + "  {\n    __signed__ int k = i - 5;\n    a[i] = k;\n  }", None),
    ("_Static_assert", "", '  _Static_assert(N > 0, "N");\n' + LOOP + "    a[i] = b[i];", "'_Static_assert' inside"),
    ("_Alignas", "", LOOP + "  {\n    _Alignas(16) double t = b[i];\n    a[i] = t;\n  }", "'_Alignas' inside"),
    ("x ?: y", "", LOOP + "    a[i] = b[i] ?: 1.0;", "polyopt cannot read it (syntax error: Invalid expression); gcc"),
    ("__int128", "", LOOP + "  {\n    __int128 k = i;\n    a[i] = (double)k;\n  }", "'__int128' inside"),
]


@needs_gcc
@pytest.mark.parametrize(("decl", "first", "said"), [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_gnu_spelling_costs_at_most_its_region(tmp_path: Path, decl: str, first: str, said: str | None) -> None:
    text = PROGRAM.format(decl=decl, first=first)
    source = tmp_path / "gnu.c"
    source.write_text(text)

    outcome = optimize_text(text, "gnu.c", options_from_arguments([]))

    if said is None:
        assert outcome.warnings == ()
        assert f"polyopt {__version__}: region 1 (" in outcome.text
    else:
        (warning,) = outcome.warnings
        assert warning.startswith("gnu.c:") and f"{WARNING}{said}" in warning, warning
        end = text.index("#pragma endscop\n") + len("#pragma endscop\n")
        assert outcome.text.startswith(text[:end])
    assert f"polyopt {__version__}: region 2 (" in outcome.text
    optimized = tmp_path / "optimized.c"
    optimized.write_text(outcome.text)
    flags = ("-O1", "-fopenmp", *CHECK_FLAGS)
    expected = run_program(compile_c(source, tmp_path / "original", flags=flags)).stdout
    actual = run_program(compile_c(optimized, tmp_path / "optimized", flags=flags)).stdout
    assert first_difference(expected, actual) is None


def test_a_region_syntax_error_stops_polyopt_when_gcc_cannot_judge_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    text = PROGRAM.format(decl="", first=LOOP + "    a[i] = b[i] ?: 1.0;")
    monkeypatch.setattr(read, "gcc_accepts", lambda *arguments: None)

    with pytest.raises(RegionSyntaxError) as caught:
        optimize_text(text, "gnu.c", options_from_arguments([]))

    assert str(caught.value).startswith("gnu.c:10:18: error: syntax error: ")
