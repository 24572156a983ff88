"""One OpenMP parallel region around a sequential loop instead of one per iteration.

Public: ``hoist_parallel_regions``.

A sequential loop whose body holds nothing but parallel loops (possibly under
further sequential loops, conditions and degenerate-loop declarations) gets
``#pragma omp parallel`` and its parallel loops become ``omp for``: every
thread walks the sequential loop, the iterations of each inner loop are
shared out, and the implicit barrier after each ``omp for`` keeps the order.
A statement outside the parallel loops would run on every thread, so such a
body is left alone.  The parallel loops' ``if(...)`` clauses (``omp for``
takes none) move to the region, which starts threads when any of them would.
"""

from __future__ import annotations

from dataclasses import replace

from polyopt.emit.cast import CBlock, CFor, CIf, CNode, CStmt

_PARALLEL = {"omp parallel for": "omp for", "omp parallel for simd": "omp for simd"}


def _is_parallel(loop: CFor) -> bool:
    return any(pragma in _PARALLEL for pragma in loop.pragmas)


def _only_parallel_work(nodes: tuple[CNode, ...]) -> bool:
    """Whether every statement in ``nodes`` sits inside a parallel loop."""
    for node in nodes:
        if isinstance(node, CStmt):
            return False
        if isinstance(node, CFor) and not _is_parallel(node) and not _only_parallel_work(node.body):
            return False
        if isinstance(node, CIf) and not (_only_parallel_work(node.then) and _only_parallel_work(node.other)):
            return False
        if isinstance(node, CBlock) and not _only_parallel_work(node.body):
            return False
    return True


def _is_condition(clause: str) -> bool:
    return clause.startswith("if(")


def _work_sharing(nodes: tuple[CNode, ...], conditions: list[str]) -> tuple[CNode, ...]:
    """Turn the parallel loops in ``nodes`` into work-sharing ``omp for`` loops; their
    ``if`` conditions go to ``conditions``."""
    result: list[CNode] = []
    for node in nodes:
        if isinstance(node, CFor) and _is_parallel(node):
            conditions.extend(clause[3:-1] for clause in node.clauses if _is_condition(clause))
            clauses = tuple(clause for clause in node.clauses if not _is_condition(clause))
            pragmas = tuple(_PARALLEL.get(p, p) for p in node.pragmas)
            result.append(replace(node, pragmas=pragmas, clauses=clauses))
        elif isinstance(node, CFor):
            result.append(replace(node, body=_work_sharing(node.body, conditions)))
        elif isinstance(node, CIf):
            result.append(
                replace(node, then=_work_sharing(node.then, conditions), other=_work_sharing(node.other, conditions))
            )
        elif isinstance(node, CBlock):
            result.append(replace(node, body=_work_sharing(node.body, conditions)))
        else:
            result.append(node)
    return tuple(result)


def _has_parallel(nodes: tuple[CNode, ...]) -> bool:
    for node in nodes:
        if isinstance(node, CFor) and (_is_parallel(node) or _has_parallel(node.body)):
            return True
        if isinstance(node, CIf) and (_has_parallel(node.then) or _has_parallel(node.other)):
            return True
        if isinstance(node, CBlock) and _has_parallel(node.body):
            return True
    return False


def hoist_parallel_regions(nodes: tuple[CNode, ...]) -> tuple[CNode, ...]:
    """Open one parallel region around each outermost eligible sequential loop."""
    result: list[CNode] = []
    for node in nodes:
        if isinstance(node, CFor) and not node.pragmas and _has_parallel(node.body):
            if _only_parallel_work(node.body):
                conditions: list[str] = []
                body = _work_sharing(node.body, conditions)
                clauses = (f"if({' || '.join(f'({c})' for c in dict.fromkeys(conditions))})",) if conditions else ()
                node = replace(node, pragmas=("omp parallel",), body=body, clauses=clauses)
            else:
                node = replace(node, body=hoist_parallel_regions(node.body))
        elif isinstance(node, CIf):
            node = replace(node, then=hoist_parallel_regions(node.then), other=hoist_parallel_regions(node.other))
        elif isinstance(node, CBlock):
            node = replace(node, body=hoist_parallel_regions(node.body))
        result.append(node)
    return tuple(result)
