"""Print the small C AST as indented C text.

Public: ``print_c``.
"""

from __future__ import annotations

from polyopt.emit.cast import CBlock, CDecl, CFor, CIf, CNode, CStmt


def _braced(body: tuple[CNode, ...], indent: str, unit: str) -> list[str]:
    lines = ["{"]
    for node in body:
        lines.extend(_node(node, indent + unit, unit))
    lines.append(indent + "}")
    return lines


def _join_header(header: str, body: tuple[CNode, ...], indent: str, unit: str) -> list[str]:
    block = _braced(body, indent, unit)
    return [f"{indent}{header} {block[0]}"] + block[1:]


def _node(node: CNode, indent: str, unit: str) -> list[str]:
    if isinstance(node, CStmt | CDecl):
        return [indent + node.text]
    if isinstance(node, CBlock):
        block = _braced(node.body, indent, unit)
        return [indent + block[0]] + block[1:]
    if isinstance(node, CFor):
        step = f"{node.iterator}++" if node.step == "1" else f"{node.iterator} += {node.step}"
        header = f"for ({node.ctype} {node.iterator} = {node.init}; {node.cond}; {step})"
        if node.bound is not None and not node.pragmas:
            limit = f"{node.iterator}_hi"
            operator, expression = node.bound
            init = f"{node.ctype} {node.iterator} = {node.init}, {limit} = {expression}"
            header = f"for ({init}; {node.iterator} {operator} {limit}; {step})"
        pragmas = [f"{indent}#pragma {pragma}" for pragma in node.pragmas]
        if pragmas and node.clauses:
            pragmas[-1] += " " + " ".join(node.clauses)
        return pragmas + _join_header(header, node.body, indent, unit)
    if isinstance(node, CIf):
        lines = _join_header(f"if ({node.cond})", node.then, indent, unit)
        if node.other:
            block = _braced(node.other, indent, unit)
            lines[-1] = f"{lines[-1]} else {block[0]}"
            lines.extend(block[1:])
        return lines
    raise TypeError(f"not a C AST node: {node!r}")


def print_c(nodes: tuple[CNode, ...], indent: str = "", unit: str = "  ") -> str:
    """The C text of ``nodes``, each line starting with ``indent``."""
    lines: list[str] = []
    for node in nodes:
        lines.extend(_node(node, indent, unit))
    return "\n".join(lines) + "\n"
