"""Summaries of called functions: what a call statement reads and writes, from its callee's body.

Public: ``Callee``, ``find_callee``, ``math_call``, ``unknown_builtin``.  A callee is summarized when its
definition is in the file and
its body is straight-line code: declarations of local scalars, assignments and ``++``/``--`` as
statements, and a last ``return``.  It may read and write the elements of its array (pointer)
parameters, with subscripts in its parameters and constants; it reads its scalar parameters (passed by
value, never written) and its locals, calls only C's math functions, and touches no other variable.
Its accesses are then those expressions with the arguments of a call put for the parameters
(``Callee.at_call``): a write there happens at every call, as a statement of the region would.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass

from pycparser import c_ast

from polyopt.frontend.cparse import parse_function
from polyopt.frontend.lexing import blank_comments, closing, directives

_MATH_CALLS = {
    *("sqrt", "cbrt", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "pow", "hypot"),
    *("sin", "cos", "tan", "asin", "acos", "atan", "atan2", "sinh", "cosh", "tanh"),
    *("fabs", "abs", "labs", "floor", "ceil", "round", "trunc", "fmod", "fmin", "fmax", "fma", "copysign"),
}
_MATH_CALLS |= {f"{name}f" for name in _MATH_CALLS}
_BUILTIN = "__builtin_"
_BUILTIN_CONSTANTS = {"__builtin_huge_val", "__builtin_huge_valf", "__builtin_inf", "__builtin_inff"}


def math_call(name: str) -> bool:
    """Whether ``name`` is one of C's pure math functions, or GCC's builtin of one (``__builtin_fabs``)."""
    return name in _BUILTIN_CONSTANTS or name.removeprefix(_BUILTIN) in _MATH_CALLS


def unknown_builtin(name: str) -> bool:
    """Whether ``name`` is a GCC builtin other than a pure math function (``__builtin_prefetch``)."""
    return name.startswith(_BUILTIN) and not math_call(name)


@dataclass(frozen=True)
class Callee:
    """A summarized function: its ``parameters`` as ``(name, is_array)`` in order, and the elements
    of its array parameters that it ``reads`` and ``writes`` (expressions in its parameters)."""

    name: str
    parameters: tuple[tuple[str, bool], ...]
    reads: tuple[c_ast.Node, ...]
    writes: tuple[c_ast.Node, ...]

    def at_call(self, expression: c_ast.Node, arguments: list[c_ast.Node]) -> c_ast.Node:
        """``expression`` of the callee with each parameter replaced by its argument at a call."""
        values = {name: argument for (name, _), argument in zip(self.parameters, arguments, strict=True)}
        return _substituted(expression, values)


class _Declined(Exception):
    """The callee is not summarized, for the reason given."""


def _substituted(node: c_ast.Node, values: dict[str, c_ast.Node]) -> c_ast.Node:
    if isinstance(node, c_ast.ID) and node.name in values:
        return copy.deepcopy(values[node.name])
    node = copy.copy(node)
    for slot in node.__slots__:
        value = getattr(node, slot, None)
        if isinstance(value, c_ast.Node):
            setattr(node, slot, _substituted(value, values))
        elif isinstance(value, list):
            setattr(node, slot, [_substituted(item, values) for item in value])
    return node


def _definitions(file_text: str, name: str) -> list[tuple[str, int]]:
    """The text of each definition of function ``name`` in ``file_text`` (more than one under ``#if``),
    with its first line."""
    code = blank_comments(file_text)
    found: list[tuple[str, int]] = []
    for match in re.finditer(rf"\b{re.escape(name)}\s*\(", code):
        if _depth(code, match.start()) != 0:
            continue
        close = closing(code, match.end() - 1)
        after = re.compile(r"\s*\{").match(code, close + 1) if close is not None else None
        end = closing(code, after.end() - 1, "{", "}") if after is not None else None
        if end is None:
            continue
        start = max(code.rfind(";", 0, match.start()), code.rfind("}", 0, match.start()))
        directive = max((directive.end for directive in directives(code[: match.start()])), default=-1)
        start = max(start, directive) + 1
        found.append((code[start : end + 1], code.count("\n", 0, start) + 1))
    return found


def _depth(code: str, position: int) -> int:
    return code.count("{", 0, position) - code.count("}", 0, position)


def _parameters(function: c_ast.FuncDef) -> tuple[tuple[str, bool], ...]:
    declaration = function.decl.type
    params = declaration.args.params if isinstance(declaration, c_ast.FuncDecl) and declaration.args else []
    result: list[tuple[str, bool]] = []
    for param in params:
        if isinstance(param, c_ast.EllipsisParam):
            raise _Declined("it takes a variable number of arguments")
        if isinstance(param, c_ast.Typename) and _is_void(param.type):
            continue
        if not isinstance(param, c_ast.Decl) or not param.name:
            raise _Declined("a parameter has no name")
        if isinstance(param.type, (c_ast.ArrayDecl, c_ast.PtrDecl)):
            result.append((param.name, True))
        elif isinstance(param.type, c_ast.TypeDecl) and isinstance(param.type.type, c_ast.IdentifierType):
            result.append((param.name, False))
        else:
            raise _Declined(f"its parameter '{param.name}' is not a number or an array")
    return tuple(result)


def _is_void(node: c_ast.Node) -> bool:
    return (
        isinstance(node, c_ast.TypeDecl) and isinstance(node.type, c_ast.IdentifierType) and node.type.names == ["void"]
    )


@dataclass
class _Summary:
    """The walk over a callee's body: its parameters, locals and the accesses found so far."""

    arrays: set[str]
    scalars: set[str]
    locals: set[str]
    reads: list[c_ast.Node]
    writes: list[c_ast.Node]

    def body(self, items: list[c_ast.Node]) -> None:
        """The function's body: its statements, the last of which may be a ``return``."""
        if items and isinstance(items[-1], c_ast.Return):
            *items, last = items
            if last.expr is not None:
                self.expression(last.expr)
        for item in items:
            self.statement(item)

    def statement(self, node: c_ast.Node) -> None:
        if isinstance(node, c_ast.Compound):
            for item in node.block_items or []:
                self.statement(item)
        elif isinstance(node, c_ast.Decl):
            self.declaration(node)
        elif isinstance(node, c_ast.DeclList):
            for declaration in node.decls:
                self.declaration(declaration)
        elif isinstance(node, c_ast.Assignment):
            self.target(node.lvalue, reading=node.op != "=")
            self.expression(node.rvalue)
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("++", "--", "p++", "p--"):
            self.target(node.expr, reading=True)
        elif not isinstance(node, c_ast.EmptyStatement):
            raise _Declined(f"its body has a {_construct(node)}, not only straight-line assignments")

    def declaration(self, node: c_ast.Decl) -> None:
        if not isinstance(node.type, c_ast.TypeDecl) or "static" in node.storage:
            raise _Declined(f"it declares '{node.name}', which is not a local scalar")
        if node.name in self.arrays or node.name in self.scalars:
            raise _Declined(f"it declares '{node.name}', which hides its parameter")
        if node.init is not None:
            self.expression(node.init)
        self.locals.add(node.name)

    def target(self, node: c_ast.Node, reading: bool) -> None:
        """An assigned lvalue: an element of an array parameter, or a local."""
        if isinstance(node, c_ast.ID) and node.name in self.locals:
            return
        base = _base(node)
        if not isinstance(node, c_ast.ArrayRef) or base not in self.arrays:
            raise _Declined(f"it assigns '{base or _construct(node)}', which is not an element of an array parameter")
        self.subscripts(node)
        self.writes.append(node)
        if reading:
            self.reads.append(node)

    def subscripts(self, node: c_ast.ArrayRef) -> None:
        """Check the subscripts of an element of an array parameter and gather what they read."""
        while isinstance(node, c_ast.ArrayRef):
            for used in _names(node.subscript):
                if used not in self.scalars and used not in self.arrays:
                    raise _Declined(f"a subscript uses '{used}', which is not a parameter")
            self.expression(node.subscript)
            node = node.name

    def expression(self, node: c_ast.Node) -> None:
        """Gather the elements of array parameters that ``node`` reads."""
        if isinstance(node, c_ast.ArrayRef):
            if _base(node) not in self.arrays:
                raise _Declined(f"it reads '{_base(node) or _construct(node)}', which is not an array parameter")
            self.subscripts(node)
            self.reads.append(node)
        elif isinstance(node, c_ast.ID):
            if node.name in self.arrays:
                raise _Declined(f"it uses the array parameter '{node.name}' without a subscript")
            if node.name not in self.scalars and node.name not in self.locals:
                raise _Declined(f"it reads '{node.name}', which is neither a parameter nor a local")
        elif isinstance(node, c_ast.FuncCall):
            called = node.name.name if isinstance(node.name, c_ast.ID) else ""
            if not math_call(called):
                raise _Declined(f"it calls '{called or 'a function pointer'}'")
            for argument in node.args.exprs if node.args is not None else []:
                self.expression(argument)
        elif isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+", "!", "~", "sizeof"):
            self.expression(node.expr)
        elif isinstance(node, (c_ast.BinaryOp, c_ast.TernaryOp, c_ast.Cast)):
            for _, child in node.children():
                self.expression(child)
        elif not isinstance(node, (c_ast.Constant, c_ast.Typename)):
            raise _Declined(f"its body has a {_construct(node)} inside an expression")


def _base(node: c_ast.Node) -> str:
    while isinstance(node, c_ast.ArrayRef):
        node = node.name
    return node.name if isinstance(node, c_ast.ID) else ""


def _names(node: c_ast.Node) -> set[str]:
    names: set[str] = set()

    class Visitor(c_ast.NodeVisitor):
        def visit_ID(self, n: c_ast.ID) -> None:
            names.add(n.name)

        def visit_FuncCall(self, n: c_ast.FuncCall) -> None:
            if n.args is not None:
                self.visit(n.args)

    Visitor().visit(node)
    return names


def _construct(node: c_ast.Node) -> str:
    if isinstance(node, c_ast.UnaryOp):
        return f"'{node.op}' operation"
    if isinstance(node, c_ast.FuncCall):
        return "call"
    return {
        c_ast.If: "'if'",
        c_ast.For: "loop",
        c_ast.While: "loop",
        c_ast.DoWhile: "loop",
        c_ast.Return: "'return' before its end",
        c_ast.Assignment: "assignment",
    }.get(type(node), type(node).__name__)


def find_callee(file_text: str, name: str, filename: str) -> Callee | str:
    """The summary of function ``name`` from its definition in ``file_text``, or why there is none."""
    found = _definitions(file_text, name)
    if not found:
        return "its body is not in this file"
    if len(found) > 1:
        return "it is defined more than once in this file"
    function = parse_function(*found[0], filename, file_text)
    if function is None:
        return "its definition does not parse"
    try:
        parameters = _parameters(function)
        arrays = {param for param, is_array in parameters if is_array}
        scalars = {param for param, is_array in parameters if not is_array}
        summary = _Summary(arrays, scalars, set(), [], [])
        summary.body(function.body.block_items or [])
    except _Declined as declined:
        return str(declined)
    return Callee(name, parameters, tuple(summary.reads), tuple(summary.writes))
