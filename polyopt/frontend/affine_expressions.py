"""Affine expressions and conditions of loop bounds, ``if`` conditions and subscripts."""

from __future__ import annotations

from dataclasses import replace

from pycparser import c_ast

from polyopt.frontend.extract_state import Context, ExtractorState
from polyopt.frontend.scop import Affine, BinOp, Compare, Condition, Const, Logic, Neg, Not, Select, Var

INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # the generated loop iterators are 'int'
AFFINE_CALLS = {"min": "min", "max": "max", "MIN": "min", "MAX": "max", "floord": "floord", "ceild": "ceild"}
_COMPARISONS = {"<", "<=", ">", ">=", "==", "!="}


def int_literal(text: str) -> int | None:
    body = text.rstrip("uUlL")
    try:
        if body.lower().startswith("0x"):
            return int(body, 16)
        if len(body) > 1 and body.startswith("0") and body.isdigit():
            return int(body, 8)
        return int(body)
    except ValueError:
        return None


def const_value(expr: Affine) -> int | None:
    """The value of a constant affine tree, or None."""
    if isinstance(expr, Const):
        return expr.value
    if isinstance(expr, Neg):
        inner = const_value(expr.operand)
        return None if inner is None else -inner
    if isinstance(expr, BinOp) and expr.op in ("+", "-", "*"):
        left, right = const_value(expr.left), const_value(expr.right)
        if left is None or right is None:
            return None
        return {"+": left + right, "-": left - right, "*": left * right}[expr.op]
    return None


class AffineExpressions(ExtractorState):
    """Reading C expressions as affine expressions and conditions over iterators and parameters."""

    def affine(self, node: c_ast.Node, ctx: Context) -> Affine:
        if isinstance(node, c_ast.Constant):
            value = int_literal(node.value) if node.type in ("int", "long", "unsigned int") else None
            if value is None:
                raise self.fail(f"non-integer constant '{node.value}' in an affine expression", node)
            if not INT_MIN <= value <= INT_MAX:
                raise self.fail(f"constant '{node.value}' does not fit in 'int', the type of the generated loops", node)
            return Const(value)
        if isinstance(node, c_ast.ID):
            if ctx.numeric and self.is_named_constant(node, ctx):
                return self.named_constant(node)
            return self.variable(node, ctx)
        if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
            operand = self.affine(node.expr, ctx)
            return Neg(operand) if node.op == "-" else operand
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*", "/", "%"):
            return self.affine_binary(node, ctx)
        if isinstance(node, c_ast.TernaryOp):
            return Select(self.condition(node.cond, ctx), self.affine(node.iftrue, ctx), self.affine(node.iffalse, ctx))
        if isinstance(node, c_ast.FuncCall) and isinstance(node.name, c_ast.ID):
            op = AFFINE_CALLS.get(node.name.name)
            args = node.args.exprs if node.args is not None else []
            if op is not None and len(args) == 2:
                divisor = replace(ctx, numeric=True) if op in ("floord", "ceild") else ctx
                left, right = self.affine(args[0], ctx), self.affine(args[1], divisor)
                if op in ("floord", "ceild"):
                    self.positive_constant(right, node)
                return BinOp(op, left, right)
            raise self.fail(f"call to '{node.name.name}' in an affine expression", node)
        if isinstance(node, c_ast.ArrayRef):
            raise self.fail("array access in a loop bound (a data-dependent loop)", node)
        if isinstance(node, c_ast.StructRef):
            raise self.fail("structure member in a loop bound, condition or subscript", node)
        raise self.fail(f"non-affine expression ({type(node).__name__})", node)

    def affine_binary(self, node: c_ast.BinaryOp, ctx: Context) -> Affine:
        left = self.affine(node.left, self.where_numeric(node, node.left, ctx))
        right = self.affine(node.right, self.where_numeric(node, node.right, ctx))
        if node.op == "*":
            if const_value(left) is None and const_value(right) is None:
                raise self.fail("product of two variables is not affine", node)
        elif node.op in ("/", "%"):
            self.positive_constant(right, node)
        return BinOp(node.op, left, right)

    def positive_constant(self, expr: Affine, node: c_ast.Node) -> None:
        value = const_value(expr)
        if value is None or value <= 0:
            raise self.fail("division by a non-constant or non-positive value is not affine", node)

    def where_numeric(self, node: c_ast.BinaryOp, operand: c_ast.Node, ctx: Context) -> Context:
        """The context of ``operand`` of ``node``: named constants give their values in a divisor and in a
        factor of a product made of named constants and literals only."""
        divisor = node.op in ("/", "%") and operand is node.right
        factor = node.op == "*" and self.constant_expression(operand, ctx)
        return replace(ctx, numeric=True) if divisor or factor else ctx

    def is_named_constant(self, node: c_ast.ID, ctx: Context) -> bool:
        """Whether ``node`` names an integer constant (``polyopt.frontend.constants``), not a variable of the region."""
        name = node.name
        return (
            name in self.constants and name not in self.written and name not in self.all_iterators | set(ctx.iterators)
        )

    def named_constant(self, node: c_ast.ID) -> Const:
        value = self.constants[node.name]
        if not INT_MIN <= value <= INT_MAX:
            reason = f"constant '{node.name}' = {value} does not fit in 'int'"
            raise self.fail(f"{reason}, the type of the generated loops", node)
        return Const(value)

    def constant_expression(self, node: c_ast.Node, ctx: Context) -> bool:
        """Whether ``node`` is built of integer literals and named constants only."""
        if isinstance(node, c_ast.ID):
            return self.is_named_constant(node, ctx)
        if isinstance(node, c_ast.Constant):
            return True
        if isinstance(node, c_ast.UnaryOp) and node.op in ("-", "+"):
            return self.constant_expression(node.expr, ctx)
        if isinstance(node, c_ast.BinaryOp) and node.op in ("+", "-", "*", "/", "%"):
            return self.constant_expression(node.left, ctx) and self.constant_expression(node.right, ctx)
        return False

    def variable(self, node: c_ast.ID, ctx: Context) -> Var:
        name = node.name
        if name in ctx.iterators:
            return Var(name)
        if name in self.all_iterators:
            raise self.fail(f"iterator '{name}' is used outside its loop", node)
        if name in ctx.names:
            raise self.fail(f"'{name}' is declared in the region, so this expression is data-dependent", node)
        if name in self.written:
            raise self.fail(f"'{name}' is written in the region, so this expression is data-dependent", node)
        self.parameters.setdefault(name)
        return Var(name)

    def condition(self, node: c_ast.Node, ctx: Context) -> Condition:
        if isinstance(node, c_ast.BinaryOp) and node.op in _COMPARISONS:
            return Compare(node.op, self.affine(node.left, ctx), self.affine(node.right, ctx))
        if isinstance(node, c_ast.BinaryOp) and node.op in ("&&", "||"):
            op = "and" if node.op == "&&" else "or"
            return Logic(op, self.condition(node.left, ctx), self.condition(node.right, ctx))
        if isinstance(node, c_ast.UnaryOp) and node.op == "!":
            return Not(self.condition(node.expr, ctx))
        return Compare("!=", self.affine(node, ctx), Const(0))
