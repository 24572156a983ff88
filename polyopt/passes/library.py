"""The library step, a part pass of the pipeline: the region cut around its BLAS idioms
(``polyopt.library.recognition``, ``polyopt.library.segments``), each segment run by CBLAS calls when they pay
(``polyopt.library.blas``) or by the GEMM microkernel (``polyopt.library.microkernel``), the rest by the loops.

Public: ``Library``, ``LibraryCut``, ``plan_cut``, ``apply_cut``, ``LibraryPass``, ``LIBRARY``, ``LIBRARY_CALLS``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from polyopt import isl_util
from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.reductions import find_reductions
from polyopt.emit.isl_ast import Generated, generate, print_parametric
from polyopt.frontend.scop import Scop
from polyopt.library import Idiom, find_idioms
from polyopt.library.blas import LINK_NOTE, library_block, library_enabled
from polyopt.library.choice import AWAITING_PROBE, ProbeNeeded, default_choice
from polyopt.library.microkernel import MICROKERNEL_HELPERS, microkernel_block
from polyopt.library.microkernel_plan import MicrokernelPlan, plan_microkernel
from polyopt.library.protocol import BLOCKS
from polyopt.library.segments import LibraryPlan, plan_library, read_later
from polyopt.model import build_model
from polyopt.options import LibraryChoice, Options
from polyopt.passes.base import Part, RegionContext, isl_context
from polyopt.passes.speculative import PartSetting, RunPart
from polyopt.report import Heading, Section, merged

LIBRARY_CALLS = Heading("library", "library calls", 140)


@dataclass(frozen=True)
class Library:
    """How the idiom segments run: CBLAS calls when ``blas``, from the work that ``choice`` says, else or
    below it the ``microkernel`` for GEMM idioms from work ``blocks_from`` (None: the loops), and for SYRK
    and SYR2K from work ``rank_k_from`` (0: never); ``shared``: the level-2 idioms whose matrix another
    statement of the region accesses (the loops may fuse them and read it once)."""

    blas: bool
    choice: LibraryChoice
    microkernel: MicrokernelPlan | None
    shared: frozenset[Idiom] = frozenset()
    rank_k_from: int = 0
    blocks_from: int = 0

    @staticmethod
    def of(options: Options) -> Library | None:
        """What ``options`` ask for; None when no segment is cut out (no reordering, or nothing to call)."""
        if not options.reassociate:
            return None
        blas = library_enabled(options.blas, options.cpp_flags)
        choice = options.library or default_choice(options.machine)
        rank_k = options.machine.rank_k_microkernel
        kernel = choice.microkernel or rank_k > 0
        microkernel = plan_microkernel(options.machine) if options.microkernel and kernel else None
        if not blas and microkernel is None:
            return None
        blocks = options.machine.blocks_microkernel
        return Library(blas, choice, microkernel, rank_k_from=rank_k, blocks_from=blocks)

    def kernel_from(self, idiom: Idiom) -> int | None:
        """The work from which the microkernel computes ``idiom`` where no call is made (None: never): a kind it
        computes as a GEMM on blocks (``BLOCKS``: GEMM, SYMM, TRMM) from the machine's ``blocks-microkernel`` when
        the choice says so, one on its triangle (``TRIANGLE``: SYRK, SYR2K) from its ``rank-k-microkernel``."""
        if self.microkernel is None or idiom.MICROKERNEL is None:
            return None
        if idiom.MICROKERNEL == BLOCKS:
            return self.blocks_from if self.choice.microkernel else None
        return self.rank_k_from if self.rank_k_from > 0 else None

    def cut(self, idioms: tuple[Idiom, ...]) -> tuple[Idiom, ...]:
        """The idioms this library computes: all with BLAS, else those of the microkernel.
        Raises ``ProbeNeeded`` when there are some and the choice waits for the probe."""
        cut = idioms if self.blas else tuple(idiom for idiom in idioms if self.kernel_from(idiom) is not None)
        if cut and self.blas and self.choice == AWAITING_PROBE:
            raise ProbeNeeded
        return cut

    def call_from(self, idiom: Idiom) -> int | None:
        """The work from which ``idiom`` is called (None: never)."""
        return self.choice.threshold(idiom.threshold_key(idiom in self.shared)) if self.blas else None

    def cut_from(self, idiom: Idiom) -> int | None:
        """The work from which ``idiom`` is cut out (None: never): from the microkernel's threshold when the
        idiom is never called, else from its call's threshold."""
        called = self.call_from(idiom)
        return self.kernel_from(idiom) if called is None else called


@dataclass(frozen=True)
class LibraryCut:
    """The ``library`` that runs the segments of ``plan`` (none when every idiom is left to the loops)
    of the region ``ctx``, and the report lines of the idioms left to the loops."""

    ctx: RegionContext
    library: Library
    plan: LibraryPlan
    left: tuple[str, ...]


def plan_cut(
    scop: Scop, options: Options, parameters: Mapping[str, int], dead: frozenset[str], prefix: str
) -> LibraryCut | None:
    """The cut of the region ``scop``, or None when no idiom is cut out or the cut is not legal;
    its context has the exact dependences, relaxed for the region's reductions."""
    library = Library.of(options)
    if library is None:
        return None
    model = build_model(scop, isl_context(options))
    idioms = tuple(idiom for idiom in library.cut(find_idioms(model)) if not _uses_members(scop, idiom))
    if not idioms:
        return None
    library = replace(library, shared=_shared_matrix(scop, idioms))
    deps = compute_dependences(model)
    ctx = RegionContext.of(model, deps, options, find_reductions(model), parameters, dead, prefix)
    plan = plan_library(model, ctx.relaxed, idioms, values=ctx.parameters, threshold=library.cut_from)
    if plan is None:
        return None
    left = tuple(_left(idiom, _sizes(idiom, scop, prefix)[0], library, work) for idiom, work in plan.left)
    return LibraryCut(ctx, library, plan, left)


def apply_cut(cut: LibraryCut, run: RunPart) -> Part:
    """The region as its segments one after the other, each run by ``run`` and its idiom by the library.

    When the region calls the library, its loops start threads only from ``Machine.parallel_work``
    instances (``stream_threads`` off): OpenBLAS's threads keep spinning for a while after a call
    and compete with a team started for a loop over streamed data (covariance, syrk and trmm at
    EXTRALARGE ran 2-5% slower with it on)."""
    ctx, library = cut.ctx, cut.library
    options, scop, dead = ctx.options, ctx.model.scop, ctx.dead
    calls = any(library.call_from(s.idiom) is not None for s in cut.plan.segments if s.idiom is not None)
    machine = replace(options.machine, stream_threads=0) if calls else options.machine
    inner = replace(options, blas="none", machine=machine)
    parts: list[Part] = []
    lines: list[str] = []
    for index, (segment, read) in enumerate(
        zip(cut.plan.segments, read_later(ctx.deps, cut.plan.segments), strict=True)
    ):
        if live := sorted(dead & read):
            lines.append(f"segment {index + 1}: {', '.join(live)} read by a later segment, so not dead after it")
        part = run(scop.restricted(segment.statements), inner, dead - read)
        if segment.idiom is not None:
            tail = _tail(segment.idiom, ctx, dead - read)
            part, described = _library_segment(segment.idiom, part, tail, library, ctx)
            lines.extend(described)
        parts.append(part)
    code = tuple(node for part in parts for node in part.generated.code)
    helpers = frozenset().union(*(part.generated.helpers for part in parts))
    idioms_called = [segment.idiom for segment in cut.plan.segments if segment.idiom is not None]
    notes = (LINK_NOTE,) if any(library.call_from(idiom) is not None for idiom in idioms_called) else ()
    report = merged([part.report for part in parts]).replaced(Section(LIBRARY_CALLS, (*lines, *cut.left, *notes)))
    summary = "; ".join(f"segment {index + 1}: {part.summary}" for index, part in enumerate(parts))
    warnings = tuple(warning for part in parts for warning in part.warnings)
    kind = "library calls" if library.blas else "microkernel"
    return Part(Generated(code, helpers), report, warnings, f"{kind} ({summary})")


def _left(idiom: Idiom, sizes: list[str], library: Library, work: int | None) -> str:
    """The report line of an idiom left to the loops: its work at the assumed values is below its
    threshold, or it is never called (on a matrix that other statements access)."""
    threshold = library.call_from(idiom)
    if threshold is None:
        statements = ", ".join(idiom.statements)
        shared = " on a matrix other statements access" if idiom in library.shared else ""
        return f"{statements}: cblas_?{idiom.ROUTINE} {idiom.formula()} never called{shared}; left to the loops"
    return idiom.describe(sizes, threshold, work)


def _uses_members(scop: Scop, idiom: Idiom) -> bool:
    """Whether the statements of ``idiom`` access a structure member (a call would name the array)."""
    accesses = (a for name in idiom.statements for a in scop.statement(name).reads + scop.statement(name).writes)
    return any(access.array in scop.members for access in accesses)


def _shared_matrix(scop: Scop, idioms: tuple[Idiom, ...]) -> frozenset[Idiom]:
    """The level-2 idioms of ``idioms`` whose matrix a statement of ``scop`` outside the idiom accesses."""
    return frozenset(
        idiom
        for idiom in idioms
        if (matrix := idiom.shared_matrix()) is not None
        and any(
            access.array == matrix
            for statement in scop.statements
            if statement.name not in idiom.statements
            for access in statement.reads + statement.writes
        )
    )


def _sizes(idiom: Idiom, scop: Scop, prefix: str) -> tuple[list[str], frozenset[str]]:
    """The sizes of ``idiom`` printed as C, and the helpers they call."""
    sizes, _, helpers = print_parametric(scop, prefix, [isl_util.extended(size) for size in idiom.sizes])
    return sizes, helpers


def _tail(idiom: Idiom, ctx: RegionContext, dead: frozenset[str]) -> Generated:
    """The code of ``idiom.tail`` in the original order, none when there is no tail or its array is dead."""
    if idiom.tail is None or idiom.tail.array in dead:
        return Generated((), frozenset())
    model = ctx.model
    return generate(model.schedule.intersect_domain(idiom.tail.instances), model.scop, ctx.prefix)


def _library_segment(
    idiom: Idiom, part: Part, tail: Generated, library: Library, ctx: RegionContext
) -> tuple[Part, list[str]]:
    """``part`` (one idiom's segment) run by the microkernel (a GEMM on blocks) and by CBLAS when it pays,
    each after ``tail``, and the report lines of both."""
    options = ctx.options
    sizes, helpers = _sizes(idiom, ctx.model.scop, ctx.prefix)
    code, used, lines = part.generated.code, part.generated.helpers | helpers, []
    kernel_from, threshold = library.kernel_from(idiom), library.call_from(idiom)
    below_call = kernel_from is not None and (threshold is None or kernel_from < threshold)
    if library.microkernel is not None and below_call and idiom.MICROKERNEL is not None:
        parallel_work = options.machine.parallel_work if options.parallel else None
        plan = plan_microkernel(options.machine, ctx.model.widest_element(idiom.statements))
        kernel = microkernel_block(
            idiom,
            sizes,
            plan,
            code,
            cores=options.machine.cores,
            parallel_work=parallel_work,
            from_work=kernel_from,
            tail=tail.code,
        )
        code, used = (kernel,), used | MICROKERNEL_HELPERS | tail.helpers
        lines.append(f"{', '.join(idiom.statements)}: microkernel {plan.describe()}")
    if threshold is not None:
        block, called = library_block(idiom, sizes, code, threshold, tail.code)
        code, used = (block,), used | tail.helpers | called
        lines.append(idiom.describe(sizes, threshold))
    return replace(part, generated=Generated(code, frozenset(used))), lines


class LibraryPass:
    """Plans the cut of the region's statements before any other pass; applies by running each segment
    through the pipeline after the part passes (``inner``: a segment is not privatized) and its idiom by the
    library, or, when every idiom is left to the loops, the whole region through the rest, its report
    saying why."""

    name = "library"
    headings = (LIBRARY_CALLS,)

    def plan(self, scop: Scop, options: Options, dead: frozenset[str], setting: PartSetting) -> LibraryCut | None:
        """The cut of the region ``scop`` (``plan_cut``)."""
        return plan_cut(scop, options, setting.parameters, dead, setting.prefix)

    def apply(self, cut: LibraryCut, rest: RunPart, inner: RunPart) -> Part:
        """The region as its segments, run one after the other (``apply_cut``), else as a whole with the
        report lines of the idioms left to the loops."""
        if cut.plan.segments:
            return apply_cut(cut, inner)
        part = rest(cut.ctx.model.scop, cut.ctx.options, cut.ctx.dead)
        return replace(part, report=part.report.replaced(Section(LIBRARY_CALLS, cut.left))) if cut.left else part

    def report(self, plan: LibraryCut) -> list[Section]:
        return []


LIBRARY = LibraryPass()
