"""Statements that never execute (their domains are empty for every value of the parameters) are left
out of the region before any analysis, with a report note; no pass sees a statement without instances."""

from __future__ import annotations

from pathlib import Path

from polyopt.driver import optimize_text
from polyopt.fuzz.differential import OPTIMIZED, check_program
from polyopt.options import Options

# With the constant size 2, S0 runs over k < j < i < 2: never.
CHOLESKY_2 = """static double A[2][2];
static void kernel(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < 2; i++) {
    for (j = 0; j < i; j++) {
      for (k = 0; k < j; k++)
        A[i][j] -= A[i][k] * A[j][k];
      A[i][j] /= A[j][j];
    }
    for (k = 0; k < i; k++)
      A[i][i] -= A[i][k] * A[i][k];
    A[i][i] = A[i][i] * 0.5;
  }
#pragma endscop
}
"""

NOTHING_RUNS = """#include <stdio.h>
static double a[10];
static int kernel(int n)
{
  int i, j;
#pragma scop
  for (i = 0; i < n; i++)
    for (j = 3; j < 1; j++)
      a[i] = a[j] + 1;
#pragma endscop
  return i * 100 + j;
}
int main(void)
{
  printf("%d %d %d\\n", kernel(-2), kernel(0), kernel(7));
  return 0;
}
"""


def test_a_statement_that_never_executes_is_left_out_with_a_note() -> None:
    outcome = optimize_text(CHOLESKY_2, "k.c", Options())

    assert outcome.warnings == ()
    (region,) = outcome.regions
    assert region.report is not None
    assert [statement.name for statement in region.report.statements] == ["S1", "S2", "S3"]
    assert region.report.lines("notes")[0] == "S0 (line 9) never executes (its domain is empty): left out"


def test_a_statement_empty_only_for_some_parameter_values_is_kept() -> None:
    text = CHOLESKY_2.replace("i < 2", "i < n").replace("(void)", "(int n)")

    (region,) = optimize_text(text, "k.c", Options()).regions

    assert region.report is not None
    assert [statement.name for statement in region.report.statements] == ["S0", "S1", "S2", "S3"]
    assert not any("never executes" in note for note in region.report.lines("notes"))


def test_a_region_none_of_whose_statements_executes_keeps_only_the_iterator_values(tmp_path: Path) -> None:
    outcome = optimize_text(NOTHING_RUNS, "k.c", Options())

    (region,) = outcome.regions
    assert outcome.warnings == ()
    assert region.code is not None and region.code.summary == "no statement ever executes"
    assert "for" not in region.code.code and "i = n <= -1 ? 0 : n;" in region.code.code
    verdicts = check_program(NOTHING_RUNS, "nothing", [(), ("--identity",)], folder=tmp_path)
    assert [verdict.outcome for verdict in verdicts] == [OPTIMIZED, OPTIMIZED], [v.message for v in verdicts]
