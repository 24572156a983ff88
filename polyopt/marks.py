"""Names of the schedule-tree marks that carry loop decisions to code generation.

Public: ``PARALLEL_MARK``, ``SIMD_MARK``, ``JAM_MARK``, ``VARIABLE``, ``ELEMENT``, ``SECTION``,
``CYCLIC``, ``WORK``, ``ReductionClause``, ``LoopMark``.

A mark sits above the band whose first member it annotates; its name records
that member's schedule depth, which is also the number in the generated
loop's iterator name, so the printer puts the pragma on exactly that loop.
The name also lists the reductions the loop carries, e.g.
``omp_simd@3;+:tmp:element``, and ``~cyclic`` after the depth when a parallel
loop's iterations do unequal work and are dealt out one by one
(``schedule(static, 1)``), e.g. ``omp_parallel_for@0~cyclic``, and ``~work=N`` when a parallel loop starts
threads from ``N`` statement instances rather than the machine's ``parallel_work``.  A loop unrolled and jammed into the
vector loop inside it carries its factor after the depth: ``unroll_jam@2*4``.
"""

from __future__ import annotations

from dataclasses import dataclass

PARALLEL_MARK = "omp_parallel_for"
SIMD_MARK = "omp_simd"
JAM_MARK = "unroll_jam"

VARIABLE = "variable"  # a scalar: reduction(op:x)
ELEMENT = "element"  # one array element per run of the loop, kept in a local: reduction(op:local)
SECTION = "section"  # several elements of a 1-D array: reduction(op:x[lo:len])
CYCLIC = "~cyclic"  # iterations dealt out to the threads one by one
WORK = "~work="  # the statement instances from which a parallel loop starts threads


@dataclass(frozen=True)
class ReductionClause:
    """The loop combines private partial results of ``array`` with ``op``, as ``mode`` says."""

    op: str
    array: str
    mode: str

    def describe(self) -> str:
        return f"reduction({self.op}:{self.array}{'[...]' if self.mode == SECTION else ''})"


@dataclass(frozen=True)
class LoopMark:
    """A loop decision: ``kind`` on the member at schedule depth ``depth``."""

    kind: str
    depth: int | None
    reductions: tuple[ReductionClause, ...] = ()
    cyclic: bool = False
    factor: int = 0
    work: int = 0

    def name(self) -> str:
        clauses = "".join(f";{c.op}:{c.array}:{c.mode}" for c in self.reductions)
        factor = f"*{self.factor}" if self.factor else ""
        flags = (CYCLIC if self.cyclic else "") + (f"{WORK}{self.work}" if self.work else "")
        return f"{self.kind}@{self.depth}{factor}{flags}{clauses}"

    @staticmethod
    def parse(name: str) -> LoopMark:
        """The mark a name describes; ``depth`` is None for marks of other origins."""
        head, *clauses = name.split(";")
        kind, _, depth = head.partition("@")
        depth, *flags = depth.split("~")
        depth, _, factor = depth.partition("*")
        reductions = tuple(ReductionClause(*clause.split(":")) for clause in clauses)
        number = int(factor) if factor.isdigit() else 0
        present = {f"~{flag}" for flag in flags}
        work = next((int(flag[len(WORK) :]) for flag in present if flag.startswith(WORK)), 0)
        depth_value = int(depth) if depth.isdigit() else None
        return LoopMark(kind, depth_value, reductions, CYCLIC in present, number, work)
