"""Programs we did not write: the minimized cases in ``external/``, each under every option set.

The cases come from an independent adversarial program generator and from other projects'
test programs; each file's header comment names what once went wrong.  A case with a
``main`` goes through the fuzzer's differential check (``polyopt.fuzz.differential``) under
all of its option sets and the ones that move the library and parallel thresholds; a case
without one (a kernel only) must give output that gcc compiles with ``-Wall -Werror=implicit-function-declaration`` and
``-fopenmp``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from polyopt.fuzz.differential import FAILED, OPTION_SETS, check_program
from polyopt.toolchain import ToolchainError, compile_c, run_polyopt

CASES = sorted((Path(__file__).parent / "external").glob("*.c"))
OPTION_SETS_HERE: tuple[tuple[str, ...], ...] = (
    *OPTION_SETS,
    ("--blas-threshold=1", "--blas2-threshold=1"),
    ("--parallel-work=1",),
    ("--blas=none",),
    ("--blas=none", "--no-microkernel"),
)
KERNEL_CFLAGS = ("-Wall", "-Werror=implicit-function-declaration", "-fopenmp")
_MAIN = re.compile(r"\bint\s+main\s*\(")


@pytest.mark.parametrize("case", CASES, ids=[case.stem for case in CASES])
def test_external_case(case: Path, tmp_path: Path) -> None:
    text = case.read_text()
    if _MAIN.search(text):
        verdicts = check_program(text, case.stem, OPTION_SETS_HERE, folder=tmp_path, cli=[()])
        failures = [verdict.message for verdict in verdicts if verdict.outcome == FAILED]
        assert not failures, failures[0]
        return
    source = tmp_path / case.name
    source.write_text(text)
    for number, flags in enumerate(OPTION_SETS_HERE):
        output = tmp_path / f"out{number}.c"
        process = run_polyopt([*flags, str(source), "-o", str(output)])
        assert process.returncode == 0, process.stderr
        try:
            compile_c(output, tmp_path / f"out{number}.o", flags=("-c", *KERNEL_CFLAGS))
        except ToolchainError as error:
            pytest.fail(f"polyopt {' '.join(flags)}: {error}")
