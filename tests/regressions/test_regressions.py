"""Shrunk fuzz failures: the differential check of ``tests.fuzz`` on every ``case_*.c`` here.

A case's first line names the polyopt flags it fails with (``/* polyopt flags: --notile */``).
A case that still fails is listed in ``KNOWN_BUGS`` and expected to fail (strictly, so a
fix is noticed); remove it from the table when polyopt is fixed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.fuzz.differential import check, flags_of

CASES = sorted(Path(__file__).parent.glob("case_*.c"))
KNOWN_BUGS: dict[str, str] = {}


def _param(case: Path) -> object:
    reason = KNOWN_BUGS.get(case.name)
    marks = [pytest.mark.xfail(strict=True, reason=f"bug: {reason}")] if reason else []
    return pytest.param(case, id=case.stem, marks=marks)


@pytest.mark.parametrize("case", [_param(case) for case in CASES])
def test_regression_case(case: Path) -> None:
    check(case, flags_of(case))
