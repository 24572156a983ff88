"""The benchmark's yardsticks: ``bench/cblas/`` computes what the examples compute, and a ``--vs``
command can name the example it is given (``{kernel}``)."""

from __future__ import annotations

import shlex
from pathlib import Path

import pytest

from polyopt.bench import _variants
from polyopt.emit.blas import cblas_available
from tests.support import EXAMPLES, assert_same_output, compile_c, compile_original, run_binary

REFERENCES = EXAMPLES.parent / "bench" / "cblas"
KERNELS = sorted(path.stem for path in REFERENCES.glob("*.c"))

needs_cblas = pytest.mark.skipif(not cblas_available(), reason="cblas.h not found (apt-get install libopenblas-dev)")


def test_every_reference_is_an_example() -> None:
    assert KERNELS == ["2mm", "3mm", "gemm", "symm", "syr2k", "syrk", "trmm"]
    assert all((EXAMPLES / f"{kernel}.c").is_file() for kernel in KERNELS)


@needs_cblas
@pytest.mark.parametrize("size", ["MINI", "SMALL"])
@pytest.mark.parametrize("kernel", KERNELS)
def test_reference_prints_what_the_example_prints(kernel: str, size: str) -> None:
    defines = [f"{size}_DATASET"]
    expected = run_binary(compile_original(EXAMPLES / f"{kernel}.c", defines=defines, flags=["-O2"])).stdout
    reference = REFERENCES / f"{kernel}.c"
    assert "#pragma scop" not in reference.read_text()
    actual = run_binary(compile_c(reference, defines=defines, flags=["-O2"]), threads=2).stdout
    assert_same_output(expected, actual, rel_tol=1e-9, abs_tol=1e-9, context=f"{kernel} at {size}")


def test_vs_command_names_the_kernel(tmp_path: Path) -> None:
    command = f"cp {shlex.quote(str(REFERENCES))}/{{kernel}}.c {{out}}"
    variants = _variants("gemm", tmp_path, [], [command])
    assert variants["vs0"].read_text() == (REFERENCES / "gemm.c").read_text()
    assert variants["original"] == EXAMPLES / "gemm.c"
