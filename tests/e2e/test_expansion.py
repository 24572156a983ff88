"""End-to-end checks of scalar expansion on small handwritten programs (``tests.e2e.handwritten``).

The scalar ``t`` is printed after the region, so each case also checks that it ends with
the value of its last write (or keeps its value when the region never writes it: the
``empty`` sizes).  ``--no-expand --no-reassociate`` must give exactly the original output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case

CASES: dict[str, Case] = {
    # symm's temp2: reset per (i, j), summed over k, read at the end of the iteration.
    "symm-like": Case(
        "double",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    t = 0;\n"
        "    for (k = 0; k < i; k++) {\n      B[k][j] += A[i][j] * z[k];\n      t += A[k][j] * z[k];\n    }\n"
        "    B[i][j] = B[i][j] * 2 + t;\n  }\n",
        "t_x[",
    ),
    # One temporary per row: the rows become independent.
    "row-temporary": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  t = z[i] * 3;\n  for (j = 0; j < N; j++)\n    B[i][j] = A[i][j] * t;\n}\n",
        "t_x[",
    ),
    # A temporary that lives within one statement's iteration, integer data.
    "integer-swap": Case(
        "long",
        "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++) {\n    t = A[i][j];\n    A[i][j] = B[i][j];\n"
        "    B[i][j] = t;\n  }\n",
        "t_x[",
    ),
    # The value flows from one iteration to the next: no expansion, and still correct.
    "carried-value": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  z[i] = z[i] + t;\n  t = z[i] * 0.5;\n}\n",
        "",
    ),
}
SIZES = [("default-size", ()), ("empty", ("M=0",))]


@pytest.mark.parametrize("defines", [d for _, d in SIZES], ids=[name for name, _ in SIZES])
@pytest.mark.parametrize("name", sorted(CASES))
def test_expansion_keeps_the_result(tmp_path: Path, name: str, defines: tuple[str, ...]) -> None:
    check_case(tmp_path, name, CASES[name], defines, exact_flags=["--no-expand", "--no-reassociate"])
    exact = (tmp_path / f"{name}-1.polyopt.c").read_text()
    assert "t_x" not in exact
