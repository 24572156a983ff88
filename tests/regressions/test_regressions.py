"""Shrunk fuzz failures: the differential check of ``polyopt.fuzz`` on every ``case_*.c`` here.

A case's first line names the polyopt flags it fails with (``/* polyopt flags: --notile */``);
``python -m polyopt.fuzz --save-regressions`` writes new cases here.  Each case is checked
through the command line, compiled and run with 1 and 2 OpenMP threads.  A case that still
fails is listed in ``KNOWN_BUGS`` and expected to fail (strictly, so a fix is noticed);
remove it from the table when polyopt is fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.fuzz.differential import FAILED, check_file, flags_of

CASES = sorted(Path(__file__).parent.glob("case_*.c"))
KNOWN_BUGS: dict[str, str] = {}


def _param(case: Path) -> object:
    reason = KNOWN_BUGS.get(case.name)
    marks = [pytest.mark.xfail(strict=True, reason=f"bug: {reason}")] if reason else []
    return pytest.param(case, id=case.stem, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_regression_case(case: Path, tmp_path: Path) -> None:
    verdict = check_file(case, flags_of(case.read_text()), folder=tmp_path)

    assert verdict.outcome != FAILED, verdict.message
