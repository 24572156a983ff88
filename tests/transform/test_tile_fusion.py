"""Tests for ``polyopt.transform.tile_fusion``: the outer tile loops of sibling bands fused when every
dependence between them stays within one tile and the fused tile's data stays in a smaller cache
(PolyMage dense-matrix thesis, Sec. 4.6)."""

from __future__ import annotations

import islpy as isl
import pytest

from polyopt.machine import Machine
from polyopt.schedule_tree import BandText, anchor_of, band_statements, carries, node_at
from polyopt.transform.tile_fusion import TileFusion, TileFusionPlan, apply_tile_fusion, plan_tile_fusion
from polyopt.transform.tiling import TilePlan, apply_tiling, tile_bands, tiled_band
from tests.transform.support import Kernel, KernelOf, assert_legal

MACHINE = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")
LARGE = {"m": 1000, "n": 1200}

# gramschmidt's step: sums over all rows of each column, then an update of the same columns.
COLUMNS = (
    "for (j = 0; j < n; j++)\n  for (i = 0; i < m; i++)\n    r[j] += q[i] * A[i][j];\n"
    "for (j = 0; j < n; j++)\n  for (i = 0; i < m; i++)\n    A[i][j] = A[i][j] - q[i] * r[j];\n"
)


def _tiled_sweeps(kernel: Kernel) -> tuple[isl.Schedule, frozenset[BandText]]:
    """Each statement under its own permutable band (j, i) in a sequence, tiled 64 x 248."""
    ctx = kernel.model.ctx
    filters = isl.UnionSetList.alloc(ctx, 2)
    for name in ("S0", "S1"):
        filters = filters.add(isl.UnionSet.from_set(kernel.model.domains[name]))
    sequence = isl.Schedule.from_domain(kernel.model.domain).get_root().child(0).insert_sequence(filters)
    params = ", ".join(kernel.model.scop.parameters)
    for position, name in enumerate(("S0", "S1")):
        text = f"[{params}] -> [{{ {name}[j, i] -> [(j)] }}, {{ {name}[j, i] -> [(i)] }}]"
        partial = isl.MultiUnionPwAff.read_from_str(ctx, text)
        band = sequence.child(position).child(0).insert_partial_schedule(partial).band_set_permutable(1)
        sequence = band.parent().parent()
    plan = TilePlan(tuple(tiled_band(sequence.child(position).child(0), (64, 248), "test") for position in (0, 1)))
    return apply_tiling(sequence.get_schedule(), plan), tile_bands(plan)


def test_the_column_tiles_of_a_sum_and_its_update_are_fused(kernel_of: KernelOf) -> None:
    kernel = kernel_of(COLUMNS)
    schedule, tiles = _tiled_sweeps(kernel)

    plan = plan_tile_fusion(kernel.model, schedule, kernel.full, tiles, MACHINE, LARGE)

    (fusion,) = plan.fusions
    assert (fusion.band, fusion.count) == (anchor_of(node_at(schedule, (0, 0, 0))), 2)
    assert fusion.statements == ("S0", "S1")
    assert fusion.fused < fusion.apart
    assert fusion.levels == ("L2", "L3")
    fused = apply_tile_fusion(schedule, plan)
    assert_legal(fused, kernel.full)
    band = node_at(fused, (0,))
    assert band.get_type() == isl.schedule_node_type.band and band.band_n_member() == 1
    assert band_statements(band) == {"S0", "S1"}
    assert not carries(band, 0, kernel.full)


KEPT_APART = {
    "a dependence across tiles": (COLUMNS.replace("q[i] * r[j];", "q[i] * r[n - 1 - j];"), LARGE, True),
    "data in cache apart": (COLUMNS, {"m": 100, "n": 100}, True),
    "no shared data": (COLUMNS.replace("A[i][j] = A[i][j] - q[i] * r[j];", "B[i][j] = B[i][j] - p[i];"), LARGE, True),
    "not tile bands": (COLUMNS, LARGE, False),
}


@pytest.mark.parametrize("case", sorted(KEPT_APART))
def test_bands_are_kept_apart(kernel_of: KernelOf, case: str) -> None:
    body, parameters, tiled = KEPT_APART[case]
    kernel = kernel_of(body)
    schedule, tiles = _tiled_sweeps(kernel)

    plan = plan_tile_fusion(kernel.model, schedule, kernel.full, tiles if tiled else frozenset(), MACHINE, parameters)

    assert plan.fusions == ()


def test_two_runs_of_one_sequence_fuse_alike_in_either_order() -> None:
    names = ("S0", "S1", "S2", "S3")
    domain = "; ".join(f"{name}[j, i]: 0 <= i, j < 100" for name in names)
    children = ", ".join(
        f'{{filter: "{{{name}[j, i]}}", child: {{schedule: "[{{{name}[j, i] -> [(j)]}}, {{{name}[j, i] -> [(i)]}}]", '
        "permutable: 1}}"
        for name in names
    )
    schedule = isl.Schedule.read_from_str(
        isl.Context(), f'{{domain: "{{{domain}}}", child: {{sequence: [{children}]}}}}'
    )
    sweeps = schedule.get_root().child(0)
    tiled = apply_tiling(
        schedule, TilePlan(tuple(tiled_band(sweeps.child(p).child(0), (10, 10), "test") for p in range(4)))
    )
    sequence = tiled.get_root().child(0)
    first, second = (TileFusion(anchor_of(sequence.child(p).child(0)), 2, "", (), 0, 0, 0, ("", "")) for p in (0, 2))

    # Fusing the first run regroups the sequence: the second run's bands are no longer its children 2 and 3.
    forward = apply_tile_fusion(tiled, TileFusionPlan((first, second)))

    assert forward.plain_is_equal(apply_tile_fusion(tiled, TileFusionPlan((second, first))))
    runs = forward.get_root().child(0)
    assert runs.n_children() == 2
    assert [band_statements(runs.child(p).child(0)) for p in range(2)] == [{"S0", "S1"}, {"S2", "S3"}]
