"""The corpus of the C that users write (``corpus/``): declarations in regions (``decl_*``), named
constants (``const_*``) and structure members (``struct_*``).

Each file is a complete program whose first line says what polyopt must do with its region:
``expect: optimized`` or ``expect: declined: <fragment of the reason>``.  Each goes through the
fuzzer's differential check (``polyopt.fuzz.differential``: the optimized program must print what
the original prints, with 1 and 2 threads) under a few option sets.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polyopt.command import options_from_arguments
from polyopt.driver import optimize_text
from polyopt.fuzz.differential import DECLINED, FAILED, OPTIMIZED, check_program

CORPUS = sorted(
    path
    for prefix in ("decl_", "const_", "struct_")
    for path in (Path(__file__).parent / "corpus").glob(f"{prefix}*.c")
)
OPTION_SETS_HERE: tuple[tuple[str, ...], ...] = ((), ("--blas=none",))
_EXPECT = re.compile(r"expect: (?:(optimized)|declined: ([^.]+))\.")


def test_the_corpus_covers_each_construct() -> None:
    for prefix in ("decl_", "const_", "struct_"):
        assert sum(path.name.startswith(prefix) for path in CORPUS) >= 8, prefix


@pytest.mark.parametrize("program", CORPUS, ids=[program.stem for program in CORPUS])
def test_corpus_program(program: Path, tmp_path: Path) -> None:
    text = program.read_text()
    expect = _EXPECT.search(text.splitlines()[0])
    assert expect is not None, "the first line says 'expect: optimized.' or 'expect: declined: <reason>.'"
    verdicts = check_program(text, program.stem, OPTION_SETS_HERE, folder=tmp_path)
    failures = [verdict.message for verdict in verdicts if verdict.outcome == FAILED or verdict.fallback]
    assert not failures, failures[0]
    if expect[1]:
        assert [verdict.outcome for verdict in verdicts] == [OPTIMIZED] * len(verdicts), verdicts
    else:
        for verdict in verdicts:
            assert verdict.outcome == DECLINED and expect[2] in verdict.message, verdict


@pytest.mark.parametrize("flags", [(), ("--no-expand",)])
def test_a_declared_temporary_leaves_its_loops_parallel(flags: tuple[str, ...]) -> None:
    """At the program's size no thread would start, and the parallel loop would go: threads start from one
    instance here."""
    program = CORPUS[0].with_name("decl_temp_2d.c")

    outcome = optimize_text(program.read_text(), str(program), options_from_arguments(("--parallel-work=1", *flags)))

    assert "double t_c;" in outcome.text and "#pragma omp parallel for private(t_c)" in outcome.text
