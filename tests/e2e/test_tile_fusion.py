"""End-to-end checks of the fusion of sibling tile loops (``polyopt.transform.tile_fusion``) on small
handwritten programs (``tests.e2e.handwritten``): the cost model assumes large sizes (``--param``),
the programs run at small ones with partial tiles."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case

LARGE = ("--param", "M=1000", "--param", "N=1200")
# gramschmidt's step: a column of B from column k of A; per column j > k, a sum over all rows, then the
# update of the column by it.
STEPS = (
    "for (k = 0; k < N; k++) {\n  for (i = 0; i < M; i++)\n    B[i][k] = A[i][k] * 0.5;\n"
    "  for (j = k + 1; j < N; j++) {\n    y[j] = 0;\n"
    "    for (i = 0; i < M; i++)\n      y[j] += B[i][k] * A[i][j];\n"
    "    for (i = 0; i < M; i++)\n      A[i][j] = A[i][j] - B[i][k] * y[j] / 64;\n  }\n}\n"
)
# The same, the update reading the sum of the column to its left: a dependence across tiles.
SHIFTED = STEPS.replace("y[j] / 64", "y[j - 1] / 64")
CASES = {
    "steps": Case("double", STEPS, "tile loops fused"),
    "steps-float": Case("float", STEPS, "tile loops fused"),
    "shifted": Case("double", SHIFTED, "polyopt"),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("sizes", [("M=70", "N=150"), ("M=9", "N=3")])
def test_fused_tile_loops_keep_the_result(tmp_path: Path, name: str, sizes: tuple[str, str]) -> None:
    check_case(tmp_path, name, CASES[name], sizes, exact_flags=[*LARGE, "--no-reassociate"], flags=LARGE)
