"""Storage around a region's code: expanded scalars, contracted arrays, the region's locals, and the values its
variables hold after it.

Public: ``with_expansions``, ``with_contractions``, ``with_locals``, ``with_webs``, ``storage``,
``statement_extents``, ``final_values``.

Each expanded scalar gets a heap array of the scalar's type, one element per
iteration of its loops (sizes are parametric, so the stack is no place for
it).  If an allocation fails, the region runs in its original order with the
scalars as written.  After the optimized code, each scalar gets the value of
its last write, and the arrays are freed.
"""

from __future__ import annotations

from collections.abc import Mapping

import islpy as isl

from polyopt.analysis.contraction import Contraction
from polyopt.analysis.expansion import Expansion
from polyopt.analysis.reductions import Reduction
from polyopt.analysis.webs import Web
from polyopt.emit.cast import CBlock, CDecl, CIf, CNode, CStmt
from polyopt.emit.cexpr import call, infix
from polyopt.emit.isl_ast import Generated, Storage, print_parametric
from polyopt.frontend.scop import Scop, index_type
from polyopt.isl_util import coalesced, extended, extent
from polyopt.machine import Machine
from polyopt.marks import SECTION
from polyopt.model import PolyModel, iterator_values
from polyopt.schedule_tree import band_nodes, parent_mark


def _declaration(expansion: Expansion, sizes: list[str]) -> str:
    rows = "".join(f"[{call('polyopt_max', [size, '1'])}]" for size in sizes[1:])
    count = f"(unsigned long){call('polyopt_max', [sizes[0], '1'])}"
    allocation = f"__builtin_malloc(sizeof(*{expansion.name}) * {count})"
    return f"__typeof__({expansion.scalar}) (*{expansion.name}){rows} = {allocation};"


def _last_value(expansion: Expansion, scop: Scop, prefix: str) -> tuple[tuple[CNode, ...], frozenset[str]]:
    """``scalar = array[last write's indices];``, guarded by the condition that the region writes it."""
    if not expansion.last:
        return (), frozenset()
    where = coalesced(expansion.last[0].domain())
    indices, condition, helpers = print_parametric(scop, prefix, list(expansion.last), where)
    pairs = zip(indices, expansion.lows, strict=True)
    element = "".join(f"[{infix(index, '-', str(low))}]" if low else f"[{index}]" for index, low in pairs)
    assignment = CStmt(f"{expansion.scalar} = {expansion.name}{element};")
    return ((CIf(condition, (assignment,)),) if condition else (assignment,)), helpers


def with_expansions(
    expansions: tuple[Expansion, ...], optimized: Generated, original: Generated, scop: Scop, prefix: str
) -> Generated:
    """``optimized`` inside the allocation of the expanded scalars, ``original`` when one fails."""
    declarations: list[CNode] = []
    results: list[CNode] = []
    helpers = set(optimized.helpers | original.helpers | {"polyopt_max"})
    for expansion in expansions:
        sizes, _, used = print_parametric(scop, prefix, list(expansion.sizes))
        declarations.append(CDecl(_declaration(expansion, sizes)))
        last, more = _last_value(expansion, scop, prefix)
        results.extend(last)
        helpers |= used | more
    frees = tuple(CStmt(f"__builtin_free({e.name});") for e in expansions)
    allocated = " && ".join(expansion.name for expansion in expansions)
    body = CIf(allocated, optimized.code + tuple(results) + frees, frees + original.code)
    return Generated((CBlock((*declarations, body)),), frozenset(helpers))


def with_contractions(contractions: tuple[Contraction, ...], generated: Generated, scop: Scop) -> Generated:
    """``generated`` in a block that declares the scalar of each contracted array (``polyopt.analysis.contraction``)."""
    declarations: list[CNode] = []
    for contraction in contractions:
        accesses = (a for s in scop.statements for a in s.reads + s.writes if a.array == contraction.array)
        rank = len(next(accesses).subscripts)
        element = contraction.array + "[0]" * rank
        ctype = next((local.ctype for local in scop.locals if local.name == contraction.array), None)
        spelled = f"__typeof__({element})" if ctype is None else ctype
        declarations.append(CDecl(f"{spelled} {contraction.name};"))
    return Generated((CBlock((*declarations, *generated.code)),), generated.helpers)


def with_locals(code: tuple[CNode, ...], scop: Scop, contracted: frozenset[str]) -> tuple[CNode, ...]:
    """``code`` in a block that declares each scalar the region declares and its statements use,
    unless it became a contracted scalar of its own (``contracted``)."""
    used = {access.array for statement in scop.statements for access in statement.reads + statement.writes}
    names = [local for local in scop.locals if local.name in used and local.name not in contracted]
    if not names or not code:
        return code
    return (CBlock((*(CDecl(f"{local.ctype} {local.name};") for local in names), *code)),)


def with_webs(webs: tuple[Web, ...], generated: Generated) -> Generated:
    """``generated`` in a block that declares the scalar of each renamed web, of its scalar's type."""
    declarations = tuple(CDecl(f"__typeof__({web.scalar}) {web.name};") for web in webs)
    return Generated((CBlock((*declarations, *generated.code)),), generated.helpers)


def storage(
    model: PolyModel,
    reductions: tuple[Reduction, ...],
    machine: Machine,
    schedule: isl.Schedule,
    scalars: Mapping[str, str],
) -> Storage:
    """How the code of ``schedule`` stores its ``reductions``, reduced sections and ``scalars``."""
    marks = [mark for _, band in band_nodes(schedule) if (mark := parent_mark(band)) is not None]
    arrays = {clause.array for mark in marks for clause in mark.reductions if clause.mode == SECTION}
    sections = {array: model.section(array) for array in sorted(arrays)}
    return Storage(
        reductions,
        sections,
        dict(scalars),
        statement_extents(model),
        machine.parallel_work,
        machine.section_limit,
        index_type(model.scop),
    )


def statement_extents(model: PolyModel) -> dict[str, tuple[isl.PwAff, ...]]:
    """Per statement, the extent of each loop dimension of its domain's box (any value where it is empty)."""
    extents: dict[str, tuple[isl.PwAff, ...]] = {}
    for name, domain in model.domains.items():
        count = domain.dim(isl.dim_type.set)
        extents[name] = tuple(extended(extent(domain, d)) for d in range(count))
    return extents


def final_values(scop: Scop, prefix: str) -> tuple[Generated, tuple[str, ...]]:
    """Code that gives each variable of ``scop.exits`` the value the region's loops leave in it (the generated
    loops, their iterators named with ``prefix``, have iterators of their own), where one of its loops starts;
    and a report note for each.  An iterator that nothing reads after the region is cast to void, so that
    ``-Wall -Werror`` builds do not stop on a variable the generated code no longer uses."""
    code: list[CNode] = [CStmt(f"(void){variable};") for variable in scop.unused_iterators]
    notes: list[str] = []
    helpers: frozenset[str] = frozenset()
    for variable, value in iterator_values(scop).items():
        where = value.domain()
        always = where.is_equal(isl.Set.universe(where.get_space()))
        (text,), condition, used = print_parametric(scop, prefix, [value], None if always else where)
        assignment = CStmt(f"{variable} = {text};")
        code.append(CIf(condition, (assignment,)) if condition else assignment)
        notes.append(f"after the region, {variable} = {text}" + (f" when {condition}" if condition else ""))
        helpers |= used
    return Generated(tuple(code), helpers), tuple(notes)
