"""The GEMM microkernel's C text (``polyopt.emit.microkernel``): subscripts, guards, pragmas, and the
assembly gcc makes of it (FMAs on zmm registers with AVX-512)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from polyopt.analysis.idioms import Gemm
from polyopt.analysis.microkernel import plan_microkernel
from polyopt.emit.cast import CIf, CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.microkernel import microkernel_block
from polyopt.emit.splice import HELPER_DEFINITIONS
from polyopt.machine import Machine

MACHINE = Machine(32 << 10, 1 << 20, 32 << 20, 64, cores=2, simd_bytes=64, origin="t", vector_registers=32)
PLAN = plan_microkernel(MACHINE)
LOOPS = (CStmt("/* loops */;"),)


def _gemm(trans_a: bool = False, trans_b: bool = False, alpha: str = "1.0") -> Gemm:
    return Gemm("S1", (), "C", "A", "B", trans_a, trans_b, alpha)


def _block(gemm: Gemm, parallel_work: int | None = 1 << 24) -> CIf:
    return microkernel_block(gemm, ["M", "N", "K"], PLAN, LOOPS, cores=2, parallel_work=parallel_work)


def test_guard_checks_types_and_sizes_and_falls_back_to_the_loops() -> None:
    block = _block(_gemm())

    assert block.cond == (
        "polyopt_float_kind(C[0][0]) != 0 && polyopt_float_kind(A[0][0]) == polyopt_float_kind(C[0][0]) "
        "&& polyopt_float_kind(B[0][0]) == polyopt_float_kind(C[0][0]) && M > 0 && N > 0 && K > 0"
    )
    assert block.other == LOOPS


def test_transposes_swap_the_subscripts_and_alpha_scales_the_packed_a() -> None:
    text = print_c((_block(_gemm(trans_a=True, trans_b=True, alpha="-((alpha) * (2))")),))

    assert "polyopt_alpha * A[polyopt_depth][polyopt_row] : 0;" in text
    assert "? B[polyopt_col][polyopt_depth] : 0;" in text
    assert "const polyopt_t polyopt_alpha = (polyopt_t)(-((alpha) * (2)));" in text
    assert "C[polyopt_row][polyopt_col] += polyopt_acc" in text


def test_comment_names_the_plan_and_sizes_come_from_the_machine() -> None:
    text = print_c((_block(_gemm()),))

    assert "/* polyopt microkernel: 14 x 16 registers, kc 256, mc 252, nc 4096, packed A and B */" in text
    assert "vector_size(64)" in text and "polyopt_mr = 14" in text
    assert "#pragma omp parallel if (polyopt_m * polyopt_n * polyopt_k >= 16777216L)" in text


def test_serial_microkernel_has_no_openmp_pragma() -> None:
    assert "#pragma omp" not in print_c((_block(_gemm(), parallel_work=None),))


def _program(block: CIf, element: str) -> str:
    helpers = "".join(f"#define {name}{HELPER_DEFINITIONS[name]}\n" for name in sorted(HELPER_DEFINITIONS))
    return (
        f"#include <stdlib.h>\n{helpers}"
        f"void f(int M, int N, int K, {element} alpha, {element} C[M][N], {element} A[M][K], {element} B[K][N])\n"
        f"{{\n{print_c((block,), '  ')}}}\n"
    )


@pytest.mark.parametrize(("element", "fma"), [("double", "vfmadd231pd"), ("float", "vfmadd231ps")])
def test_gcc_keeps_the_register_block_in_zmm_registers(tmp_path: Path, element: str, fma: str) -> None:
    source = tmp_path / "mk.c"
    source.write_text(_program(_block(_gemm(alpha="alpha")), element))
    flags = ["-O3", "-mavx512f", "-mfma", "-fopenmp", "-Wall", "-Wextra", "-Werror"]
    result = subprocess.run(["gcc", *flags, "-S", str(source), "-o", "-"], capture_output=True, text=True, timeout=120)

    assert result.returncode == 0, result.stderr
    fmas = [line for line in result.stdout.splitlines() if fma in line and "%zmm" in line]
    assert len(fmas) >= PLAN.mr * PLAN.vectors
