"""Which webs of a scalar ``polyopt.analysis.webs`` renames."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.webs import plan_webs
from polyopt.model import PolyModel, build_model

ModelOf = Callable[[str], PolyModel]

ROW = "for (i = 0; i < n; i++) {\n  t = z[i];\n  for (j = 0; j < n; j++)\n    B[i][j] = A[i][j] * t;\n}\n"
COLUMN = (
    "for (j = 0; j < n; j++) {\n  t = 0;\n  for (i = 0; i < n; i++) {\n    A[i][j] = B[i][j] + t;\n"
    "    t = A[i][j];\n  }\n}\n"
)


def _webs(model: PolyModel) -> list[tuple[str, str, list[str]]]:
    webs = plan_webs(model, compute_dependences(model), model.scop.identifiers)
    return [(web.scalar, web.name, sorted(web.statements)) for web in webs]


def test_the_web_before_the_last_write_is_renamed(model_of: ModelOf) -> None:
    assert _webs(model_of(ROW + COLUMN)) == [("t", "t_2", ["S0", "S1"])]


def test_a_scalar_dead_after_the_region_renames_every_web(model_of: ModelOf) -> None:
    model = model_of(ROW + COLUMN)
    dead = build_model(replace(model.scop, dead_scalars=frozenset({"t"})), model.ctx)

    assert _webs(dead) == [("t", "t_2", ["S0", "S1"]), ("t", "t_3", ["S2", "S3", "S4"])]


def test_a_web_that_reads_the_value_from_before_the_region_keeps_the_name(model_of: ModelOf) -> None:
    before = "for (i = 0; i < n; i++)\n  y[i] = t;\n"
    model = model_of(before + ROW + COLUMN)
    dead = build_model(replace(model.scop, dead_scalars=frozenset({"t"})), model.ctx)

    assert _webs(dead) == [("t", "t_2", ["S1", "S2"]), ("t", "t_3", ["S3", "S4", "S5"])]


def test_one_web_is_left_alone(model_of: ModelOf) -> None:
    assert _webs(model_of(COLUMN)) == []


def test_fresh_names_avoid_the_regions_names(model_of: ModelOf) -> None:
    model = model_of(ROW + COLUMN + "for (i = 0; i < n; i++)\n  t_2 = z[i];\n")
    webs = plan_webs(model, compute_dependences(model), model.scop.identifiers | {"t_2"})

    assert [web.name for web in webs if web.scalar == "t"] == ["t_2_"]
