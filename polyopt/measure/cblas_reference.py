"""The benchmark's yardstick for library calls: an example with its region replaced by direct CBLAS calls.

Usage: ``python -m polyopt.measure.cblas_reference examples/gemm.c out.c`` (or as a benchmark
``--vs 'python3 -m polyopt.measure.cblas_reference {in} {out}'``).  gemm, 2mm, 3mm, syrk, syr2k,
trmm and symm are written as the calls a programmer would make for the same operation
(2mm and 3mm with ``beta = 0`` products instead of zero-initialized sums), so that
polyopt's generated calls can be timed against them.  Link with ``-lopenblas``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path


def _matrix(array: str) -> str:
    return f"&{array}[0][0], (int)(sizeof({array}[0]) / sizeof({array}[0][0]))"


def _gemm(sizes: str, alpha: str, a: str, b: str, beta: str, c: str) -> str:
    operands = f"{alpha}, {_matrix(a)}, {_matrix(b)}, {beta}, {_matrix(c)}"
    return f"cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, {sizes}, {operands});"


CALLS: dict[str, list[str]] = {
    "gemm": [_gemm("ni, nj, nk", "alpha", "A", "B", "beta", "C")],
    "2mm": [_gemm("ni, nj, nk", "alpha", "A", "B", "0.0", "tmp"), _gemm("ni, nl, nj", "1.0", "tmp", "C", "beta", "D")],
    "3mm": [
        _gemm("ni, nj, nk", "1.0", "A", "B", "0.0", "E"),
        _gemm("nj, nl, nm", "1.0", "C", "D", "0.0", "F"),
        _gemm("ni, nl, nj", "1.0", "E", "F", "0.0", "G"),
    ],
    "syrk": [
        f"cblas_dsyrk(CblasRowMajor, CblasLower, CblasNoTrans, n, m, alpha, {_matrix('A')}, beta, {_matrix('C')});"
    ],
    "syr2k": [
        "cblas_dsyr2k(CblasRowMajor, CblasLower, CblasNoTrans, n, m, alpha, "
        f"{_matrix('A')}, {_matrix('B')}, beta, {_matrix('C')});"
    ],
    "trmm": [
        "cblas_dtrmm(CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasUnit, m, n, alpha, "
        f"{_matrix('A')}, {_matrix('B')});"
    ],
    "symm": [
        f"cblas_dsymm(CblasRowMajor, CblasLeft, CblasLower, m, n, alpha, {_matrix('A')}, {_matrix('B')}, "
        f"beta, {_matrix('C')});"
    ],
}


def reference(kernel: str, source: str) -> str:
    """``source`` (the example ``kernel``) with its region, and the kernel's unused locals, replaced by
    the CBLAS calls, and ``cblas.h`` included."""
    calls = "".join(f"  {call}\n" for call in CALLS[kernel])
    region = re.compile(r"\{\n(?:  (?:int|DATA_TYPE) [^\n]*;\n)*\n?#pragma scop\n.*?#pragma endscop\n", re.S)
    text, count = region.subn(lambda _: "{\n" + calls, source)
    if count != 1:
        raise ValueError(f"{kernel}: expected one region")
    return "#include <cblas.h>\n" + text


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m polyopt.measure.cblas_reference EXAMPLE.c OUT.c", file=sys.stderr)
        return 2
    source = Path(argv[0])
    if source.stem not in CALLS:
        print(f"{source}: no CBLAS reference for {source.stem} (known: {', '.join(CALLS)})", file=sys.stderr)
        return 1
    Path(argv[1]).write_text(reference(source.stem, source.read_text()))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
