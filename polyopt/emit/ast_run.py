"""Run the loops isl generates for a schedule at given parameter values, to check them.

Public: ``executes_domain_once``.  isl's AST generator, built for any value of the parameters,
was found to skip instances of a legal tiled schedule of a strided domain (fuzz seed 103266);
the loops are turned into Python closures once and run with each sample of parameter values,
and the statement instances they execute are compared with the domain's points there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import islpy as isl

from polyopt import isl_util
from polyopt.emit.ast_build import ast_build

Values = dict[str, int]
Instance = tuple[str, tuple[int, ...]]
_Expr = Callable[[Values], int]
_Node = Callable[[Values, list[Instance]], None]
_OP = isl.ast_expr_op_type


def executes_domain_once(schedule: isl.Schedule, samples: Sequence[Mapping[str, int]]) -> bool:
    """Whether the loops isl generates for ``schedule`` execute every instance of its domain exactly once
    where the parameters take the values of each of ``samples``."""
    run = _node(ast_build(schedule, "c").node_from_schedule(schedule))
    for sample in samples:
        executed: list[Instance] = []
        run(dict(sample), executed)
        if len(set(executed)) != len(executed) or set(executed) != _points(schedule.get_domain(), sample):
            return False
    return True


def _points(domain: isl.UnionSet, sample: Mapping[str, int]) -> set[Instance]:
    """The instances of ``domain`` where the parameters take the values of ``sample``."""
    found: set[Instance] = set()
    for statement in isl_util.sets_of(domain):
        name = statement.get_tuple_name()
        dims = statement.dim(isl.dim_type.set)

        def add(point: isl.Point, name: str = name, dims: int = dims) -> None:
            found.add((name, tuple(point.get_coordinate_val(isl.dim_type.set, d).to_python() for d in range(dims))))

        isl_util.at_parameters(statement, sample).foreach_point(add)
    return found


def _node(node: isl.AstNode) -> _Node:
    kind = node.get_type()
    if kind == isl.ast_node_type.block:
        children = node.block_get_children()
        parts = [_node(children.get_at(i)) for i in range(children.n_ast_node())]

        def block(values: Values, executed: list[Instance]) -> None:
            for part in parts:
                part(values, executed)

        return block
    if kind == isl.ast_node_type.mark:
        return _node(node.mark_get_node())
    if kind == isl.ast_node_type.if_:
        return _if(node)
    if kind == isl.ast_node_type.for_:
        return _for(node)
    call = node.user_get_expr()
    name = call.get_op_arg(0).get_id().get_name()
    indices = [_expr(call.get_op_arg(i)) for i in range(1, call.get_op_n_arg())]

    def user(values: Values, executed: list[Instance]) -> None:
        executed.append((name, tuple(index(values) for index in indices)))

    return user


def _if(node: isl.AstNode) -> _Node:
    cond, then = _expr(node.if_get_cond()), _node(node.if_get_then_node())
    other = _node(node.if_get_else_node()) if node.if_has_else_node() else None

    def branch(values: Values, executed: list[Instance]) -> None:
        if cond(values):
            then(values, executed)
        elif other is not None:
            other(values, executed)

    return branch


def _for(node: isl.AstNode) -> _Node:
    iterator = node.for_get_iterator().get_id().get_name()
    init, body = _expr(node.for_get_init()), _node(node.for_get_body())
    if node.for_is_degenerate():

        def once(values: Values, executed: list[Instance]) -> None:
            body({**values, iterator: init(values)}, executed)

        return once
    cond, step = _expr(node.for_get_cond()), node.for_get_inc().get_val().to_python()

    def loop(values: Values, executed: list[Instance]) -> None:
        inner = dict(values)
        inner[iterator] = init(values)
        while cond(inner):
            body(inner, executed)
            inner[iterator] += step

    return loop


def _c_remainder(left: int, right: int) -> int:
    remainder = abs(left) % abs(right)
    return remainder if left >= 0 else -remainder


_BINARY: dict[object, Callable[[int, int], int]] = {
    _OP.add: lambda a, b: a + b,
    _OP.sub: lambda a, b: a - b,
    _OP.mul: lambda a, b: a * b,
    _OP.div: lambda a, b: a // b,
    _OP.fdiv_q: lambda a, b: a // b,
    _OP.pdiv_q: lambda a, b: a // b,
    _OP.pdiv_r: lambda a, b: a % b,
    _OP.zdiv_r: _c_remainder,
    _OP.eq: lambda a, b: int(a == b),
    _OP.le: lambda a, b: int(a <= b),
    _OP.lt: lambda a, b: int(a < b),
    _OP.ge: lambda a, b: int(a >= b),
    _OP.gt: lambda a, b: int(a > b),
}


def _expr(expr: isl.AstExpr) -> _Expr:
    """``expr`` as a function of the values of the parameters and iterators."""
    kind = expr.get_type()
    if kind == isl.ast_expr_type.int:
        number = expr.get_val().to_python()
        return lambda values: number
    if kind == isl.ast_expr_type.id:
        name = expr.get_id().get_name()
        return lambda values: values[name]
    op = expr.get_op_type()
    args = [_expr(expr.get_op_arg(i)) for i in range(expr.get_op_n_arg())]
    if op == _OP.minus:
        return lambda values: -args[0](values)
    if op in (_OP.min, _OP.max):
        pick = min if op == _OP.min else max
        return lambda values: pick(arg(values) for arg in args)
    if op in (_OP.cond, _OP.select):
        return lambda values: args[1](values) if args[0](values) else args[2](values)
    if op in (_OP.and_, _OP.and_then):
        return lambda values: int(bool(args[0](values)) and bool(args[1](values)))
    if op in (_OP.or_, _OP.or_else):
        return lambda values: int(bool(args[0](values)) or bool(args[1](values)))
    left, right, apply = args[0], args[1], _BINARY[op]
    return lambda values: apply(left(values), right(values))
