"""The roofline bound of a region: its floating-point work and compulsory memory traffic, and the least time
the machine's limits allow for them.

Public: ``Work``, ``Bound``, ``COMPUTE``, ``MEMORY``, ``DIVISION``, ``statement_operations``, ``region_work``,
``file_work``, ``bound``.

Operations (``statement_operations``): each ``+ - * /``, each compound assignment ``+= -= *= /=`` (and
``++``, ``--``) and each selection ``c ? a : b`` (a maximum or a minimum, one vector instruction with its
comparison) of a statement's expression counts one operation: a flop when its type is floating, or cannot be
told (a type from a header, as PolyBench's ``DATA_TYPE``), an integer operation when it is an integer type.
Subscripts, pointer arithmetic, comparisons, unary minus and calls (``sqrt``, a macro kept as a call) count
nothing but their arguments' operations, so a plain copy does nothing; a subexpression written twice in one
statement (a macro's argument) counts once, as the compiler computes it once.  An integer table whose type
comes from a header and cannot be resolved is counted as floating; ``file_work`` resolves a type that is a
macro (PolyBench's ``DATA_TYPE``) to what the preprocessor expands it to with the file's flags (``float`` for
deriche, ``int`` for nussinov and floyd-warshall).  A floating operation whose operands are all ``float`` is
counted apart (``Work.single``): it runs at the ``float`` peak.  A floating division (``/``, ``/=``)
is a flop and is also counted among the divisions, unless its type is ``float`` (the division peak is measured
on ``double``, and a ``float`` division is faster: counting it there would overstate the bound).  A region's
operations are the sum over its statements of their instance counts (isl counts their domains' points at the
parameter values) times their operations.

Compulsory bytes: per array, the distinct elements the region reads plus the distinct elements it writes
(each counted in isl at the parameter values), times the element size: an array both read and written pays
once for the read and once for the write-back; a write-only array once, for the write-back (its
write-allocate read is not counted, as the measured bandwidths do not count it: ``polyopt.measure.limits``).
Scalars stay in registers and count nothing.  A reference whose elements isl cannot bound (a subscript
read from memory) counts one element per instance.  An element has the size of its C type (``float`` and
``int`` 4 bytes), or 8 when its type cannot be resolved.

The bound (``bound``) is the largest of the compute time (flops ÷ the ``double`` peak, those on ``float`` ÷ the
``float`` peak, plus integer operations ÷ the ``int`` peak), the division time (divisions ÷ the ``double`` division
peak, when it is measured) and bytes ÷ DRAM bandwidth, with the all-core limits when the run has more than one
thread and the one-core limits otherwise; it says which of the three applies. Every flop counts at the FMA peak's
rate, although additions alone (a Jacobi stencil) run at half of it: code may hoist a sum's constant factor
(``alpha``) out of the sum and do fewer multiplications than the statement as written, so a count of the
multiply-add pairs a statement can fuse is not a time that all code stays above.
The divisions are not added to the compute time: the division unit works beside the FMA units, so either alone is a
time the kernel cannot go below.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import islpy as isl
from pycparser import c_ast, c_generator

from polyopt import isl_util
from polyopt.frontend.declarations import BOOLEAN, INTEGER, Declarations, expression_type
from polyopt.frontend.read import read_regions
from polyopt.measure.limits import Limits
from polyopt.model import PolyModel, build_model

COMPUTE, MEMORY, DIVISION = "compute", "memory", "division"
FLOATING, INTEGRAL, DIVIDING, SINGLE = "floating", "integral", "dividing", "single"
_GENERATOR = c_generator.CGenerator()
_ARITHMETIC = frozenset("+-*/")
_COMPOUND = frozenset({"+=", "-=", "*=", "/="})
_STEPS = frozenset({"++", "--", "p++", "p--"})


@dataclass(frozen=True)
class Work:
    """A region's floating-point operations, compulsory bytes of memory traffic, integer operations and
    ``double`` divisions (also among the flops; see the module docstring)."""

    flops: int
    bytes: int
    intops: int = 0
    divisions: int = 0
    single: int = 0  # the flops on ``float`` values

    @property
    def intensity(self) -> float:
        """Flops per byte (infinite without traffic)."""
        return self.flops / self.bytes if self.bytes else float("inf")

    def __add__(self, other: Work) -> Work:
        return Work(
            self.flops + other.flops,
            self.bytes + other.bytes,
            self.intops + other.intops,
            self.divisions + other.divisions,
            self.single + other.single,
        )


@dataclass(frozen=True)
class Bound:
    """The least seconds the limits allow for a work, and which limit sets them (``COMPUTE``, ``DIVISION`` or
    ``MEMORY``)."""

    seconds: float
    applies: str


def _kind(node: c_ast.Node, declarations: Declarations) -> str | None:
    """``FLOATING`` or ``INTEGRAL`` for an operation whose value ``node`` has that type (floating when it cannot
    be told), None for a pointer or a truth value."""
    kind = expression_type(node, declarations)
    if kind.pointer or kind.kind == BOOLEAN:
        return None
    return INTEGRAL if kind.kind == INTEGER else FLOATING


def _operation(node: c_ast.Node, declarations: Declarations) -> str | None:
    """The kind of the operation ``node`` itself performs (None: it performs none that counts)."""
    if isinstance(node, c_ast.BinaryOp) and node.op in _ARITHMETIC or isinstance(node, c_ast.TernaryOp):
        return _kind(node, declarations)
    if isinstance(node, c_ast.Assignment) and node.op in _COMPOUND:
        return _kind(node.lvalue, declarations)
    if isinstance(node, c_ast.UnaryOp) and node.op in _STEPS:
        return _kind(node.expr, declarations)
    return None


def _single(node: c_ast.Node, declarations: Declarations) -> bool:
    """Whether the value of ``node`` is a ``float`` (every operand a ``float`` object or an ``f`` constant)."""
    if isinstance(node, c_ast.Constant):
        return node.type == "float"
    if isinstance(node, (c_ast.ID, c_ast.ArrayRef)):
        return expression_type(node, declarations).name == "float"
    if isinstance(node, c_ast.UnaryOp):
        return _single(node.expr, declarations)
    if isinstance(node, c_ast.BinaryOp):
        return _single(node.left, declarations) and _single(node.right, declarations)
    if isinstance(node, c_ast.Assignment):
        return _single(node.lvalue, declarations) and _single(node.rvalue, declarations)
    if isinstance(node, c_ast.TernaryOp):
        return _single(node.iftrue, declarations) and _single(node.iffalse, declarations)
    return False


def _double_division(node: c_ast.Node, declarations: Declarations) -> bool:
    """Whether ``node`` is a floating division that is not on ``float`` values."""
    if isinstance(node, c_ast.BinaryOp) and node.op == "/":
        operands = (node.left, node.right)
    elif isinstance(node, c_ast.Assignment) and node.op == "/=":
        operands = (node.lvalue, node.rvalue)
    else:
        return False
    floating = _kind(node if isinstance(node, c_ast.BinaryOp) else node.lvalue, declarations) == FLOATING
    return floating and not all(_single(operand, declarations) for operand in operands)


def statement_operations(node: c_ast.Node, declarations: Declarations) -> dict[str, int]:
    """The operations of one execution of the statement ``node`` by kind (``FLOATING``, ``INTEGRAL``, and
    ``DIVIDING`` for the ``double`` divisions among the floating ones), each distinct subexpression counted
    once (see the module docstring)."""
    counts = {FLOATING: 0, INTEGRAL: 0, DIVIDING: 0, SINGLE: 0}
    seen: set[str] = set()

    def visit(node: c_ast.Node) -> None:
        if isinstance(node, c_ast.ArrayRef):
            visit(node.name)
            return
        if isinstance(node, c_ast.FuncCall):
            if node.args is not None:
                visit(node.args)
            return
        kind = _operation(node, declarations)
        if kind is not None:
            text = _GENERATOR.visit(node)
            if text in seen:
                return
            seen.add(text)
            counts[kind] += 1
            counts[DIVIDING] += _double_division(node, declarations)
            counts[SINGLE] += kind == FLOATING and _single(node, declarations)
        for _, child in node.children():
            visit(child)

    visit(node)
    return counts


def _points(values: isl.Set, parameters: Mapping[str, int]) -> int:
    """The number of points of ``values`` at ``parameters`` (isl counts them)."""
    return isl_util.at_parameters(values, parameters).count_val().to_python()


def _elements(relations: Sequence[isl.Map], parameters: Mapping[str, int]) -> int:
    """Distinct elements the ``relations`` (of one array) touch at ``parameters``; one per instance of a
    relation whose elements isl cannot bound."""
    touched: isl.Set | None = None
    unbounded = 0
    for relation in relations:
        elements = isl_util.at_parameters(relation.range(), parameters)
        if not elements.is_bounded():
            unbounded += _points(relation.domain(), parameters)
        else:
            touched = elements if touched is None else touched.union(elements)
    return unbounded + (_points(touched, parameters) if touched is not None else 0)


def region_work(model: PolyModel, parameters: Mapping[str, int], declarations: Declarations | None = None) -> Work:
    """The flops and compulsory bytes of ``model``'s region at ``parameters`` (see the module docstring), with
    the types of ``declarations`` (default: the region's own)."""
    declarations = declarations if declarations is not None else model.scop.declarations
    operations = {FLOATING: 0, INTEGRAL: 0, DIVIDING: 0, SINGLE: 0}
    for statement in model.scop.statements:
        instances = _points(model.domains[statement.name], parameters)
        for kind, count in statement_operations(statement.body, declarations).items():
            operations[kind] += instances * count
    traffic = 0
    for array in model.arrays:
        for is_write in (False, True):
            relations = [
                ref.relation
                for ref in model.references
                if ref.array == array and ref.is_write == is_write and ref.relation.dim(isl.dim_type.out) > 0
            ]
            if relations:
                traffic += _elements(relations, parameters) * declarations.element_bytes(array)
    return Work(operations[FLOATING], traffic, operations[INTEGRAL], operations[DIVIDING], operations[SINGLE])


def file_work(path: Path, cpp_flags: Sequence[str] = ()) -> Work:
    """The work of every region of the C file ``path`` compiled with ``cpp_flags``, summed, at the parameter
    values the optimizer assumes (``polyopt.frontend.read``)."""
    text = path.read_text()
    works = []
    for region in read_regions(text, str(path), tuple(cpp_flags)).modelled:
        works.append(
            region_work(build_model(region.scop), region.setting.values(), region.scop.declarations.resolved())
        )
    return sum(works, Work(0, 0))


def bound(work: Work, limits: Limits, threads: int) -> Bound:
    """The roofline bound of ``work`` on ``threads`` threads: all-core limits above one thread, else one core's."""
    core = "" if threads > 1 else "_core"
    peak, integral = getattr(limits, f"peak_gflops_double{core}"), getattr(limits, f"peak_gops_int{core}")
    single = getattr(limits, f"peak_gflops_float{core}") or peak
    bandwidth, dividing = getattr(limits, f"bandwidth_dram{core}"), getattr(limits, f"peak_gdivs_double{core}")
    floating = (work.flops - work.single) / (peak * 1e9) + work.single / (single * 1e9)
    compute = floating + (work.intops / (integral * 1e9) if work.intops else 0.0)
    division = work.divisions / (dividing * 1e9) if work.divisions and dividing > 0 else 0.0
    memory = work.bytes / (bandwidth * 1e9)
    return max(Bound(compute, COMPUTE), Bound(division, DIVISION), Bound(memory, MEMORY), key=lambda b: b.seconds)
