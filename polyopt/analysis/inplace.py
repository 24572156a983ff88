"""Accumulating in place: a scalar that carries one element's value from a load to a store is held in
that element (the PolyMage multigrid thesis's storage optimization, applied to the false dependences of
the PolyMage dense-matrix thesis, Sec. 5.3).

Public: ``InPlace``, ``plan_in_place`` (the ranges kept, and a report line for each declined one).

ludcmp computes each element of ``A`` through the scalar ``w``::

    w = A[i][j];                       // the load
    for (k = 0; k < j; k++)
      w -= A[i][k] * A[k][j];          // updates
    A[i][j] = w / A[j][j];             // the store

One memory cell serves every ``(i, j)``, so its anti and output dependences
order all of them, where lu, which accumulates in ``A[i][j]`` itself, is
free to be tiled and run in parallel.  The scalar ``s`` is replaced by the
stored element ``X[g]`` from the load to the store when

- the load (``s = e``, ``e`` not reading ``s``) and the store (``X[g] = f``,
  ``f`` reading ``s``, not writing it) are statements of one loop body, and
  every statement between them that touches ``s`` is an update of it
  (``s += e'`` and the other reductions of ``polyopt.analysis.reductions``);
- nothing between them, the store's right-hand side included, touches
  ``X[g]`` of the same iteration of the loops around them (the load's
  right-hand side may: it is read before the load writes);
- no other statement reads a value of ``s`` written by the load or the
  updates, and none of them is the last write of ``s`` in the region (the
  value ``s`` keeps after it);
- every read of ``s`` by the updates and the store takes the value written
  in the same iteration of the loops around them by the load or an earlier
  update (each read has a flow source, and every flow of ``s`` into the range
  comes from the range and relates instances of one iteration of those loops);
- the store runs in every iteration of those loops where the load does;
- ``s`` is declared of the type of ``X``'s elements (``polyopt.frontend.declarations``:
  one spelling of C's own types, or one type name from a header such as
  ``DATA_TYPE``).

Then ``X[g]`` holds what ``s`` held at every step and the store computes
the same value.  A load or store that becomes ``X[g] = X[g]`` is dropped.
In another type, the load, every update and the store would convert and
round otherwise: an ``int`` scalar truncates what a ``double`` element keeps,
a ``float`` one rounds each partial sum that the element holds exactly.

The last two conditions mean that the load and the store run in the same
iterations and the updates only where they do.  Guards break them: a guarded
store leaves ``X[g]`` alone where the rewrite would change it, a guarded load
carries the previous iteration's ``s`` where the rewrite would start from
``X[g]``.  Such a range is declined and the report says why.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt import isl_util
from polyopt.analysis.dependences import FLOW, Dependences
from polyopt.analysis.reductions import find_reductions
from polyopt.frontend.declarations import CType, expression_type
from polyopt.frontend.scop import Access, Loop, Node, Statement, StmtRef, opaque_arrays, statement_names
from polyopt.model import PolyModel


@dataclass(frozen=True)
class InPlace:
    """From ``load`` to ``store`` the scalar ``scalar`` is the element ``element`` that ``store``
    writes (``text`` as C); ``between`` are the statements in between (the updates among them)."""

    scalar: str
    load: str
    between: tuple[str, ...]
    store: str
    element: Access
    text: str

    @property
    def statements(self) -> tuple[str, ...]:
        return (self.load, *self.between, self.store)

    def describe(self) -> str:
        return f"{self.scalar} -> {self.text} from {self.load} to {self.store} (kept in the element it is stored to)"


def _blocks(nodes: tuple[Node, ...]) -> Iterator[tuple[Node, ...]]:
    """The region's top level and every loop body."""
    yield nodes
    for node in nodes:
        if isinstance(node, Loop):
            yield from _blocks(node.body)


def _mentions(statement: Statement, scalar: str) -> bool:
    return any(access.array == scalar for access in statement.reads + statement.writes)


def _loaded(statement: Statement) -> str | None:
    """The scalar that ``statement`` sets without reading it (``s = e``), if it does."""
    body = statement.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or len(statement.writes) != 1:
        return None
    (target,) = statement.writes
    return target.array if not target.subscripts and not _mentions_read(statement, target.array) else None


def _mentions_read(statement: Statement, scalar: str) -> bool:
    return any(access.array == scalar for access in statement.reads)


def _stores(statement: Statement, scalar: str) -> bool:
    """Whether ``statement`` is ``X[g] = f`` with ``f`` reading ``scalar``."""
    body = statement.body
    if not isinstance(body, c_ast.Assignment) or body.op != "=" or len(statement.writes) != 1:
        return False
    (target,) = statement.writes
    return bool(target.subscripts) and target.array != scalar and _mentions_read(statement, scalar)


def _candidates(model: PolyModel) -> Iterator[tuple[str, str, tuple[str, ...], str]]:
    """``(scalar, load, between, store)`` for each load followed in its loop body by updates of the
    scalar and a store of it (none whose scalar or stored array an opaque statement touches)."""
    updates = {(r.statement, r.array) for r in find_reductions(model)}
    opaque = opaque_arrays(model.scop)
    for block in _blocks(model.scop.tree):
        for index, node in enumerate(block):
            if not isinstance(node, StmtRef):
                continue
            scalar = _loaded(model.scop.statement(node.name))
            if scalar is None or scalar in opaque:
                continue
            between: list[str] = []
            for later in block[index + 1 :]:
                if isinstance(later, StmtRef) and _stores(model.scop.statement(later.name), scalar):
                    if model.scop.statement(later.name).writes[0].array not in opaque:
                        yield scalar, node.name, tuple(between), later.name
                    break
                names = statement_names(later)
                touching = [n for n in names if _mentions(model.scop.statement(n), scalar)]
                if any((name, scalar) not in updates for name in touching):
                    break
                between.extend(names)


def _per_iteration(relation: isl.Map, depth: int) -> isl.Map:
    """``relation`` from the first ``depth`` loops of its statement (comparable across statements)."""
    count = relation.dim(isl.dim_type.in_)
    return relation.project_out(isl.dim_type.in_, depth, count - depth).reset_tuple_id(isl.dim_type.in_)


def _isolated(model: PolyModel, between: tuple[str, ...], store: str) -> bool:
    """Whether nothing in ``between`` or on the store's right-hand side touches the stored element of
    the same iteration."""
    write = next(r for r in model.references if r.statement == store and r.is_write)
    depth = write.relation.dim(isl.dim_type.in_)
    stored = _per_iteration(write.relation, depth)
    users = set(between) | {store}
    return all(
        _per_iteration(ref.relation, depth).intersect(stored).is_empty()
        for ref in model.references
        if ref.array == write.array and ref.statement in users and ref is not write
    )


def _dead_after(model: PolyModel, deps: Dependences, scalar: str, statements: tuple[str, ...]) -> bool:
    """Whether the values of ``scalar`` written in ``statements`` are read by no other statement and
    none of them is the region's last write of it."""
    inside = set(statements)
    if any(d.kind == FLOW and d.array == scalar and d.source in inside and d.sink not in inside for d in deps.items):
        return False
    last = model.last_instances(model.writes[scalar].domain())
    mine = isl_util.union_of(
        (isl.UnionSet.from_set(model.domains[name]) for name in statements), isl.UnionSet.empty(model.param_space())
    )
    return last.intersect(mine).is_empty()


def _fed_in_iteration(model: PolyModel, deps: Dependences, scalar: str, statements: tuple[str, ...]) -> bool:
    """Whether every read of ``scalar`` in ``statements`` takes the value written by ``statements`` in the
    same iteration of the loops around the range (the store's loops)."""
    inside = set(statements)
    depth = model.domains[statements[-1]].dim(isl.dim_type.set)
    flows = [d for d in deps.items if d.kind == FLOW and d.array == scalar and d.sink in inside]
    if any(
        d.source not in inside or not d.relation.is_subset(isl_util.equate_prefix(d.relation, depth)) for d in flows
    ):
        return False
    empty = isl.UnionSet.empty(model.param_space())
    fed = isl_util.union_of((isl.UnionSet.from_set(d.relation.range()) for d in flows), empty)
    reads = isl_util.union_of(
        (
            isl.UnionSet.from_set(ref.relation.domain())
            for ref in model.references
            if ref.array == scalar and not ref.is_write and ref.statement in inside
        ),
        empty,
    )
    return reads.is_subset(fed)


def _stored_with_load(model: PolyModel, load: str, store: str) -> bool:
    """Whether the store runs in every iteration where the load does (both are in one loop body)."""
    return model.domains[load].reset_tuple_id().is_subset(model.domains[store].reset_tuple_id())


def _spelled(ctype: CType) -> str:
    return ctype.name + "*" * ctype.levels if ctype.name else "not declared here"


def _refusal(
    model: PolyModel, deps: Dependences, scalar: str, load: str, statements: tuple[str, ...], text: str
) -> str:
    """Why the types of ``scalar`` and of the stored element (printed ``text``) or the guards around the
    range forbid keeping ``scalar`` in place ("" when nothing does)."""
    element = model.scop.statement(statements[-1]).body.lvalue
    scalar_type, element_type = (expression_type(node, model.scop.declarations) for node in (c_ast.ID(scalar), element))
    if not scalar_type.same(element_type):
        return f"{scalar} is {_spelled(scalar_type)} and {text} is {_spelled(element_type)}"
    if not _fed_in_iteration(model, deps, scalar, statements):
        return f"a read of {scalar} in the range does not take the value the same iteration's load or updates wrote"
    if not _stored_with_load(model, load, statements[-1]):
        return "the store does not run in every iteration where the load does"
    return ""


def plan_in_place(model: PolyModel, deps: Dependences) -> tuple[tuple[InPlace, ...], tuple[str, ...]]:
    """Every load-to-store range of ``model`` whose scalar can be kept in the stored element, and why each
    range with a free element and a dead scalar is declined (for its types or its guards)."""
    found: list[InPlace] = []
    declined: list[str] = []
    for scalar, load, between, store in _candidates(model):
        if scalar in model.scop.members:  # a structure member is not a variable of its own
            continue
        statements = (load, *between, store)
        if not (_isolated(model, between, store) and _dead_after(model, deps, scalar, statements)):
            continue
        target = model.scop.statement(store)
        text = c_generator.CGenerator().visit(target.body.lvalue)
        refusal = _refusal(model, deps, scalar, load, statements, text)
        if refusal:
            declined.append(f"{scalar} not kept in {text} from {load} to {store}: {refusal}")
        else:
            found.append(InPlace(scalar, load, between, store, target.writes[0], text))
    return tuple(found), tuple(declined)
