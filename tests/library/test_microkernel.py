"""The GEMM microkernel's C text (``polyopt.library.microkernel``): subscripts, guards, pragmas, and the
assembly gcc makes of it (FMAs on zmm registers with AVX-512)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from polyopt.emit.cast import CIf, CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.splice import HELPER_DEFINITIONS
from polyopt.library import Gemm, Symm, Syr2k, Syrk, Trmm
from polyopt.library.microkernel import microkernel_block
from polyopt.library.microkernel_plan import plan_microkernel
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


def _gcc(source: Path, *output: str, extra: tuple[str, ...] = ()) -> subprocess.CompletedProcess[str]:
    """gcc at -O3 for AVX-512 with OpenMP and every warning an error (and ``extra``) on ``source``; ``output``
    says what to make (``-S``, ``-c``) and where."""
    flags = ["-O3", "-mavx512f", "-mfma", "-fopenmp", "-Wall", "-Wextra", "-Werror", *extra]
    return subprocess.run(["gcc", *flags, *output, str(source)], capture_output=True, text=True, timeout=120)


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
    result = _gcc(source, "-S", "-o", "-")

    assert result.returncode == 0, result.stderr
    fmas = [line for line in result.stdout.splitlines() if fma in line and "%zmm" in line]
    assert len(fmas) >= PLAN.mr * PLAN.vectors


def _syrk(lower: bool = True, trans: bool = False, strict: bool = False) -> Syrk:
    return Syrk(("S1",), (), "C", "A", lower, trans, "alpha", strict=strict)


def _rank_k_block(idiom: Syrk | Syr2k, from_work: int = 0) -> CIf:
    return microkernel_block(idiom, ["M", "K"], PLAN, LOOPS, cores=2, parallel_work=1 << 24, from_work=from_work)


def test_a_syrk_updates_only_its_triangle_in_chunks_of_equal_shares() -> None:
    block = _rank_k_block(_syrk())
    text = print_c((block,))

    assert "packed A and B, lower of C only */" in text
    assert "? A[polyopt_col][polyopt_depth] : 0;" in text  # op(B) = op(A)ᵀ
    assert "(polyopt_c * polyopt_n - polyopt_c * (polyopt_c - 1) / 2) * polyopt_chunks" in text  # columns' shares
    assert "const long polyopt_j0 = polyopt_edge[polyopt_jb]" in text
    assert "if ((polyopt_col <= polyopt_row))" in text  # the edge of the triangle, element by element
    assert "if (!(polyopt_c0 <= polyopt_r0 + polyopt_mr - 1))" in text  # register blocks above it skipped
    assert "polyopt_float_kind(B[0][0])" not in block.cond


def test_a_syr2k_is_one_product_over_twice_the_depth() -> None:
    idiom = Syr2k(("S1",), (), "C", "A", False, True, "2", "B", strict=True)
    text = print_c((_rank_k_block(idiom),))

    assert "const long polyopt_m = (M), polyopt_n = (M), polyopt_k = (2 * (K));" in text
    assert "(polyopt_depth < (K) ? A[polyopt_depth][polyopt_row] : B[polyopt_depth - (K)][polyopt_row])" in text
    assert "(polyopt_depth < (K) ? B[polyopt_depth][polyopt_col] : A[polyopt_depth - (K)][polyopt_col])" in text
    assert "if ((polyopt_row < polyopt_col))" in text  # strict upper
    assert "(polyopt_c * (polyopt_c + 1) / 2) * polyopt_chunks" in text  # an upper triangle's columns grow


def test_a_rank_k_microkernel_below_its_work_runs_the_loops() -> None:
    block = _rank_k_block(_syrk(), from_work=216_000_000)

    assert block.cond.endswith("&& (long)(M) * (long)(M) * (long)(K) >= 216000000L")
    assert block.other == LOOPS


@pytest.mark.parametrize(("lower", "trans", "strict"), [(True, False, False), (False, True, True)])
def test_gcc_compiles_the_triangle_without_warnings(tmp_path: Path, lower: bool, trans: bool, strict: bool) -> None:
    source = tmp_path / "mk.c"
    syr2k = Syr2k(("S1",), (), "C", "A", lower, trans, "alpha", "B", strict=strict)  # reads all three arrays
    source.write_text(_program(_rank_k_block(syr2k), "double"))
    result = _gcc(source, "-c", "-o", str(tmp_path / "mk.o"))

    assert result.returncode == 0, result.stderr


def _square_block(idiom: Symm | Trmm) -> CIf:
    return microkernel_block(idiom, ["M", "N"], PLAN, LOOPS, cores=2, parallel_work=1 << 24)


def test_a_symm_packs_a_from_the_triangle_it_reads_and_scales_c_first() -> None:
    text = print_c((_square_block(Symm(("S1",), (), "C", "A", "B", True, "alpha", "beta")),))

    assert "A symmetric (lower), C scaled by beta first */" in text
    assert "const long polyopt_m = (M), polyopt_n = (N), polyopt_k = (M);" in text
    read = "(polyopt_depth <= polyopt_row ? A[polyopt_row][polyopt_depth] : A[polyopt_depth][polyopt_row])"
    assert f"polyopt_alpha * {read} : 0;" in text
    assert "C[polyopt_row][polyopt_col] *= (beta);" in text
    assert text.index("*= (beta)") < text.index("polyopt_q0 < polyopt_k")  # each chunk scaled before the product


@pytest.mark.parametrize(("lower", "trans", "above"), [(True, True, True), (False, False, True), (True, False, False)])
def test_a_trmm_adds_op_a_strict_triangle_in_place_in_the_order_that_reads_the_original(
    lower: bool, trans: bool, above: bool
) -> None:
    text = print_c((_square_block(Trmm(("S1",), (), "B", "A", lower, trans)),))

    element = "A[polyopt_depth][polyopt_row]" if trans else "A[polyopt_row][polyopt_depth]"
    assert f"(polyopt_depth {'>' if above else '<'} polyopt_row ? {element} : 0)" in text
    assert "B[polyopt_row][polyopt_col] += polyopt_acc" in text  # B is the target
    assert "const polyopt_t polyopt_alpha = (polyopt_t)(1.0);" in text
    first = "(polyopt_k - 1) / polyopt_kc * polyopt_kc - polyopt_q0"  # the depth blocks from the last
    assert (first in text) != above
    skip = "(polyopt_p0 + polyopt_kb - 1 > polyopt_i0)" if above else "(polyopt_p0 < polyopt_i0 + polyopt_mb - 1)"
    assert f"if (!{skip})" in text  # blocks of zeros skipped


@pytest.mark.parametrize("above", [True, False])
def test_gcc_compiles_symm_and_trmm_without_warnings(tmp_path: Path, above: bool) -> None:
    blocks = (
        _square_block(Symm(("S1",), (), "C", "A", "B", above, "alpha", "1.5")),
        _square_block(Trmm(("S2",), (), "B", "A", above, False)),
    )
    for index, block in enumerate(blocks):
        source = tmp_path / f"mk{index}.c"
        source.write_text(_program(block, "double"))  # K and one matrix are not used
        result = _gcc(source, "-c", "-o", str(tmp_path / "mk.o"), extra=("-Wno-unused-parameter",))

        assert result.returncode == 0, result.stderr
