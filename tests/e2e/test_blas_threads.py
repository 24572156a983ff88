"""CBLAS calls are never made inside an OpenMP parallel region, so the library's threads and polyopt's
do not oversubscribe the cores (doc/probe.md: Threads).

Examples with BLAS idioms next to parallel loops are optimized with every call forced and every
parallel loop starting threads (``--parallel-work=1``), and linked with stand-ins for the double
routines that abort when ``omp_in_parallel()``; they run with 2 threads and count their calls.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.library.blas import cblas_available
from polyopt.toolchain import ToolchainError, compile_c, run_program
from tests.support import EXAMPLES, run_polyopt

ROUTINES = ("gemm", "gemv", "ger", "syrk", "syr2k", "trmm", "symm")
# the stand-ins: the executable's own definitions take the place of the library's
STAND_INS = """\
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
static int calls;
static void called(void)
{
  if (omp_in_parallel()) {
    fputs("a CBLAS routine was called inside an OpenMP parallel region\\n", stderr);
    abort();
  }
  calls++;
}
__attribute__((destructor)) static void count(void) { fprintf(stderr, "cblas calls: %d\\n", calls); }
""" + "".join(f"void cblas_d{routine}(void) {{ called(); }}\n" for routine in ROUTINES)
FLAGS = ["--blas=cblas", "--blas-threshold=0", "--blas2-threshold=0", "--parallel-work=1"]


@pytest.mark.skipif(not cblas_available(), reason="needs cblas.h (libopenblas-dev)")
@pytest.mark.parametrize("kernel", ["2mm", "gemver", "correlation", "doitgen"])
def test_no_library_call_runs_inside_a_parallel_region(tmp_path: Path, kernel: str) -> None:
    optimized = tmp_path / f"{kernel}.c"
    done = run_polyopt(EXAMPLES / f"{kernel}.c", FLAGS, output=optimized)
    assert done.returncode == 0, done.stderr
    assert "#pragma omp parallel" in optimized.read_text()
    stand_ins = tmp_path / "stand_ins.c"
    stand_ins.write_text(STAND_INS)
    binary = compile_c(
        [optimized, stand_ins],
        tmp_path / kernel,
        flags=["-O1", "-fopenmp"],
        include_dirs=[EXAMPLES],
        defines=["MINI_DATASET"],
    )

    try:
        result = run_program(binary, threads=2)
    except ToolchainError as error:
        raise AssertionError(str(error)) from None

    calls = int(result.stderr.split("cblas calls: ")[1].split()[0])
    assert calls > 0
