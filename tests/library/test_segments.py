"""Where library calls go (``polyopt.library.segments``): the cut around idioms, the idioms left
to the loops because their work at the assumed parameter values is below their threshold, and the
arrays that a later segment reads (not dead after their segment)."""

from __future__ import annotations

from collections.abc import Callable

from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.reductions import find_reductions, relax
from polyopt.library import find_idioms
from polyopt.library.segments import LibraryPlan, expected_work, plan_library, read_later
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]

BICG = (
    "for (i = 0; i < n; i++) {\n  q[i] = 0;\n  for (j = 0; j < m; j++) {\n"
    "    s[j] = s[j] + r[i] * A[i][j];\n    q[i] = q[i] + A[i][j] * p[j];\n  }\n}\n"
)


def _plan(model: PolyModel, values: dict[str, int], thresholds: dict[int, int | None]) -> LibraryPlan | None:
    deps = relax(model, compute_dependences(model), find_reductions(model))
    return plan_library(model, deps, find_idioms(model), values=values, threshold=lambda idiom: thresholds[idiom.LEVEL])


def test_each_idiom_is_a_segment_of_its_own(model_of: ModelOf) -> None:
    plan = _plan(model_of(BICG), {"n": 5000, "m": 4000}, {3: 0, 2: 4096**2})

    assert plan is not None and plan.left == ()
    assert [(sorted(s.statements), s.idiom and s.idiom.ROUTINE) for s in plan.segments] == [
        (["S0"], None),
        (["S1"], "gemv"),
        (["S2"], "gemv"),
    ]


def test_idioms_too_small_at_the_assumed_values_stay_in_the_loops(model_of: ModelOf) -> None:
    model = model_of(BICG)

    plan = _plan(model, {"n": 2000, "m": 1900}, {3: 0, 2: 4096**2})

    assert plan is not None and plan.segments == ()
    assert [(idiom.statements, work) for idiom, work in plan.left] == [(("S1",), 3800000), (("S2",), 3800000)]
    assert [expected_work(idiom, {"n": 3, "m": 5}) for idiom in find_idioms(model)] == [15, 15]


def test_idioms_never_called_stay_in_the_loops_whatever_their_work(model_of: ModelOf) -> None:
    model = model_of(BICG)

    plan = _plan(model, {"n": 5000, "m": 4000}, {3: 0, 2: None})
    unknown = plan_library(
        model,
        relax(model, compute_dependences(model), find_reductions(model)),
        find_idioms(model),
        values={},
        threshold=lambda idiom: None,
    )

    assert plan is not None and plan.segments == ()
    assert [(idiom.statements, work) for idiom, work in plan.left] == [(("S1",), 20000000), (("S2",), 20000000)]
    assert unknown is not None and [work for _, work in unknown.left] == [None, None]


def test_a_cut_that_breaks_a_dependence_is_refused(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++) {\n  t = z[i];\n  for (j = 0; j < m; j++)\n    y[i] += t * A[i][j] * x[j];\n}\n"

    assert _plan(model_of(body), {"n": 10, "m": 10}, {3: 0, 2: 0}) is None


SYMM = (
    "s = 2;\nfor (i = 0; i < m; i++)\n  for (j = 0; j < n; j++) {\n    t = 0;\n    for (k = 0; k < i; k++) {\n"
    "      C[k][j] += alpha * B[i][j] * A[i][k];\n      t += B[k][j] * A[i][k];\n    }\n"
    "    C[i][j] = beta * C[i][j] + alpha * B[i][j] * A[i][i] + alpha * t;\n  }\n"
)


def test_a_symm_is_one_segment_of_its_four_statements(model_of: ModelOf) -> None:
    model = model_of(SYMM, "double A[9][9], B[9][9], C[9][9], s, t, alpha, beta;\n")

    plan = _plan(model, {"m": 1000, "n": 1200}, {3: 192**3, 2: 0})
    small = _plan(model, {"m": 10, "n": 12}, {3: 192**3, 2: 0})

    assert plan is not None and plan.left == ()
    assert [(sorted(s.statements), s.idiom and s.idiom.ROUTINE) for s in plan.segments] == [
        (["S0"], None),
        (["S1", "S2", "S3", "S4"], "symm"),
    ]
    assert small is not None and [(idiom.statements, work) for idiom, work in small.left] == [
        (("S1", "S2", "S3", "S4"), 1200)
    ]


PRODUCT = (
    "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    for (k = 0; k < n; k++)\n"
    "      C[i][j] += A[i][k] * B[k][j];\n"
)
WRITE_T = "for (i = 0; i < n; i++)\n  T[i] = A[i][0];\n"
READ_T = "for (i = 0; i < n; i++)\n  D[i] = T[i];\n"


def test_an_array_a_later_segment_reads_is_live_after_the_segment_that_writes_it(model_of: ModelOf) -> None:
    model = model_of(WRITE_T + PRODUCT + READ_T)

    plan = _plan(model, {"n": 1000}, {3: 0, 2: 0})

    assert plan is not None and [sorted(s.statements) for s in plan.segments] == [["S0"], ["S1"], ["S2"]]
    assert read_later(compute_dependences(model), plan.segments) == (frozenset({"T"}), frozenset(), frozenset())


def test_values_overwritten_before_a_later_segment_reads_them_leave_the_array_dead(model_of: ModelOf) -> None:
    model = model_of(WRITE_T + PRODUCT + WRITE_T.replace("A", "B") + READ_T)

    plan = _plan(model, {"n": 1000}, {3: 0, 2: 0})

    assert plan is not None and [sorted(s.statements) for s in plan.segments] == [["S0"], ["S1"], ["S2", "S3"]]
    assert read_later(compute_dependences(model), plan.segments) == (frozenset(), frozenset(), frozenset())
