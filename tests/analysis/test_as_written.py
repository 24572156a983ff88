"""Tests for ``polyopt.analysis.as_written``: the score of a schedule as gcc compiles it, and the choice
between the order as written and the transformed schedule."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.as_written import (
    AS_WRITTEN_MARGIN,
    ScheduleScore,
    StatementCost,
    choose_as_written,
    score_schedule,
)
from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.strides import BACKWARD, FORWARD, SCATTERED, TEMPORAL
from polyopt.analysis.written_reuse import keeps_reuse
from polyopt.machine import Machine
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]
MACHINE = Machine(l1=32 << 10, l2=1 << 20, l3=32 << 20, line=64, cores=2, simd_bytes=64, origin="test")
LANES = 8


def _dependences(model: PolyModel) -> isl.UnionMap:
    return compute_dependences(model).full


def _score(speed: float) -> ScheduleScore:
    """A schedule of one statement that runs ``speed`` times as fast as ``_score(1.0)``."""
    return ScheduleScore((StatementCost("S0", 1000, False, (), speed),), LANES)


def test_a_backward_walk_costs_more_than_a_forward_one() -> None:
    forward = StatementCost("S0", 100, True, (FORWARD, FORWARD, TEMPORAL), 1.0)
    backward = StatementCost("S0", 100, True, (BACKWARD, BACKWARD, TEMPORAL), 1.0)
    assert forward.per_instance(LANES) == pytest.approx(3 / LANES)
    assert backward.per_instance(LANES) == pytest.approx(5 / LANES)


def test_a_scalar_loop_costs_more_than_a_simd_loop_and_a_scattered_access_most() -> None:
    simd = StatementCost("S0", 100, True, (FORWARD,), 1.0)
    scalar = StatementCost("S0", 100, False, (FORWARD,), 1.0)
    scattered = StatementCost("S0", 100, False, (SCATTERED,), 1.0)
    assert simd.per_instance(LANES) < scalar.per_instance(LANES) < scattered.per_instance(LANES)


def test_threads_divide_the_cycles() -> None:
    one = StatementCost("S0", 100, True, (FORWARD,), 1.0)
    two = StatementCost("S0", 100, True, (FORWARD,), 2.0)
    assert two.cycles(LANES) == pytest.approx(one.cycles(LANES) / 2)


def test_the_order_as_written_is_kept_unless_the_transformed_schedule_wins_by_the_margin() -> None:
    written = _score(1.0)
    assert choose_as_written(written, _score(1.0), None).kept
    assert choose_as_written(written, _score(AS_WRITTEN_MARGIN * 0.99), None).kept
    assert not choose_as_written(written, _score(AS_WRITTEN_MARGIN * 1.01), None).kept


def test_the_transformed_schedule_is_kept_where_the_order_as_written_loses_reuse() -> None:
    choice = choose_as_written(_score(1.0), _score(2.0), "one iteration touches too much")
    assert not choice.kept
    assert "loses reuse" in choice.reason


DIAGONAL = "for (i = 1; i < 256; i++)\n  for (j = 1; j < 256; j++)\n    a[i][j] = a[i - 1][j - 1] + b[i][j];\n"


def test_score_of_the_order_as_written_and_of_a_skewed_order(model_of: ModelOf) -> None:
    model = model_of(DIAGONAL, "float a[256][256], b[256][256];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    (statement,) = written.statements
    assert statement.strides.count(FORWARD) == 3 and statement.simd  # j carries no dependence: gcc vectorizes it
    skewed = isl.Schedule.from_domain(isl.UnionSet.from_set(model.domains["S0"])).insert_partial_schedule(
        isl.MultiUnionPwAff("[{ S0[i, j] -> [(i - j)] }, { S0[i, j] -> [(i)] }]")
    )
    (walked,) = score_schedule(model, skewed, _dependences(model), MACHINE, {}).statements
    assert walked.strides.count(FORWARD) == 0
    assert walked.per_instance(LANES) > statement.per_instance(LANES)


def test_an_outer_iteration_that_fits_in_cache_keeps_its_reuse(model_of: ModelOf) -> None:
    model = model_of(DIAGONAL, "float a[256][256], b[256][256];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    assert keeps_reuse(model, written, MACHINE, {}) is None


def test_a_matrix_product_loses_reuse_in_the_order_as_written(model_of: ModelOf) -> None:
    body = (
        "for (i = 0; i < 2000; i++)\n  for (j = 0; j < 2000; j++)\n    for (k = 0; k < 2000; k++)\n"
        "      c[i][j] += a[i][k] * b[k][j];\n"
    )
    model = model_of(body, "double a[2000][2000], b[2000][2000], c[2000][2000];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    assert keeps_reuse(model, written, MACHINE, {}) is not None


def test_outer_iterations_that_share_no_line_lose_no_reuse(model_of: ModelOf) -> None:
    """Blocks of a long buffer, one after the other (zlib's adler32): each block is more than L1 and L2 hold,
    but no block touches a line of another, so the order as written has no reuse to lose."""
    body = "for (b = 0; b < 20; b++)\n  for (k = b * 131072; k < (b + 1) * 131072; k++)\n    s[b] += buf[k];\n"
    model = model_of(body, "double s[20], buf[2621440];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    assert keeps_reuse(model, written, MACHINE, {}) is None


def test_outer_iterations_that_reread_a_large_block_lose_its_reuse(model_of: ModelOf) -> None:
    body = "for (b = 0; b < 20; b++)\n  for (k = 0; k < 131072; k++)\n    s[b] += buf[k] * b;\n"
    model = model_of(body, "double s[20], buf[131072];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    assert keeps_reuse(model, written, MACHINE, {}) is not None


def test_a_short_inner_loop_is_unrolled_and_the_loop_around_it_vectorizes(model_of: ModelOf) -> None:
    body = (
        "for (i = 0; i < 4000; i++) {\n  out[i] = 0;\n  for (k = 0; k < 16; k++)\n    out[i] += x[i + k] * w[k];\n}\n"
    )
    model = model_of(body, "float out[4000], x[4016], w[16];\n")
    costs = {
        cost.statement: cost
        for cost in score_schedule(model, model.schedule, _dependences(model), MACHINE, {}).statements
    }
    update = costs["S1"]
    assert update.simd and update.trip == 4000
    assert update.strides.count(FORWARD) == 3  # out[i] read and written, x[i + k]; w[k] stays in a register


UNROLLED = """for (i = 0; i < 32000; i += 4) {
  a[i] += 2 * b[ip[i]];
  a[i + 1] += 2 * b[ip[i + 1]];
  a[i + 2] += 2 * b[ip[i + 2]];
  a[i + 3] += 2 * b[ip[i + 3]];
}
"""


def test_statements_of_one_iteration_share_their_lines_and_distributed_ones_do_not(model_of: ModelOf) -> None:
    """A body unrolled by hand touches each line of ``a`` and ``ip`` once per iteration: only its first statement
    pays for them.  Distributed into one loop per statement, each loop loads every line again."""
    model = model_of(UNROLLED, "float a[32000], b[32000]; int ip[32000];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    first, *others = written.statements
    assert first.strides.count(SCATTERED) == 4 and first.strides.count(TEMPORAL) == 0
    assert all(cost.strides.count(SCATTERED) == 1 and cost.strides.count(TEMPORAL) == 3 for cost in others)
    domains = [isl.UnionSet.from_set(model.domains[name]) for name in ("S0", "S1", "S2", "S3")]
    alone = isl.Schedule.from_domain(domains[0].union(domains[1]).union(domains[2]).union(domains[3]))
    filters = isl.UnionSetList.alloc(model.ctx, 4)
    for domain in domains:
        filters = filters.add(domain)
    loop = isl.MultiUnionPwAff("[{ S0[i] -> [(i)]; S1[i] -> [(i)]; S2[i] -> [(i)]; S3[i] -> [(i)] }]")
    distributed = alone.get_root().child(0).insert_sequence(filters)
    for position in range(4):
        distributed = distributed.child(position).child(0).insert_partial_schedule(loop).parent().parent()
    apart = score_schedule(model, distributed.get_schedule(), _dependences(model), MACHINE, {})
    assert all(cost.strides.count(SCATTERED) == 4 for cost in apart.statements)
    assert apart.cycles > 2 * written.cycles


@pytest.mark.parametrize(("rows", "simd"), [(3, False), (64, True)])
def test_the_loop_around_a_recurrence_vectorizes_with_a_vector_of_iterations_only(
    model_of: ModelOf, rows: int, simd: bool
) -> None:
    """gcc may vectorize the columns around a recurrence down each column (a[j][i] after a[j - 1][i]), when
    there are enough columns to fill a vector."""
    body = f"for (i = 0; i < {rows}; i++)\n  for (j = 1; j < 4000; j++)\n    a[j][i] = a[j - 1][i] * 0.5 + b[j][i];\n"
    model = model_of(body, f"double a[4000][{rows}], b[4000][{rows}];\n")
    (cost,) = score_schedule(model, model.schedule, _dependences(model), MACHINE, {}).statements
    assert cost.simd == simd


def test_the_loop_around_a_recurrence_along_rows_does_not_vectorize(model_of: ModelOf) -> None:
    """Down the columns, each row of a[i][j] after a[i][j - 1] is a vector of elements a row apart: gcc does
    not vectorize the loop around the recurrence then."""
    body = "for (i = 0; i < 512; i++)\n  for (j = 1; j < 512; j++)\n    a[i][j] = a[i][j - 1] * 0.5 + b[i][j];\n"
    model = model_of(body, "double a[512][512], b[512][512];\n")
    (cost,) = score_schedule(model, model.schedule, _dependences(model), MACHINE, {}).statements
    assert not cost.simd


def test_a_statement_beside_a_recurrence_runs_in_its_shadow(model_of: ModelOf) -> None:
    """A loop that carries a recurrence runs at the pace of its chain, or of the rest of its body when that is
    slower: an out-of-order core overlaps the independent statement with the chain's latency."""
    body = "for (i = 1; i < 32000; i++) {\n  a[i] = a[i - 1] * 0.5 + b[i];\n  c[i] = b[i] * d[i] + e[i];\n}\n"
    model = model_of(body, "float a[32000], b[32000], c[32000], d[32000], e[32000];\n")
    score = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    chain, beside = score.statements
    assert chain.loop and chain.loop == beside.loop and chain.chain and not beside.chain
    assert not chain.simd and not beside.simd
    assert score.cycles == pytest.approx(max(chain.cycles(score.lanes), beside.cycles(score.lanes)))


@pytest.mark.parametrize(("element", "kept"), [("unsigned char", True), ("double", False)])
def test_the_lines_a_row_touches_are_counted_at_the_declared_element_size(
    model_of: ModelOf, element: str, kept: bool
) -> None:
    """PNG's Average filter: each row reads the row before it, its first pixel down the column.  Two rows of
    4096 bytes stay in L1; two rows of 4096 doubles do not."""
    body = (
        "for (r = 1; r < 512; r++) {\n  for (i = 0; i < 4; i++)\n    img[r][i] = img[r][i] + img[r - 1][i] / 2;\n"
        "  for (i = 4; i < 4096; i++)\n    img[r][i] = img[r][i] + (img[r - 1][i] + img[r][i - 4]) / 2;\n}\n"
    )
    model = model_of(body, f"{element} img[512][4096];\n")
    written = score_schedule(model, model.schedule, _dependences(model), MACHINE, {})
    assert (keeps_reuse(model, written, MACHINE, {}) is None) == kept
