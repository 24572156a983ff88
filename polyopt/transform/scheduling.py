"""Affine scheduling of fusion groups with isl's scheduler, under our constraints.

Public: ``configure``, ``original_group_schedule``, ``schedule_group``, ``sequence_groups``; their options are
``polyopt.options.SchedulerOptions``.

Each group (a run of consecutive top-level nests) is scheduled on its own:
validity, proximity and coincidence constraints are the group's internal
dependences, and isl's Pluto-style algorithm finds permutable bands with
skewing where needed (outer coincidence is not forced, so time-iterated
stencils get a tilable skewed band), with coefficients and constant terms
bounded by the machine's ``isl_max_coefficient`` and ``isl_max_constant_term``
(``polyopt.machine``).  Groups run in their original order,
which respects every dependence between them.  If isl fails or runs out of
its operation budget, the group keeps its original order.
"""

from __future__ import annotations

from functools import reduce

import islpy as isl

from polyopt.machine import Machine
from polyopt.model import PolyModel
from polyopt.options import SchedulerOptions


def configure(ctx: isl.Context, options: SchedulerOptions, machine: Machine) -> None:
    """Set isl's scheduler and AST options on a region's context: bands as deep and as coincident
    as possible, strongly connected components not serialized and scheduled cluster by cluster,
    ``machine``'s bounds on schedule coefficients and constant terms; tile loops unscaled and point
    loops unshifted; ``min`` and ``max`` detected in the AST."""
    ctx.set_schedule_outer_coincidence(int(options.outer_parallel))
    ctx.set_schedule_maximize_band_depth(1)
    ctx.set_schedule_maximize_coincidence(1)
    ctx.set_schedule_serialize_sccs(0)
    ctx.set_schedule_whole_component(0)
    ctx.set_schedule_max_coefficient(machine.isl_max_coefficient)
    ctx.set_schedule_max_constant_term(machine.isl_max_constant_term)
    ctx.set_tile_scale_tile_loops(0)
    ctx.set_tile_shift_point_loops(0)
    ctx.set_ast_build_detect_min_max(1)


def original_group_schedule(model: PolyModel, statements: frozenset[str]) -> isl.Schedule:
    """The original order restricted to ``statements``."""
    domain = _domain_of(model, statements)
    return model.schedule.intersect_domain(domain)


def _domain_of(model: PolyModel, statements: frozenset[str]) -> isl.UnionSet:
    domain = isl.UnionSet.empty(model.param_space())
    for name in sorted(statements):
        domain = domain.union(isl.UnionSet.from_set(model.domains[name]))
    return domain


def schedule_group(
    model: PolyModel,
    statements: frozenset[str],
    dependences: isl.UnionMap,
    options: SchedulerOptions,
    outer_parallel: bool | None = None,
) -> isl.Schedule | None:
    """isl's schedule for ``statements`` (None when isl gives up).

    ``outer_parallel`` overrides ``options.outer_parallel`` for this call.
    """
    domain = _domain_of(model, statements)
    local = dependences.intersect_domain(domain).intersect_range(domain)
    constraints = (
        isl.ScheduleConstraints.on_domain(domain).set_validity(local).set_proximity(local).set_coincidence(local)
    )
    ctx = model.ctx
    ctx.set_max_operations(options.max_operations)
    ctx.reset_operations()
    outer = options.outer_parallel if outer_parallel is None else outer_parallel
    ctx.set_schedule_outer_coincidence(int(outer))
    try:
        return constraints.compute_schedule()
    except isl.Error:
        return None
    finally:
        ctx.set_max_operations(0)
        ctx.set_schedule_outer_coincidence(int(options.outer_parallel))


def sequence_groups(schedules: list[isl.Schedule]) -> isl.Schedule:
    """Run the groups' schedules one after the other."""
    return reduce(isl.Schedule.sequence, schedules)
