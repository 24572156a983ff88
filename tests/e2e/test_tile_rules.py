"""A kernel whose tile sizes change when a rule of the tile-size model is switched off
(``--tile-rule=-NAME``) still prints what the original prints."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.e2e.handwritten import REASSOCIATED
from tests.support import EXAMPLES, assert_same_output, compile_c, compile_original, needs_gcc, run_binary, run_polyopt

LOOPS = ["--blas=none", "--no-microkernel"]
FLAGS = ["-O3", "-fopenmp"]


@needs_gcc
@pytest.mark.parametrize(("kernel", "rule"), [("doitgen", "even-out"), ("seidel-2d", "scalar-inner")])
def test_a_kernel_tiled_without_a_rule_keeps_its_output(tmp_path: Path, kernel: str, rule: str) -> None:
    source = EXAMPLES / f"{kernel}.c"
    ruled, unruled = tmp_path / "ruled.c", tmp_path / f"{kernel}.c"
    for flags, output in ((LOOPS, ruled), ([*LOOPS, f"--tile-rule=-{rule}"], unruled)):
        process = run_polyopt(source, flags, output=output)
        assert process.returncode == 0 and process.stderr == "", process.stderr
    assert unruled.read_text() != ruled.read_text()  # the rule changes the tiles of this kernel

    binary = compile_c(unruled, defines=["SMALL_DATASET"], flags=FLAGS, out_dir=tmp_path)
    original = compile_original(source, defines=["SMALL_DATASET"], flags=FLAGS)

    for threads in (1, 2):
        expected = run_binary(original, threads=threads).stdout
        assert expected.strip()
        assert_same_output(expected, run_binary(binary, threads=threads).stdout, **REASSOCIATED)
