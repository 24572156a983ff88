"""The register and cache blocking of the GEMM microkernel, chosen from the machine (PolyDL, Sec. 6.2).

Public: ``MicrokernelPlan``, ``plan_microkernel``.

When no BLAS call computes a recognized ``C += alpha * op(A) * op(B)``
(``polyopt.library.Gemm``), polyopt runs it as PolyDL's outer-product
microkernel (PolyDL, Sec. 6.2, Algorithm 4): an ``mr`` x ``nr`` block of ``C``
stays in vector registers while ``kc`` rank-1 updates add a column of ``A``
times a row of ``B`` to it.  Around it, the loops block ``C`` and the operands
for the caches as GotoBLAS and BLIS do (PolyDL, Sec. 6.2, cites them):

- the register block: ``vectors`` vectors of ``C`` per row (``nr`` = ``vectors``
  times the vector lanes) and ``mr`` rows, as many as fit with the ``vectors``
  loaded rows of ``B`` and one broadcast element of ``A``:
  ``mr * vectors + vectors + 1 <= vector_registers`` (14 x 2 with AVX-512's 32
  registers, 6 x 2 with AVX2's 16: the classic 6 x 8 kernel);
- ``kc``: the ``kc`` x ``nr`` sliver of ``B`` that every row block reuses fills the L1, up to ``kc_limit``
  (rounded down to a multiple of ``KC_STEP``);
- ``mc``: the ``mc`` x ``kc`` block of ``A`` fills half of the L2;
- ``nc``: the ``kc`` x ``nc`` panel of ``B`` a core works on takes its half of its share of the L3
  (of the L2 without an L3), up to ``nc_limit`` (rounded down to a multiple of ``nr``).

Both operands are packed (``A`` scaled by ``alpha``), each sliver contiguous in
the order the kernel reads it and padded with zeros to whole register blocks,
so that the kernel needs no remainder code.  ``kc`` and ``nc`` are bounded by
the machine's ``kc_limit`` and ``nc_limit`` (``polyopt.machine``).

The sizes count elements of the operands' type: a ``float`` plan has twice the
lanes and twice the rows and columns per block of a ``double`` one, in the
same bytes.  With L1d 32 KiB, L2 1 MiB, L3 32 MiB, 2 cores
and AVX-512 the plan is 14 x 16, ``kc`` 256, ``mc`` 252, ``nc`` 4096.
"""

from __future__ import annotations

from dataclasses import dataclass

from polyopt.frontend.declarations import DEFAULT_ELEMENT_BYTES
from polyopt.machine import Machine

VECTORS = 2  # vectors of C per row of the register block
KC_STEP = 16  # kc is a multiple of it, so that packed slivers stay 64-byte aligned for float too


@dataclass(frozen=True)
class MicrokernelPlan:
    """The microkernel's blocking: ``mr`` x ``vectors`` vectors of ``vector_bytes`` bytes of ``C``
    in registers, blocks of ``kc`` steps of the sum, of ``mc`` rows of ``C`` (a multiple of ``mr``)
    and of at most ``nc`` columns (a multiple of ``nr``) per core; ``reason`` says where each came from."""

    vector_bytes: int
    vectors: int
    mr: int
    kc: int
    mc: int
    nc: int
    reason: str
    element_bytes: int = DEFAULT_ELEMENT_BYTES

    @property
    def nr(self) -> int:
        """Columns of the register block."""
        return self.vectors * max(1, self.vector_bytes // self.element_bytes)

    def describe(self) -> str:
        """One line of ``--report``, e.g. ``14 x 16 registers, kc 256, mc 252, nc 4096, packs A and B (...)``."""
        blocks = f"kc {self.kc}, mc {self.mc}, nc {self.nc}"
        return f"{self.mr} x {self.nr} registers, {blocks}, packs A and B ({self.reason})"


def _round_down(value: int, step: int) -> int:
    """``value`` rounded down to a multiple of ``step``, at least ``step``."""
    return max(step, value // step * step)


def plan_microkernel(machine: Machine, element_bytes: int = DEFAULT_ELEMENT_BYTES) -> MicrokernelPlan:
    """The blocking for ``machine``'s vector width, vector registers and caches, for operands of
    ``element_bytes`` each (see the module docstring)."""
    mr = max(1, (machine.vector_registers - VECTORS - 1) // VECTORS)
    lanes = max(1, machine.simd_bytes // element_bytes)
    nr = VECTORS * lanes
    kc = _round_down(min(machine.kc_limit, machine.l1 // (nr * element_bytes)), KC_STEP)
    mc = _round_down(machine.l2 // 2 // (kc * element_bytes), mr)
    nc = _round_down(min(machine.nc_limit, machine.shared_cache // (2 * machine.cores) // (kc * element_bytes)), nr)
    reason = (
        f"{mr * VECTORS} accumulators + {VECTORS} rows of B + 1 of A in {machine.vector_registers} "
        f"{machine.simd_bytes}-byte registers; B sliver fills the L1, A block half the L2, "
        f"B panel half a core's share of the {'L3' if machine.l3 else 'L2'}"
    )
    return MicrokernelPlan(machine.simd_bytes, VECTORS, mr, kc, mc, nc, reason, element_bytes)
