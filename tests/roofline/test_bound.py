"""Tests for ``polyopt.roofline.bound``: the flops and compulsory bytes of small regions, counted by hand, and
the choice between the compute and the memory bound."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from polyopt.bench.suite import EXAMPLES
from polyopt.measure.limits import Limits
from polyopt.model import PolyModel
from polyopt.roofline.bound import COMPUTE, DIVISION, MEMORY, Work, bound, file_work, region_work
from polyopt.target_keys import LIMIT_FIELDS

ModelOf = Callable[..., PolyModel]
MATRICES = "double A[4][4], B[4][4], C[4][4];\n"
MATMUL = """for (int i = 0; i < n; i++)
  for (int j = 0; j < n; j++)
    for (int k = 0; k < n; k++)
      C[i][j] += A[i][k] * B[k][j];
"""


def test_a_matrix_product_does_two_flops_per_instance_and_moves_each_matrix_once(model_of: ModelOf) -> None:
    work = region_work(model_of(MATMUL, f"int n;\n{MATRICES}"), {"n": 4})

    assert work == Work(flops=2 * 4**3, bytes=3 * 4**2 * 8 + 4**2 * 8)  # A, B, C read; C written back


def test_a_copy_does_no_flops_and_reads_one_array_and_writes_the_other(model_of: ModelOf) -> None:
    work = region_work(
        model_of("for (int i = 0; i < n; i++)\n  b[i] = a[i];\n", "int n;\ndouble a[9], b[9];\n"), {"n": 9}
    )

    assert work == Work(flops=0, bytes=9 * 8 + 9 * 8)


def test_an_in_place_update_reads_and_writes_its_elements_once_and_floats_take_four_bytes(model_of: ModelOf) -> None:
    body = "for (int t = 0; t < 5; t++)\n  for (int i = 1; i < n; i++)\n    x[i] = x[i] * s - x[i - 1] / 2.0f;\n"
    work = region_work(model_of(body, "int n;\nfloat x[10], s;\n"), {"n": 10})

    # x[0..9] read, x[1..9] written; s in a register; every operation on float values
    assert work == Work(flops=5 * 9 * 3, bytes=10 * 4 + 9 * 4, single=5 * 9 * 3)


def test_integer_arithmetic_counts_as_integer_operations_and_subscripts_count_nothing(model_of: ModelOf) -> None:
    body = "for (int i = 0; i < n; i++)\n  h[i] = 2 * k[i + 1] + m;\n"
    work = region_work(model_of(body, "int n, m;\nint h[8], k[9];\n"), {"n": 8})

    assert work.flops == 0 and work.intops == 8 * 2 and work.bytes == 8 * 4 + 8 * 4  # an int is 4 bytes


def test_a_selection_is_one_operation_and_a_repeated_subexpression_counts_once(model_of: ModelOf) -> None:
    body = """for (int i = 0; i < n; i++)
  for (int j = i + 1; j < n; j++)
    for (int k = i; k < j; k++)
      t[i][j] = t[i][j] >= t[i][k] + t[k + 1][j] ? t[i][j] : t[i][k] + t[k + 1][j];
"""
    work = region_work(model_of(body, "int n;\nint t[6][6];\n"), {"n": 6})

    assert (work.flops, work.intops) == (0, 2 * 35)  # the add and the selection, over the 35 (i, j, k)


def test_an_example_file_is_read_at_the_dataset_size() -> None:
    work = file_work(EXAMPLES / "gemm.c", [f"-I{EXAMPLES}", "-DMINI_DATASET"])  # NI 7, NJ 9, NK 5

    assert work.flops == 7 * 9 + 3 * 7 * 9 * 5  # C *= beta; C += alpha * A * B
    assert work.bytes == 8 * (7 * 9 + 7 * 5 + 5 * 9 + 7 * 9)


def _limits(peak: float, bandwidth: float) -> Limits:
    """Limits whose all-core values are ``peak`` and ``bandwidth`` and one core's a quarter of them."""
    values = {field: (peak if "peak" in field else bandwidth) for field in LIMIT_FIELDS}  # int, divisions too
    return Limits(**{field: value / 4 if field.endswith("_core") else value for field, value in values.items()})


@pytest.mark.parametrize(
    ("work", "threads", "seconds", "applies"),
    [
        (Work(flops=10**9, bytes=10**8), 2, 0.1, COMPUTE),  # 1e9 / 10 GFLOP/s against 1e8 / 10 GB/s
        (Work(flops=10**8, bytes=10**9), 2, 0.1, MEMORY),
        (Work(flops=10**9, bytes=10**8), 1, 0.4, COMPUTE),  # one core: a quarter of the limits
        (Work(flops=0, bytes=10**9), 1, 0.4, MEMORY),
        (Work(flops=10**9, bytes=10**8, intops=2 * 10**9), 2, 0.3, COMPUTE),  # flops and integer operations add up
        (Work(flops=10**9, bytes=10**8, divisions=3 * 10**9), 2, 0.3, DIVISION),  # 3e9 / 10 G divisions/s
        (Work(flops=10**9, bytes=10**8, divisions=5 * 10**8), 2, 0.1, COMPUTE),  # the divider is not the limit
        (Work(flops=10**9, bytes=10**9, divisions=2 * 10**9), 1, 0.8, DIVISION),
    ],
)
def test_the_bound_is_the_largest_of_compute_division_and_memory_time(
    work: Work, threads: int, seconds: float, applies: str
) -> None:
    limit = bound(work, _limits(peak=10.0, bandwidth=10.0), threads)

    assert limit.seconds == pytest.approx(seconds) and limit.applies == applies


def test_intensity_is_flops_per_byte() -> None:
    assert Work(flops=30, bytes=12).intensity == 2.5


def test_a_call_counts_the_operations_of_its_arguments_only(model_of: ModelOf) -> None:
    body = "for (int i = 0; i < n; i++)\n  y[i] = sqrt(x[i] * 2.0) + 1.0;\n"
    work = region_work(model_of(body, "int n;\ndouble x[8], y[8];\n"), {"n": 8})

    assert (work.flops, work.intops) == (8 * 2, 0)  # the product and the sum; the square root is not counted


def test_a_double_division_also_counts_among_the_divisions_and_a_float_one_does_not(model_of: ModelOf) -> None:
    body = """for (int i = 1; i < n; i++) {
  x[i] = (x[i - 1] + y[i]) / 3.0;
  y[i] /= x[i];
  f[i] = f[i] / g;
  k[i] = k[i] / 2;
}
"""
    work = region_work(model_of(body, "int n;\ndouble x[8], y[8];\nfloat f[8], g;\nint k[8];\n"), {"n": 8})

    assert work.divisions == 7 * 2  # the two double divisions; not the float one, not the integer one
    assert (work.flops, work.intops) == (7 * 4, 7)


def test_a_kernel_with_a_division_per_point_is_division_bound_at_a_measured_division_peak() -> None:
    work = file_work(EXAMPLES / "seidel-2d.c", [f"-I{EXAMPLES}", "-DMINI_DATASET"])  # TSTEPS 2, N 7
    limits = _limits(peak=100.0, bandwidth=1e6)
    slow_divider = Limits(**{**limits.settings(), "peak_gdivs_double": 2.0})

    assert work.divisions == 2 * 5 * 5
    assert bound(work, limits, 2).applies == COMPUTE and bound(work, slow_divider, 2).applies == DIVISION
    assert bound(work, slow_divider, 2).seconds == pytest.approx(work.divisions / 2e9)


def test_a_type_macro_is_resolved_with_the_files_flags(tmp_path: Path) -> None:
    flags = [f"-I{EXAMPLES}", "-DMINI_DATASET"]
    as_float = file_work(EXAMPLES / "deriche.c", flags)  # its DATA_TYPE is float
    double = tmp_path / "deriche.c"
    double.write_text((EXAMPLES / "deriche.c").read_text().replace("#define DATA_TYPE_IS_FLOAT\n", ""))
    as_double = file_work(double, flags)

    assert as_double.bytes == 2 * as_float.bytes and as_double.single == 0
    # every flop but a few of the coefficients, computed once from calls (exp, pow), is on float values
    assert as_float.flops == as_double.flops and 0 < as_float.flops - as_float.single < 20
    nussinov = file_work(EXAMPLES / "nussinov.c", flags)  # its DATA_TYPE is int
    assert nussinov.intops > 3 * nussinov.flops  # its table's maxima and sums; the flops: its bases' sums


def test_flops_on_float_values_count_at_the_float_peak() -> None:
    limits = Limits(**{**_limits(peak=10.0, bandwidth=1e6).settings(), "peak_gflops_float": 20.0})

    limit = bound(Work(flops=3 * 10**9, bytes=0, single=2 * 10**9), limits, 2)

    assert limit.seconds == pytest.approx(0.1 + 0.1) and limit.applies == COMPUTE
