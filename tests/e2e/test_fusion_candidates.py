"""A candidate schedule of fusion groups switched off (``--fusion-candidate=-NAME``) changes the schedule of a
group it gives by default, names the candidate that takes its place in the report, and the program still prints
what the original prints."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from polyopt.options import FUSION_CANDIDATE_NAMES
from tests.e2e.handwritten import assert_example_output, check_program
from tests.support import EXAMPLES, needs_gcc, run_polyopt

TARGET = Path(__file__).parents[1] / "decisions" / "desktop.target"
REPORTED = ["--no-probe", f"--target={TARGET}", "--no-as-written", "--report=json"]

# Two sweeps and a statement on G[t][0] beside them: the loop stage finds a scalar innermost loop in the
# wavefront's tiles and none in the sweeps of each time step, so the sweeps run inside the time loop.
SWEEPS = """#include <stdio.h>
#define N 12
static double G[N + 4][N + 4], H[N + 4][N + 4], I[N + 4];

int main(void)
{
  int i, j, k;
  for (j = 0; j < N + 4; j++) {
    I[j] = (double)(j % 5) / 3;
    for (k = 0; k < N + 4; k++)
      G[j][k] = H[j][k] = (double)((j * 7 + k * 3) % 11) / 4;
  }
#pragma scop
  for (i = 0; i < 4; i++) {
    for (j = 2; j < N - 2; j++)
      for (k = 1; k < N - 1; k++)
        H[j][k] = 0.2 * (G[j][k] + G[j - 1][k] + G[j + 1][k] + G[j][k - 1]);
    for (j = 1; j < N - 1; j++)
      for (k = 1; k < N - 1; k++)
        G[j][k] = 0.2 * (H[j][k] + H[j][k - 1]);
    G[i][0] = I[2];
  }
#pragma endscop
  for (j = 0; j < N + 4; j++)
    for (k = 0; k < N + 4; k++)
      printf("%.17g %.17g ", G[j][k], H[j][k]);
  printf("\\n");
  return 0;
}
"""
SWEEP_FLAGS = ["--blas=none", "--parallel-work=1", "--fixed-tile-size=4"]


def _schedules(stderr: str) -> list[str]:
    """The candidate names of every fusion group in a ``--report=json`` document."""
    document = json.loads(stderr)
    return [line.split(": ")[-1] for region in document["regions"] for line in region.get("fusion_schedules", [])]


def _example(folder: Path, kernel: str, flags: list[str]) -> tuple[list[str], str, Path]:
    """The candidates of ``kernel`` optimized with ``flags``, its code and where it is."""
    output = folder / f"{kernel}.c"
    process = run_polyopt(EXAMPLES / f"{kernel}.c", [*REPORTED, *flags], output=output)
    assert process.returncode == 0, process.stderr
    return _schedules(process.stderr), output.read_text(), output


# (example, flags, a candidate that gives a group's schedule with those flags); heat-3d runs stepwise when it is
# not plane-tiled.  The stepwise-vector candidate is tested on SWEEPS.
EXAMPLE_CASES = [
    ("correlation", [], "row-fused"),
    ("jacobi-1d", [], "resident"),
    ("heat-3d", [], "plane-tiled"),
    ("heat-3d", ["--fusion-candidate=-plane-tiled"], "stepwise"),
    ("gramschmidt", [], "stepwise-cost"),
    ("jacobi-2d", [], "isl"),
]


@needs_gcc
@pytest.mark.parametrize(("kernel", "base", "candidate"), EXAMPLE_CASES)
def test_an_example_without_a_candidate_gets_another_schedule_and_keeps_its_output(
    tmp_path: Path, kernel: str, base: list[str], candidate: str
) -> None:
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    chosen, code, _ = _example(tmp_path / "on", kernel, base)
    others, changed, output = _example(tmp_path / "off", kernel, [*base, f"--fusion-candidate=-{candidate}"])

    assert candidate in chosen and candidate not in others
    assert len(others) == len(chosen) and changed != code
    assert_example_output(tmp_path, kernel, output, "SMALL")


@needs_gcc
def test_sweeps_without_the_stepwise_vector_candidate_run_as_a_wavefront(tmp_path: Path) -> None:
    (tmp_path / "on").mkdir()
    (tmp_path / "off").mkdir()
    flags = [*REPORTED, *SWEEP_FLAGS]

    chosen = _schedules(check_program(tmp_path / "on", "sweeps", SWEEPS, flags, "#pragma omp"))
    others = _schedules(
        check_program(tmp_path / "off", "sweeps", SWEEPS, [*flags, "--fusion-candidate=-stepwise-vector"], "for (")
    )

    assert chosen == ["stepwise-vector"] and others == ["isl"]


def test_every_candidate_is_tested_switched_off() -> None:
    assert {candidate for _, _, candidate in EXAMPLE_CASES} | {"stepwise-vector"} == set(FUSION_CANDIDATE_NAMES)
