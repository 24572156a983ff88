"""The region as written as a candidate (``polyopt.analysis.as_written``): its original order with the
parallel and simd marks that pay, kept unless the transformed schedule is predicted clearly faster.

A simd mark pays in the order as written only with a reduction clause, inside a parallel loop or on arrays
reached through pointers: gcc vectorizes a loop over arrays of its own that carries no dependence by itself
(with its own choice of vector length and epilogue), but never reorders a floating-point reduction, and it
cannot prove that arrays reached through pointers (array parameters, the threads' private copies and shared
pointers in the body of a parallel loop) do not overlap.
A loop short enough for gcc to unroll completely gets no mark: the loop around it is the vector loop; nor
does a reduction of fewer than ``REDUCTION_VECTORS`` vectors: its horizontal sum at each run costs more than
gcc's own code for the loops around it.  A parallel loop pays only where its threads start at the region's
sizes, when they are all known.  A transformed schedule that runs the original order is replaced by it.

Public: ``AS_WRITTEN``, ``REDUCTION_VECTORS``, ``weighed``.
"""

from __future__ import annotations

from dataclasses import replace

import islpy as isl

from polyopt.analysis.as_written import (
    AsWrittenChoice,
    choose_as_written,
    keeps_reuse,
    loop_threads,
    loop_trip,
    score_schedule,
    unrolled,
)
from polyopt.analysis.footprint import ELEMENT_BYTES
from polyopt.analysis.vector_loops import VectorLoop
from polyopt.passes.base import Candidate, Decisions, RegionContext
from polyopt.passes.fusion import FUSION
from polyopt.passes.parallel import PARALLEL
from polyopt.passes.unroll_jam import UNROLL_JAM
from polyopt.passes.vector import VECTOR
from polyopt.report import Section
from polyopt.schedule_tree import anchored, band_statements
from polyopt.transform.parallel import ParallelLoop, ParallelPlan
from polyopt.transform.vector import VectorPlan

REDUCTION_VECTORS = 8  # a simd reduction pays from this many vectors' worth of iterations per run


class AsWrittenPass:
    """Chooses between the order as written and the transformed schedule (``weighed``), when the options
    ask for it (``as_written``)."""

    name = "as_written"

    def choose(self, written: RegionContext, earlier: Decisions, transformed: Candidate) -> Candidate:
        return weighed(written, earlier, transformed) if written.options.as_written else transformed

    def report(self, plan: AsWrittenChoice) -> list[Section]:
        return [Section("as_written", plan.lines()), Section("fusion_candidates", plan.candidates)]

    def summary(self, plan: AsWrittenChoice) -> str | None:
        return plan.summary() if plan.kept else None


AS_WRITTEN = AsWrittenPass()


def weighed(written: RegionContext, earlier: Decisions, transformed: Candidate) -> Candidate:
    """``transformed``, or the original order of ``written`` (the region after its rewrites, ``earlier``
    its decisions) with its parallel loops and the simd loops that pay, whichever ``choose_as_written`` keeps;
    the original order whenever ``transformed`` runs it, unless it unrolls and jams loops (gcc does not) or
    reaches arrays through pointers (its marks tell gcc what it cannot prove)."""
    ctx, schedule, decisions = transformed
    jams = decisions.plan_of(UNROLL_JAM)
    jammed = jams is not None and bool(jams.jams)
    same = _same_order(schedule, written.model.schedule)
    if same and (jammed or _through_pointers(written, set(written.model.domains))):
        return transformed
    original, marks = _marked(written, earlier)
    if same:
        choice = AsWrittenChoice(True, None, None, "the transformed schedule runs the original order")
        return written, original, marks.then(AS_WRITTEN, choice)
    machine, parameters = written.machine, written.parameters
    score = score_schedule(written.model, original, written.deps.full, machine, parameters)
    lost = "unroll-and-jam keeps operands in registers across iterations" if jammed else None
    choice = choose_as_written(
        score,
        score_schedule(ctx.model, schedule, ctx.deps.full, machine, parameters),
        lost or keeps_reuse(written.model, score, machine, parameters),
    )
    if choice.kept:
        fusion = decisions.plan_of(FUSION)
        candidates = fusion.plan.candidates if fusion is not None else ()
        return written, original, marks.then(AS_WRITTEN, replace(choice, candidates=candidates))
    return ctx, schedule, decisions.then(AS_WRITTEN, choice)


def _marked(written: RegionContext, earlier: Decisions) -> tuple[isl.Schedule, Decisions]:
    """The original order of ``written`` with the parallel loops whose threads start and the simd loops that
    pay, and ``earlier`` followed by their plans."""
    schedule, marks, threaded = written.model.schedule, earlier, set()
    if (threads := PARALLEL.plan(written, schedule, earlier)) is not None:
        threads = _starting(written, schedule, threads)
        threaded = {name for loop in threads.loops for name in loop.statements}
        schedule, marks = PARALLEL.apply(written, schedule, threads), marks.then(PARALLEL, threads)
    vector = VECTOR.plan(written, schedule, marks)
    vector = VectorPlan(
        tuple(replace(loop, simd=loop.simd and _pays(written, schedule, loop, threaded)) for loop in vector.loops)
    )
    return VECTOR.apply(written, schedule, vector), marks.then(VECTOR, vector)


def _starting(ctx: RegionContext, schedule: isl.Schedule, plan: ParallelPlan) -> ParallelPlan:
    """``plan`` without the loops whose threads never start, when every size of the region is known: their
    ``if`` clause still costs a call into the OpenMP runtime at each execution (and its outlined body)."""
    if ctx.guessed:
        return plan
    machine = ctx.machine

    def starts(loop: ParallelLoop) -> bool:
        band = anchored(schedule, loop.band)
        work = loop.work or machine.parallel_work
        return loop_threads(band, loop.member, ctx.model, machine, ctx.parameters, work) > 1

    return ParallelPlan(tuple(loop for loop in plan.loops if starts(loop)))


def _pays(ctx: RegionContext, schedule: isl.Schedule, loop: VectorLoop, threaded: set[str]) -> bool:
    """Whether the simd mark of ``loop`` pays in the order as written (module docstring)."""
    band = anchored(schedule, loop.band)
    trip = loop_trip(band, loop.member, ctx.model, ctx.parameters)
    if unrolled(trip):
        return False
    if loop.reductions:
        lanes = max(1, ctx.machine.simd_bytes // ELEMENT_BYTES)
        return trip is None or trip >= REDUCTION_VECTORS * lanes
    statements = band_statements(band)
    return bool(statements & threaded) or _through_pointers(ctx, statements)


def _through_pointers(ctx: RegionContext, statements: set[str]) -> bool:
    """Whether ``statements`` reach an array through a pointer (or one whose declaration is not seen): gcc
    then vectorizes only behind a run-time test that the arrays do not overlap, or not at all."""
    declared = ctx.model.scop.declarations.objects
    arrays = {
        ref.array for ref in ctx.model.references if ref.statement in statements and ref.relation.dim(isl.dim_type.out)
    }
    return any(array not in declared or declared[array].indirect for array in arrays)


def _same_order(first: isl.Schedule, second: isl.Schedule) -> bool:
    """Whether the two schedules run the instances in the same order."""
    one = first.get_map().intersect_domain(first.get_domain())
    other = second.get_map().intersect_domain(second.get_domain())
    return one.lex_lt_union_map(one).is_equal(other.lex_lt_union_map(other))
