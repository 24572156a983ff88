"""The roofline bound of a region: its floating-point work and compulsory memory traffic, and the least time
the machine's limits allow for them.

Public: ``Work``, ``Bound``, ``COMPUTE``, ``MEMORY``, ``statement_flops``, ``region_work``, ``file_work``,
``bound``.

Flops (``statement_flops``): each ``+ - * /`` and each compound assignment ``+= -= *= /=`` (and ``++``,
``--``) of a statement's expression counts one operation when its type is floating, or cannot be told (a
type from a header, as PolyBench's ``DATA_TYPE``); integer and pointer arithmetic, subscripts, comparisons,
unary minus and calls (``sqrt``) count nothing, so a plain copy is 0 flops.  A region's flops are the sum
over its statements of their instance counts (isl counts their domains' points at the parameter values) times
their operations.

Compulsory bytes: per array, the distinct elements the region reads plus the distinct elements it writes
(each counted in isl at the parameter values), times the element size: an array both read and written pays
once for the read and once for the write-back; a write-only array once, for the write-back (its
write-allocate read is not counted, as the measured bandwidths do not count it: ``polyopt.roofline.limits``).
Scalars stay in registers and count nothing.  A reference whose elements isl cannot bound (a subscript
read from memory) counts one element per instance.  An element is ``float``'s 4 bytes when the array is
declared ``float``, else 8 (``double``, or a type from a header).

The bound (``bound``) is the larger of flops ÷ peak and bytes ÷ DRAM bandwidth, with the all-core limits
when the run has more than one thread and the one-core limits otherwise; it says which of the two applies.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import islpy as isl
from pycparser import c_ast

from polyopt import isl_util
from polyopt.driver import region_scops
from polyopt.frontend.declarations import BOOLEAN, INTEGER, Declarations, expression_type
from polyopt.model import PolyModel, build_model
from polyopt.options import Options
from polyopt.roofline.limits import Limits

COMPUTE, MEMORY = "compute", "memory"
_ARITHMETIC = frozenset("+-*/")
_COMPOUND = frozenset({"+=", "-=", "*=", "/="})
_STEPS = frozenset({"++", "--", "p++", "p--"})
DOUBLE_BYTES, FLOAT_BYTES = 8, 4


@dataclass(frozen=True)
class Work:
    """A region's floating-point operations and compulsory bytes of memory traffic (see the module docstring)."""

    flops: int
    bytes: int

    @property
    def intensity(self) -> float:
        """Flops per byte (infinite without traffic)."""
        return self.flops / self.bytes if self.bytes else float("inf")

    def __add__(self, other: Work) -> Work:
        return Work(self.flops + other.flops, self.bytes + other.bytes)


@dataclass(frozen=True)
class Bound:
    """The least seconds the limits allow for a work, and which limit sets them (``COMPUTE`` or ``MEMORY``)."""

    seconds: float
    applies: str


def _counts(node: c_ast.Node, declarations: Declarations) -> bool:
    """Whether the operation ``node`` is on floating values (or values whose type cannot be told)."""
    kind = expression_type(node, declarations)
    return not kind.pointer and kind.kind not in (INTEGER, BOOLEAN)


def statement_flops(node: c_ast.Node, declarations: Declarations) -> int:
    """The floating-point operations of one execution of the statement ``node`` (see the module docstring)."""
    if isinstance(node, c_ast.ArrayRef):
        return statement_flops(node.name, declarations)
    if isinstance(node, c_ast.FuncCall):
        return 0
    own = 0
    if isinstance(node, c_ast.BinaryOp) and node.op in _ARITHMETIC:
        own = int(_counts(node, declarations))
    elif isinstance(node, c_ast.Assignment) and node.op in _COMPOUND:
        own = int(_counts(node.lvalue, declarations))
    elif isinstance(node, c_ast.UnaryOp) and node.op in _STEPS:
        own = int(_counts(node.expr, declarations))
    return own + sum(statement_flops(child, declarations) for _, child in node.children())


def _points(values: isl.Set, parameters: Mapping[str, int]) -> int:
    """The number of points of ``values`` at ``parameters`` (isl counts them)."""
    return isl_util.at_parameters(values, parameters).count_val().to_python()


def _element_bytes(array: str, declarations: Declarations) -> int:
    return (
        FLOAT_BYTES if declarations.objects.get(array) and declarations.objects[array].name == "float" else DOUBLE_BYTES
    )


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


def region_work(model: PolyModel, parameters: Mapping[str, int]) -> Work:
    """The flops and compulsory bytes of ``model``'s region at ``parameters`` (see the module docstring)."""
    declarations = model.scop.declarations
    flops = sum(
        _points(model.domains[s.name], parameters) * statement_flops(s.body, declarations)
        for s in model.scop.statements
    )
    traffic = 0
    for array in model.arrays:
        for is_write in (False, True):
            relations = [
                ref.relation
                for ref in model.references
                if ref.array == array and ref.is_write == is_write and ref.relation.dim(isl.dim_type.out) > 0
            ]
            if relations:
                traffic += _elements(relations, parameters) * _element_bytes(array, declarations)
    return Work(flops, traffic)


def file_work(path: Path, cpp_flags: Sequence[str] = ()) -> Work:
    """The work of every region of the C file ``path`` compiled with ``cpp_flags``, summed, at the parameter
    values the driver assumes (``polyopt.driver.region_scops``)."""
    options = Options(cpp_flags=tuple(cpp_flags))
    works = [
        region_work(build_model(scop), values) for scop, values in region_scops(path.read_text(), str(path), options)
    ]
    return sum(works, Work(0, 0))


def bound(work: Work, limits: Limits, threads: int) -> Bound:
    """The roofline bound of ``work`` on ``threads`` threads: all-core limits above one thread, else one core's."""
    peak = limits.peak_gflops_double if threads > 1 else limits.peak_gflops_double_core
    bandwidth = limits.bandwidth_dram if threads > 1 else limits.bandwidth_dram_core
    compute = work.flops / (peak * 1e9)
    memory = work.bytes / (bandwidth * 1e9)
    return Bound(compute, COMPUTE) if compute >= memory else Bound(memory, MEMORY)
