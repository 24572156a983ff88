"""The frontend's plain-data model of a region (no islpy).

Affine expressions and conditions are small trees over iterator and
parameter names; the model stage turns them into isl objects.

Public: ``Var``, ``Const``, ``BinOp``, ``Neg``, ``Select``, ``Compare``,
``Logic``, ``Not``, ``Divisible``, ``Unknown``, ``Access``, ``Statement``, ``Loop``,
``StmtRef``, ``LoopExit``, ``Local``, ``Scop``, ``index_type``, ``unsigned_parameters``, ``affine_names``,
``opaque_arrays``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pycparser import c_ast

from polyopt.diagnostics import Location
from polyopt.frontend.declarations import Declarations


@dataclass(frozen=True)
class Var:
    """An iterator or a symbolic parameter."""

    name: str


@dataclass(frozen=True)
class Const:
    value: int


@dataclass(frozen=True)
class BinOp:
    """``op`` is one of ``+ - * / % min max floord ceild``.

    ``/`` and ``%`` have C semantics (truncation); for ``*`` one operand is a
    ``Const``; for ``/ % floord ceild`` the right operand is a positive ``Const``.
    """

    op: str
    left: Affine
    right: Affine


@dataclass(frozen=True)
class Neg:
    operand: Affine


@dataclass(frozen=True)
class Select:
    """C's ``cond ? then : other`` with an affine condition."""

    cond: Condition
    then: Affine
    other: Affine


Affine = Var | Const | BinOp | Neg | Select


@dataclass(frozen=True)
class Compare:
    """``op`` is one of ``< <= > >= == !=``."""

    op: str
    left: Affine
    right: Affine


@dataclass(frozen=True)
class Logic:
    """``op`` is ``and`` or ``or``."""

    op: str
    left: Condition
    right: Condition


@dataclass(frozen=True)
class Not:
    operand: Condition


@dataclass(frozen=True)
class Divisible:
    """``expr`` is a multiple of ``step`` (loops with a non-unit step)."""

    expr: Affine
    step: int


Condition = Compare | Logic | Not | Divisible


@dataclass(frozen=True)
class Unknown:
    """A subscript that reads memory or a variable the region writes (``h[idx[i]]``): any index."""


Subscript = Affine | Unknown


@dataclass(frozen=True)
class Access:
    """One array reference; a scalar is an array with no subscripts.  A ``may`` write need not
    happen at every instance or touches one unknown element of its range, so it overwrites nothing for sure."""

    array: str
    subscripts: tuple[Subscript, ...]
    may: bool = False


@dataclass(frozen=True)
class Statement:
    """One expression statement of the region.

    ``iterators`` are the enclosing loop iterators, outermost first, and
    ``constraints`` the loop bounds and ``if`` conditions that define its
    domain.  ``body`` is the pycparser expression, printed back with the
    iterators substituted; a statement under a data-dependent ``if`` has that
    ``if`` (with only this statement) as its body.  ``opaque`` says why the
    passes that reorder a statement's updates or rewrite its storage must leave
    it and the arrays it touches alone (a data-dependent statement, a
    summarized call); it is empty for a statement whose accesses are exact.
    """

    name: str
    iterators: tuple[str, ...]
    constraints: tuple[Condition, ...]
    reads: tuple[Access, ...]
    writes: tuple[Access, ...]
    body: c_ast.Node = field(compare=False, repr=False)
    location: Location = field(compare=False)
    opaque: str = ""


@dataclass(frozen=True)
class StmtRef:
    """A leaf of the loop tree: the statement called ``name``."""

    name: str


@dataclass(frozen=True)
class Loop:
    """A ``for`` loop; ``direction`` is +1 for increasing, -1 for decreasing.  ``location`` is where its
    ``for`` keyword is, and ``declares`` says whether its init declares the iterator (``for (int i = ...)``):
    the region's own text is printed back with pragmas on these loops (``polyopt.emit.source_text``);
    ``ctype`` is the type it declares the iterator of, as the declarations spell it; ``canonical`` says
    whether its test is one comparison of the iterator (OpenMP's canonical loop form, which a pragma on its
    text needs; ``j <= i + 2 && j < n`` is not)."""

    iterator: str
    direction: int
    body: tuple[Node, ...]
    location: Location | None = field(default=None, compare=False)
    declares: bool = field(default=True, compare=False)
    ctype: str = field(default="", compare=False)
    canonical: bool = field(default=True, compare=False)


Node = Loop | StmtRef


@dataclass(frozen=True)
class LoopExit:
    """The end of a ``for`` loop whose iterator ``variable`` is declared outside it (``for (i = ...)``).

    The loop starts once for each point of its enclosing loops' iterators that satisfies
    ``constraints``, and leaves ``variable`` at the first value from ``lower`` in steps of ``step``
    that fails one of ``bounds``.  ``enclosing`` holds ``(rank, iterator, direction)`` for each
    enclosing loop, outermost first, and ``rank`` is the rank of this loop's end: ranks grow in
    textual order, and a loop's end ranks after every loop inside it.
    """

    variable: str
    enclosing: tuple[tuple[int, str, int], ...]
    rank: int
    constraints: tuple[Condition, ...]
    lower: Affine
    step: int
    bounds: tuple[Condition, ...]


@dataclass(frozen=True)
class Local:
    """A scalar that the region declares: ``name`` in the model (the declared name, or another one
    when that is taken), its base type as C spells it (qualifiers dropped), and the ``loops`` around
    its declaration (iterator names, outermost first): each of their iterations has its own."""

    name: str
    ctype: str
    loops: tuple[str, ...]


@dataclass(frozen=True)
class Scop:
    """A region in the model: its statements, their loop tree and parameters.

    ``tree`` lists the top-level nodes in textual order; ``parameters`` are the
    names read in loop bounds, conditions and subscripts that the region never
    writes (PolyBench's ``_PB_N``, or plain ``n``); ``identifiers`` is every
    name the region mentions, so that generated names avoid them; ``declarations`` the types
    of the names it uses (its iterators are integers); ``exits`` are the ends of the
    loops whose iterators are declared outside them, in textual order, and ``unused_iterators``
    those iterators that nothing reads after the region (the generated loops have their own);
    ``locals`` the scalars it declares, modelled as scalars of the whole region
    (``polyopt.transform.privatization`` gives them one element per iteration of their loops);
    ``members`` the model name of each structure member it accesses -> the member's spelling
    (``p->f``, ``a[].f``); ``dead_scalars`` the scalars it assigns that nothing reads after it
    (``polyopt.frontend.liveness``).
    """

    statements: tuple[Statement, ...]
    tree: tuple[Node, ...]
    parameters: tuple[str, ...]
    identifiers: frozenset[str]
    location: Location
    declarations: Declarations = field(default_factory=Declarations, compare=False, repr=False)
    exits: tuple[LoopExit, ...] = ()
    unused_iterators: tuple[str, ...] = ()
    locals: tuple[Local, ...] = ()
    members: Mapping[str, str] = field(default_factory=dict)
    dead_scalars: frozenset[str] = frozenset()

    def restricted(self, names: frozenset[str]) -> Scop:
        """The region with only the statements ``names`` (loops left empty disappear)."""
        return replace(
            self,
            statements=tuple(s for s in self.statements if s.name in names),
            tree=_restricted_nodes(self.tree, names),
        )

    def statement(self, name: str) -> Statement:
        for statement in self.statements:
            if statement.name == name:
                return statement
        raise KeyError(name)


def _restricted_nodes(nodes: tuple[Node, ...], names: frozenset[str]) -> tuple[Node, ...]:
    kept: list[Node] = []
    for node in nodes:
        if isinstance(node, Loop):
            body = _restricted_nodes(node.body, names)
            if body:
                kept.append(replace(node, body=body))
        elif node.name in names:
            kept.append(node)
    return tuple(kept)


_INT_OR_NARROWER = frozenset(
    {"", "int", "signed int", "short", "unsigned short", "char", "signed char", "unsigned char"}
)


def _spelled(scop: Scop, name: str) -> str:
    """The base type that ``name``'s declaration spells, when it is a scalar ("" otherwise or unknown)."""
    found = scop.declarations.objects.get(name)
    return found.name if found is not None and not found.levels else ""


def index_type(scop: Scop) -> str:
    """The C type of the iterators of code generated for ``scop``: ``long`` when one of its loops' iterators or
    its parameters is declared of an integer type wider than ``int`` or unsigned (``long``, ``unsigned``,
    ``size_t``), so that the generated loops count over the values the source's do and gcc sees the index
    arithmetic the source has; ``int`` otherwise."""

    types = [loop.ctype or _spelled(scop, loop.iterator) for loop in loops_of(scop.tree)]
    types += [_spelled(scop, name) for name in scop.parameters]
    return "int" if all(kind in _INT_OR_NARROWER for kind in types) else "long"


def loops_of(nodes: tuple[Node, ...]) -> list[Loop]:
    """Every loop among ``nodes`` and inside them, outer loops first."""
    return [loop for node in nodes if isinstance(node, Loop) for loop in (node, *loops_of(node.body))]


def unsigned_parameters(scop: Scop) -> frozenset[str]:
    """The parameters of ``scop`` declared of an unsigned type (``unsigned``, ``size_t``, ``uint64_t``): code
    generated for it computes with them as signed numbers (``-n + 1`` is negative there, not huge)."""

    def unsigned(name: str) -> bool:
        spelled = _spelled(scop, name)
        return spelled.startswith("unsigned") or spelled == "size_t" or spelled.startswith("uint")

    return frozenset(name for name in scop.parameters if unsigned(name))


def statement_names(node: Node) -> list[str]:
    """The statements under ``node``, in textual order."""
    if isinstance(node, Loop):
        return [name for child in node.body for name in statement_names(child)]
    return [node.name]


def affine_names(expr: Affine | Condition) -> set[str]:
    """Names of the variables an affine expression or condition mentions."""
    if isinstance(expr, Var):
        return {expr.name}
    if isinstance(expr, Const):
        return set()
    if isinstance(expr, Neg | Not):
        return affine_names(expr.operand)
    if isinstance(expr, Divisible):
        return affine_names(expr.expr)
    if isinstance(expr, Select):
        return affine_names(expr.cond) | affine_names(expr.then) | affine_names(expr.other)
    return affine_names(expr.left) | affine_names(expr.right)


def opaque_arrays(scop: Scop) -> frozenset[str]:
    """The arrays and scalars that an opaque statement of ``scop`` touches."""
    return frozenset(access.array for s in scop.statements if s.opaque for access in s.reads + s.writes)
