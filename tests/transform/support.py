"""Helpers for the transformation tests: a region modelled on its own configured isl context.

Public:

- ``Kernel``: a region's model and dependences, with the scheduler options its context was configured with.
- ``KernelOf``: the type of the ``kernel_of`` fixture (C body -> ``Kernel``).
- ``build_kernel(scop, scheduler)``: model ``scop`` on a fresh context configured as ``polyopt.pipeline`` does.
- ``relaxed(kernel)``: the kernel with its dependences relaxed for its reductions, as by default.
- ``marks_above(band)``: the kinds of the marks stacked directly above a band.
- ``marked_bands(schedule, mark)``: the bands under a mark of kind ``mark``, with their paths.
- ``assert_legal(schedule, dependences)``: the order respects every dependence and no marked loop carries one.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import islpy as isl

from polyopt.analysis.dependences import Dependences, compute_dependences
from polyopt.analysis.reductions import find_reductions, relax
from polyopt.frontend.scop import Scop
from polyopt.machine import detect
from polyopt.marks import PARALLEL_MARK, SIMD_MARK, LoopMark
from polyopt.model import PolyModel, build_model
from polyopt.options import SchedulerOptions
from polyopt.schedule_tree import band_nodes, carries, schedule_respects
from polyopt.transform.fusion import FusionPlan, plan_fusion, schedule_region
from polyopt.transform.scheduling import configure, schedule_group


@dataclass(frozen=True, eq=False)
class Kernel:
    """A region's ``model`` and ``deps``; ``scheduler`` configured the model's context."""

    model: PolyModel
    deps: Dependences
    scheduler: SchedulerOptions

    @property
    def full(self) -> isl.UnionMap:
        """Every dependence (what legality checks of loops use)."""
        return self.deps.full

    @property
    def statements(self) -> frozenset[str]:
        return frozenset(self.model.domains)

    def isl_schedule(self) -> isl.Schedule:
        """isl's (Pluto-style, time-skewing) schedule of the whole region as one group."""
        schedule = schedule_group(self.model, self.statements, self.deps.reduced, self.scheduler)
        assert schedule is not None, "isl gave up on a small test kernel"
        return schedule

    def scheduled(self, policy: str = "smart") -> tuple[FusionPlan, isl.Schedule]:
        """The fusion plan and the region's schedule, as ``polyopt.pipeline`` computes them."""
        plan = plan_fusion(self.model, self.deps.reduced, policy, self.scheduler)
        schedule, _ = schedule_region(self.model, self.deps, plan, self.scheduler)
        return plan, schedule

    def union_map(self, text: str) -> isl.UnionMap:
        """``text`` parsed on the model's context (isl objects of two contexts never compare equal)."""
        return isl.UnionMap.read_from_str(self.model.ctx, text)

    def band_schedule(self, *bands: str, permutable: bool = True) -> isl.Schedule:
        """The region's domain under hand-written nested bands, outermost first, each like
        ``{ S0[i, j] -> [i, j] }`` (the region's parameters are prepended)."""
        params = ", ".join(self.model.scop.parameters)
        schedule = isl.Schedule.from_domain(self.model.domain)
        for text in reversed(bands):
            partial = isl.UnionPwMultiAff.read_from_str(self.model.ctx, f"[{params}] -> {text}")
            schedule = schedule.insert_partial_schedule(isl.MultiUnionPwAff.from_union_pw_multi_aff(partial))
            schedule = schedule.get_root().child(0).band_set_permutable(int(permutable)).get_schedule()
        return schedule


KernelOf = Callable[[str], Kernel]


DEFAULT_SCHEDULER = SchedulerOptions()


def build_kernel(scop: Scop, scheduler: SchedulerOptions = DEFAULT_SCHEDULER) -> Kernel:
    """Model ``scop`` on a fresh context configured like ``polyopt.pipeline`` configures a region's."""
    ctx = isl.Context()
    configure(ctx, scheduler, detect())
    model = build_model(scop, ctx)
    return Kernel(model, compute_dependences(model), scheduler)


def relaxed(kernel: Kernel) -> Kernel:
    """``kernel`` with its dependences relaxed for its reductions (polyopt's default)."""
    model = kernel.model
    return Kernel(model, relax(model, kernel.deps, find_reductions(model)), kernel.scheduler)


def marks_above(band: isl.ScheduleNode) -> set[str]:
    """The kinds of the marks stacked directly above ``band`` (a loop may be both parallel and simd)."""
    kinds: set[str] = set()
    node = band
    while node.has_parent() and node.parent().get_type() == isl.schedule_node_type.mark:
        node = node.parent()
        kinds.add(LoopMark.parse(node.mark_get_id().get_name()).kind)
    return kinds


def marked_bands(schedule: isl.Schedule, mark: str) -> list[tuple[tuple[int, ...], isl.ScheduleNode]]:
    """The bands under a mark of kind ``mark`` (possibly stacked with other marks), top-down."""
    return [(path, band) for path, band in band_nodes(schedule) if mark in marks_above(band)]


def assert_legal(schedule: isl.Schedule, dependences: isl.UnionMap) -> None:
    """What ``polyopt.pipeline`` re-proves before emitting code, as assertions."""
    assert schedule_respects(schedule, dependences), "the schedule violates a dependence"
    for mark in (PARALLEL_MARK, SIMD_MARK):
        for path, band in marked_bands(schedule, mark):
            assert not carries(band, 0, dependences), f"the loop marked {mark} at {list(path)} carries a dependence"
