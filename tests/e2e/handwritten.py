"""Small handwritten programs for end-to-end tests of one transformation at a time.

Public: ``Case``, ``DECLARATIONS``, ``REASSOCIATED``, ``check_case``, ``check_program``, ``check_example``,
``assert_example_output``.

A case is a region body over the arrays ``A``, ``B``, ``C`` (M x N; ``C`` is not printed), ``D`` (3 x M x N),
``x``, ``y`` (N), ``z`` (M) and the scalars ``s``, ``p``, ``t`` of one element type, in the loops ``i``, ``j``,
``k``, ``l``; the program initializes them deterministically, runs the region once and prints every array
and scalar.  ``check_case`` optimizes it under several option sets and compares each build and run with the
original's.  ``check_program`` does the same for a whole program of a test's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from tests.support import EXAMPLES, assert_same_output, compile_c, compile_original, run_binary, run_polyopt

# Tolerance for option sets that let polyopt reorder reductions of doubles.
REASSOCIATED = {"rel_tol": 1e-6, "abs_tol": 1e-9}
# A float sum of 60000 terms changes by about n * 2^-24 relative when reassociated.
_TOLERANCES = {"double": REASSOCIATED, "float": {"rel_tol": 1e-3, "abs_tol": 1e-6}, "long": {}}
_FORMATS = {"double": "%.17g", "float": "%.9g", "long": "%ld"}
_RUNS = [(["-fopenmp"], 1), (["-fopenmp"], 2), ([], 1)]

# The declarations of a case's names, for data of type ``type``.
DECLARATIONS = "static {type} A[M][N], B[M][N], C[M][N], D[3][M][N], x[N], y[N], z[M];\nstatic {type} s, p, t;\n"
_PROGRAM = """#include <stdio.h>
#ifndef N
# define N 37
#endif
#ifndef M
# define M 23
#endif
{declarations}

static void kernel(void)
{{
  int i, j, k, l;
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
      C[i][j] = ({type})((2 * i + j) % 5 - 2) / 4;
      for (int b = 0; b < 3; b++)
        D[b][i][j] = ({type})((b + i * j) % 6 - 2) / 5;
    }}
  }}
  for (int j = 0; j < N; j++) {{
    x[j] = ({type})(j % 9 + 1) / 5;
    y[j] = 0;
  }}
  s = 0;
  p = 1;
  t = -1;
  kernel();
  printf("{fmt} {fmt} {fmt}\\n", s, p, t);
  for (int j = 0; j < N; j++)
    printf("{fmt} ", y[j]);
  for (int i = 0; i < M; i++)
    printf("{fmt} ", z[i]);
  for (int b = 0; b < 3; b++)
    for (int i = 0; i < M; i++)
      for (int j = 0; j < N; j++)
        printf("{fmt} ", D[b][i][j]);
  printf("\\n");
  return 0;
}}
"""


@dataclass(frozen=True)
class Case:
    """A region ``body`` over data of type ``kind``; the default output must contain ``expect``."""

    kind: str
    body: str
    expect: str


def _outputs(source: Path, defines: Sequence[str], folder: Path) -> list[str]:
    outputs = []
    for flags, threads in _RUNS:
        build = folder / f"{source.stem}-{'omp' if flags else 'seq'}"
        build.mkdir(parents=True, exist_ok=True)
        binary = compile_c(source, defines=defines, flags=["-O2", *flags], include_dirs=(), out_dir=build)
        outputs.append(run_binary(binary, threads=threads).stdout)
    return outputs


# the transformed schedule whatever the sizes, its parallel loops starting threads, its short loops as long ones
TRANSFORMED = ("--no-as-written", "--parallel-work=1", "--small-loop-rules=0")


def check_case(
    folder: Path, name: str, case: Case, defines: Sequence[str], exact_flags: Sequence[str], flags: Sequence[str] = ()
) -> None:
    """Optimize the case with ``flags`` (its text must contain ``case.expect``; outputs compared
    within the reassociation tolerance) and with ``exact_flags`` (compared exactly), both with
    ``TRANSFORMED``: the cases are small, and the transformation under test must run."""
    source = folder / f"{name}.c"
    declarations = DECLARATIONS.format(type=case.kind)
    source.write_text(
        _PROGRAM.format(declarations=declarations, type=case.kind, body=case.body, fmt=_FORMATS[case.kind])
    )
    (expected, *_) = _outputs(source, defines, folder / "original")
    for index, (options, tolerance) in enumerate(((flags, _TOLERANCES[case.kind]), (exact_flags, {}))):
        optimized = folder / f"{name}-{index}.polyopt.c"
        result = run_polyopt(source, [*TRANSFORMED, *options], output=optimized)
        assert result.returncode == 0 and result.stderr == "", result.stderr
        text = optimized.read_text()
        if index == 0:
            assert case.expect in text, f"expected {case.expect!r} in the optimized program:\n{text}"
        for actual in _outputs(optimized, defines, folder / optimized.stem):
            assert_same_output(expected, actual, context=f"polyopt {' '.join(options)}\n{text}", **tolerance)


def check_program(folder: Path, name: str, text: str, flags: Sequence[str], expect: str) -> str:
    """Optimize the program ``text`` with ``flags`` (its output must contain ``expect``), compare each
    build and run with the original's within the reassociation tolerance; return polyopt's standard error."""
    source = folder / f"{name}.c"
    source.write_text(text)
    (expected, *_) = _outputs(source, (), folder / "original")
    optimized = folder / f"{name}.polyopt.c"
    result = run_polyopt(source, flags, output=optimized)
    assert result.returncode == 0, result.stderr
    code = optimized.read_text()
    assert expect in code, f"expected {expect!r} in the optimized program:\n{code}"
    for actual in _outputs(optimized, (), folder / optimized.stem):
        assert_same_output(expected, actual, context=f"polyopt {' '.join(flags)}\n{code}", **REASSOCIATED)
    return result.stderr


def check_example(folder: Path, kernel: str, size: str, flags: Sequence[str], expect: str) -> None:
    """Optimize the example ``kernel`` with ``flags`` (silently; its text must contain ``expect``) and compare
    its output at ``size`` (MINI, SMALL), with 2 OpenMP threads and without OpenMP, with the original's within
    the reassociation tolerance."""
    source = EXAMPLES / f"{kernel}.c"
    optimized = folder / f"{kernel}.polyopt.c"
    result = run_polyopt(source, flags, output=optimized)
    assert result.returncode == 0 and result.stderr == "", result.stderr
    assert expect in optimized.read_text()
    assert_example_output(folder, kernel, optimized, size)


def assert_example_output(folder: Path, kernel: str, optimized: Path, size: str) -> None:
    """The output of ``optimized`` (the example ``kernel`` optimized) at ``size``, with 2 OpenMP threads and
    without OpenMP, is the original's within the reassociation tolerance."""
    defines = [f"{size}_DATASET"]
    expected = run_binary(compile_original(EXAMPLES / f"{kernel}.c", defines=defines, flags=["-O2"])).stdout
    for openmp, threads in ((["-fopenmp"], 2), ([], 1)):
        build = folder / f"p{threads}"
        build.mkdir()
        binary = compile_c(optimized, defines=defines, flags=["-O2", *openmp], include_dirs=(EXAMPLES,), out_dir=build)
        assert_same_output(expected, run_binary(binary, threads=threads).stdout, context=kernel, **REASSOCIATED)
