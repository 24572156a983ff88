"""End-to-end checks of array contraction on small handwritten programs (``tests.e2e.handwritten``).

``B`` is not printed by the programs, so it may be declared dead, with ``--assume-dead B``
or with ``#pragma polyopt dead(B)`` in the region; the exact run keeps the contraction and
forbids reassociation.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case

ROWS = (
    "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    B[i][j] = A[i][j] * x[j];\n"
    "for (i = 0; i < M; i++) {\n  z[i] = 0;\n  for (j = 0; j < N; j++)\n    z[i] = z[i] + B[i][j] * 2;\n}\n"
)
COLUMNS = (
    "for (i = 0; i < M; i++)\n  for (j = 0; j < N; j++)\n    B[i][j] = A[i][j] + x[j];\n"
    "for (j = 0; j < N; j++)\n  for (i = 0; i < M; i++)\n    y[j] = y[j] * 0.5 + B[i][j];\n"
)
CASES: dict[str, tuple[Case, tuple[str, ...]]] = {
    "rows-flag": (Case("double", ROWS, "B_c"), ("--assume-dead", "B")),
    "rows-pragma": (Case("double", "#pragma polyopt dead(B)\n" + ROWS, "B_c"), ()),
    # Not fused (the column recurrence on y): B keeps its storage, and z is never written.
    "columns-flag": (Case("double", COLUMNS, "polyopt"), ("--assume-dead=B,z",)),
    "long-rows": (Case("long", ROWS.replace("* 2", "* 3"), "B_c"), ("--assume-dead", "B")),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_contraction_keeps_the_result(tmp_path: Path, name: str) -> None:
    case, flags = CASES[name]
    check_case(tmp_path, name, case, (), exact_flags=[*flags, "--no-reassociate"], flags=flags)
