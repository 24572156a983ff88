"""Whether the order as written keeps its reuse in cache (``polyopt.analysis.as_written``, module docstring):
else tiling and fusion capture reuse that it loses, and the transformed schedule is kept whatever the score.

Public: ``keeps_reuse``.
"""

from __future__ import annotations

from collections.abc import Mapping

import islpy as isl

from polyopt.analysis.as_written import AS_WRITTEN_MARGIN, ScheduleScore
from polyopt.analysis.fusion_cost import data_bytes
from polyopt.analysis.iteration_lines import iteration_bytes, reused_bytes
from polyopt.analysis.strides import SCATTERED
from polyopt.analysis.tile_facts import resident_level
from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.schedule_tree import outermost_bands


def keeps_reuse(
    model: PolyModel, written: ScheduleScore, machine: Machine, parameters: Mapping[str, int]
) -> str | None:
    """Why the original order of ``model`` (scored ``written``) loses reuse that tiling or fusion would keep
    in cache, or None when it keeps it (``polyopt.analysis.as_written``'s docstring).  Inner loops that walk
    across lines reuse each line in the next outer iteration only while it stays in L1 (``resident_level``),
    and what they share with the other iterations must be worth keeping (``_reuse_pays``)."""
    bands = outermost_bands(model.schedule)
    streams = not any(SCATTERED in statement.strides for statement in written.statements)
    for band in bands:
        touched = iteration_bytes(model, band, 0, parameters, machine.line)
        if touched is None:
            return "the data one iteration of an outer loop touches are not known"
        if resident_level(machine, touched, streams) is None and _reuse_pays(model, band, touched, parameters, machine):
            return f"one iteration of an outer loop touches {touched // 1024} KiB of lines, more than a cache keeps"
    if len(bands) > 1:
        data = data_bytes(model, frozenset(model.domains), parameters)
        if data > machine.l2:
            l2 = machine.l2 // 1024
            return f"its nests touch {data // 1024} KiB, more than L2 ({l2} KiB): fusion may save traffic"
    return None


def _reuse_pays(
    model: PolyModel, band: isl.ScheduleNode, touched: int, parameters: Mapping[str, int], machine: Machine
) -> bool:
    """Whether keeping in cache the lines that one iteration of ``band``'s outer loop (``touched`` bytes)
    shares with its other iterations could make it ``AS_WRITTEN_MARGIN`` times faster, or that is not known
    (``reused_bytes``): blocks of a stream that share no line have no reuse to lose."""
    return _saves(touched, reused_bytes(model, band, 0, parameters, machine.line))


def _saves(traffic: int, reused: int | None) -> bool:
    """Whether keeping ``reused`` of ``traffic`` bytes in cache could make a loop ``AS_WRITTEN_MARGIN`` times
    faster (True when ``reused`` is not known)."""
    return reused is None or traffic >= AS_WRITTEN_MARGIN * max(1, traffic - reused)
