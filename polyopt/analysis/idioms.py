"""Idiom recognition on the polyhedral model: matrix products that a BLAS call computes (seed 000, Sec. 4.4).

Public: ``Gemm``, ``find_gemms``.

A statement is a GEMM update ``C[a][b] += alpha * A[.][.] * B[.][.]`` when

- it is a ``+`` reduction (``polyopt.analysis.reductions``) into a 2-D array
  indexed by two of its three loop iterators, ``a`` and ``b``;
- the added value is a product of one element of a 2-D array ``A`` indexed
  by ``a`` and the third iterator ``k`` (in either order: ``A`` or its
  transpose), one element of ``B`` indexed by ``k`` and ``b`` (idem), and
  factors that read no array element and no iterator (``alpha``);
- ``C`` is neither ``A`` nor ``B``;
- its domain is a box ``0 <= a < M``, ``0 <= b < N``, ``0 <= k < K``.

The match is on the statement's accesses and domain, not on names.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt import isl_util
from polyopt.analysis.reductions import Reduction, find_reductions
from polyopt.frontend.scop import Access, Statement, Var
from polyopt.model import PolyModel


@dataclass(frozen=True, eq=False)
class Gemm:
    """``statement`` computes ``C += alpha * op(A) * op(B)`` with ``op(A)`` of size M x K.

    ``extents`` are M, N and K as functions of the parameters; ``alpha`` is C text.
    """

    statement: str
    c: str
    a: str
    b: str
    trans_a: bool
    trans_b: bool
    alpha: str
    extents: tuple[isl.PwAff, isl.PwAff, isl.PwAff]

    def describe(self) -> str:
        ops = f"{self.a}{'^T' if self.trans_a else ''} * {self.b}{'^T' if self.trans_b else ''}"
        return f"{self.statement}: GEMM {self.c} += {self.alpha} * {ops}"


def _factors(node: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(node, c_ast.BinaryOp) and node.op == "*":
        return _factors(node.left) + _factors(node.right)
    return [node]


def _reads_data(node: c_ast.Node, iterators: tuple[str, ...]) -> bool:
    """Whether ``node`` reads an array element or an iterator."""
    if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.ID) and node.name in iterators):
        return True
    return any(_reads_data(child, iterators) for _, child in node.children())


def _added_value(statement: Statement) -> tuple[c_ast.Node, bool] | None:
    """The value the update adds to its element, and whether it is subtracted."""
    body = statement.body
    if not isinstance(body, c_ast.Assignment):
        return None
    if body.op in ("+=", "-="):
        return body.rvalue, body.op == "-="
    if body.op == "=" and isinstance(body.rvalue, c_ast.BinaryOp) and body.rvalue.op in ("+", "-"):
        target = c_generator.CGenerator().visit(body.lvalue)
        left, right = body.rvalue.left, body.rvalue.right
        if c_generator.CGenerator().visit(left) == target:
            return right, body.rvalue.op == "-"
        if body.rvalue.op == "+" and c_generator.CGenerator().visit(right) == target:
            return left, False
    return None


def _indices(access: Access) -> tuple[str, ...] | None:
    names = tuple(s.name for s in access.subscripts if isinstance(s, Var))
    return names if len(names) == len(access.subscripts) == 2 and len(set(names)) == 2 else None


def _operands(statement: Statement, row: str, column: str, k: str) -> tuple[Access, Access] | None:
    """The reads ``A`` (indexed by row and k) and ``B`` (by k and column) of the product."""
    others = [access for access in statement.reads if access.subscripts and access != statement.writes[0]]
    if len(others) != 2:
        return None
    indexed = [(access, _indices(access)) for access in others]
    first = [access for access, names in indexed if names is not None and set(names) == {row, k}]
    second = [access for access, names in indexed if names is not None and set(names) == {k, column}]
    if len(first) != 1 or len(second) != 1 or first[0] is second[0]:
        return None
    return first[0], second[0]


def _box_extents(domain: isl.Set) -> tuple[isl.PwAff, ...] | None:
    """Each dimension's extent when ``domain`` is ``0 <= x_d < E_d(params)`` for every ``d``."""
    count = domain.dim(isl.dim_type.set)
    box = isl.Set.universe(domain.get_space())
    extents: list[isl.PwAff] = []
    for position in range(count):
        if not domain.dim_min(position).is_cst() or not domain.dim_min_val(position).is_zero():
            return None  # the lower bound must be 0 whatever the parameters
        alone = domain.project_out(isl.dim_type.set, position + 1, count - position - 1)
        alone = alone.project_out(isl.dim_type.set, 0, position)
        extents.append(isl_util.extent(domain, position))
        lifted = alone.insert_dims(isl.dim_type.set, 0, position).add_dims(isl.dim_type.set, count - position - 1)
        box = box.intersect(lifted.set_tuple_id(domain.get_tuple_id()))
    return tuple(extents) if box.is_equal(domain) else None


def _match(model: PolyModel, statement: Statement, reduction: Reduction) -> Gemm | None:
    if reduction.op != "+" or reduction.rank != 2 or len(statement.iterators) != 3:
        return None
    target = _indices(statement.writes[0])
    added = _added_value(statement)
    if target is None or added is None:
        return None
    row, column = target
    (k,) = set(statement.iterators) - {row, column}
    operands = _operands(statement, row, column, k)
    if operands is None:
        return None
    first, second = operands
    if statement.writes[0].array in (first.array, second.array):
        return None
    value, negated = added
    factors = _factors(value)
    data = [f for f in factors if _reads_data(f, statement.iterators)]
    if len(data) != 2 or not all(isinstance(f, c_ast.ArrayRef) for f in data):
        return None
    scalars = [c_generator.CGenerator().visit(f) for f in factors if f not in data]
    alpha = " * ".join(f"({text})" for text in scalars) or "1.0"
    if negated:
        alpha = f"-({alpha})"
    extents = _box_extents(model.domains[statement.name])
    if extents is None:
        return None
    position = {name: index for index, name in enumerate(statement.iterators)}
    m, n, kk = extents[position[row]], extents[position[column]], extents[position[k]]
    trans_a = _indices(first) == (k, row)
    trans_b = _indices(second) == (column, k)
    return Gemm(statement.name, reduction.array, first.array, second.array, trans_a, trans_b, alpha, (m, n, kk))


def find_gemms(model: PolyModel) -> tuple[Gemm, ...]:
    """Every GEMM update statement of ``model``."""
    found: list[Gemm] = []
    for reduction in find_reductions(model):
        gemm = _match(model, model.scop.statement(reduction.statement), reduction)
        if gemm is not None:
            found.append(gemm)
    return tuple(found)
