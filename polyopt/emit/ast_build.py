"""The isl AST build of a schedule: its loop iterators named by depth, and its innermost simd loops peeled
(their boundary iterations in loops of their own).

Public: ``ast_build``, ``peeled``.
"""

from __future__ import annotations

import islpy as isl

from polyopt.marks import JAM_MARK, SIMD_MARK, LoopMark
from polyopt.schedule_tree import band_has_inner_band, band_nodes, node_at, parent_mark


def ast_build(schedule: isl.Schedule, iterator_prefix: str) -> isl.AstBuild:
    """The AST build for ``schedule``; loop iterators are named ``iterator_prefix`` + depth."""
    depth = max(1, _max_depth(schedule))
    ctx = schedule.get_ctx()
    names = isl.IdList.alloc(ctx, depth)
    for level in range(depth):
        names = names.add(isl.Id(f"{iterator_prefix}{level}", context=ctx))
    context = isl.Set.universe(schedule.get_domain().get_space().params())
    return isl.AstBuild.from_context(context).set_iterators(names)


def peeled(schedule: isl.Schedule) -> isl.Schedule:
    """``schedule`` with the loops of each innermost simd band separated: isl then generates one loop for
    each range of iterations that runs the same statements (the boundary iterations peeled off), instead of
    one loop with guards in its body, which gcc vectorizes with masks or not at all.  A band under a loop
    that is unrolled and jammed keeps its one loop, into which the copies are jammed."""
    for path, band in band_nodes(schedule):
        mark = parent_mark(band)
        if mark is None or mark.kind != SIMD_MARK or band_has_inner_band(band) or _jammed_into(band):
            continue
        node = node_at(schedule, path)
        for member in range(node.band_n_member()):
            node = node.band_member_set_ast_loop_type(member, isl.ast_loop_type.separate)
        schedule = node.get_schedule()
    return schedule


def _jammed_into(node: isl.ScheduleNode) -> bool:
    """Whether a loop around ``node`` is unrolled and jammed."""
    while node.has_parent():
        node = node.parent()
        if node.get_type() == isl.schedule_node_type.mark and LoopMark.parse(node.mark_get_id().name).kind == JAM_MARK:
            return True
    return False


def _max_depth(schedule: isl.Schedule) -> int:
    depths = [0]

    def visit(node: isl.ScheduleNode) -> bool:
        if node.get_type() == isl.schedule_node_type.leaf:
            depths.append(node.get_schedule_depth())
        return True

    schedule.get_root().foreach_descendant_top_down(visit)
    return max(depths)
