"""Tests for ``polyopt.passes``: decisions kept per pass in order, the report assembled from their
sections, the part passes each run behind the earlier ones, and the loop stage asked once per candidate
schedule (``LoopQuery``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import polyopt.passes.loops as loops
from polyopt import driver
from polyopt.analysis.dependences import compute_dependences
from polyopt.diagnostics import Location
from polyopt.driver import optimize_text
from polyopt.emit.isl_ast import Generated
from polyopt.frontend.scop import Scop
from polyopt.model import PolyModel
from polyopt.options import Options
from polyopt.passes.base import NO_DECISIONS, Part, PartSetting, RegionContext, RunPart, run_part_passes
from polyopt.passes.distribution import DISTRIBUTION
from polyopt.passes.loops import LoopEvaluation, LoopQuery
from polyopt.passes.vector import VECTOR
from polyopt.report import RegionReport, Section, with_sections
from polyopt.transform.distribution import DistributionPlan
from polyopt.transform.vector import VectorPlan
from tests.support import EXAMPLES

ModelOf = Callable[[str], PolyModel]

NO_STATEMENTS = Scop((), (), (), frozenset(), Location("k.c"))
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

    assert len(runs) == len({str(schedule) for schedule in asked}) == len(asked)


class _Recorded:
    """A part pass that records each plan it makes (with its setting's prefix) in ``seen`` and applies by
    running the statements through ``inner`` when ``alone``, else through ``rest``."""

    def __init__(self, name: str, plans: bool, alone: bool, seen: list[str]) -> None:
        self.name, self.plans, self.alone, self.seen = name, plans, alone, seen

    def plan(self, scop: Scop, options: Options, dead: frozenset[str], setting: PartSetting) -> str | None:
        self.seen.append(f"{self.name} {setting.prefix}")
        return self.name if self.plans else None

    def apply(self, plan: str, rest: RunPart, inner: RunPart) -> Part:
        return (inner if self.alone else rest)(NO_STATEMENTS, Options(), frozenset())

    def report(self, plan: str) -> list[Section]:
        return []


@pytest.mark.parametrize(
    ("first_plans", "first_alone", "seen"),
    [
        (True, True, ["first p", "inner"]),  # the later pass does not see what the first runs alone
        (True, False, ["first p", "second p", "inner"]),
        (False, True, ["first p", "second p", "inner"]),
    ],
)
def test_a_part_pass_runs_the_rest_or_the_inner_pipeline_alone(
    first_plans: bool, first_alone: bool, seen: list[str]
) -> None:
    recorded: list[str] = []

    def inner(scop: Scop, options: Options, dead: frozenset[str]) -> Part:
        recorded.append("inner")
        report = RegionReport(0, Location("k.c"), (), (), (), "none", (), (), (), ())
        return Part(Generated((), frozenset()), report, (), "inner")

    first = _Recorded("first", first_plans, first_alone, recorded)
    second = _Recorded("second", True, False, recorded)

    part = run_part_passes((first, second), PartSetting({}, "p"), inner)(NO_STATEMENTS, Options(), frozenset())

    assert part.summary == "inner" and recorded == seen


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
