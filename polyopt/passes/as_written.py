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

The region as written is the region before its rewrites (no scalar expanded or renamed, no statement split),
so that, when kept, it is printed as its own source text with only these pragmas inserted
(``polyopt.emit.source_text``); only marks that the text can carry are weighed.

Public: ``AS_WRITTEN``, ``SOURCE_TEXT``, ``AS_WRITTEN_AGAINST``, ``weighed``, ``source_context``.
"""

from __future__ import annotations

from dataclasses import replace

import islpy as isl

from polyopt.analysis.as_written import (
    AsWrittenChoice,
    choose_as_written,
    loop_trip,
    score_schedule,
    seen_by_gcc,
    unrolled,
)
from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.vector_loops import VectorLoop
from polyopt.analysis.written_reuse import keeps_reuse
from polyopt.emit.source_text import SourceText
from polyopt.frontend.scop import loops_of
from polyopt.marks import ELEMENT, SECTION
from polyopt.model import PolyModel
from polyopt.passes.base import NO_DECISIONS, Candidate, Decisions, RegionContext
from polyopt.passes.fusion import FUSION, FUSION_CANDIDATES
from polyopt.passes.parallel import PARALLEL
from polyopt.passes.reductions import REDUCTIONS
from polyopt.passes.steps import ModelSteps
from polyopt.passes.unroll_jam import UNROLL_JAM
from polyopt.passes.vector import VECTOR
from polyopt.report import Heading, Section
from polyopt.schedule_tree import anchored, band_statements
from polyopt.transform.parallel import ParallelLoop, ParallelPlan
from polyopt.transform.vector import VectorPlan

AS_WRITTEN_AGAINST = Heading("as_written", "as written against transformed (cost model)", 80)


class AsWrittenPass:
    """Chooses between the order as written and the transformed schedule (``weighed``), when the options
    ask for it (``as_written``)."""

    name = "as_written"
    headings = (AS_WRITTEN_AGAINST, FUSION_CANDIDATES)

    def choose(self, written: RegionContext, earlier: Decisions, transformed: Candidate) -> Candidate:
        return weighed(written, earlier, transformed) if written.options.as_written else transformed

    def report(self, plan: AsWrittenChoice) -> list[Section]:
        return [Section(AS_WRITTEN_AGAINST, plan.lines()), Section(FUSION_CANDIDATES, plan.candidates)]

    def summary(self, plan: AsWrittenChoice) -> str | None:
        return plan.summary() if plan.kept else None


AS_WRITTEN = AsWrittenPass()


class SourceTextStep:
    """A whole region kept in its original order is printed as its source text, with the pragmas of its
    marked loops inserted (``polyopt.emit.source_text``)."""

    name = "source_text"
    headings = (AS_WRITTEN_AGAINST,)

    def report(self, plan: SourceText) -> list[Section]:
        inserted = tuple(f"'#pragma {p.text}' before the loop at line {p.location.line}" for p in plan.pragmas)
        return [Section(AS_WRITTEN_AGAINST, ("printed as the source text", *inserted, *plan.notes))]

    def summary(self, plan: SourceText) -> str | None:
        return "kept as written (source text)"


SOURCE_TEXT = SourceTextStep()


def weighed(written: RegionContext, earlier: Decisions, transformed: Candidate) -> Candidate:
    """``transformed``, or the region in its original order with its parallel loops and the simd loops that
    pay (``_as_written``), whichever ``choose_as_written`` keeps (``written`` is the region after its
    rewrites, ``earlier`` their decisions); the original order whenever ``transformed`` runs it, unless it
    unrolls and jams loops (gcc does not)."""
    ctx, schedule, decisions = transformed
    jams = decisions.plan_of(UNROLL_JAM)
    jammed = jams is not None and bool(jams.jams)
    same = _same_order(schedule, written.model.schedule)
    if same and jammed:
        return transformed
    kept, original, marks, dependences, text = _as_written(written, earlier)
    if same:
        choice = AsWrittenChoice(True, None, None, "the transformed schedule runs the original order", text=text)
        return kept, original, marks.then(AS_WRITTEN, choice)
    machine, parameters = written.machine, written.parameters
    score = score_schedule(kept.model, original, dependences, machine, parameters)
    lost = "unroll-and-jam keeps operands in registers across iterations" if jammed else None
    choice = choose_as_written(
        score,
        score_schedule(ctx.model, schedule, ctx.deps.full, machine, parameters),
        lost or keeps_reuse(kept.model, score, machine, parameters),
    )
    if choice.kept:
        fusion = decisions.plan_of(FUSION)
        candidates = fusion.plan.candidates if fusion is not None else ()
        return kept, original, marks.then(AS_WRITTEN, replace(choice, candidates=candidates, text=text))
    return ctx, schedule, decisions.then(AS_WRITTEN, choice)


def _as_written(
    written: RegionContext, earlier: Decisions
) -> tuple[RegionContext, isl.Schedule, Decisions, isl.UnionMap, bool]:
    """The region in its original order as a candidate: its context, marked schedule, decisions, the
    dependences that bind gcc's code for it and whether it is the text as written.  That is the region as
    written (``source_context``, printed as its text), unless the rewritten region (``written``) has more
    parallel loops whose threads start, or more simd loops that pay, than the text can carry: then the
    rewritten region, regenerated in its original order."""
    source, reductions = source_context(written)
    original, marks = _marked(source, reductions)
    regenerated, rewritten = _marked(written, earlier, on_text=False)
    if _mark_counts(rewritten) > _mark_counts(marks):
        return written, regenerated, rewritten, written.deps.full, False
    return source, original, marks, seen_by_gcc(source.deps), True


def source_context(written: RegionContext) -> tuple[RegionContext, Decisions]:
    """The context of the region as written (before its rewrites: ``written.original``), with its reductions,
    and the decision that found them."""
    model = source_model(written)
    if model is written.model:
        found = REDUCTIONS.plan(written, model.schedule, NO_DECISIONS)
        return written, NO_DECISIONS if found is None else NO_DECISIONS.then(REDUCTIONS, found)
    start = RegionContext.of(
        model, compute_dependences(model), written.options, (), written.parameters, written.dead, written.prefix
    )
    start = replace(start, guessed=written.guessed)
    ctx, _, decisions = ModelSteps((REDUCTIONS,)).run((start, model.schedule, NO_DECISIONS))
    return ctx, decisions


def source_model(written: RegionContext) -> PolyModel:
    """The model of the region as written, before its rewrites."""
    return written.original or written.model


def _mark_counts(marks: Decisions) -> tuple[int, int]:
    threads, vector = marks.plan_of(PARALLEL), marks.plan_of(VECTOR)
    parallel = len(threads.loops) if threads is not None else 0
    return parallel, sum(loop.simd for loop in vector.loops) if vector is not None else 0


def _marked(written: RegionContext, earlier: Decisions, on_text: bool = True) -> tuple[isl.Schedule, Decisions]:
    """The original order of ``written`` with the parallel loops whose threads start and the simd loops that
    pay, and ``earlier`` followed by their plans; ``on_text``: only those the text as written can carry (a loop
    that reduces an array section in parallel, or keeps a reduced element in a local, has its code rewritten)."""
    schedule, marks, threaded = written.model.schedule, earlier, set()
    if (threads := PARALLEL.plan(written, schedule, earlier)) is not None:
        threads = ParallelPlan(tuple(loop for loop in threads.loops if not (on_text and _off_text(written, loop))))
        threaded = {name for loop in threads.loops for name in loop.statements}
        schedule, marks = PARALLEL.apply(written, schedule, threads), marks.then(PARALLEL, threads)
    vector = VECTOR.plan(written, schedule, marks)

    def keeps(loop: VectorLoop) -> bool:
        off_text = on_text and (_reduces(loop, ELEMENT) or not _canonical(written, {loop.chosen}))
        return loop.simd and not off_text and _pays(written, schedule, loop, threaded)

    vector = VectorPlan(tuple(replace(loop, simd=keeps(loop)) for loop in vector.loops))
    return VECTOR.apply(written, schedule, vector), marks.then(VECTOR, vector)


def _off_text(ctx: RegionContext, loop: ParallelLoop) -> bool:
    """Whether the text as written cannot carry the pragma of the parallel ``loop`` (``polyopt.emit.source_text``):
    it reduces an array section, a loop inside it leaves a value read after the region, or its test is not in
    OpenMP's canonical form."""
    iterators = {expression for _, expression in loop.expressions}
    return _reduces(loop, SECTION) or _live_inside(ctx, loop) or not _canonical(ctx, iterators)


def _canonical(ctx: RegionContext, iterators: set[str]) -> bool:
    """Whether every loop of the text over one of ``iterators`` is in OpenMP's canonical form."""
    return all(loop.canonical for loop in loops_of(ctx.model.scop.tree) if loop.iterator in iterators)


def _live_inside(ctx: RegionContext, loop: ParallelLoop) -> bool:
    """Whether a loop of the text inside ``loop`` has an iterator declared outside its ``for`` that is read
    after the region: a thread's last run of it would leave that value, so the text cannot carry the
    pragma (``polyopt.emit.source_text``)."""
    iterators = {expression for _, expression in loop.expressions}
    return any(
        exit.variable not in iterators and any(name in iterators for _, name, _ in exit.enclosing)
        for exit in ctx.model.scop.exits
    )


def _reduces(loop: ParallelLoop | VectorLoop, mode: str) -> bool:
    return any(clause.mode == mode for clause in loop.reductions)


def _pays(ctx: RegionContext, schedule: isl.Schedule, loop: VectorLoop, threaded: set[str]) -> bool:
    """Whether the simd mark of ``loop`` pays in the order as written (module docstring)."""
    band = anchored(schedule, loop.band)
    trip = loop_trip(band, loop.member, ctx.model, ctx.parameters)
    if unrolled(trip):
        return False
    if loop.reductions:  # long enough (``polyopt.passes.vector``)
        return True
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
