"""The batched in-place GEMM of PolyBench's doitgen.

Public: ``BatchedGemm``.

A batched in-place GEMM ``X[b] = alpha * X[b] * op(W)`` for each ``b``, with three statements over
``0 <= b < B, 0 <= r < M, 0 <= c < N``: a row buffer ``t[c] = 0``; ``t[c] += alpha * X[b][r][k] *
W[k][c]`` (or ``W[c][k]``) over ``0 <= k < K``; then the copy back ``X[b][r][c] = t[c]``.  ``W`` is
neither ``X`` nor ``t``, and the original order must compute the product: each ``(b, r, c)``
accumulates its element of ``t`` before it is copied and before another one writes that element,
and every read of ``X`` comes before the copy writes that element.  The buffer's last values are
left by the idiom's ``Tail``.  The calls compute the products into a heap temporary and copy them
back: one call over the B·M rows of all batches when the declared row count of a batch is M (the
rows are then evenly spaced), else one call per batch; the temporary holds the rows of one call.
The microkernel does not compute it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import islpy as isl

from polyopt.emit.cast import CDecl, CStmt
from polyopt.frontend.scop import Statement
from polyopt.library import shapes
from polyopt.library.cblas import (
    INDEX,
    LEADING_HELPER,
    SCRATCH,
    Call,
    CblasCode,
    Repeat,
    Scratch,
    leading,
    loop,
    matrix,
    trans,
)
from polyopt.library.protocol import Idiom, Tail, transposed
from polyopt.library.statements import (
    Ref,
    Term,
    Update,
    copy,
    invariant,
    only,
    product,
    same_type,
    zeroed,
)
from polyopt.model import PolyModel

_BATCH = "polyopt_batch"  # the first batch of a call
_GROUP = "polyopt_group"  # how many batches one call of a batched GEMM computes


@dataclass(frozen=True, eq=False)
class BatchedGemm(Idiom):
    """``X[b] = alpha * X[b] * op(W)`` for each of the B matrices ``X[b]``, read as M x K and overwritten
    as M x N, with ``op(W)`` K x N (``W^T`` when ``trans``)."""

    x: str
    w: str
    trans: bool
    alpha: str

    ROUTINE = "gemm"
    LEVEL = 3
    SIZE_NAMES = ("B", "M", "N", "K")
    WORK = (0, 1, 2, 3)
    PROBE = "batched"
    GROUPED = True

    @classmethod
    def match(cls, model: PolyModel, final: Statement, updates: Mapping[str, Update]) -> BatchedGemm | None:
        """A batched in-place GEMM: ``X[b] = alpha * X[b] * op(W)`` computed row by row into the buffer ``t``
        (``t[c] = 0``, ``t[c] += alpha * X[b][r][k] * W[k][c]``) and copied back by ``final``
        (``X[b][r][c] = t[c]``)."""
        found = _batched_statements(model, final, updates)
        copied = _copy_back(final)
        operands = None if found is None or copied is None else _batched_operands(found, copied[0])
        if found is None or copied is None or operands is None:
            return None
        (w, term), (target, buffer) = operands, copied
        sizes = _batched_shape(model, found, target)
        if sizes is None or not invariant(model, list(term.scalars)) or not same_type(model, buffer, target):
            return None
        same = _batched_order(model, found, target)
        if same is None:
            return None
        names = {found.init.name, found.accumulate.name, final.name}
        statements = tuple(s.name for s in model.scop.statements if s.name in names)
        w_trans = w.indices == target.indices[2:] + found.accumulate.iterators[3:]
        tail = Tail(found.array, shapes.last(model, found, same))
        return BatchedGemm(statements, sizes, target.array, w.array, w_trans, term.scale, tail=tail)

    def formula(self) -> str:
        return f"{self.x}[b] = {self.alpha} * {self.x}[b] * {transposed(self.w, self.trans)} (in place, for each b)"

    def cblas(self, sizes: list[str]) -> CblasCode:
        """A call per ``_GROUP`` batches (all when their rows are evenly spaced: a batch is an array of M
        rows, else one) into the scratch, copied back after each call."""
        batches, m, n, k = sizes
        x = self.x
        batch = (f"(void *)&{x}[{_BATCH}][0][0]", leading(f"{x}[0]"))
        operands = (*batch, *matrix(self.w), "0.0", f"(void *){SCRATCH}", f"({n})")
        shape = (f"{_GROUP} * ({m})", n, k)
        call = Call("gemm", ("CblasNoTrans", trans(self.trans), *shape, self.alpha, *operands))
        row, column = f"{INDEX}_row", f"{INDEX}_column"
        element = f"{x}[{_BATCH} + {row} / ({m})][{row} % ({m})][{column}]"
        copied = CStmt(f"{element} = {SCRATCH}[(size_t){row} * ({n}) + {column}];")
        return CblasCode(
            (call,),
            elements=(f"{x}[0][0][0]", f"{self.w}[0][0]"),
            scratch=Scratch(f"{x}[0][0][0]", f"{_GROUP} * ({m}) * ({n})"),
            declarations=(CDecl(f"const int {_GROUP} = {LEADING_HELPER}({x}) == (size_t)({m}) ? ({batches}) : 1;"),),
            after=(loop(row, f"{_GROUP} * ({m})", (loop(column, n, (copied,)),)),),
            repeat=Repeat(_BATCH, batches, _GROUP),
        )


def _copy_back(statement: Statement) -> tuple[Ref, Ref] | None:
    """``statement`` as a copy ``X[b][r][c] = t[c]`` in its loops ``b``, ``r``, ``c``: the two elements."""
    copied, iterators = copy(statement), statement.iterators
    if copied is None or copied[0].indices != iterators or len(iterators) != 3:
        return None
    return copied if copied[1].indices == iterators[2:] and len(set(iterators)) == 3 else None


def _batched_statements(
    model: PolyModel, final: Statement, updates: Mapping[str, Update]
) -> shapes.Accumulation | None:
    """The statements of a batched in-place GEMM whose copy back is ``final``, found by the row buffer
    they share: ``t[c] = 0`` in the same loops, and ``t[c] += ...`` in them and one more."""
    copied = _copy_back(final)
    if copied is None:
        return None
    buffer = copied[1]
    accumulate = only([u for u in updates.values() if u.target == buffer and u.iterators[:3] == final.iterators])
    writers = [s for s in model.scop.statements if any(w.array == buffer.array for w in s.writes)]
    init = only([s for s in writers if accumulate is None or s.name != accumulate.name])
    if accumulate is None or init is None or init.iterators != final.iterators or len(accumulate.iterators) != 4:
        return None
    if zeroed(init) != buffer:
        return None
    users = {ref.statement for ref in model.references if ref.array == buffer.array}
    if users != {init.name, accumulate.name, final.name}:
        return None
    return shapes.Accumulation(buffer.array, init, accumulate, final)


def _batched_operands(found: shapes.Accumulation, target: Ref) -> tuple[Ref, Term] | None:
    """For a batched GEMM into ``target`` (``X[b][r][c]``): the element ``W[k][c]`` (or ``W[c][k]``) and the
    term of the product, when the update adds ``alpha * X[b][r][k] * W`` with ``W`` neither ``X`` nor ``t``."""
    b, r, c = target.indices
    k = found.accumulate.iterators[3]
    terms = found.accumulate.terms
    pair = product(terms[0], (b, r, k), (k, c)) if len(terms) == 1 else None
    if pair is None or pair[0] != Ref(target.array, (b, r, k)):
        return None
    w = pair[1]
    return (w, terms[0]) if w.array not in (target.array, found.array) else None


def _batched_order(model: PolyModel, found: shapes.Accumulation, target: Ref) -> isl.UnionMap | None:
    """The pairs of instances of the buffer's statements with the same ``(b, r, c)``, when the original order
    computes the product: each element of the buffer is accumulated and copied before another ``(b, r, c)``
    writes it (``shapes.accumulates``), and every read of ``X`` comes before the copy writes that element."""
    accumulate = model.scop.statement(found.accumulate.name)
    before = shapes.earlier(model, shapes.instances(model, found.init, accumulate, found.final))
    write = shapes.reference(model, found.final.name, target.array, is_write=True)
    if not shapes.read_first(write, shapes.reference(model, accumulate.name, target.array, is_write=False), before):
        return None
    same = shapes.same_key(model, [found.init, accumulate, found.final], target.indices)
    return same if shapes.accumulates(model, found, same, before) else None


def _batched_shape(model: PolyModel, found: shapes.Accumulation, target: Ref) -> tuple[isl.PwAff, ...] | None:
    """B, M, N and K when the copy and ``init`` run over exactly the box ``0 <= b < B, 0 <= r < M,
    0 <= c < N`` of ``target``'s subscripts and the update over exactly that box times ``0 <= k < K``."""
    names = dict(zip("brck", (*target.indices, found.accumulate.iterators[3]), strict=True))
    deep = f"{shapes.BATCH} and 0 <= {{k}} < {{K}}"
    sizes = shapes.sized(model.domains[found.final.name], shapes.BATCH, names, ("b", "r", "c"))
    depth = shapes.sized(found.accumulate.domain, deep, names, ("b", "r", "c", "k"))
    if not sizes or not depth:
        return None
    values = dict(zip("BRC", sizes, strict=True))
    if not shapes.shaped(model.domains[found.init.name], shapes.BATCH, names, values):
        return None
    whole = shapes.shaped(found.accumulate.domain, deep, names, values | {"K": depth[3]})
    return (*sizes, depth[3]) if whole else None
