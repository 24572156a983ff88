"""End-to-end checks of scalar expansion on small handwritten programs (``tests.e2e.handwritten``).

The scalar ``t`` is printed after the region, so each case also checks that it ends with
the value of its last write (or keeps its value when the region never writes it: the
``empty`` sizes).  ``--no-expand --no-reassociate`` must give exactly the original output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import Case, check_case, check_program

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
    # Two nests use t for unrelated values, and the region's last write gives t its value after it: the
    # nests' webs are renamed (t_2, t_3) and expanded.
    "two-webs": Case(
        "double",
        "for (i = 0; i < M; i++) {\n  t = z[i] * 3;\n  for (j = 0; j < N; j++)\n    B[i][j] = A[i][j] * t + t;\n}\n"
        "for (j = 0; j < N; j++) {\n  t = 0;\n  for (i = 0; i < M; i++) {\n    A[i][j] = B[i][j] - t;\n"
        "    t = A[i][j] * 0.5;\n  }\n}\nt = 1.5;\n",
        "t_2_x[",
    ),
}
SIZES = [("default-size", ()), ("empty", ("M=0",))]


@pytest.mark.parametrize("defines", [d for _, d in SIZES], ids=[name for name, _ in SIZES])
@pytest.mark.parametrize("name", sorted(CASES))
def test_expansion_keeps_the_result(tmp_path: Path, name: str, defines: tuple[str, ...]) -> None:
    check_case(tmp_path, name, CASES[name], defines, exact_flags=["--no-expand", "--no-reassociate"])
    exact = (tmp_path / f"{name}-1.polyopt.c").read_text()
    assert "t_x" not in exact


DEAD_AFTER = """#include <stdio.h>
#define W 37
#define H 23
static float in[W][H], out[W][H], across[W][H];
static void kernel(float a, float b) {
  int i, j;
  float ym1, ym2;
#pragma scop
  for (i = 0; i < W; i++) {
    ym1 = 0;
    ym2 = 0;
    for (j = 0; j < H; j++) {
      out[i][j] = a * in[i][j] + b * ym1 - 0.25f * ym2;
      ym2 = ym1;
      ym1 = out[i][j];
    }
  }
  for (j = 0; j < H; j++) {
    ym1 = 0;
    ym2 = 0;
    for (i = 0; i < W; i++) {
      across[i][j] = a * out[i][j] + b * ym1 - 0.25f * ym2;
      ym2 = ym1;
      ym1 = across[i][j];
    }
  }
#pragma endscop
}
int main(void) {
  for (int i = 0; i < W; i++)
    for (int j = 0; j < H; j++)
      in[i][j] = (float)((i * 7 + j * 3) % 11) / 11;
  kernel(0.5f, 0.375f);
  for (int i = 0; i < W; i++)
    for (int j = 0; j < H; j++)
      printf("%.6f\\n", across[i][j]);
  return 0;
}
"""


def test_scalars_dead_after_the_region_get_one_name_per_web(tmp_path: Path) -> None:
    """deriche's recursive passes: ``ym1`` and ``ym2`` carry values along one row or one column only,
    and nothing reads them after the region, so every web is renamed and expanded, and both the row
    loop and the column loop run in parallel."""
    flags = ["--parallel-work=1", "--fixed-tile-size=8", "--report"]  # tiles of 8: each tile loop has threads to start
    stderr = check_program(tmp_path, "webs", DEAD_AFTER, flags, "ym1_3_x[")
    assert "scalar web renamed: ym1 -> ym1_2" in stderr and "scalar web renamed: ym2 -> ym2_3" in stderr
    assert (tmp_path / "webs.polyopt.c").read_text().count("#pragma omp parallel for") >= 2
