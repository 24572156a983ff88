"""Turn a parsed region into a ``Scop``: statements, domains, accesses, loop tree.

Public: ``check_parameter_macros``, ``extract_scop``, ``region_identifiers``, ``written_names``.  Anything outside the
polyhedral model raises ``UnsupportedRegion`` with the reason and the position of the construct.

Calls inside statements are assumed to be pure functions or macros (as
PolyBench's ``SCALAR_VAL``, ``SQRT_FUN`` and ``max_score`` are), except the
C library functions known to have side effects; a call used as a statement
is summarized from its callee's body (``polyopt.frontend.calls``) or rejected.
In loop bounds, conditions and subscripts, ``min``/``max``
(any case) and ``floord``/``ceild`` calls are read with their usual meaning.

Data-dependent statements: a subscript that is not affine and reads an array or a variable the region
writes is an ``Unknown`` index (a write through it is a may-write); an ``if`` whose condition does is a guard
printed around each statement it encloses, which reads what the condition reads and whose writes
are may-writes.  A data-dependent loop bound is rejected.

The reading lives in ``control_flow``, ``accesses`` and ``affine_expressions``, over the state of
``extract_state``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from pycparser import c_ast

from polyopt.diagnostics import Location, UnsupportedRegion
from polyopt.frontend.accesses import Accesses
from polyopt.frontend.affine_expressions import INT_MAX, INT_MIN, AffineExpressions, int_literal
from polyopt.frontend.control_flow import ControlFlow, base_name
from polyopt.frontend.declarations import INTEGER, CType, Declarations
from polyopt.frontend.extract_state import Context
from polyopt.frontend.lexing import definitions
from polyopt.frontend.locals import clashing_declarations
from polyopt.frontend.scop import Scop


def written_names(region: c_ast.Node) -> set[str]:
    """Base names of every lvalue in the region (assignments and ++/--)."""
    names: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_Assignment(self, node: c_ast.Assignment) -> None:
            names.add(base_name(node.lvalue))
            self.generic_visit(node)

        def visit_UnaryOp(self, node: c_ast.UnaryOp) -> None:
            if node.op in ("++", "--", "p++", "p--"):
                names.add(base_name(node.expr))
            self.generic_visit(node)

    Visitor().visit(region)
    names.discard("")
    return names


class _Extractor(ControlFlow, Accesses, AffineExpressions):
    """The extraction of one region: control flow, statements and their accesses, affine expressions."""


def region_identifiers(region: c_ast.Node) -> frozenset[str]:
    """Every name that ``region`` mentions or declares."""
    names: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_ID(self, node: c_ast.ID) -> None:
            names.add(node.name)

        def visit_Decl(self, node: c_ast.Decl) -> None:
            if node.name:
                names.add(node.name)
            self.generic_visit(node)

    Visitor().visit(region)
    return frozenset(names)


def extract_scop(
    region: c_ast.Compound,
    location: Location,
    declarations: Declarations | None = None,
    file_text: str = "",
    constants: Mapping[str, int] | None = None,
) -> Scop:
    """Build the region's ``Scop`` with the ``declarations`` visible at it (calls are summarized from
    the functions of ``file_text``) and the named integer ``constants`` (used by value where a number
    is needed: a divisor, a factor, a step); raise ``UnsupportedRegion`` when it is not affine."""
    written = written_names(region)
    declarations = declarations or Declarations()
    identifiers = region_identifiers(region)
    extractor = _Extractor(
        fallback=location,
        written=written,
        file_text=file_text,
        constants=constants or {},
        declarations=declarations,
        clashing=clashing_declarations(region),
        taken=set(identifiers),
    )
    tree = extractor.block(region.block_items or [], Context())
    extractor.check_members()
    if not extractor.statements:
        raise UnsupportedRegion("the region contains no statements", location)
    for name in extractor.parameters:
        if name in extractor.all_iterators:
            raise UnsupportedRegion(f"iterator '{name}' is used outside its loop", location)
    for statement in extractor.statements:
        for access in statement.writes:
            if access.array in extractor.parameters:
                message = f"'{access.array}' is written by {statement.opaque} and read in an affine expression"
                raise UnsupportedRegion(message, statement.location)
    return Scop(
        statements=tuple(extractor.statements),
        tree=tree,
        parameters=tuple(extractor.parameters),
        identifiers=identifiers | extractor.taken,
        location=location,
        declarations=declarations.with_objects(
            {**extractor.local_types, **{name: CType(INTEGER) for name in extractor.all_iterators}}
        ),
        exits=tuple(extractor.exits),
        locals=tuple(extractor.locals),
        members={name: spelling for spelling, name in extractor.members.items()},
    )


_NUMBER = re.compile(r"\(?[ \t]*([-+]?\w+)[ \t]*\)?")


def check_parameter_macros(scop: Scop, file_text: str) -> None:
    """Raise ``UnsupportedRegion`` when a parameter is a macro that this file defines as an
    integer outside ``int`` (the generated iterators' type).  A macro defined elsewhere (a
    header, ``-D``) cannot be seen and is not checked."""
    for name, define in definitions(file_text):
        match = _NUMBER.fullmatch(define.body) if define is not None and define.parameters is None else None
        if match is None:
            continue
        literal = match[1]
        value = int_literal(literal.lstrip("+-"))
        if name in scop.parameters and value is not None and not INT_MIN <= value <= INT_MAX:
            reason = f"parameter '{name}' is defined as {literal}, which does not fit in 'int'"
            raise UnsupportedRegion(f"{reason}, the type of the generated loops", scop.location)
