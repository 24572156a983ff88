"""The data-dependent and call programs of ``tests/frontend/corpus`` (``datadep_*.c``, ``call_*.c``).

Each program's first line says what polyopt does with its region: ``/* expect: optimized */``, or
``/* expect: declined: <reason> */``.  Under each option set the optimized program must print what the
original prints (built and run with 1 and 2 OpenMP threads by ``polyopt.fuzz.differential``), and a
declined region must name its reason.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polyopt.fuzz.differential import DECLINED, OPTIMIZED, check_program

CORPUS = Path(__file__).parent / "corpus"
PROGRAMS = sorted(path for pattern in ("datadep_*.c", "call_*.c") for path in CORPUS.glob(pattern))
OPTION_SETS = [(), ("--blas=none",)]
_EXPECT = re.compile(r"/\* expect: (optimized|declined: (.*)) \*/")


def test_the_corpus_covers_both_constructs() -> None:
    names = [path.name for path in PROGRAMS]
    assert len(names) >= 15
    assert sum(name.startswith("datadep_") for name in names) >= 8
    assert sum(name.startswith("call_") for name in names) >= 6


@pytest.mark.parametrize("path", PROGRAMS, ids=lambda path: path.stem)
def test_program_is_optimized_or_declined_with_its_reason(path: Path, tmp_path: Path) -> None:
    text = path.read_text()
    expectation = _EXPECT.match(text.splitlines()[0])
    assert expectation is not None, f"{path.name}: the first line says nothing about what to expect"
    verdicts = check_program(text, path.stem, OPTION_SETS, folder=tmp_path)

    for verdict in verdicts:
        context = f"{path.name} {' '.join(verdict.flags)}: {verdict.message}"
        if expectation[2] is None:
            assert verdict.outcome == OPTIMIZED, context
        else:
            assert verdict.outcome == DECLINED, context
            assert f"region not optimized: {expectation[2]}" in verdict.message, context
