"""Verification of a region's final schedule before its code is emitted.

Public: ``verify_schedule``, ``verify_loops``, ``printable``, ``checked``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.dependences import Dependences
from polyopt.analysis.reduction_clauses import reduction_clauses
from polyopt.analysis.reductions import Reduction
from polyopt.diagnostics import IllegalTransform
from polyopt.emit.ast_run import executes_domain_once
from polyopt.emit.isl_ast import section_fits
from polyopt.marks import JAM_MARK, PARALLEL_MARK, SECTION, SIMD_MARK
from polyopt.model import PolyModel
from polyopt.options import Options
from polyopt.passes.base import NO_DECISIONS, Decisions, RegionContext
from polyopt.passes.tiling import TILING
from polyopt.schedule_tree import (
    band_nodes,
    carries,
    member_expressions,
    member_map,
    parent_mark,
    schedule_respects,
)
from polyopt.transform.unroll_jam import jam_legal, jam_order_kept

SAMPLE_VALUES = (3, 8, 13)  # parameter values at which the loops generated for a strided domain are run


def verify_schedule(
    model: PolyModel, schedule: isl.Schedule, deps: Dependences, reductions: tuple[Reduction, ...] = ()
) -> None:
    """Re-prove the order and every parallel, simd or unroll-and-jam mark against the dependences
    (relaxed for ``reductions``), and that each mark names the reductions its loop carries."""
    if not schedule_respects(schedule, deps.full):
        raise IllegalTransform("the schedule violates a dependence")
    for _, band in band_nodes(schedule):
        mark = parent_mark(band)
        if mark is not None and mark.kind == JAM_MARK:
            _check_jam(band, deps.full)
        if mark is None or mark.kind not in (PARALLEL_MARK, SIMD_MARK):
            continue
        if carries(band, 0, deps.full):
            raise IllegalTransform("a loop marked parallel carries a dependence")
        needed = reduction_clauses(model, band, 0, reductions, allow_sections=mark.kind == PARALLEL_MARK)
        if needed is None or set(needed) != set(mark.reductions):
            raise IllegalTransform("a parallel loop's reduction clauses do not match the reductions it carries")


def _check_jam(band: isl.ScheduleNode, dependences: isl.UnionMap) -> None:
    """Re-prove a jam mark: into a vector loop (below a simd mark) or into a scalar loop (the band below)."""
    inner = band.child(0)
    if inner.get_type() == isl.schedule_node_type.mark:
        if not jam_legal(band, 0, member_map(inner.child(0), 0), dependences):
            raise IllegalTransform("a loop jammed into a vector loop has a dependence across its iterations")
        return
    if inner.get_type() != isl.schedule_node_type.band:
        raise IllegalTransform("a loop marked for unroll-and-jam encloses no inner loop")
    if not jam_order_kept(band, 0, member_map(inner, 0), dependences):
        raise IllegalTransform("a loop jammed into an inner loop has a dependence to a later copy, earlier column")


def verify_loops(model: PolyModel, schedule: isl.Schedule) -> None:
    """On a domain with strides or modulo conditions, run the loops isl generates for ``schedule`` with all the
    parameters at each of ``SAMPLE_VALUES`` and check that they execute each statement instance once (isl's
    loops for a tiled schedule of a stride-2 domain were found to skip instances)."""
    if not isl_util.has_local_variables(schedule.get_domain()):
        return
    samples = [{name: value for name in model.scop.parameters} for value in SAMPLE_VALUES]
    if not executes_domain_once(schedule, samples):
        raise IllegalTransform("the loops generated for the schedule do not execute each statement instance once")


def printable(model: PolyModel, schedule: isl.Schedule, section_limit: int) -> tuple[isl.Schedule, tuple[str, ...]]:
    """``schedule`` without the parallel marks that reduce a section of an array with 1 to ``section_limit``
    elements at no parameter values (the printer's limit, ``polyopt.emit.isl_ast``): their loops run
    sequentially, as the notes (one per mark) say."""
    notes: list[str] = []
    while (unfit := _unfit_section(model, schedule, section_limit)) is not None:
        band, array = unfit
        loop = " / ".join(sorted(set(member_expressions(band, 0).values())))
        notes.append(
            f"loop {loop} not parallel: its reduced section of {array} never has 1 to {section_limit} elements"
        )
        schedule = band.parent().delete().get_schedule()
    return schedule, tuple(notes)


def _unfit_section(model: PolyModel, schedule: isl.Schedule, section_limit: int) -> tuple[isl.ScheduleNode, str] | None:
    """The first band under a parallel mark with a reduced section that fits nowhere, and that section's array."""
    for _, band in band_nodes(schedule):
        mark = parent_mark(band)
        arrays = [c.array for c in mark.reductions if c.mode == SECTION] if mark and mark.kind == PARALLEL_MARK else []
        for array in arrays:
            if section_fits(model.section(array)[1], section_limit).is_empty():
                return band, array
    return None


# the schedule passes again with other options: the region's context (rewritten when innermost loops are
# split), schedule and decisions
Retry = Callable[[Options, Decisions], tuple[RegionContext, isl.Schedule, Decisions]]


def checked(
    ctx: RegionContext, schedule: isl.Schedule, decided: tuple[Decisions, Decisions], start: RegionContext, retry: Retry
) -> tuple[RegionContext, isl.Schedule, Decisions, str | None]:
    """``schedule`` verified with its ``decided`` (the rewrites' decisions, and all of them); a tiled
    schedule whose loops miss instances is decided again by ``retry`` without tiling; the marks the printer
    cannot print are removed, each with a note (``printable``).  When verification fails, the region ``start``
    in its original order instead, and the message why."""
    rewrites, decisions = decided
    try:
        verify_schedule(ctx.model, schedule, ctx.relaxed, ctx.reductions)
        try:
            verify_loops(ctx.model, schedule)
        except IllegalTransform as skipping:
            tiles = decisions.plan_of(TILING)
            if tiles is None or not tiles.bands:
                raise
            options = replace(ctx.options, tiling=replace(ctx.options.tiling, enabled=False))
            rejected = rewrites.noted(f"tiled schedule rejected ({skipping.message}): not tiled")
            ctx, schedule, decisions = retry(options, rejected)
            verify_schedule(ctx.model, schedule, ctx.relaxed, ctx.reductions)
            verify_loops(ctx.model, schedule)
    except IllegalTransform as illegal:
        message = f"{illegal.message}; falling back to the original schedule"
        return start, start.model.schedule, NO_DECISIONS.noted(message), message
    schedule, notes = printable(ctx.model, schedule, ctx.machine.section_limit)
    return ctx, schedule, decisions.noted(*notes) if notes else decisions, None
