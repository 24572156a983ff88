"""The statement layer of idiom recognition: the only place that reads a statement's C (pycparser nodes)
for idioms, PolyMage dense-matrix thesis, Sec. 4.4.

Public: ``Ref``, ``Term``, ``Update``, ``update``, ``assignment``, ``zeroed``, ``copy``, ``product``,
``matrix_operands``, ``same_type``, ``invariant``, ``only``.

One statement is an *update* ``T[..] += sum of terms`` (also ``-=``, ``T = T + ...``) when each term
is a product of elements ``X[x][y]`` subscripted by loop iterators alone (unit stride, no offset) and
of factors that read no array element and no iterator (``alpha``), and the terms do not read ``T``.

Of a term's factors other than elements (multiplied together into the call's ``alpha``) at most one
is neither floating nor of the updated elements' type, so that no two are multiplied in integer
arithmetic where the statement multiplied each into a floating product (``A[i][k] * B[k][j] * n * n``
would overflow in ``n * n``; the calls run only on ``float`` or ``double`` arrays).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt.analysis.reductions import chain_operands
from polyopt.frontend.declarations import FLOATING, UNKNOWN, CType, Declarations, expression_type
from polyopt.frontend.scop import Statement
from polyopt.model import PolyModel

_T = TypeVar("_T")


@dataclass(frozen=True)
class Ref:
    """An element ``array[indices[0]][indices[1]]...`` subscripted by iterators alone."""

    array: str
    indices: tuple[str, ...]


@dataclass(frozen=True)
class Term:
    """``refs[0] * refs[1] * ...`` times the ``scalars`` (C text of the factors that read no array element
    and no iterator), added when ``positive``, else subtracted."""

    refs: tuple[Ref, ...]
    scalars: tuple[str, ...]
    positive: bool = True

    @property
    def scale(self) -> str:
        """The signed product of the scalars as C text (``1.0`` when there is none)."""
        scale = " * ".join(f"({text})" for text in self.scalars) or "1.0"
        return scale if self.positive else f"-({scale})"


@dataclass(frozen=True, eq=False)
class Update:
    """Statement ``name`` adds ``terms`` to ``target`` over ``domain``, in its loops ``iterators``."""

    name: str
    iterators: tuple[str, ...]
    domain: isl.Set
    target: Ref
    terms: tuple[Term, ...]

    def reads_target(self) -> bool:
        """Whether a term reads the target's array."""
        return any(ref.array == self.target.array for term in self.terms for ref in term.refs)


def _text(node: c_ast.Node) -> str:
    return c_generator.CGenerator().visit(node)


def _factors(node: c_ast.Node) -> list[c_ast.Node]:
    if isinstance(node, c_ast.BinaryOp) and node.op == "*":
        return _factors(node.left) + _factors(node.right)
    return [node]


def _reads_data(node: c_ast.Node, iterators: tuple[str, ...]) -> bool:
    """Whether ``node`` reads an array element or an iterator."""
    if isinstance(node, c_ast.ArrayRef) or (isinstance(node, c_ast.ID) and node.name in iterators):
        return True
    return any(_reads_data(child, iterators) for _, child in node.children())


def _ref(node: c_ast.Node, iterators: tuple[str, ...]) -> Ref | None:
    indices: list[str] = []
    while isinstance(node, c_ast.ArrayRef):
        if not isinstance(node.subscript, c_ast.ID) or node.subscript.name not in iterators:
            return None
        indices.insert(0, node.subscript.name)
        node = node.name
    return Ref(node.name, tuple(indices)) if isinstance(node, c_ast.ID) and indices else None


def _target(node: c_ast.Node, iterators: tuple[str, ...]) -> Ref | None:
    """The element that ``node`` (a left-hand side) names: an array element as for ``_ref``, or a scalar."""
    if isinstance(node, c_ast.ID) and node.name not in iterators:
        return Ref(node.name, ())
    return _ref(node, iterators)


def _floating_in_calls(factor: c_ast.Node, element: CType, declarations: Declarations) -> bool:
    """Whether ``factor`` is floating wherever a call runs: of a floating type, or declared of the type of
    the updated ``element`` (the calls run only on ``float`` or ``double`` arrays)."""
    ctype = expression_type(factor, declarations)
    return (ctype.kind == FLOATING and not ctype.pointer) or ctype.same(element)


def _term(node: c_ast.Node, positive: bool, statement: Statement, declarations: Declarations) -> Term | None:
    """``node`` as a term added to the left-hand side of ``statement``, when the product of its factors
    other than elements is floating wherever a call runs (at most one of them is not: ``_floating_in_calls``)."""
    iterators = statement.iterators
    refs: list[Ref] = []
    factors: list[c_ast.Node] = []
    for factor in _factors(node):
        if not _reads_data(factor, iterators):
            factors.append(factor)
            continue
        ref = _ref(factor, iterators)
        if ref is None:
            return None
        refs.append(ref)
    element = expression_type(statement.body.lvalue, declarations)
    if sum(not _floating_in_calls(factor, element, declarations) for factor in factors) > 1:
        return None
    return Term(tuple(refs), tuple(_text(factor) for factor in factors), positive)


def _added(body: c_ast.Assignment) -> list[tuple[c_ast.Node, bool]] | None:
    """The signed terms that ``body`` adds to its left-hand side."""
    if body.op in ("+=", "-="):
        return [(term, positive == (body.op == "+=")) for term, positive in chain_operands(body.rvalue, "+")]
    if body.op != "=":
        return None
    target = _text(body.lvalue)
    terms = chain_operands(body.rvalue, "+")
    own = [positive for term, positive in terms if _text(term) == target]
    return [(t, p) for t, p in terms if _text(t) != target] if own == [True] and len(terms) > 1 else None


def update(model: PolyModel, statement: Statement) -> Update | None:
    """``statement`` as an update of one element, if it is one."""
    body = statement.body
    if len(statement.writes) != 1 or not isinstance(body, c_ast.Assignment):
        return None
    target = _target(body.lvalue, statement.iterators)
    added = _added(body)
    if target is None or added is None:
        return None
    declarations = model.scop.declarations
    terms = [_term(node, positive, statement, declarations) for node, positive in added]
    if any(term is None for term in terms):
        return None
    domain = model.domains[statement.name]
    return Update(statement.name, statement.iterators, domain, target, tuple(t for t in terms if t is not None))


def assignment(statement: Statement, declarations: Declarations) -> tuple[Ref, list[Term | None]] | None:
    """``statement`` as ``X[..] = sum of terms``: the element and each term (None where it is none)."""
    body = statement.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=":
        return None
    target = _ref(body.lvalue, statement.iterators)
    if target is None:
        return None
    operands = chain_operands(body.rvalue, "+")
    return target, [_term(node, positive, statement, declarations) for node, positive in operands]


def _zero(node: c_ast.Node) -> bool:
    """Whether ``node`` is the constant 0 (also cast, or in PolyBench's ``SCALAR_VAL``)."""
    if isinstance(node, c_ast.Cast):
        return _zero(node.expr)
    if (
        isinstance(node, c_ast.FuncCall)
        and _text(node.name) == "SCALAR_VAL"
        and node.args
        and len(node.args.exprs) == 1
    ):
        return _zero(node.args.exprs[0])
    try:
        return isinstance(node, c_ast.Constant) and float(node.value.rstrip("fFlLuU")) == 0
    except ValueError:
        return False


def zeroed(statement: Statement) -> Ref | None:
    """The element (or scalar) that ``statement`` sets to 0, when that is all it writes."""
    body = statement.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or not _zero(body.rvalue) or len(statement.writes) != 1:
        return None
    return _target(body.lvalue, statement.iterators)


def copy(statement: Statement) -> tuple[Ref, Ref] | None:
    """``statement`` as a copy ``X[..] = Y[..]``, when that is all it writes: the two elements."""
    body, iterators = statement.body, statement.iterators
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or len(statement.writes) != 1:
        return None
    target, source = _ref(body.lvalue, iterators), _ref(body.rvalue, iterators)
    return None if target is None or source is None else (target, source)


def product(term: Term, first: tuple[str, ...], second: tuple[str, ...]) -> tuple[Ref, Ref] | None:
    """The two elements of ``term``, the first subscripted by ``first`` (in some order), the other by ``second``."""
    if len(term.refs) != 2:
        return None
    for one, other in (term.refs, term.refs[::-1]):
        if sorted(one.indices) == sorted(first) and sorted(other.indices) == sorted(second):
            return one, other
    return None


def matrix_operands(update: Update) -> tuple[str, str, str, list[tuple[Ref, Ref, str]]] | None:
    """For ``T[r][c]`` updated in loops ``r``, ``c``, ``k``: ``r``, ``c``, ``k`` and each term's
    ``(X over r and k, Y over k and c, scale)``."""
    if len(update.iterators) != 3 or len(update.target.indices) != 2 or update.reads_target():
        return None
    r, c = update.target.indices
    rest = set(update.iterators) - {r, c}
    if len(rest) != 1:
        return None
    (k,) = rest
    products = [(product(term, (r, k), (k, c)), term.scale) for term in update.terms]
    found = [(pair[0], pair[1], scale) for pair, scale in products if pair is not None]
    return (r, c, k, found) if len(found) == len(products) else None


def same_type(model: PolyModel, accumulator: Ref, target: Ref) -> bool:
    """Whether the elements of ``accumulator`` are declared of the type of ``target``'s."""
    objects = model.scop.declarations.objects
    types = [objects.get(ref.array, CType(UNKNOWN)).element(len(ref.indices)) for ref in (accumulator, target)]
    return types[0].same(types[1])


def invariant(model: PolyModel, texts: list[str]) -> bool:
    """Whether the factors ``texts`` name nothing that the region writes."""
    written = set(model.writes)
    return not any(written & set(re.findall(r"[A-Za-z_]\w*", text)) for text in texts)


def only(items: list[_T]) -> _T | None:
    """The one item of ``items``; None when there are none or several."""
    return items[0] if len(items) == 1 else None
