"""Which statements ``polyopt.analysis.splitting`` splits, on which hyperplane, and the split region."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl

from polyopt.analysis.dependences import carried_by, compute_dependences
from polyopt.analysis.splitting import plan_inner_splits, plan_splits
from polyopt.model import PolyModel, build_model
from polyopt.transform.splitting import split

ModelOf = Callable[[str], PolyModel]

FLOYD_WARSHALL = (
    "for (k = 0; k < n; k++)\n  for (i = 0; i < n; i++)\n    for (j = 0; j < n; j++)\n"
    "      path[i][j] = path[i][j] < path[i][k] + path[k][j] ? path[i][j] : path[i][k] + path[k][j];\n"
)


def test_floyd_warshall_is_split_on_row_k(model_of: ModelOf) -> None:
    model = model_of(FLOYD_WARSHALL)
    (plan,) = plan_splits(model, compute_dependences(model))

    assert plan.statement == "S0"
    assert plan.hyperplane.describe() == "i == k"
    assert [side for _, side in plan.pieces] == ["<", "==", ">"]


def test_the_pieces_partition_the_domain_and_the_outer_ones_have_i_parallel(model_of: ModelOf) -> None:
    model = model_of(FLOYD_WARSHALL)
    (plan,) = plan_splits(model, compute_dependences(model))
    pieces = build_model(split(model.scop, (plan,)), model.ctx)
    deps = compute_dependences(pieces)

    domains = [pieces.domains[name].set_tuple_name("S0") for name, _ in plan.pieces]
    assert all(a.intersect(b).is_empty() for index, a in enumerate(domains) for b in domains[index + 1 :])
    assert isl.Set.union(*domains[:2]).union(domains[2]).is_equal(model.domains["S0"])
    timing = isl.UnionMap.empty(model.param_space())
    for name, _ in plan.pieces:
        piece = pieces.schedule.get_map().intersect_domain(isl.UnionSet.from_set(pieces.domains[name]))
        timing = timing.union(isl.Map.from_union_map(piece).set_tuple_name(isl.dim_type.in_, "S0"))
    original = model.schedule.get_map()
    assert timing.lex_lt_union_map(timing).is_equal(original.lex_lt_union_map(original))
    for name in (plan.pieces[0][0], plan.pieces[2][0]):
        own = [d.relation for d in deps.items if d.source == name and d.sink == name]
        assert own and not any(carried_by(relation, 1) for relation in own)
    assert any(carried_by(d.relation, 1) for d in compute_dependences(model).items)


def test_a_loop_that_carries_dependences_off_any_hyperplane_is_not_split(model_of: ModelOf) -> None:
    body = "for (i = 1; i < n; i++)\n  for (j = 1; j < n; j++)\n    A[i][j] = A[i - 1][j] + A[i][j - 1];\n"
    model = model_of(body)

    assert plan_splits(model, compute_dependences(model)) == ()


def test_a_loop_that_is_parallel_already_is_not_split(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    A[i][j] = A[i][j] + A[i][0];\n"
    model = model_of(body)

    assert plan_splits(model, compute_dependences(model)) == ()


def test_a_loop_around_two_statements_is_not_split(model_of: ModelOf) -> None:
    body = (
        "for (k = 0; k < n; k++)\n  for (i = 0; i < n; i++) {\n    B[i] = A[k][i];\n"
        "    for (j = 0; j < n; j++)\n      A[i][j] = A[i][j] + A[k][j];\n  }\n"
    )
    model = model_of(body)

    assert plan_splits(model, compute_dependences(model)) == ()


def test_a_split_whose_outer_pieces_hold_one_iteration_each_is_not_made(model_of: ModelOf) -> None:
    """``j`` runs 0 and 1: every dependence it carries ends on ``j == 1``, but each outer piece is one
    iteration, so the split would gain no parallel loop and would break the product reduction."""
    body = "for (i = 0; i < n; i++)\n  for (j = 0; j < 2; j++)\n    p *= (i + j) % 3 + 1;\n"
    model = model_of(body)

    assert plan_splits(model, compute_dependences(model)) == ()


# -- the innermost loop, for the vector loop -------------------------------------------------------


def test_floyd_warshalls_pieces_are_split_again_on_column_k(model_of: ModelOf) -> None:
    model = model_of(FLOYD_WARSHALL)
    first = plan_splits(model, compute_dependences(model))
    pieces = build_model(split(model.scop, first), model.ctx)

    inner = plan_inner_splits(pieces, compute_dependences(pieces))

    assert [plan.statement for plan in inner] == ["S0_lt", "S0_eq", "S0_gt"]
    assert {plan.hyperplane.describe() for plan in inner} == {"j == k"}
    twice = build_model(split(pieces.scop, inner), model.ctx)
    deps = compute_dependences(twice)
    for plan in inner:
        for name, side in plan.pieces:
            own = [d.relation for d in deps.items if d.source == name and d.sink == name]
            assert side == "==" or not any(carried_by(relation, 2) for relation in own)


def test_a_parallel_loop_whose_inner_loop_reads_its_own_first_column_splits_the_inner_loop(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    A[i][j] = A[i][j] + A[i][0];\n"
    model = model_of(body)

    (plan,) = plan_inner_splits(model, compute_dependences(model))

    assert plan.hyperplane.describe() == "j == 0"
    assert [side for _, side in plan.pieces] == ["==", ">"]


def test_an_inner_loop_that_carries_a_dependence_with_another_statement_is_not_split(model_of: ModelOf) -> None:
    body = (
        "for (i = 0; i < n; i++)\n  for (j = 1; j < n; j++) {\n    B[i][j] = A[i][j - 1];\n"
        "    A[i][j] = A[i][j] + A[i][0];\n  }\n"
    )
    model = model_of(body)

    assert plan_inner_splits(model, compute_dependences(model)) == ()


def test_an_inner_reduction_is_not_split(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++)\n    B[i][0] = B[i][0] + A[i][j];\n"
    model = model_of(body)

    assert plan_inner_splits(model, compute_dependences(model)) == ()
