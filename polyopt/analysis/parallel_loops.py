"""Where a band's loops could run in parallel, and whether they would be worth threads.

Public: ``MIN_NESTED_DEPTH``, ``MIN_WAVEFRONT_MEMBERS``, ``StartsThreads``, ``work_dimensions``,
``enclosing_dimensions``, ``parallel_members``, ``has_parallel_member``, ``runs_wavefront``, ``parallel_statements``,
``uneven_work``.

A member may run in parallel when, moved outermost in its band (any member of a
permutable band, else the first), it carries no dependence.  A parallel region costs a
fork and a join, so a loop is only worth threads when its statements have at least
``MIN_NESTED_DEPTH`` loop dimensions at or below it (``work_dimensions``; tile loops do not
count).  These are questions about a schedule; ``polyopt.transform.parallel`` plans and marks
the parallel loops, and fusion and tiling ask them of the schedules they weigh.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import islpy as isl

from polyopt.schedule_tree import band_nodes, band_statements, bands_below, parallel_outermost_members

MIN_NESTED_DEPTH = 2
MIN_WAVEFRONT_MEMBERS = 3
StartsThreads = Callable[[frozenset[str]], bool]  # whether a parallel loop over these statements starts threads


def work_dimensions(band: isl.ScheduleNode) -> int:
    """Loop dimensions of the band's statements that lie below the enclosing loops."""
    dims: list[int] = []
    band.get_domain().foreach_set(lambda domain: dims.append(domain.dim(isl.dim_type.set)))
    return max(dims, default=0) - enclosing_dimensions(band)


def enclosing_dimensions(node: isl.ScheduleNode) -> int:
    """The members of the bands around ``node``, without those of a band whose values follow from
    the bands between it and ``node`` (the tile loops of point loops that also enclose ``node``)."""
    domain = node.get_domain()
    inside: isl.UnionMap | None = None
    count = 0
    while node.has_parent():
        node = node.parent()
        if node.get_type() != isl.schedule_node_type.band:
            continue
        values = node.band_get_partial_schedule_union_map().intersect_domain(domain)
        if inside is None or not inside.reverse().apply_range(values).is_single_valued():
            count += node.band_n_member()
        inside = values if inside is None else values.flat_range_product(inside)
    return count


def parallel_members(band: isl.ScheduleNode, dependences: isl.UnionMap) -> list[int]:
    """The members of ``band`` that carry no dependence when moved outermost (only the first of a
    band that is not permutable may be moved there)."""
    return list(_parallel_members(band, dependences))


def has_parallel_member(band: isl.ScheduleNode, dependences: isl.UnionMap) -> bool:
    """Whether ``parallel_members`` is not empty (it stops at the first parallel member)."""
    return next(_parallel_members(band, dependences), None) is not None


def _parallel_members(band: isl.ScheduleNode, dependences: isl.UnionMap) -> Iterator[int]:
    candidates = range(band.band_n_member()) if band.band_get_permutable() else range(1)
    return parallel_outermost_members(band, candidates, dependences)


def runs_wavefront(
    band: isl.ScheduleNode, threads: StartsThreads | None = None, inner_dependences: isl.UnionMap | None = None
) -> bool:
    """Whether ``band``, once tiled, may run its tiles as a wavefront (one barrier per wavefront).

    A permutable band of ``MIN_WAVEFRONT_MEMBERS`` members or more may.  A two-member band only
    outside any loop and when ``threads`` says a loop over its statements starts threads (run on one
    core, the skewed order of the tiles only loses locality): its wavefronts are short, so their
    barriers pay only once per region and over tiles of its whole work (a triangular solve, a 1-D
    stencil over data beyond the cache), not once per iteration of an enclosing loop
    (floyd-warshall's ``k``).  When its statements have loops below it, only given the
    ``inner_dependences`` and if no band below has a parallel member under them worth threads
    (``MIN_NESTED_DEPTH``): such a loop needs no skew and no barrier between wavefronts (a dynamic
    program's table has none).  The parallel planner gives them, once the schedule is chosen; fusion,
    weighing schedules, does not: counted as parallel, such a band would draw fusion to a schedule whose
    only parallelism is a wavefront, away from nests with parallel loops of their own (gramschmidt)."""
    count = band.band_n_member()
    if not band.band_get_permutable() or count < 2:
        return False
    if count >= MIN_WAVEFRONT_MEMBERS:
        return True
    if enclosing_dimensions(band) != 0 or threads is None or not threads(frozenset(band_statements(band))):
        return False
    if work_dimensions(band) == count:
        return True
    return inner_dependences is not None and not any(
        work_dimensions(inner) >= MIN_NESTED_DEPTH and has_parallel_member(inner, inner_dependences)
        for inner in bands_below(band)
    )


def parallel_statements(
    schedule: isl.Schedule, dependences: isl.UnionMap, wavefronts: bool, threads: StartsThreads | None = None
) -> frozenset[str]:
    """The statements under a band of ``schedule`` worth threads (``MIN_NESTED_DEPTH``) that has a
    parallel member or, when ``wavefronts`` (its bands are to be tiled), runs as a wavefront
    (``runs_wavefront`` with ``threads``)."""
    return frozenset(
        name
        for _, band in band_nodes(schedule)
        if work_dimensions(band) >= MIN_NESTED_DEPTH
        and (has_parallel_member(band, dependences) or (wavefronts and runs_wavefront(band, threads)))
        for name in band_statements(band)
    )


def uneven_work(band: isl.ScheduleNode) -> bool:
    """Whether, for fixed values of the enclosing loops, the band's first member takes values
    that enclose different sets of values of its other members (of the band below, for a
    one-member band, or of the band below each statement of a sequence below it): the loop's
    iterations do unequal work."""
    points = band.band_get_partial_schedule_union_map()
    if band.band_n_member() > 1:
        return _encloses_unequal(band, points)
    below = band.child(0)
    if below.get_type() == isl.schedule_node_type.band:
        return _encloses_unequal(band, points.flat_range_product(below.band_get_partial_schedule_union_map()))
    if below.get_type() not in (isl.schedule_node_type.sequence, isl.schedule_node_type.set):
        return False
    for position in range(below.n_children()):
        branch = below.child(position)
        inner = branch.child(0)
        if inner.get_type() == isl.schedule_node_type.band:
            statements = branch.filter_get_filter()
            inside = inner.band_get_partial_schedule_union_map().intersect_domain(statements)
            if _encloses_unequal(band, points.intersect_domain(statements).flat_range_product(inside)):
                return True
    return False


def _encloses_unequal(band: isl.ScheduleNode, points: isl.UnionMap) -> bool:
    """Whether the first of the ``points`` that ``band``'s instances take encloses different sets of the others,
    for fixed values of the loops around ``band``."""
    points = points.intersect_domain(band.get_domain())
    try:
        space = isl.Map.from_union_map(band.get_prefix_schedule_union_map().reverse().apply_range(points))
    except isl.Error:
        return False
    rest = space.dim(isl.dim_type.out) - 1
    if rest < 1:
        return False
    first = space.project_out(isl.dim_type.out, 1, rest)
    others = space.project_out(isl.dim_type.out, 0, 1)
    return not first.flat_range_product(others).is_equal(space)
