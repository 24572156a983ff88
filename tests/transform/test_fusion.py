"""Tests for ``polyopt.transform.fusion``: top-level nests, the fusion plan of each policy, and the
region's schedule."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass

import islpy as isl
import pytest

import polyopt.transform.fusion as fusion
import polyopt.transform.stepping as stepping
from polyopt.analysis.fusion_cost import BandCost, GroupCost, group_cost
from polyopt.frontend.scop import Scop
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.options import FUSION_CANDIDATE_NAMES, SchedulerOptions
from polyopt.schedule_tree import (
    anchor_of,
    band_nodes,
    carries,
    member_expressions,
    node_at,
    parallel_outermost,
    schedule_respects,
)
from polyopt.transform.fusion import (
    EvaluateLoops,
    FusionGroup,
    FusionPlan,
    plan_fusion,
    schedule_region,
    top_level_nests,
)
from polyopt.transform.fusion_candidates import CANDIDATES, parallelizes
from polyopt.transform.parallel import plan_parallel
from polyopt.transform.tiling import tile_band
from tests.transform.kernels import ATAX, GEMM, HEAT_3D, JACOBI_1D, JACOBI_2D
from tests.transform.support import Kernel, KernelOf, build_kernel, relaxed

INDEPENDENT = "for (i = 0; i < n; i++)\n  a[i] = 1;\nfor (i = 0; i < n; i++)\n  b[i] = 2;\n"
PRODUCER_CONSUMER = "for (i = 0; i < n; i++)\n  b[i] = a[i];\nfor (i = 0; i < n; i++)\n  c[i] = b[i];\n"
# The second nest is a recurrence: fused with the parallel first nest, the common loop would carry it.
PARALLEL_THEN_RECURRENCE = (
    "for (i = 0; i < n; i++)\n  b[i] = a[i];\nfor (i = 1; i < n; i++)\n  c[i] = c[i - 1] + b[i];\n"
)
TWO_RECURRENCES = (
    "for (i = 1; i < n; i++)\n  b[i] = b[i - 1] + a[i];\nfor (i = 1; i < n; i++)\n  c[i] = c[i - 1] + b[i];\n"
)
# One loop over both nests; the constant member runs S0 before S1 in each iteration.
FUSED_BY_HAND = "{ S0[i] -> [i, 0]; S1[i] -> [i, 1] }"
THREE_NESTS = PRODUCER_CONSUMER + "for (i = 0; i < n; i++)\n  d[i] = e[i];\n"


def _groups(plan: FusionPlan) -> list[tuple[int, ...]]:
    return [group.nests for group in plan.groups]


def _top_bands(schedule: isl.Schedule) -> list[tuple[tuple[int, ...], isl.ScheduleNode]]:
    """The bands with no band above them."""
    bands = band_nodes(schedule)
    return [(path, band) for path, band in bands if not any(path[: len(p)] == p and p != path for p, _ in bands)]


def _statements_under(band: isl.ScheduleNode) -> set[str]:
    names: set[str] = set()
    band.get_domain().foreach_set(lambda s: names.add(s.get_tuple_name()))
    return names


def test_top_level_nests_in_source_order(kernel_of: KernelOf) -> None:
    kernel = kernel_of(
        "s = 0;\n"
        "for (i = 0; i < n; i++) {\n"
        "  a[i] = s;\n"
        "  for (j = 0; j < n; j++)\n"
        "    b[i][j] = a[i];\n"
        "}\n"
        "for (j = 0; j < n; j++)\n"
        "  c[j] = b[j][j];\n"
    )

    assert top_level_nests(kernel.model.scop) == [frozenset({"S0"}), frozenset({"S1", "S2"}), frozenset({"S3"})]


@pytest.mark.parametrize(
    ("policy", "groups"),
    [("none", [(0,), (1,), (2,)]), ("max", [(0, 1, 2)]), ("smart", [(0, 1), (2,)])],
)
def test_policies_group_nests(kernel_of: KernelOf, policy: str, groups: list[tuple[int, ...]]) -> None:
    kernel = kernel_of(THREE_NESTS)

    plan = plan_fusion(kernel.model, kernel.deps.reduced, policy, kernel.scheduler)

    assert plan.policy == policy
    assert _groups(plan) == groups
    nests = top_level_nests(kernel.model.scop)
    for group in plan.groups:
        assert group.statements == frozenset().union(*(nests[n] for n in group.nests))


def test_the_candidates_are_tried_in_the_order_and_under_the_names_the_options_list() -> None:
    assert tuple(candidate.name for candidate in CANDIDATES) == FUSION_CANDIDATE_NAMES


def test_unknown_policy_is_rejected(kernel_of: KernelOf) -> None:
    kernel = kernel_of(INDEPENDENT)

    with pytest.raises(ValueError, match="fusion policy"):
        plan_fusion(kernel.model, kernel.deps.reduced, "greedy", kernel.scheduler)


def test_smart_keeps_nests_sharing_no_array_apart(kernel_of: KernelOf) -> None:
    kernel = kernel_of(INDEPENDENT)

    plan = plan_fusion(kernel.model, kernel.deps.reduced, "smart", kernel.scheduler)

    assert _groups(plan) == [(0,), (1,)]


def test_smart_fuses_producer_and_consumer_under_one_parallel_loop(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PRODUCER_CONSUMER)

    plan, schedule = kernel.scheduled("smart")

    assert _groups(plan) == [(0, 1)]
    ((_, band),) = _top_bands(schedule)
    assert _statements_under(band) == {"S0", "S1"}
    assert not carries(band, 0, kernel.full)
    assert schedule_respects(schedule, kernel.full)


def test_smart_keeps_a_parallel_nest_apart_from_a_recurrence(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PARALLEL_THEN_RECURRENCE)
    # Fused by hand, the common loop carries the recurrence: the first nest's parallel loop would be lost.
    fused = kernel.band_schedule(FUSED_BY_HAND)
    ((_, fused_band),) = band_nodes(fused)
    assert schedule_respects(fused, kernel.full)
    assert carries(fused_band, 0, kernel.full)

    plan, schedule = kernel.scheduled("smart")

    assert _groups(plan) == [(0,), (1,)]
    first = [band for _, band in _top_bands(schedule) if _statements_under(band) == {"S0"}]
    assert len(first) == 1 and not carries(first[0], 0, kernel.full)


def test_smart_fuses_two_recurrences(kernel_of: KernelOf) -> None:
    kernel = kernel_of(TWO_RECURRENCES)

    plan = plan_fusion(kernel.model, kernel.deps.reduced, "smart", kernel.scheduler)

    assert _groups(plan) == [(0, 1)]


def _fuse_by_hand(monkeypatch: pytest.MonkeyPatch, kernel: Kernel) -> None:
    """Make the scheduler fuse S0 and S1 under one loop (``FUSED_BY_HAND``); parts are scheduled as usual."""
    fused = kernel.band_schedule(FUSED_BY_HAND)
    real = fusion.schedule_group

    def fusing(
        model: PolyModel, statements: frozenset[str], dependences: isl.UnionMap, options: SchedulerOptions, **kw: bool
    ) -> isl.Schedule | None:
        if statements == frozenset({"S0", "S1"}):
            return fused
        return real(model, statements, dependences, options, **kw)

    monkeypatch.setattr(fusion, "schedule_group", fusing)


def test_smart_rejects_a_fusion_that_loses_the_outer_parallel_loop(
    kernel_of: KernelOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Should the scheduler fuse the two nests under one sequential loop, smart must still keep them apart."""
    kernel = kernel_of(PARALLEL_THEN_RECURRENCE)
    _fuse_by_hand(monkeypatch, kernel)

    plan = plan_fusion(kernel.model, kernel.deps.reduced, "smart", kernel.scheduler)

    assert _groups(plan) == [(0,), (1,)]


def test_smart_accepts_a_sequential_fusion_when_no_part_was_parallel(
    kernel_of: KernelOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    kernel = kernel_of(TWO_RECURRENCES)
    _fuse_by_hand(monkeypatch, kernel)

    plan = plan_fusion(kernel.model, kernel.deps.reduced, "smart", kernel.scheduler)

    assert _groups(plan) == [(0, 1)]


def test_max_hands_everything_to_the_scheduler(kernel_of: KernelOf) -> None:
    kernel = kernel_of(PARALLEL_THEN_RECURRENCE)

    plan, schedule = kernel.scheduled("max")

    assert plan.groups == (FusionGroup((0, 1), frozenset({"S0", "S1"})),)
    # isl distributes the nests itself rather than lose the parallel loop.
    assert any(parallel_outermost(band, 0, kernel.full) for _, band in _top_bands(schedule))


SNIPPETS = {
    "independent": INDEPENDENT,
    "producer-consumer": PRODUCER_CONSUMER,
    "parallel-then-recurrence": PARALLEL_THEN_RECURRENCE,
    "three-nests": THREE_NESTS,
    "transpose": (
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    b[i][j] = a[i][j];\n"
        "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    c[i][j] = b[j][i];\n"
    ),
    "stencil-pair": (
        "for (i = 1; i < n - 1; i++)\n  b[i] = a[i - 1] + a[i + 1];\nfor (i = 1; i < n - 1; i++)\n  a[i] = b[i];\n"
    ),
    "jacobi-1d": JACOBI_1D,
}


@pytest.mark.parametrize("policy", ["none", "max", "smart"])
@pytest.mark.parametrize("body", SNIPPETS.values(), ids=SNIPPETS.keys())
def test_schedule_region_respects_every_dependence(kernel_of: KernelOf, body: str, policy: str) -> None:
    kernel = kernel_of(body)

    plan, schedule = kernel.scheduled(policy)

    assert schedule_respects(schedule, kernel.full)
    assert schedule.get_domain().is_equal(kernel.model.domain)
    assert len(plan.groups) >= 1


def test_schedule_region_keeps_the_original_order_when_isl_gives_up(scop_of: Callable[[str], Scop]) -> None:
    kernel = build_kernel(scop_of(PRODUCER_CONSUMER), SchedulerOptions(max_operations=1))
    plan = FusionPlan("max", (FusionGroup((0, 1), frozenset({"S0", "S1"})),))

    schedule, (choice,) = schedule_region(kernel.model, kernel.deps, plan, kernel.scheduler)

    assert choice.candidate == "original" and choice.note is not None and "gave up" in choice.note
    assert schedule.get_map().is_equal(kernel.model.schedule.get_map())


# Streaming nests (BTO): each reads A once per element; fused along A's rows they read it once in all.
MVT = (
    "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    x1[i] = x1[i] + A[i][j] * y1[j];\n"
    "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    x2[i] = x2[i] + A[j][i] * y2[j];\n"
)


def test_streaming_nest_is_fused_along_matrix_rows(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(ATAX))
    _, schedule = kernel.scheduled()

    bands = _top_bands(schedule)
    rows = [band for _, band in bands if "S2" in _statements_under(band)]
    assert len(rows) == 1 and _statements_under(rows[0]) == {"S1", "S2", "S3"}
    assert rows[0].band_n_member() == 1 and parallel_outermost(rows[0], 0, kernel.full)
    assert schedule_respects(schedule, kernel.full)


def test_streaming_nests_with_transposed_reads_share_one_row_loop(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(MVT))
    plan, schedule = kernel.scheduled()

    assert _groups(plan) == [(0, 1)]
    ((_, band),) = _top_bands(schedule)
    steps = band.band_get_partial_schedule().get_union_pw_aff(0)
    assert steps.to_str().count("S0[i, j] -> [(i)]") == 1 and "S1[i, j] -> [(j)]" in steps.to_str()
    assert schedule_respects(schedule, kernel.full)


def test_without_relaxed_reductions_rows_are_not_fused(kernel_of: KernelOf) -> None:
    """Fused along i, the y[j] updates of ATAX would make the row loop sequential: isl's schedule stays."""
    kernel = kernel_of(ATAX)

    assert (
        stepping.row_fused(
            kernel.model, FusionGroup((1,), frozenset({"S1", "S2", "S3"})), kernel.full, kernel.scheduler
        )
        is None
    )


def test_compute_bound_nests_are_left_to_isl(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(GEMM))
    group = FusionGroup((0,), kernel.statements)

    assert not stepping.streaming(kernel.model, kernel.statements)
    assert stepping.row_fused(kernel.model, group, kernel.full, kernel.scheduler) is None


# Modified Gram-Schmidt: isl fuses the column loop j with the statements that compute column k
# (at j = k), so j carries a dependence; within one step of k, the column updates are independent.
GRAMSCHMIDT = (
    "for (k = 0; k < n; k++) {\n"
    "  R[k][k] = 0;\n"
    "  for (i = 0; i < m; i++)\n"
    "    R[k][k] += A[i][k] * A[i][k];\n"
    "  for (i = 0; i < m; i++)\n"
    "    Q[i][k] = A[i][k] / R[k][k];\n"
    "  for (j = k + 1; j < n; j++) {\n"
    "    R[k][j] = 0;\n"
    "    for (i = 0; i < m; i++)\n"
    "      R[k][j] += Q[i][k] * A[i][j];\n"
    "    for (i = 0; i < m; i++)\n"
    "      A[i][j] = A[i][j] - Q[i][k] * R[k][j];\n"
    "  }\n"
    "}\n"
)
MACHINE = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")


def _parallel_statements(schedule: isl.Schedule, dependences: isl.UnionMap) -> set[str]:
    return {name for loop in plan_parallel(schedule, dependences).loops for name, _ in loop.expressions}


def test_sequential_band_gives_way_to_parallel_loops_inside_the_outer_loop(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(GRAMSCHMIDT))
    costing = fusion.schedule_costing(kernel.model, kernel.deps, MACHINE, {"n": 1200, "m": 1000})
    group = FusionGroup((0,), kernel.statements)

    choice = fusion.group_schedule(kernel.model, group, kernel.deps, kernel.scheduler, costing)
    schedule = choice.schedule

    assert choice.candidate == "stepwise-cost" and choice.note is not None and "parallel loops inside" in choice.note
    assert schedule_respects(schedule, kernel.full)
    assert not _parallel_statements(kernel.isl_schedule(), kernel.full) & {"S4", "S5"}
    assert _parallel_statements(schedule, kernel.full) >= {"S4", "S5"}
    assert costing(schedule).cycles < costing(kernel.isl_schedule()).cycles
    (outer,) = _top_bands(schedule)
    assert set(member_expressions(outer[1], 0).values()) == {"k"}


def test_without_costing_isl_band_is_kept(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(GRAMSCHMIDT))
    group = FusionGroup((0,), kernel.statements)

    choice = fusion.group_schedule(kernel.model, group, kernel.deps, kernel.scheduler)

    assert choice.candidate == "isl" and choice.note is None
    assert choice.schedule.get_map().is_equal(kernel.isl_schedule().get_map())


def test_cost_spreads_only_the_instances_under_inner_parallel_loops(kernel_of: KernelOf) -> None:
    kernel = relaxed(kernel_of(GRAMSCHMIDT))
    schedule = kernel.model.schedule  # the original order: one sequential outer band

    apart = group_cost(kernel.model, schedule, kernel.full, MACHINE, {"n": 1200, "m": 1000})
    inside = group_cost(kernel.model, schedule, kernel.full, MACHINE, {"n": 1200, "m": 1000}, frozenset({"S5"}))

    (band,) = apart.bands
    assert band.parallel == 0
    assert 0.4 < inside.bands[0].parallel < 0.6
    assert inside.cycles < apart.cycles


def test_stepwise_schedule_must_run_more_in_parallel_not_only_stream_less() -> None:
    fused = GroupCost((BandCost(("S0",), 100, 4000, 0.0), BandCost(("S1",), 10, 800, 0.0)), MACHINE)
    streams_less = GroupCost((BandCost(("S0", "S1"), 110, 4000, 0.0),), MACHINE)
    parallel = GroupCost((BandCost(("S0", "S1"), 110, 4800, 100 / 110),), MACHINE)

    assert streams_less.cycles < fused.cycles
    assert not parallelizes(streams_less, fused)
    assert parallelizes(parallel, fused)


def test_a_band_costs_the_machine_prices_of_its_instances_and_bytes_spread_over_its_cores() -> None:
    band = BandCost(("S0",), 100, 4000, 0.5)
    priced = dataclasses.replace(MACHINE, op_cycles=3.0, byte_cycles=0.25, cores=4)

    assert band.cycles(MACHINE) == (100 * 1.0 + 4000 * 0.5) * (0.5 + 0.5 / 2)
    assert band.cycles(priced) == (100 * 3.0 + 4000 * 0.25) * (0.5 + 0.5 / 4)


@pytest.mark.parametrize(("n", "original"), [(2000, True), (200_000, False)])
def test_a_stencil_whose_data_fit_in_cache_keeps_its_original_order(
    kernel_of: KernelOf, n: int, original: bool
) -> None:
    kernel = kernel_of(JACOBI_1D)
    plan = FusionPlan("none", (FusionGroup((0,), kernel.statements),))
    machine = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")
    residency = fusion.model_residency(kernel.model, machine, {"T": 500, "n": n})

    schedule, (choice,) = schedule_region(kernel.model, kernel.deps, plan, kernel.scheduler, residency=residency)

    assert schedule.get_map().is_equal(kernel.model.schedule.get_map()) is original
    assert (choice.candidate == "resident") is original
    assert (choice.note is not None and "original order kept" in choice.note) is original
    assert schedule_respects(schedule, kernel.full)


@dataclass(frozen=True)
class _Evaluation:
    """A stand-in for the loop stage's answer (``polyopt.passes.loops.LoopEvaluation``)."""

    vectorizes: bool


def _single_outer_member(schedule: isl.Schedule) -> _Evaluation:
    """A stand-in for the pipeline's loop stage: only a schedule whose outer band has one member
    (the time loop, with the sweeps inside it) 'vectorizes'."""
    return _Evaluation(all(band.band_n_member() == 1 for _, band in _top_bands(schedule)))


@pytest.mark.parametrize(
    ("evaluate_loops", "stepwise"), [(_single_outer_member, True), (lambda schedule: _Evaluation(True), False)]
)
def test_a_wavefront_without_vector_loops_gives_way_to_vector_loops_inside_the_time_loop(
    kernel_of: KernelOf, evaluate_loops: EvaluateLoops, stepwise: bool
) -> None:
    kernel = kernel_of(JACOBI_2D)
    group = FusionGroup((0,), kernel.statements)

    choice = fusion.group_schedule(kernel.model, group, kernel.deps, kernel.scheduler, evaluate_loops=evaluate_loops)
    schedule = choice.schedule

    assert schedule_respects(schedule, kernel.full)
    assert (choice.candidate == "stepwise-vector") is stepwise
    assert (choice.note is not None and "instead of a scalar wavefront" in choice.note) is stepwise
    assert _single_outer_member(schedule).vectorizes is stepwise
    if stepwise:
        assert _parallel_statements(schedule, kernel.full) == {"S0", "S1"}


def test_a_deep_stencil_is_time_skewed_in_planes_with_a_parallel_loop_in_each(kernel_of: KernelOf) -> None:
    kernel = kernel_of(HEAT_3D)
    group = FusionGroup((0,), kernel.statements)
    assert fusion.schedule_group(kernel.model, kernel.statements, kernel.deps.reduced, kernel.scheduler)

    choice = fusion.group_schedule(kernel.model, group, kernel.deps, kernel.scheduler)
    schedule = choice.schedule

    assert choice.candidate == "plane-tiled" and choice.note is not None
    assert "time skewed along the outer space loop" in choice.note
    ((path, band),) = _top_bands(schedule)
    assert band.band_n_member() == 2 and band.band_get_permutable()
    assert band.band_member_get_ast_loop_type(1) == isl.ast_loop_type.separate
    tiled = tile_band(band, (4, 4)).get_schedule()
    assert schedule_respects(schedule, kernel.full) and schedule_respects(tiled, kernel.full)
    plan = plan_parallel(tiled, kernel.full, frozenset({anchor_of(node_at(tiled, path))}))
    assert {name for loop in plan.loops for name, _ in loop.expressions} == {"S0", "S1"}
    assert all(len(loop.band.where) > len(path) + 1 and not loop.wavefront for loop in plan.loops)


def test_plane_tiling_needs_a_permutable_band_of_three_members(kernel_of: KernelOf) -> None:
    kernel = kernel_of(JACOBI_1D)
    schedule = fusion.schedule_group(kernel.model, kernel.statements, kernel.deps.reduced, kernel.scheduler)

    assert (
        stepping.plane_tiled_schedule(kernel.model, kernel.statements, schedule, kernel.deps.reduced, kernel.scheduler)
        is None
    )


def test_plane_tiling_refuses_a_band_along_which_a_dependence_runs_backwards(kernel_of: KernelOf) -> None:
    kernel = kernel_of(HEAT_3D)
    schedule = fusion.schedule_group(kernel.model, kernel.statements, kernel.deps.reduced, kernel.scheduler)
    backwards = kernel.deps.reduced.reverse()

    assert stepping.plane_tiled_schedule(
        kernel.model, kernel.statements, schedule, kernel.deps.reduced, kernel.scheduler
    )
    assert stepping.plane_tiled_schedule(kernel.model, kernel.statements, schedule, backwards, kernel.scheduler) is None
