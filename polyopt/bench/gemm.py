"""GEMM speed in GFLOP/s: polyopt's microkernel (``--blas=none``) against the CBLAS call
(``--blas=cblas``), the same region optimized both ways, timed interleaved.

Usage: ``python -m polyopt.bench.gemm [--sizes 1000x1100x1200,2000x2000x2000] [--threads 1,2]
[--runs 5] [--coretype SkylakeX] [--target FILE]``.  ``--coretype`` sets ``OPENBLAS_CORETYPE`` for the
library's runs only: OpenBLAS on a VM that hides its CPU model may pick slow kernels, and the yardstick
is the library at its best.  ``--target`` plans the microkernel for that target file's machine (its
``kc-limit`` and ``nc-limit``, caches and registers) instead of the detected one.
Each run times ``C += alpha * A * B`` (M x K times K x N, doubles) in a fresh process, the second time
it runs there: the first starts the threads of either (libgomp's team, OpenBLAS's pool), which on a VM
can take milliseconds, as a program that computes more than one product pays once.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from polyopt.bench.timing import interleaved
from polyopt.driver import optimize_text
from polyopt.machine import Machine, detect, load_target
from polyopt.options import Options
from polyopt.toolchain import CFLAGS, ToolchainError, compile_c, first_difference, run_program

PROGRAM = """\
#include <stdio.h>
#include <omp.h>
static double A[NI][NK], B[NK][NJ], C[NI][NJ];

static void gemm(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < NI; i++)
    for (k = 0; k < NK; k++)
      for (j = 0; j < NJ; j++)
        C[i][j] += 1.5 * A[i][k] * B[k][j];
#pragma endscop
}

int main(void)
{
  for (int i = 0; i < NI; i++)
    for (int k = 0; k < NK; k++)
      A[i][k] = ((i * k) % 11) / 11.0;
  for (int k = 0; k < NK; k++)
    for (int j = 0; j < NJ; j++)
      B[k][j] = ((k + j) % 13) / 13.0;
  gemm();
  double start = omp_get_wtime();
  gemm();
  printf("%.9f\\n", omp_get_wtime() - start);
  fprintf(stderr, "%g\\n", C[NI / 2][NJ / 3]);
  return 0;
}
"""
# the --blas of each variant: the microkernel, or the call made whatever the size
VARIANTS = {"microkernel": "none", "library": "cblas"}


@dataclass(frozen=True)
class Row:
    """Median GFLOP/s of each variant for one size and thread count."""

    sizes: tuple[int, int, int]
    threads: int
    gflops: dict[str, float]

    @property
    def ratio(self) -> float:
        """The microkernel's speed as a fraction of the library's."""
        return self.gflops["microkernel"] / self.gflops["library"]


def _built(folder: Path, sizes: tuple[int, int, int], machine: Machine) -> dict[str, Path]:
    m, n, k = sizes
    defines = [f"NI={m}", f"NJ={n}", f"NK={k}"]
    binaries = {}
    calls = replace(machine, blas3_threshold=0, blas2_threshold=0)  # the call made from any work
    for name, blas in VARIANTS.items():
        outcome = optimize_text(PROGRAM, f"{name}.c", Options(blas=blas, machine=calls))
        source = folder / f"{name}-{m}x{n}x{k}.c"
        source.write_text(outcome.text, encoding="utf-8")
        binaries[name] = compile_c(source, source.with_suffix(""), flags=CFLAGS, defines=defines)
    return binaries


def measure(
    sizes: tuple[int, int, int], threads: int, runs: int, library_environment: Mapping[str, str], machine: Machine
) -> Row:
    """The median GFLOP/s of the microkernel (planned for ``machine``) and of the library call at ``sizes``
    with ``threads``."""
    flops = 2.0 * sizes[0] * sizes[1] * sizes[2]
    with tempfile.TemporaryDirectory(prefix="polyopt-bench-gemm-") as name:
        binaries = _built(Path(name), sizes, machine)

        def run(binary: Path) -> tuple[float, str]:
            environment = library_environment if binary == binaries["library"] else {}
            result = run_program(binary, threads=threads, environment=environment, timeout=600.0)
            return float(result.stdout.split()[0]), result.stderr

        times, outputs, failures = interleaved(binaries, run, runs, 0.0)
    if failures:
        raise ToolchainError(next(iter(failures.values())))
    difference = first_difference(outputs["library"], outputs["microkernel"], rel_tol=1e-6)
    if difference is not None:
        raise ToolchainError(f"the microkernel and the library compute different results: {difference}")
    return Row(sizes, threads, {name: flops / statistics.median(values) / 1e9 for name, values in times.items()})


def table(rows: Sequence[Row], coretype: str) -> str:
    """The Markdown table of ``rows``."""
    library = f"library (OPENBLAS_CORETYPE={coretype})" if coretype else "library"
    lines = [
        f"| M x N x K | threads | microkernel GFLOP/s | {library} GFLOP/s | microkernel / library |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        m, n, k = row.sizes
        lines.append(
            f"| {m} x {n} x {k} | {row.threads} | {row.gflops['microkernel']:.1f} | {row.gflops['library']:.1f} "
            f"| {row.ratio:.2f} |"
        )
    return "\n".join(lines)


def _sizes(text: str) -> list[tuple[int, int, int]]:
    found = []
    for item in text.split(","):
        parts = [int(part) for part in item.lower().split("x")]
        if len(parts) != 3 or min(parts) < 1:
            raise argparse.ArgumentTypeError(f"not M x N x K: {item!r}")
        found.append((parts[0], parts[1], parts[2]))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m polyopt.bench.gemm", description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=_sizes, default=_sizes("1000x1100x1200,2000x2000x2000"))
    parser.add_argument("--threads", default="1,2", help="thread counts, comma-separated (default 1,2)")
    parser.add_argument("--runs", type=int, default=5, help="interleaved rounds (default 5)")
    parser.add_argument("--coretype", default="", help="OPENBLAS_CORETYPE for the library's runs only")
    parser.add_argument("--target", type=Path, help="plan the microkernel for this target file's machine")
    arguments = parser.parse_args(argv)
    machine = load_target(arguments.target) if arguments.target else detect()
    environment = {"OPENBLAS_CORETYPE": arguments.coretype} if arguments.coretype else {}
    threads = [int(count) for count in arguments.threads.split(",")]
    rows = [
        measure(sizes, count, arguments.runs, environment, machine) for sizes in arguments.sizes for count in threads
    ]
    print(table(rows, arguments.coretype))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
