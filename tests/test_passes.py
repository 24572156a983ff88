"""Tests for ``polyopt.passes``: decisions kept per pass in order, the report assembled from their
sections, and the loop stage asked once per candidate schedule (``LoopQuery``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import polyopt.passes.loops as loops
from polyopt import driver
from polyopt.analysis.dependences import compute_dependences
from polyopt.diagnostics import Location
from polyopt.model import PolyModel
from polyopt.options import Options
from polyopt.passes.base import NO_DECISIONS, RegionContext
from polyopt.passes.distribution import DISTRIBUTION
from polyopt.passes.loops import LoopEvaluation, LoopQuery
from polyopt.passes.vector import VECTOR
from polyopt.pipeline import optimize_text
from polyopt.report import RegionReport, Section, with_sections
from polyopt.transform.distribution import DistributionPlan
from polyopt.transform.vector import VectorPlan
from tests.support import EXAMPLES

ModelOf = Callable[[str], PolyModel]

ROWS = "for (i = 1; i < n; i++)\n  for (j = 0; j < n; j++)\n    a[i][j] = a[i - 1][j] + b[i][j];\n"


def _counted_loop_stage(monkeypatch: pytest.MonkeyPatch) -> list[object]:
    """Record each run of the loop stage's question (``run_loops``)."""
    runs: list[object] = []
    real = loops.run_loops

    def counted(ctx: RegionContext, schedule: object) -> LoopEvaluation:
        runs.append(schedule)
        return real(ctx, schedule)  # type: ignore[arg-type]

    monkeypatch.setattr(loops, "run_loops", counted)
    return runs


def test_the_loop_stage_runs_once_per_schedule_asked(model_of: ModelOf, monkeypatch: pytest.MonkeyPatch) -> None:
    model = model_of(ROWS)
    runs = _counted_loop_stage(monkeypatch)
    query = LoopQuery(RegionContext.of(model, compute_dependences(model), Options()))

    first = query.evaluate_loops(model.schedule)
    again = query.evaluate_loops(model.schedule.copy())

    assert again is first and len(runs) == 1
    assert first.vector.loops and first.decisions.plan_of(DISTRIBUTION) is not None


def test_fusion_asks_the_loop_stage_once_per_distinct_schedule_on_jacobi_2d(monkeypatch: pytest.MonkeyPatch) -> None:
    runs = _counted_loop_stage(monkeypatch)
    asked: list[object] = []
    real = LoopQuery.evaluate_loops

    def evaluate(query: LoopQuery, schedule: object) -> LoopEvaluation:
        asked.append(schedule)
        return real(query, schedule)  # type: ignore[arg-type]

    monkeypatch.setattr(LoopQuery, "evaluate_loops", evaluate)
    monkeypatch.setattr(driver, "run_limited", lambda function, seconds: function())
    path = EXAMPLES / "jacobi-2d.c"

    optimize_text(path.read_text(), str(path), Options(blas="none", microkernel=False))

    assert len(runs) == len({str(schedule) for schedule in asked}) < len(asked)


def test_decisions_keep_each_pass_plan_in_order() -> None:
    distribution, vector = DistributionPlan(()), VectorPlan(())

    decisions = NO_DECISIONS.then(DISTRIBUTION, distribution).noted("n").then(VECTOR, vector)

    assert [item.name for item in decisions.items] == ["distribution", "note", "vector"]
    assert decisions.plan_of(VECTOR) is vector and decisions.plan_of(DISTRIBUTION) is distribution


def test_sections_fill_the_report_fields_in_pass_order() -> None:
    empty = RegionReport(0, Location("k.c"), (), (), (), "none (original order)", (), (), (), ())
    sections = [
        Section("notes", ("declined",)),
        Section("vector", ("distributed",)),
        Section("fusion", ("smart: {nest 1}",)),
        Section("notes", ("scheduled",)),
        Section("vector", ("simd",)),
    ]

    report = with_sections(empty, sections)

    assert report.vector == ("distributed", "simd") and report.notes == ("declined", "scheduled")
    assert report.fusion == "smart: {nest 1}" and with_sections(empty, []).fusion == "none (original order)"
