"""Tests for ``polyopt.passes``: decisions kept per step in order, the runners of the three kinds of step, the
two speculative combinators (the part steps each run behind the earlier ones; the choices weighed in turn),
the report assembled from the steps' sections under their headings, and the loop stage asked once per
candidate schedule (``LoopQuery``)."""

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
from polyopt.passes.base import NO_DECISIONS, Candidate, Decisions, Part, RegionContext
from polyopt.passes.distribution import DISTRIBUTION
from polyopt.passes.fusion import FUSION_POLICY
from polyopt.passes.inplace import KEPT_IN_PLACE
from polyopt.passes.library import LIBRARY_CALLS
from polyopt.passes.loops import LoopEvaluation, LoopQuery
from polyopt.passes.speculative import PartSetting, RunPart, per_candidate, per_part
from polyopt.passes.steps import CodeSteps, ModelSteps, ScheduleSteps
from polyopt.passes.vector import VECTOR, VECTOR_LOOPS
from polyopt.report import NOTES, RegionReport, Section, format_report, gathered, layout, merged
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

    headings = ()

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
        report = RegionReport(0, Location("k.c"), (), (), (), ())
        return Part(Generated((), frozenset()), report, (), "inner")

    first = _Recorded("first", first_plans, first_alone, recorded)
    second = _Recorded("second", True, False, recorded)

    part = per_part((first, second), PartSetting({}, "p"), inner)(NO_STATEMENTS, Options(), frozenset())

    assert part.summary == "inner" and recorded == seen


def test_decisions_keep_each_pass_plan_in_order() -> None:
    distribution, vector = DistributionPlan(()), VectorPlan(())

    decisions = NO_DECISIONS.then(DISTRIBUTION, distribution).noted("n").then(VECTOR, vector)

    assert [item.name for item in decisions.items] == ["distribution", "note", "vector"]
    assert decisions.plan_of(VECTOR) is vector and decisions.plan_of(DISTRIBUTION) is distribution


class _Step:
    """A step of any kind that records its plans and applications in ``seen``: it plans ``plan`` (None: no
    plan) and applies by noting it."""

    headings = (NOTES,)

    def __init__(self, name: str, plan: str | None, seen: list[str]) -> None:
        self.name, self.made, self.seen = name, plan, seen

    def plan(self, ctx: object, schedule: object, earlier: Decisions) -> str | None:
        self.seen.append(f"plan {self.name} after {[item.name for item in earlier.items]}")
        return self.made

    def apply(self, ctx: object, subject: object, plan: str) -> object:
        self.seen.append(f"apply {self.name}")
        return (ctx, subject) if self.name.startswith("model") else subject

    def report(self, plan: str) -> list[Section]:
        return [Section(NOTES, (plan,))]

    def choose(self, written: object, earlier: Decisions, transformed: Candidate) -> Candidate:
        ctx, schedule, decisions = transformed
        self.seen.append(f"choose {self.name} after {[item.name for item in decisions.items]}")
        return (ctx, schedule, decisions.then(self, self.made)) if self.made else transformed


def _steps(seen: list[str], *named: tuple[str, str | None]) -> tuple[_Step, ...]:
    return tuple(_Step(name, plan, seen) for name, plan in named)


@pytest.mark.parametrize("kind", [ModelSteps, ScheduleSteps])
def test_a_runner_applies_each_plan_in_turn_and_keeps_it_in_the_decisions(kind: type) -> None:
    seen: list[str] = []
    state = (None, None, NO_DECISIONS)

    _, _, decisions = kind(_steps(seen, ("model a", "A"), ("model b", None), ("model c", "C"))).run(state)

    assert seen == [
        "plan model a after []",
        "apply model a",
        "plan model b after ['model a']",
        "plan model c after ['model a']",
        "apply model c",
    ]
    assert [item.name for item in decisions.items] == ["model a", "model c"]
    assert list(decisions.sections()) == [Section(NOTES, ("A",)), Section(NOTES, ("C",))]


def test_code_steps_all_plan_before_the_code_is_generated_and_apply_after() -> None:
    seen: list[str] = []

    def generated(decisions: Decisions) -> Generated:
        seen.append(f"generate after {[item.name for item in decisions.items]}")
        return Generated((), frozenset())

    steps = CodeSteps(_steps(seen, ("first", "1"), ("second", None), ("third", "3")))  # type: ignore[arg-type]
    _, decisions = steps.run((None, None, NO_DECISIONS), generated)  # type: ignore[arg-type]

    assert seen == [
        "plan first after []",
        "plan second after ['first']",
        "plan third after ['first']",
        "generate after ['first', 'third']",
        "apply first",
        "apply third",
    ]
    assert decisions.plan_of(steps.steps[2]) == "3"


def test_each_choice_weighs_the_candidate_kept_before_it() -> None:
    seen: list[str] = []

    _, _, decisions = per_candidate(
        _steps(seen, ("first", "kept"), ("second", None)),  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        NO_DECISIONS,
        (None, None, NO_DECISIONS),  # type: ignore[arg-type]
    )

    assert seen == ["choose first after []", "choose second after ['first']"]
    assert [item.name for item in decisions.items] == ["first"]


def test_sections_gather_under_the_layouts_headings_in_their_order() -> None:
    headings = layout((VECTOR_LOOPS, FUSION_POLICY, KEPT_IN_PLACE))
    sections = [
        Section(NOTES, ("declined",)),
        Section(VECTOR_LOOPS, ("distributed",)),
        Section(FUSION_POLICY, ("smart: {nest 1}",)),
        Section(NOTES, ("scheduled",)),
        Section(VECTOR_LOOPS, ("simd",)),
    ]

    report = RegionReport(0, Location("k.c"), (), (), (), gathered(headings, sections))

    assert [heading.key for heading in headings] == ["in_place", "fusion", "schedule", "vector", "notes"]
    assert report.lines("vector") == ("distributed", "simd") and report.lines("notes") == ("declined", "scheduled")
    assert report.lines("fusion") == ("smart: {nest 1}",) and report.lines("in_place") == ()
    assert RegionReport(0, Location("k.c"), (), (), (), gathered(headings, ())).lines("fusion") == (
        "none (original order)",
    )


def test_the_report_text_shows_each_heading_as_it_asks() -> None:
    headings = layout((VECTOR_LOOPS, FUSION_POLICY, LIBRARY_CALLS))
    sections = (Section(FUSION_POLICY, ("a", "b")), Section(NOTES, ("one", "two")))
    report = RegionReport(1, Location("k.c", 3), (), (), (), gathered(headings, sections))

    text = format_report(report)

    assert text.splitlines()[4:] == [
        "  fusion: a | b",
        "  schedule: (none)",
        "  vector loops: (none)",
        "  note: one",
        "  note: two",
    ]


def test_merged_reports_keep_each_segments_lines_under_each_heading() -> None:
    headings = layout((FUSION_POLICY, LIBRARY_CALLS))
    first = RegionReport(1, Location("k.c", 3), (), (), (), gathered(headings, (Section(NOTES, ("n1",)),)))
    second = RegionReport(2, Location("k.c", 9), (), (), (), gathered(headings, (Section(FUSION_POLICY, ("smart",)),)))

    report = merged([first, second]).replaced(Section(LIBRARY_CALLS, ("called",)))

    assert report.index == 1 and report.lines("fusion") == ("none (original order)", "smart")
    assert report.lines("notes") == ("n1",) and report.lines("library") == ("called",)
    assert "  fusion: none (original order) | smart\n" in format_report(report)
