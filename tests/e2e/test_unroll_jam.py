"""End-to-end checks of unroll-and-jam into vector loops (``polyopt.transform.unroll_jam``) on small
handwritten programs (``tests.e2e.handwritten``), at sizes that leave remainders."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case

CASES = {
    # C[i][j] over k: the k loop is jammed into the vector loop over j.
    "product": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < M; k++)\n    for (j = 0; j < N; j++)\n"
        "      D[0][i][j] += A[i][k] * B[k][j];\n",
        "_j + 3;",
    ),
    "product-long": Case(
        "long",
        "for (i = 0; i < M; i++)\n  for (k = 0; k < M; k++)\n    for (j = 0; j < N; j++)\n"
        "      D[0][i][j] += A[i][k] * B[k][j];\n",
        "_j + 3;",
    ),
    # A recurrence along the rows of every column: y[j] carries it, and B reads it row by row.
    "recurrence": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    y[j] = y[j] * 0.5 + A[i][j];\n"
        "    D[1][i][j] = y[j];\n  }\n",
        "_j + 3;",
    ),
    # A dependence across columns: nothing is jammed.
    "across": Case(
        "double",
        "for (i = 1; i < M; i++)\n  for (j = 0; j < N - 1; j++) {\n    y[j] += A[i][j];\n"
        "    D[2][i][j] = D[2][i - 1][j + 1] * 0.5 + y[j];\n  }\n",
        "polyopt",
    ),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("sizes", [(), ("M=9", "N=3")])
def test_jammed_loops_keep_the_result(tmp_path: Path, name: str, sizes: tuple[str, ...]) -> None:
    check_case(tmp_path, name, CASES[name], sizes, exact_flags=["--no-reassociate"])
