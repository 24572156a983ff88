"""Tests for ``polyopt.pipeline``: the final re-verification of a region's schedule, and the fallback
to the original order when it fails."""

from __future__ import annotations

from collections.abc import Callable, Collection
from dataclasses import replace

import islpy as isl
import pytest

import polyopt.pipeline as pipeline
from polyopt import driver, passes
from polyopt.analysis.dependences import Dependences, compute_dependences
from polyopt.analysis.vector_loops import VectorLoop
from polyopt.command import options_from_arguments
from polyopt.diagnostics import IllegalTransform
from polyopt.driver import FileOutcome, optimize_text
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import generate
from polyopt.frontend.params import ParameterValue
from polyopt.machine import Machine
from polyopt.marks import PARALLEL_MARK, SECTION, LoopMark, ReductionClause
from polyopt.model import PolyModel
from polyopt.options import Options, SchedulerOptions
from polyopt.report import format_report
from polyopt.schedule_tree import (
    BandText,
    anchor_of,
    band_nodes,
    describe_schedule,
    insert_loop_mark,
    node_at,
    nodes_of_type,
    parallel_outermost,
)
from polyopt.transform.fusion import EvaluateLoops, FusionPlan, GroupChoice, ResidencyOf, ScheduleCoster
from polyopt.transform.parallel import ParallelLoop, ParallelPlan, apply_parallel
from polyopt.transform.vector import VectorPlan, apply_vector
from polyopt.verify import printable, verify_schedule
from tests.support import EXAMPLES

ModelOf = Callable[[str], PolyModel]

PREFIX_SUM = "for (i = 1; i < n; i++)\n  a[i] = a[i - 1] + b[i];\n"
COPY = "for (i = 0; i < n; i++)\n  b[i] = a[i];\n"
# Rows depend on the previous row: i carries the dependence, j is parallel.
ROWS = "for (i = 1; i < n; i++)\n  for (j = 0; j < n; j++)\n    a[i][j] = a[i - 1][j] + b[i][j];\n"


def _indented(body: str) -> str:
    """``body`` as ``_file`` writes it in the region."""
    return "".join(f"  {line}\n" for line in body.splitlines())


def _file(body: str) -> str:
    indented = _indented(body)
    return (
        "void kernel(int n, double a[100][100], double b[100][100])\n"
        "{\n"
        "  int i, j;\n"
        "#pragma scop\n"
        f"{indented}"
        "#pragma endscop\n"
        "}\n"
    )


def _reversed(model: PolyModel) -> isl.Schedule:
    """The region's single loop run backwards."""
    partial = isl.UnionPwMultiAff.read_from_str(model.ctx, "[n] -> { S0[i] -> [-i] }")
    return isl.Schedule.from_domain(model.domain).insert_partial_schedule(
        isl.MultiUnionPwAff.from_union_pw_multi_aff(partial)
    )


def _marked(model: PolyModel, kind: str) -> isl.Schedule:
    """The original schedule with its first loop marked parallel (``kind == "parallel"``) or simd."""
    first = anchor_of(node_at(model.schedule, (0,)))
    if kind == "parallel":
        return apply_parallel(model.schedule, ParallelPlan((ParallelLoop(first, 0, False, ()),)))
    return apply_vector(model.schedule, VectorPlan((VectorLoop(first, 0, True, "i", ()),)))


def test_verify_accepts_the_original_schedule(model_of: ModelOf) -> None:
    model = model_of(PREFIX_SUM)

    verify_schedule(model, model.schedule, compute_dependences(model))


def test_verify_rejects_a_schedule_that_violates_a_dependence(model_of: ModelOf) -> None:
    model = model_of(PREFIX_SUM)

    with pytest.raises(IllegalTransform, match="violates a dependence"):
        verify_schedule(model, _reversed(model), compute_dependences(model))


def test_verify_accepts_a_reversed_loop_without_dependences(model_of: ModelOf) -> None:
    model = model_of(COPY)

    verify_schedule(model, _reversed(model), compute_dependences(model))


@pytest.mark.parametrize("kind", ["parallel", "simd"])
def test_verify_rejects_a_marked_loop_that_carries_a_dependence(model_of: ModelOf, kind: str) -> None:
    model = model_of(PREFIX_SUM)
    schedule = _marked(model, kind)

    with pytest.raises(IllegalTransform, match="carries a dependence"):
        verify_schedule(model, schedule, compute_dependences(model))


@pytest.mark.parametrize("kind", ["parallel", "simd"])
def test_verify_accepts_a_marked_loop_that_carries_nothing(model_of: ModelOf, kind: str) -> None:
    model = model_of(COPY)

    verify_schedule(model, _marked(model, kind), compute_dependences(model))


def _mark_a_carrying_loop(
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    tiled: frozenset[BandText] = frozenset(),
    *_: object,
    **__: object,
) -> ParallelPlan:
    """A wrong parallel pass: it marks the first band member that carries a dependence."""
    for _, band in band_nodes(schedule):
        for member in range(band.band_n_member()):
            if not parallel_outermost(band, member, dependences):
                return ParallelPlan((ParallelLoop(anchor_of(band), member, False, ()),))
    raise AssertionError("no loop carries a dependence")


def _region(outcome: FileOutcome) -> tuple[str, tuple[str, ...]]:
    (region,) = outcome.regions
    assert region.code is not None
    return region.code.code, region.warnings


COLUMN_SUMS = "for (i = 0; i < n; i++)\n  for (j = 0; j < 100; j++)\n    y[j] += a[i][j];\n"


def _section_marked(model: PolyModel) -> isl.Schedule:
    """The original schedule with its outer loop marked parallel, reducing a section of ``y``."""
    clause = ReductionClause("+", "y", SECTION)
    return insert_loop_mark(node_at(model.schedule, (0,)), PARALLEL_MARK, (clause,)).get_schedule()


def test_printable_removes_a_parallel_mark_whose_section_never_fits_and_says_why(model_of: ModelOf) -> None:
    model = model_of(COLUMN_SUMS)
    marked = _section_marked(model)

    kept, none = printable(model, marked, 100)
    schedule, notes = printable(model, marked, 10)

    assert (kept.plain_is_equal(marked), none) == (True, ())
    assert notes == ("loop i not parallel: its reduced section of y never has 1 to 10 elements",)
    assert not any(mark.kind == PARALLEL_MARK for mark in _marks(schedule))
    assert "#pragma" not in print_c(generate(schedule, model.scop, "c").code)


def _marks(schedule: isl.Schedule) -> list[LoopMark]:
    return [
        LoopMark.parse(node.mark_get_id().get_name())
        for _, node in nodes_of_type(schedule, isl.schedule_node_type.mark)
    ]


def test_a_parallel_loop_whose_section_never_fits_is_reported_not_parallel() -> None:
    text = _file(COLUMN_SUMS).replace("double b[100][100]", "double y[100]")
    options = Options(as_written=False)
    small = replace(options, machine=replace(options.machine, section_limit=10))

    fits, unfit = (optimize_text(text, "k.c", chosen) for chosen in (options, small))

    assert "#pragma omp parallel for reduction(+:y[0:100])" in fits.text
    assert "parallel for" not in unfit.text and unfit.warnings == ()
    (region,) = unfit.regions
    assert region.report is not None
    assert "loop i not parallel: its reduced section of y never has 1 to 10 elements" in region.report.lines("notes")


def test_optimized_rows_differ_from_the_original_order() -> None:
    text = _file(ROWS)

    optimized, warnings = _region(optimize_text(text, "k.c", Options(as_written=False)))
    original, _ = _region(optimize_text(text, "k.c", Options(identity=True)))

    assert warnings == ()
    assert optimized != original
    assert "omp parallel for" in optimized


# a local declared in a loop (privatization), a scalar that serializes a loop (expansion), a reduction, two
# nests to fuse and a loop carrying a dependence: a region on which every kind of pass plans something
EVERY_KIND = (
    "for (i = 0; i < n; i++) {\n  double t = b[i][0];\n  for (j = 0; j < n; j++)\n    a[i][j] = t * b[i][j];\n}\n"
    "for (i = 0; i < n; i++) {\n  s = b[i][i];\n  b[i][0] = s * s;\n}\n"
    "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    a[0][0] += b[i][j];\n" + ROWS
)


def test_identity_runs_no_pass_and_generates_each_region_in_its_schedule_as_written(
    model_of: ModelOf, monkeypatch: pytest.MonkeyPatch
) -> None:
    def never(*_: object) -> None:
        raise AssertionError("a pass ran with --identity")

    kinds = pipeline.PASSES
    staged = (step for stage in (kinds.rewrites, *kinds.stages, kinds.code) for step in stage.steps)
    for kind in (*kinds.parts, *staged, *kinds.choices):
        for method in ("plan", "choose"):
            if hasattr(kind, method):
                monkeypatch.setattr(type(kind), method, never)
    monkeypatch.setattr(driver, "run_limited", lambda function, seconds: function())
    text = "double s;\n" + _file(EVERY_KIND)

    (region,) = optimize_text(text, "k.c", Options(identity=True)).regions

    assert region.warnings == () and region.code is not None and region.report is not None
    assert region.code.summary == "original order (identity)" and "omp" not in region.code.code
    assert region.report.lines("schedule") == tuple(describe_schedule(model_of(EVERY_KIND, "double s;").schedule))


def test_illegal_parallel_loop_falls_back_to_the_original_order(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _file(ROWS)
    monkeypatch.setattr(passes.parallel, "plan_parallel", _mark_a_carrying_loop)

    outcome = optimize_text(text, "k.c", Options())

    code, warnings = _region(outcome)
    (warning,) = warnings
    assert warning.startswith("k.c:4:") and ": warning: " in warning
    assert "carries a dependence" in warning and "falling back to the original schedule" in warning
    assert code == _indented(ROWS)
    (region,) = outcome.regions
    assert region.report is not None
    assert (region.report.lines("tiles"), region.report.lines("parallel"), region.report.lines("vector")) == (
        (),
        (),
        (),
    )
    assert region.code is not None and region.code.summary == "kept as written (source text)"
    assert code in outcome.text


def test_schedule_violating_a_dependence_falls_back_to_the_original_order(monkeypatch: pytest.MonkeyPatch) -> None:
    text = _file(PREFIX_SUM)

    def backwards(
        model: PolyModel,
        deps: Dependences,
        plan: FusionPlan,
        options: SchedulerOptions,
        costing: ScheduleCoster,
        residency: ResidencyOf,
        evaluate_loops: EvaluateLoops,
        disabled: Collection[str],
        known: object,
    ) -> tuple[isl.Schedule, tuple[GroupChoice, ...]]:
        return _reversed(model), ()

    monkeypatch.setattr(passes.fusion, "schedule_region", backwards)

    code, warnings = _region(optimize_text(text, "k.c", Options(parallel=False, as_written=False)))

    (warning,) = warnings
    assert "violates a dependence" in warning and "falling back" in warning
    assert code == _indented(PREFIX_SUM)


def test_internal_error_in_a_pass_leaves_the_region_unchanged_with_a_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*_: object) -> None:
        raise isl.Error("simulated failure inside a pass")

    monkeypatch.setattr(pipeline, "transform", broken)
    text = _file(ROWS)

    outcome = optimize_text(text, "k.c", Options())

    assert outcome.text == text
    (warning,) = outcome.warnings
    assert warning.startswith("k.c:4:1: warning: region not optimized: internal error (Error: ")
    assert "simulated failure inside a pass" in warning


def test_an_update_not_associative_in_its_types_keeps_its_order_and_the_report_says_why() -> None:
    text = "int s, num[100], den[100];\n" + _file("for (i = 0; i < n; i++)\n  s += (float) num[i] / den[i];\n")

    (region,) = optimize_text(text, "k.c", Options()).regions

    assert region.report is not None and region.code is not None
    assert region.report.lines("reductions") == ()
    (line,) = region.report.lines("non_reductions")
    assert line.startswith("S0: s: not a reduction: integer accumulator with a floating term")
    assert "reduction(" not in region.code.code


# -- the cost models' inputs and decisions in the report -------------------------------

TWO_NESTS = (
    "for (i = 0; i < N; i++)\n  for (j = 0; j < N; j++)\n    a[i][j] = b[i][j] * 2;\n"
    "for (i = 0; i < N; i++)\n  for (j = 0; j < N; j++)\n    b[i][j] = a[i][j] + b[i][j];\n"
)


def test_the_report_names_parameter_values_tile_reasons_and_fusion_costs() -> None:
    text = "#define N 90\n" + _file(TWO_NESTS)

    (region,) = optimize_text(text, "k.c", Options(as_written=False)).regions

    assert region.report is not None
    assert region.report.parameters == (ParameterValue("N", 90, "#define in file"),)
    assert "  parameters: N = 90 (#define in file)\n" in format_report(region.report)
    assert region.report.lines("fusion")[0].startswith("model: ")
    assert any(line.startswith("{nest 1, nest 2}: ") for line in region.report.lines("fusion_candidates"))
    assert all(tile.split("(", 1)[1].startswith("model: reuse") for tile in region.report.lines("tiles"))


def test_a_param_hint_changes_the_tile_sizes() -> None:
    text = _file(ROWS.replace("n", "N"))

    def sizes(hint: int) -> str:
        (region,) = optimize_text(text, "k.c", Options(params=(("N", hint),))).regions
        assert region.report is not None
        return region.report.lines("tiles")[0].split(" (")[0]

    assert sizes(12) != sizes(2000)
    assert sizes(12) == "band at [0]: sizes [12, 11]"  # the loops (j, i) at N = 12: no tile exceeds its loop


def test_a_symm_call_leaves_its_accumulator_unless_it_is_dead() -> None:
    text = (EXAMPLES / "symm.c").read_text()
    tail = "temp2 += B[c2][(_PB_N - 1)] * A[(_PB_M - 1)][c2];"

    name = str(EXAMPLES / "symm.c")
    live, _ = _region(optimize_text(text, name, Options(blas="cblas")))
    dead, _ = _region(optimize_text(text, name, Options(blas="cblas", assume_dead=frozenset({"temp2"}))))

    assert "cblas_dsymm" in live and "cblas_dsymm" in dead
    assert tail in live and tail not in dead


AVX2_512K = Machine(32 * 1024, 512 * 1024, 32 * 1024 * 1024, 64, 2, 32, "test")


@pytest.mark.parametrize(
    ("kernel", "sizes", "inner"),
    [
        ("syr2k", "[16, 1000, 16]", "member 1 whole (vector reduction"),  # the others stay at 16 or more
        ("syrk", "[64, 32, 64]", "member 1 fixed (vector loop)"),  # whole, the others would shrink to 4
    ],
)
def test_a_vector_reduction_runs_whole_only_when_the_other_tiles_stay_long(kernel: str, sizes: str, inner: str) -> None:
    path = EXAMPLES / f"{kernel}.c"  # its #defines give the LARGE sizes
    options = Options(blas="none", microkernel=False, machine=AVX2_512K)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    (product,) = [tile for tile in region.report.lines("tiles") if "C:" in tile]  # the band of C[i][j] += ...
    assert f"sizes {sizes}" in product and inner in product


@pytest.mark.parametrize(
    ("kernel", "array", "sizes", "capped"),
    [
        ("covariance", "data:", "[32, 32, 88]", "member(s) [0] capped"),  # i <= j: i's 40 capped at j's 32
        ("ludcmp", "A:", "[32, 48, 32]", "member(s) [0] capped"),  # the triangle couples i to the vector j
        ("gemm", "C:", "[40, 88, 32]", "member 2 fixed (vector loop), root"),  # a box: nothing to cap
    ],
)
def test_a_member_coupled_to_the_vector_member_takes_no_longer_tile(
    kernel: str, array: str, sizes: str, capped: str
) -> None:
    path = EXAMPLES / f"{kernel}.c"
    options = Options(blas="none", microkernel=False, machine=AVX2_512K)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    (band,) = [tile for tile in region.report.lines("tiles") if array in tile and "τ2" in tile]  # the 3-member band
    assert f"sizes {sizes}" in band and capped in band


def test_a_deep_stencil_is_tiled_in_planes_against_l3_and_each_plane_streams_untiled() -> None:
    path = EXAMPLES / "heat-3d.c"  # LARGE: 120^3; a tile of (t, 2t + i) runs whole planes of 118 x 118
    options = Options(blas="none", microkernel=False, machine=AVX2_512K)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    (tiled,) = [band for band in region.report.lines("tiles") if "sizes [" in band]
    assert tiled.startswith("band at [0]: sizes [16, 24]") and "= L3 32768 KiB" in tiled
    (untiled,) = [band for band in region.report.lines("tiles") if "left untiled" in band]
    assert untiled.startswith("band at [0, 0]: left untiled") and "13 KiB of lines <= L2/8 64 KiB" in untiled


AVX512_1M = Machine(32 * 1024, 1024 * 1024, 32 * 1024 * 1024, 64, 2, 64, "test")


@pytest.mark.parametrize(
    ("kernel", "sizes", "inner"),
    [
        ("seidel-2d", "[32, 32, 32]", "member 2 fixed (scalar loop"),  # j carries the in-place sweep's dependence
        ("fdtd-2d", "[24, 32, 64]", "member 2 fixed (vector loop)"),  # its statements' loops vectorize once split
    ],
)
def test_an_inner_member_that_never_vectorizes_is_held_short(kernel: str, sizes: str, inner: str) -> None:
    path = EXAMPLES / f"{kernel}.c"  # LARGE
    options = Options(blas="none", microkernel=False, machine=AVX512_1M)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    (band,) = [tile for tile in region.report.lines("tiles") if "sizes [" in tile]
    assert f"sizes {sizes}" in band and inner in band


def test_sweeps_that_walk_columns_or_carry_a_recurrence_beyond_l1_are_tiled() -> None:
    path = EXAMPLES / "adi.c"  # LARGE: a column of the 1000 x 1000 arrays touches 78 KiB of lines
    options = Options(blas="none", microkernel=False, machine=AVX512_1M)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    tiled = [tile for tile in region.report.lines("tiles") if "sizes [" in tile]
    untiled = [tile for tile in region.report.lines("tiles") if "left untiled" in tile]
    assert len(tiled) == 3 and all(", 32] (model" in tile and "(scalar loop" in tile for tile in tiled)
    assert len(untiled) == 1 and "23 KiB of lines <= L1" in untiled[0]  # the last sweep's rows fit L1


def test_floyd_warshalls_rows_run_as_vector_loops_untiled() -> None:
    """Split on row ``k``, then each row on column ``k`` (``path[i][k]``, read by the whole row, is
    written only there): both sides of the column are vector loops, and a row's reuse (rows i and k,
    43 KiB at LARGE) stays in the L2 untiled."""
    path = EXAMPLES / "floyd-warshall.c"
    options = Options(blas="none", microkernel=False, machine=AVX512_1M)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    assert not any("sizes [" in band for band in region.report.lines("tiles"))
    assert sum("(innermost loop)" in note for note in region.report.lines("notes")) == 3
    assert len(region.report.lines("vector")) >= 4


def test_a_parallel_vector_member_with_too_few_tiles_for_the_cores_is_evened_out() -> None:
    path = EXAMPLES / "doitgen.c"  # LARGE: p runs over 160; 3 tiles of 64 would leave one core 128 of them
    options = Options(blas="none", microkernel=False, machine=AVX512_1M)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    (band,) = [tile for tile in region.report.lines("tiles") if "sizes [" in tile]
    assert "sizes [40, 160]" in band
    assert "evened out over the cores (64 -> 40: the busiest core runs 80 of 160 iterations, not 128)" in band


@pytest.mark.parametrize("kernel", ["jacobi-2d", "fdtd-2d"])
def test_a_stencil_wavefront_keeps_its_tiles_with_one_vector_loop_per_sweep(kernel: str) -> None:
    path = EXAMPLES / f"{kernel}.c"  # the rows of each tile are distributed by sweep, and every loop vectorizes
    options = Options(blas="none", microkernel=False, machine=AVX2_512K)

    (region,) = optimize_text(path.read_text(), str(path), options).regions

    assert region.report is not None
    assert not any("instead of a scalar wavefront" in note for note in region.report.lines("notes"))
    assert any("wavefront" in loop for loop in region.report.lines("parallel"))
    assert any("split into loops over" in line for line in region.report.lines("vector"))


# Two sweeps and a statement on G[t][0] beside them (a fuzz program of the sweeps family): the loop stage
# finds a scalar innermost loop in the wavefront's tiles, and none in the sweeps of each time step.
SWEEPS_BESIDE_A_BOUNDARY = """#define N 12
double G[N + 4][N + 4], H[N + 4][N + 4], I[N + 4];
void kernel(void)
{
  int i, j, k;
#pragma scop
  for (i = 0; i < 4; i++) {
    for (j = 2; j < N - 2; j++)
      for (k = 1; k < N - 1; k++)
        H[j][k] = 0.2 * (G[j][k] + G[j - 1][k] + G[j + 1][k] + G[j][k - 1]);
    for (j = 1; j < N - 1; j++)
      for (k = 1; k < N - 1; k++)
        G[j][k] = 0.2 * (H[j][k] + H[j][k - 1]);
    G[i][0] = I[2];
  }
#pragma endscop
}
"""


def test_a_wavefront_whose_loops_stay_scalar_gives_way_to_vector_sweeps() -> None:
    options = options_from_arguments(["--blas=none", "--parallel-work=1", "--fixed-tile-size=4"])

    (region,) = optimize_text(SWEEPS_BESIDE_A_BOUNDARY, "sweeps.c", options).regions

    assert region.report is not None
    assert any("instead of a scalar wavefront" in note for note in region.report.lines("notes"))
    assert not any("wavefront" in loop for loop in region.report.lines("parallel"))


def test_floyd_warshall_runs_the_rows_off_row_k_in_parallel_after_a_split() -> None:
    source = EXAMPLES / "floyd-warshall.c"
    (region,) = optimize_text(source.read_text(), str(source), Options()).regions

    assert region.report is not None and region.warnings == ()
    split = "S0 split on i == k into S0_lt (<), S0_eq (==), S0_gt (>)"
    assert any(note.startswith(split) for note in region.report.lines("notes"))
    assert len([line for line in region.report.lines("parallel") if line.startswith("loop i ")]) == 2
    rows = [line for line in region.report.lines("vector") if line.startswith("innermost j")]
    assert len(rows) == 6 and all("(omp simd)" in line for line in rows)  # both sides of column k, per piece
