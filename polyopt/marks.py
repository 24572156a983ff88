"""Names of the schedule-tree marks that carry loop decisions to code generation.

Public: ``PARALLEL_MARK``, ``SIMD_MARK``, ``mark_name``, ``parse_mark``.

A mark sits above the band whose first member it annotates; its name records
that member's schedule depth, which is also the number in the generated
loop's iterator name, so the printer puts the pragma on exactly that loop.
"""

from __future__ import annotations

PARALLEL_MARK = "omp_parallel_for"
SIMD_MARK = "omp_simd"


def mark_name(kind: str, depth: int) -> str:
    return f"{kind}@{depth}"


def parse_mark(name: str) -> tuple[str, int | None]:
    """``(kind, depth)`` of a mark name; depth is None for marks of other origins."""
    kind, _, depth = name.partition("@")
    return kind, int(depth) if depth.isdigit() else None
