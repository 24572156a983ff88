"""End-to-end checks of scalars kept in the elements they are stored to (``polyopt.analysis.inplace``).

Each region ends by copying rows of ``A`` into ``y`` (printed) and writing ``t`` (printed) once
more, so that the scalar's last write stays outside the load-to-store ranges.
``--no-expand --no-reassociate`` must give exactly the original output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.driver import optimize_text
from polyopt.options import Options
from tests.e2e.handwritten import Case, check_case

SHOW = "for (j = 0; j < N; j++)\n  y[j] = A[M - 1][j] + A[M / 2][j] + A[1][j];\nt = y[0];\n"
LU = (
    "for (i = 0; i < M; i++) {\n  for (j = 0; j < i; j++) {\n    t = A[i][j];\n"
    "    for (k = 0; k < j; k++)\n      t -= A[i][k] * A[k][j];\n    A[i][j] = t * A[j][j];\n  }\n"
    "  for (j = i; j < M; j++) {\n    t = A[i][j];\n    for (k = 0; k < i; k++)\n"
    "      t -= A[i][k] * A[k][j];\n    A[i][j] = t;\n  }\n}\n"
)
LOAD, UPDATES, STORE = "t = A[i][j];", "for (k = 0; k < j; k++)\n      t -= A[i][k] * A[k][j];", "A[i][j] = t;"


def _triangle(load: str, store: str) -> str:
    """lu's lower triangle through the scalar, with the given (possibly guarded) load and store."""
    return f"for (i = 0; i < M; i++)\n  for (j = 0; j < i; j++) {{\n    {load}\n    {UPDATES}\n    {store}\n  }}\n"


KEPT: dict[str, Case] = {
    # ludcmp's factorization: the scalar becomes A[i][j], as in lu.
    "lu-through-a-scalar": Case("double", LU + SHOW, "kept t in A[i][j]"),
    # The load, the updates and the store all skip j = 3.
    "guarded-as-a-whole": Case(
        "double", _triangle(f"if (j != 3) {{\n    {LOAD}", f"{STORE}\n    }}") + SHOW, "kept t in A[i][j]"
    ),
    # A forward substitution into another array, integer data.
    "substitution": Case(
        "long",
        "for (i = 0; i < M; i++) {\n  t = z[i];\n  for (j = 0; j < i; j++)\n    t -= B[i][j] * z[j];\n"
        "  z[i] = t;\n}\n" + SHOW,
        "kept t in z[i]",
    ),
}
LEFT: dict[str, Case] = {
    # The store reads the element it writes besides the scalar.
    "store-reads-its-element": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  t = 0;\n  for (j = 0; j < N; j++)\n    t += B[i][j];\n"
        "  z[i] = z[i] + t;\n}\n" + SHOW,
        "",
    ),
    # An update reads the stored element (j = i).
    "element-read-between": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  t = 0;\n  for (j = 0; j < M; j++)\n    t += A[j][i] * z[j];\n"
        "  z[i] = t;\n}\n" + SHOW,
        "",
    ),
    # The store skips j = 3, where the updates change only the scalar.
    "guarded-store": Case("double", _triangle(LOAD, f"if (j != 3)\n      {STORE}") + SHOW, ""),
    # The load skips j = 3, where the updates and the store continue the scalar of j = 2.
    "guarded-load": Case("double", _triangle(f"if (j != 3)\n      {LOAD}", STORE) + SHOW, ""),
    # The scalar's last write is in the range: its value after the region is the last sum.
    "live-after-the-region": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  t = 0;\n  for (j = 0; j < N; j++)\n    t += B[i][j] * x[j];\n  z[i] = t;\n}\n",
        "",
    ),
}
SIZES = [("default-size", ()), ("one-row", ("M=2",))]


@pytest.mark.parametrize("defines", [d for _, d in SIZES], ids=[name for name, _ in SIZES])
@pytest.mark.parametrize("name", sorted(KEPT) + sorted(LEFT))
def test_scalar_kept_in_place_keeps_the_result(tmp_path: Path, name: str, defines: tuple[str, ...]) -> None:
    case = KEPT.get(name) or LEFT[name]
    check_case(tmp_path, name, case, defines, exact_flags=["--no-expand", "--no-reassociate"])
    default = (tmp_path / f"{name}-0.polyopt.c").read_text()
    assert ("kept t in" in default) == (name in KEPT)
    assert "kept t in" not in (tmp_path / f"{name}-1.polyopt.c").read_text()


def test_a_guarded_range_is_declined_in_the_report() -> None:
    body = _triangle(LOAD, f"if (j != 3)\n      {STORE}") + "t = 0;\n"
    text = f"double A[9][9], t;\nvoid kernel(void) {{\n  int i, j, k;\n#pragma scop\n{body}#pragma endscop\n}}\n"

    (region,) = optimize_text(text, "guarded.c", Options()).regions

    assert region.report is not None and region.report.lines("in_place") == ()
    reason = "the store does not run in every iteration where the load does"
    assert f"t not kept in A[i][j] from S0 to S2: {reason}" in region.report.lines("notes")
