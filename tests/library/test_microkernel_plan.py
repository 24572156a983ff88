"""The GEMM microkernel's blocking from the machine's numbers (PolyDL, Sec. 6.2)."""

from __future__ import annotations

import dataclasses

from polyopt.library.microkernel_plan import plan_microkernel
from polyopt.machine import Machine

AVX512 = Machine(
    l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test", vector_registers=32
)


def test_avx512_server_gets_14_rows_of_two_vectors_and_cache_blocks() -> None:
    plan = plan_microkernel(AVX512)

    assert (plan.mr, plan.vectors, plan.nr, plan.vector_bytes) == (14, 2, 16, 64)
    assert (plan.kc, plan.mc, plan.nc) == (256, 252, 4096)
    assert "28 accumulators + 2 rows of B + 1 of A in 32 64-byte registers" in plan.reason


def test_avx2_gets_the_classic_6_by_8_kernel() -> None:
    plan = plan_microkernel(dataclasses.replace(AVX512, simd_bytes=32, vector_registers=16))

    assert (plan.mr, plan.nr) == (6, 8)
    assert plan.kc == 512  # the 512 x 8 sliver of B fills the 32 KiB L1
    assert plan.mc % plan.mr == 0 and plan.mc * plan.kc * 8 <= AVX512.l2 // 2


def test_register_block_fits_the_registers() -> None:
    for registers in (8, 16, 32):
        plan = plan_microkernel(dataclasses.replace(AVX512, vector_registers=registers))
        assert plan.mr * plan.vectors + plan.vectors + 1 <= registers


def test_without_l3_the_panel_of_b_follows_the_l2() -> None:
    plan = plan_microkernel(dataclasses.replace(AVX512, l3=0, l2=256 << 10, cores=1))

    assert plan.nc == 64  # half of 256 KiB in rows of kc = 256 doubles
    assert plan.nc % plan.nr == 0 and "of the L2" in plan.reason


def test_tiny_caches_still_give_whole_blocks() -> None:
    plan = plan_microkernel(dataclasses.replace(AVX512, l1=1 << 10, l2=4 << 10, l3=0, simd_bytes=16))

    assert plan.kc >= 16 and plan.kc % 16 == 0
    assert plan.mc >= plan.mr and plan.mc % plan.mr == 0
    assert plan.nc >= plan.nr and plan.nc % plan.nr == 0


def test_describe_names_the_sizes_and_why() -> None:
    text = plan_microkernel(AVX512).describe()

    assert text.startswith("14 x 16 registers, kc 256, mc 252, nc 4096, packs A and B (")


def test_the_profile_bounds_kc_and_nc_to_multiples_of_their_steps() -> None:
    plan = plan_microkernel(dataclasses.replace(AVX512, kc_limit=100, nc_limit=1000))

    assert (plan.kc, plan.nc) == (96, 992)  # multiples of KC_STEP = 16 and of nr = 16
    assert plan.mc == 672  # half of 1 MiB in rows of kc = 96 doubles, a multiple of mr = 14
