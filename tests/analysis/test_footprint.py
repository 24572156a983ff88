"""Reuse counts and tile footprints from access relations (PolyMage dense-matrix thesis, Sec. 4.3, Table 4.3).

Each footprint is checked against isl's exact count of the elements a tile
touches, for several tile shapes.
"""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.footprint import TileFootprint, band_footprint, dependence_reuse
from polyopt.analysis.iteration_lines import iteration_bytes
from polyopt.frontend.scop import Scop
from polyopt.isl_util import at_parameters
from polyopt.schedule_tree import band_nodes, member_expressions
from tests.transform.kernels import GEMM
from tests.transform.support import Kernel, build_kernel

MATMUL = (
    "for (i = 0; i < ni; i++)\n"
    "  for (j = 0; j < nj; j++)\n"
    "    for (k = 0; k < nk; k++)\n"
    "      C[i][j] = C[i][j] + A[i][k] * B[k][j];\n"
)
TWO_LOOPS = "for (i = 1; i < n - 1; i++)\n  for (j = 1; j < m - 1; j++)\n    {}\n"
PARAMETERS = {"ni": 2000, "nj": 2300, "nk": 2600, "n": 100, "m": 50}


def _kernel(scop_of: Callable[[str], Scop], body: str) -> Kernel:
    return build_kernel(scop_of(body))


def _loop_band(kernel: Kernel) -> isl.ScheduleNode:
    """The statement's loops, outermost first, as one band."""
    (domain,) = kernel.model.domains.values()
    identity = isl.UnionMap.from_map(isl.Map.identity(domain.get_space().map_from_set()))
    partial = isl.MultiUnionPwAff.from_union_map(identity)
    schedule = isl.Schedule.from_domain(isl.UnionSet.from_set(domain)).insert_partial_schedule(partial)
    return schedule.get_root().child(0)


def _footprint(kernel: Kernel, line: int = 8) -> tuple[isl.ScheduleNode, TileFootprint]:
    """The footprint of the kernel's loop band, with lines of ``line`` bytes (8: one double, so elements count)."""
    band = _loop_band(kernel)
    footprint = band_footprint(kernel.model, band, PARAMETERS, line)
    assert footprint is not None
    return band, footprint


def _exact(kernel: Kernel, statement: str, iterators: list[str], sizes: list[int]) -> int:
    """Elements touched by the instances of a tile at (5, 7, ...), counted by isl."""
    bounds = " and ".join(
        f"{5 + 2 * d} <= {it} < {5 + 2 * d + size}" for d, (it, size) in enumerate(zip(iterators, sizes, strict=True))
    )
    tile = isl.Set(f"{{ {statement}[{', '.join(iterators)}] : {bounds} }}", context=kernel.model.ctx)
    touched = 0
    arrays: dict[str, isl.Set] = {}
    for ref in kernel.model.references:
        if ref.statement != statement or ref.relation.dim(isl.dim_type.out) == 0:
            continue
        image = ref.relation.intersect_domain(tile.align_params(ref.relation.get_space().domain())).range()
        image = at_parameters(image, PARAMETERS)
        image = image.project_out(isl.dim_type.param, 0, image.dim(isl.dim_type.param))
        arrays[ref.array] = arrays[ref.array].union(image) if ref.array in arrays else image
    for elements in arrays.values():
        touched += elements.count_val().to_python()
    return touched


def test_matmul_reuse_is_the_seed_example(scop_of: Callable[[str], Scop]) -> None:
    _, footprint = _footprint(_kernel(scop_of, MATMUL))

    assert footprint is not None and footprint.reuse() == (1, 1, 2)  # B along i, A along j, C read and write along k
    assert footprint.describe() == "8·(C:τ1·τ0 + A:τ2·τ0 + B:τ2·τ1) bytes"


@pytest.mark.parametrize(
    ("body", "iterators"),
    [
        (MATMUL, ["i", "j", "k"]),
        (TWO_LOOPS.format("y[i] = y[i] + x[i - j + m] * w[j];"), ["i", "j"]),
        (TWO_LOOPS.format("y[i + j] = y[i + j] + 2 * x[2 * i];"), ["i", "j"]),
        (
            TWO_LOOPS.format("B[i][j] = A[i - 1][j] + A[i][j] + A[i + 1][j];"),
            ["i", "j"],
        ),
        (TWO_LOOPS.format("D[i] = D[i] + A[i][i] * B[j][i];"), ["i", "j"]),
    ],
    ids=["matmul", "a[i-j]", "a[i+j] and a[2i]", "stencil group", "diagonal"],
)
def test_footprint_counts_the_elements_a_tile_touches(
    scop_of: Callable[[str], Scop], body: str, iterators: list[str]
) -> None:
    kernel = _kernel(scop_of, body)
    _, footprint = _footprint(kernel)

    for sizes in ([1] * len(iterators), [3, 5, 7][: len(iterators)], [8, 2, 4][: len(iterators)]):
        assert footprint.bytes(sizes) == 8 * _exact(kernel, "S0", iterators, sizes)


def test_a_minus_j_is_a_sum_of_tile_sizes(scop_of: Callable[[str], Scop]) -> None:
    body = TWO_LOOPS.format("y[i] = y[i] + x[i - j + m] * w[j];")
    _, footprint = _footprint(_kernel(scop_of, body))

    assert footprint.describe() == "8·(y:τ0 + x:(τ0+τ1-1) + w:τ1) bytes"
    assert footprint.reuse() == (1, 2)  # w along i; the read and write of y along j


def test_group_temporal_reuse_of_a_stencil(scop_of: Callable[[str], Scop]) -> None:
    body = TWO_LOOPS.format("B[i][j] = A[i - 1][j] + A[i][j + 1] + A[i + 1][j];")
    _, footprint = _footprint(_kernel(scop_of, body))

    # A[i-1][j] and A[i+1][j] meet along i; A[i][j+1] meets neither along i nor j.
    assert footprint.reuse() == (1, 0)


def test_loops_below_the_band_count_in_full(scop_of: Callable[[str], Scop]) -> None:
    body = TWO_LOOPS.format("y[i] = y[i] + A[i][j];")
    kernel = _kernel(scop_of, body)
    (_, band), *_ = band_nodes(kernel.isl_schedule())
    footprint = band_footprint(kernel.model, band.band_split(1), PARAMETERS, 8)

    assert footprint is not None and footprint.members == 1
    assert footprint.fixed == (48,)  # 1 <= j < m - 1 at m = 50
    assert footprint.bytes([4]) == 8 * (4 + 4 * 48)


def test_a_statement_that_does_not_run_along_a_member_has_no_reuse_there(scop_of: Callable[[str], Scop]) -> None:
    kernel = _kernel(scop_of, GEMM)
    (_, band), *_ = band_nodes(kernel.isl_schedule())  # C[i][j] *= beta shares the band (i, j, k)
    footprint = band_footprint(kernel.model, band, PARAMETERS, 8)

    assert footprint is not None and footprint.reuse() == (1, 1, 2)


def test_flow_dependences_add_reuse_along_time_in_a_skewed_stencil(scop_of: Callable[[str], Scop]) -> None:
    body = (
        "for (t = 0; t < T; t++) {\n"
        + TWO_LOOPS.format("B[i][j] = A[i][j - 1] + A[i][j] + A[i][j + 1];")
        + TWO_LOOPS.format("A[i][j] = B[i][j];")
        + "}\n"
    )
    kernel = _kernel(scop_of, body)
    (_, band), *_ = band_nodes(kernel.isl_schedule())
    footprint = band_footprint(kernel.model, band, PARAMETERS, 8)

    carried = dependence_reuse(band, kernel.deps.union(("flow",)))

    (time,) = [m for m in range(band.band_n_member()) if set(member_expressions(band, m).values()) == {"t"}]
    space = [m for m in range(band.band_n_member()) if m != time]
    assert footprint is not None
    assert carried[time] > 0  # A written at t is read at t + 1: reuse along time that isl skewed j for
    assert all(carried[m] == 0 for m in space if "t" not in "".join(member_expressions(band, m).values()))


LINE = 64  # bytes: 8 doubles


def test_one_iteration_of_matmul_touches_rows_of_c_and_a_and_all_of_b(scop_of: Callable[[str], Scop]) -> None:
    kernel = _kernel(scop_of, MATMUL)

    touched = iteration_bytes(kernel.model, _loop_band(kernel), 0, PARAMETERS, LINE)

    # i fixed: C[i][0..2299] and A[i][0..2599] are rows of 288 and 325 lines, B is 2600 rows of 288 lines.
    assert touched == LINE * (288 + 325 + 2600 * 288)


def test_a_column_walk_takes_a_line_per_element(scop_of: Callable[[str], Scop]) -> None:
    kernel = _kernel(scop_of, TWO_LOOPS.format("B[j][i] = A[i][j];"))

    touched = iteration_bytes(kernel.model, _loop_band(kernel), 0, PARAMETERS, LINE)

    assert touched == LINE * (-(-48 // 8) + 48)  # A's row: 6 lines; B's column: 48 lines


def test_an_iteration_counts_within_one_iteration_of_the_loops_around_the_band(
    scop_of: Callable[[str], Scop],
) -> None:
    body = (
        "for (k = 0; k < n; k++)\n  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n"
        "      P[i][j] = P[i][j] + P[i][k] * P[k][j];\n"
    )
    kernel = _kernel(scop_of, body)
    (domain,) = kernel.model.domains.values()
    schedule = isl.Schedule.from_domain(isl.UnionSet.from_set(domain))
    for loops in ("[i, j]", "[k]"):  # the band (i, j) inside the loop k
        partial = isl.UnionMap(f"[n] -> {{ S0[k, i, j] -> {loops} }}", context=kernel.model.ctx)
        schedule = schedule.insert_partial_schedule(isl.MultiUnionPwAff.from_union_map(partial))
    band = schedule.get_root().child(0).child(0)

    touched = iteration_bytes(kernel.model, band, 0, PARAMETERS, LINE)

    # k = 49, i = 99: rows P[99][*] and P[49][*] (13 lines each) and P[99][49], not the 51 rows between them.
    assert touched == LINE * (13 + 13 + 1)


def test_a_triangle_counts_its_longest_iteration(scop_of: Callable[[str], Scop]) -> None:
    body = "for (i = 0; i < n; i++)\n  for (j = 0; j < i; j++)\n    x[i] = x[i] - L[i][j] * x[j];\n"
    kernel = _kernel(scop_of, body)

    touched = iteration_bytes(kernel.model, _loop_band(kernel), 0, PARAMETERS, LINE)

    assert touched == LINE * (13 + 13)  # i = 99: L[99][0..98] and x[0..99], 13 lines each


def test_a_row_shorter_than_a_line_counts_a_whole_line(scop_of: Callable[[str], Scop]) -> None:
    """Two columns of a matrix product's rows touch a line of each row, not two doubles."""
    kernel = _kernel(scop_of, MATMUL)
    _, by_elements = _footprint(kernel)
    _, by_lines = _footprint(kernel, line=64)
    assert by_lines.bytes([4, 2, 4]) > by_elements.bytes([4, 2, 4])
    assert by_lines.bytes([8, 8, 8]) == by_elements.bytes([8, 8, 8])
