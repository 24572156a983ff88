"""Apply index-set splits to a region: one statement becomes several, each on a part of its domain.

Public: ``split``.  The result is a new ``Scop``, modelled and analysed again like any region;
the decision of what to split is ``polyopt.analysis.splitting``'s.  The pieces take the
statement's place in its loop, one after the other: their domains are disjoint, so the
original order of the instances is unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from functools import reduce

from polyopt.analysis.splitting import Hyperplane, Split
from polyopt.frontend.scop import Affine, BinOp, Compare, Const, Loop, Node, Scop, StmtRef, Var


def _value(hyperplane: Hyperplane) -> Affine:
    terms: list[Affine] = [
        Var(name) if coefficient == 1 else BinOp("*", Const(coefficient), Var(name))
        for name, coefficient in hyperplane.terms
    ]
    return reduce(lambda left, right: BinOp("+", left, right), terms, Const(hyperplane.constant))


def _replaced(nodes: tuple[Node, ...], pieces: dict[str, tuple[str, ...]]) -> tuple[Node, ...]:
    result: list[Node] = []
    for node in nodes:
        if isinstance(node, Loop):
            result.append(replace(node, body=_replaced(node.body, pieces)))
        else:
            result.extend(StmtRef(name) for name in pieces.get(node.name, (node.name,)))
    return tuple(result)


def split(scop: Scop, splits: tuple[Split, ...]) -> Scop:
    """``scop`` with each split statement replaced by its pieces."""
    planned = {plan.statement: plan for plan in splits}
    statements = []
    for statement in scop.statements:
        plan = planned.get(statement.name)
        if plan is None:
            statements.append(statement)
            continue
        value = _value(plan.hyperplane)
        for name, side in plan.pieces:
            bound = Compare(side, Var(plan.hyperplane.iterator), value)
            statements.append(replace(statement, name=name, constraints=(*statement.constraints, bound)))
    pieces = {plan.statement: tuple(name for name, _ in plan.pieces) for plan in splits}
    return replace(scop, statements=tuple(statements), tree=_replaced(scop.tree, pieces))
