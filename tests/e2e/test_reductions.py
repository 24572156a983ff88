"""End-to-end checks of reductions on small handwritten programs (issue: false dependences and reductions).

Each program is optimized with the default options (reductions may be reordered: outputs
compared within a tolerance for the element type) and with ``--no-reassociate`` (compared exactly, and no
reduction clause may appear), built with and without ``-fopenmp``, and run with 1 and 2
threads.  Each case also names the clause text the default output must contain, so a
case checks that the reduction was really parallelized or vectorized, not only that the
program still prints the same.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.test_examples import REASSOCIATED
from tests.support import assert_same_output, compile_c, run_binary, run_polyopt

_PROGRAM = """#include <stdio.h>
#ifndef N
# define N 37
#endif
#ifndef M
# define M 23
#endif
static {type} A[M][N], B[M][N], x[N], y[N], z[M];
static {type} s, p;

static void kernel(void)
{{
  int i, j, k;
#pragma scop
{body}
#pragma endscop
}}

int main(void)
{{
  for (int i = 0; i < M; i++) {{
    z[i] = ({type})((i * 7) % 5 + 1) / 4;
    for (int j = 0; j < N; j++) {{
      A[i][j] = ({type})((i * 3 + j * 5) % 11 - 4) / 8;
      B[i][j] = ({type})((i + 2 * j) % 7 + 1) / 3;
    }}
  }}
  for (int j = 0; j < N; j++) {{
    x[j] = ({type})(j % 9 + 1) / 5;
    y[j] = 0;
  }}
  s = 0;
  p = 1;
  kernel();
  printf("{fmt} {fmt}\\n", s, p);
  for (int j = 0; j < N; j++)
    printf("{fmt} ", y[j]);
  for (int i = 0; i < M; i++)
    printf("{fmt} ", z[i]);
  printf("\\n");
  return 0;
}}
"""

# name -> (element type, region body, text the default output must contain)
CASES: dict[str, tuple[str, str, str]] = {
    "scalar-sum": (
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    s += A[i][j] * B[i][j];\n",
        "reduction(+:s)",
    ),
    "vector-section": (
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    y[j] = y[j] + A[i][j] * z[i];\n",
        "reduction(+:y[",
    ),
    "element-in-a-local": (
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    z[i] = z[i] + A[i][j] * x[j];\n",
        "_red = z[",
    ),
    "integer-product": (
        "long",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < 2; j++)\n    p *= (i + j) % 3 + 1;\n",
        "reduction(*:p)",
    ),
    "float-sum-minus": (
        "float",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    s -= A[i][j] * x[j];\n",
        "reduction(+:s)",
    ),
    "fused-pair": (
        "double",
        "for (i = 0; i < M; i++) {\n  z[i] = 0;\n  for (j = 0; j < N; j++) {\n"
        "    y[j] = y[j] + A[i][j] * x[j];\n    z[i] = z[i] + B[i][j] * x[j];\n  }\n}\n",
        "reduction(+:y[",
    ),
    "partial-sums-are-read": (
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    s += A[i][j];\n    B[i][j] = s;\n  }\n"
        "for (j = 0; j < N; j++)\n  y[j] = B[M - 1][j];\n",
        "",
    ),
    "matrix-update": (
        "double",
        "for (k = 0; k < M; k++)\n  for (i = 0; i < M; i++)\n    for (j = 0; j < N; j++)\n"
        "      B[i][j] = B[i][j] + A[k][j] * z[i];\n"
        "for (j = 0; j < N; j++)\n  y[j] = B[M - 1][j];\n",
        "",
    ),
}
FORMATS = {"double": "%.17g", "float": "%.9g", "long": "%ld"}
# A float sum of 60000 terms changes by about n * 2^-24 relative when reassociated.
TOLERANCES = {"double": REASSOCIATED, "float": {"rel_tol": 1e-3, "abs_tol": 1e-6}, "long": {}}
# (name suffix, -D defines): the default sizes, and a vector too long for a stack copy per thread.
SIZES = [("", ()), ("-long", ("N=20000", "M=3"))]
RUNS = [(["-fopenmp"], 1), (["-fopenmp"], 2), ([], 1)]


def _program(folder: Path, name: str) -> Path:
    kind, body, _ = CASES[name]
    fmt = FORMATS[kind]
    source = folder / f"{name}.c"
    source.write_text(_PROGRAM.format(type=kind, body=body, fmt=fmt))
    return source


def _outputs(source: Path, defines: tuple[str, ...], folder: Path) -> list[str]:
    outputs = []
    for flags, threads in RUNS:
        build = folder / f"{source.stem}-{'omp' if flags else 'seq'}"
        build.mkdir(parents=True, exist_ok=True)
        binary = compile_c(source, defines=defines, flags=["-O2", *flags], include_dirs=(), out_dir=build)
        outputs.append(run_binary(binary, threads=threads).stdout)
    return outputs


@pytest.mark.parametrize("defines", [d for _, d in SIZES], ids=[s or "default-size" for s, _ in SIZES])
@pytest.mark.parametrize("name", sorted(CASES))
def test_reduction_keeps_the_result(tmp_path: Path, name: str, defines: tuple[str, ...]) -> None:
    source = _program(tmp_path, name)
    (expected, *_) = _outputs(source, defines, tmp_path / "original")
    for flags, tolerance in (((), TOLERANCES[CASES[name][0]]), (("--no-reassociate",), {})):
        optimized = tmp_path / f"{name}{''.join(flags)}.polyopt.c"
        result = run_polyopt(source, flags, output=optimized)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        text = optimized.read_text()
        if flags:
            assert "reduction(" not in text
        else:
            assert CASES[name][2] in text, f"expected {CASES[name][2]!r} in the optimized program:\n{text}"
        for actual in _outputs(optimized, defines, tmp_path / optimized.stem):
            assert_same_output(expected, actual, context=f"polyopt {' '.join(flags)}\n{text}", **tolerance)
