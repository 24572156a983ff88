"""The region as written, weighed against its transformed schedule: do no harm.

Public: ``AS_WRITTEN_MARGIN``, ``UNROLLED_TRIP``, ``UNROLLED_BODY``, ``StatementCost``, ``ScheduleScore``,
``AsWrittenChoice``, ``loop_trip``, ``loop_threads``, ``unrolled``, ``score_schedule``, ``seen_by_gcc``,
``choose_as_written``.

gcc already compiles the loops as written well when their innermost loop walks memory with unit stride and
vectorizes, and their data stay in cache.  A transformed schedule is then worth its code only when it is
predicted faster by a clear margin (``AS_WRITTEN_MARGIN``); otherwise the region keeps its original order
with the simd and parallel marks that pay.

``score_schedule`` predicts the cycles of a marked schedule (after the loop stage) as gcc compiles it.
Each statement runs its instances at the parameter values (one call of the region: nothing outside it
amortizes thread starts) at a cost per instance set by its innermost loop:

- a simd loop costs ``(1 + forward + 2·backward) / lanes + scattered + lanes / trip`` (a backward walk
  permutes each vector, a scattered access gathers element by element, and each run of the loop of
  ``trip`` iterations pays a start: peeling, an epilogue, the horizontal sum of a reduction);
- a scalar loop costs ``1 + forward + backward + 2·scattered`` (a scattered access touches a line per element);

with ``forward``, ``backward`` and ``scattered`` the statement's accesses of each stride kind along that loop
(``polyopt.analysis.strides``; a temporal access stays in a register), and ``lanes`` the elements of one vector.
The innermost loop is a simd loop when it is marked so, or when it carries no dependence (gcc vectorizes it by
itself); gcc unrolls short loops of known length completely, and then the loop around them is the innermost one;
and where the innermost loop carries a dependence, gcc may vectorize the loop around it instead, when it has a
vector's worth of iterations, no access scattered along it, and that costs less.  A scalar loop that carries a
recurrence runs at the pace of its chain or of the rest of its body, whichever is slower: an out-of-order core
overlaps the independent statements with the chain's latency (a statement distributed out of it saves little).
A statement under a parallel loop divides its cost by the threads that loop really keeps busy: the cores when
its work reaches the ``if`` clause's threshold and it has iterations for them, else one.

Locality is outside the score: the as-written order competes only where it keeps its reuse in cache
(``polyopt.analysis.written_reuse``, the PolyMage dense-matrix thesis Sec. 4.3 and PolyDL's working sets, Sec. 4.1): one
iteration of each outermost loop touches no more lines than a cache keeps (or shares too few of them with the
other iterations for their reuse to pay), and a region of several nests touches no more data than L2 holds
(so fusing them saves no traffic).  Elsewhere tiling and fusion capture reuse that the order as written loses,
and the transformed schedule is kept.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace

import islpy as isl

from polyopt import isl_util
from polyopt.analysis.dependences import FLOW, Dependences
from polyopt.analysis.fusion_cost import instance_count
from polyopt.analysis.strides import BACKWARD, FORWARD, SCATTERED, TEMPORAL, access_direction, innermost_varying
from polyopt.machine import Machine
from polyopt.marks import PARALLEL_MARK, SIMD_MARK
from polyopt.model import PolyModel, Reference
from polyopt.schedule_tree import band_nodes, band_statements, member_map, parent_mark

AS_WRITTEN_MARGIN = 1.25  # a transformed schedule must be predicted this many times faster
UNROLLED_TRIP = 16  # gcc -O3 unrolls an inner loop of at most this many iterations completely,
UNROLLED_BODY = 64  # and the loops around it while their bodies multiply to at most this many copies


@dataclass(frozen=True)
class StatementCost:
    """One statement under a schedule: its instances, whether its innermost loop is a simd loop, the
    stride kind of each access along that loop, and the threads its parallel loop keeps busy."""

    statement: str
    instances: int
    simd: bool
    strides: tuple[str, ...]
    threads: float
    trip: int | None = None  # iterations of the vector loop per run, when known
    loop: str = ""  # the scalar innermost loop that carries a dependence, which it shares with a recurrence
    chain: bool = False  # on that recurrence: it depends on its own instance of an earlier iteration

    def per_instance(self, lanes: int) -> float:
        forward, backward = self.strides.count(FORWARD), self.strides.count(BACKWARD)
        scattered = self.strides.count(SCATTERED)
        if self.simd:
            start = lanes / self.trip if self.trip else 0.0
            return (1 + forward + 2 * backward) / lanes + scattered + start
        return 1 + forward + backward + 2 * scattered

    def cycles(self, lanes: int) -> float:
        return self.instances * self.per_instance(lanes) / self.threads

    def describe(self) -> str:
        loop = "simd" if self.simd else "scalar"
        walks = ", ".join(f"{self.strides.count(kind)} {kind}" for kind in (FORWARD, BACKWARD, SCATTERED))
        threads = f", {self.threads:g} threads" if self.threads > 1 else ""
        return f"{self.statement}: {loop} inner loop ({walks}){threads}"


@dataclass(frozen=True)
class ScheduleScore:
    """The predicted cycles of one schedule, statement by statement."""

    statements: tuple[StatementCost, ...]
    lanes: int

    @property
    def cycles(self) -> float:
        """The statements' cycles, those that share a scalar loop with a recurrence overlapped with it: the
        loop runs at the pace of its chain or of the rest of its body, whichever is slower."""
        alone = sum(statement.cycles(self.lanes) for statement in self.statements if not statement.loop)
        loops: dict[str, list[float]] = {}
        for statement in self.statements:
            if statement.loop:
                paces = loops.setdefault(statement.loop, [0.0, 0.0])
                paces[statement.chain] += statement.cycles(self.lanes)
        return alone + sum(max(paces) if paces[1] else sum(paces) for paces in loops.values())

    def describe(self) -> str:
        return f"{self.cycles:.3g} cycles (" + "; ".join(s.describe() for s in self.statements) + ")"


@dataclass(frozen=True)
class AsWrittenChoice:
    """Whether the region keeps its original order (``kept``), the two scores and why; ``text``: the order
    as written is the region's text as written (not rewritten), which can then be printed as it is."""

    kept: bool
    written: ScheduleScore | None
    transformed: ScheduleScore | None
    reason: str
    candidates: tuple[str, ...] = ()  # the fusion candidates the transformed schedule was chosen from
    text: bool = False

    def summary(self) -> str:
        """The words of the one-line comment of a region that keeps its order as written."""
        if self.written is None:
            return "as written (the transformed schedule runs the original order)"
        return "as written (no transformed schedule predicted clearly faster)"

    def lines(self) -> tuple[str, ...]:
        verdict = "the order as written" if self.kept else "the transformed schedule"
        lines = [f"chosen: {verdict}; {self.reason}"]
        if self.written is not None:
            lines.append(f"as written: {self.written.describe()}")
        if self.transformed is not None:
            lines.append(f"transformed: {self.transformed.describe()}")
        return tuple(lines)


def _fixed_parameters(model: PolyModel, parameters: Mapping[str, int]) -> isl.Set:
    return isl_util.at_parameters(isl.Set.universe(model.param_space()), parameters)


def _marked(schedule: isl.Schedule, kind: str) -> list[isl.ScheduleNode]:
    return [band for _, band in band_nodes(schedule) if (mark := parent_mark(band)) and mark.kind == kind]


def _values(relation: isl.UnionMap, domain: isl.UnionSet) -> isl.Set | None:
    """The values ``relation`` takes on ``domain``, as one set (None when it has none)."""
    values = relation.intersect_domain(domain).range()
    if values.is_empty():
        return None
    return isl.Set.from_union_set(isl_util.coalesced(values))


def _extent(values: isl.Set | None, position: int, parameters: Mapping[str, int]) -> int | None:
    return isl_util.value_at(isl_util.extent(values, position), parameters) if values is not None else None


def loop_trip(band: isl.ScheduleNode, member: int, model: PolyModel, parameters: Mapping[str, int]) -> int | None:
    """The iterations of band ``member`` over all its instances at ``parameters`` (the extent of its values)."""
    domain = band.get_domain().intersect_params(_fixed_parameters(model, parameters))
    return _extent(_values(member_map(band, member), domain), 0, parameters)


def unrolled(trip: int | None) -> bool:
    """Whether gcc -O3 unrolls a loop of ``trip`` iterations completely (then the loop around it is the
    one that vectorizes)."""
    return trip is not None and trip <= UNROLLED_TRIP


def loop_threads(
    band: isl.ScheduleNode, member: int, model: PolyModel, machine: Machine, parameters: Mapping[str, int], work: int
) -> float:
    """The threads a parallel loop over band ``member`` keeps busy at ``parameters``: the cores when its
    statements run at least ``work`` instances (its ``if`` clause; one parallel region holds the loop's runs
    inside sequential loops) and it has iterations for them, else one."""
    trip = loop_trip(band, member, model, parameters)
    if not trip or trip < 2:
        return 1.0
    if instance_count(model, frozenset(band_statements(band)), parameters) < work:
        return 1.0
    return trip / math.ceil(trip / machine.cores)


def _carrying(flat: isl.UnionMap, dependences: isl.UnionMap) -> Callable[[int], bool]:
    """Whether a schedule dimension of ``flat`` carries one of ``dependences``: a dependent pair of instances
    agrees on the dimensions before it and not on it (each dimension asked once)."""
    pairs = dependences.apply_domain(flat).apply_range(flat)
    times = None if pairs.is_empty() else isl.Map.from_union_map(pairs)

    @functools.cache
    def carried(position: int) -> bool:
        if times is None:
            return False
        return not isl_util.equate_prefix(times, position).is_subset(isl_util.equate_prefix(times, position + 1))

    return carried


def _varying(timing: isl.Map) -> list[int]:
    """The schedule dimensions that take more than one value for the statement, outermost first."""
    inner = innermost_varying(timing)
    found: list[int] = []
    while inner is not None:
        found.insert(0, inner)
        inner = innermost_varying(timing.project_out(isl.dim_type.out, inner, timing.dim(isl.dim_type.out) - inner))
    return found


def score_schedule(
    model: PolyModel,
    schedule: isl.Schedule,
    dependences: isl.UnionMap,
    machine: Machine,
    parameters: Mapping[str, int],
) -> ScheduleScore:
    """The predicted cycles of the marked ``schedule`` of ``model`` as gcc compiles it (module docstring):
    an innermost loop runs in vector lanes when it is marked simd, or when it carries none of
    ``dependences`` (gcc vectorizes it by itself); unmarked loops of at most ``UNROLLED_TRIP`` iterations
    (``UNROLLED_BODY`` copies of the body in all) are unrolled, and the loop around them is the one gcc
    vectorizes."""
    simd = {name for band in _marked(schedule, SIMD_MARK) for name in band_statements(band)}
    threads: dict[str, float] = {}
    for band in _marked(schedule, PARALLEL_MARK):
        mark = parent_mark(band)
        work = (mark.work if mark else 0) or machine.parallel_work
        busy = loop_threads(band, 0, model, machine, parameters, work)
        for name in band_statements(band):
            threads[name] = max(threads.get(name, 1.0), busy)
    flat = schedule.get_map().intersect_domain(schedule.get_domain())
    lanes = max(1, machine.simd_bytes // model.widest_element(model.domains))
    carried, chain = _carrying(flat, dependences), _recurrence(flat, dependences, model)
    costs = []
    for name in sorted(model.domains):
        timing = flat.intersect_domain(isl.UnionSet.from_set(model.domains[name]))
        if timing.is_empty():
            continue
        cost = _statement_cost(model, name, flat, name in simd, (carried, chain), parameters, (lanes, machine.line))
        costs.append(replace(cost, threads=threads.get(name, 1.0)))
    return ScheduleScore(tuple(costs), lanes)


def _recurrence(flat: isl.UnionMap, dependences: isl.UnionMap, model: PolyModel) -> Callable[[str, int], bool]:
    """Whether a statement depends on its own instances across iterations of schedule dimension ``position``
    of ``flat`` (it is on a recurrence of that loop)."""

    def on(name: str, position: int) -> bool:
        domain = isl.UnionSet.from_set(model.domains[name])
        own = dependences.intersect_domain(domain).intersect_range(domain)
        return not own.is_empty() and _carrying(flat, own)(position)

    return on


def _statement_cost(
    model: PolyModel,
    name: str,
    flat: isl.UnionMap,
    marked: bool,
    carries: tuple[Callable[[int], bool], Callable[[str, int], bool]],
    parameters: Mapping[str, int],
    widths: tuple[int, int],
) -> StatementCost:
    """Statement ``name`` under the flat schedule ``flat`` (``score_schedule``), on one thread; ``carries``:
    whether a schedule dimension carries a dependence, and a dependence of a statement on itself
    (``_carrying``, ``_recurrence``); ``widths``: the elements of a vector and the bytes of a cache line."""
    carried, chain = carries
    lanes, line = widths
    instances = instance_count(model, frozenset({name}), parameters)
    domain = isl.UnionSet.from_set(model.domains[name])
    timing = isl.Map.from_union_map(flat.intersect_domain(domain))
    loops = _varying(timing)
    if not loops:
        return StatementCost(name, instances, False, (), 1.0)
    values = _values(flat, domain.intersect_params(_fixed_parameters(model, parameters)))
    inner = loops.pop()
    trip = _extent(values, inner, parameters)
    body = 1
    while not marked and unrolled(trip) and loops and body * (trip or 1) <= UNROLLED_BODY:
        body *= trip or 1
        inner = loops.pop()
        trip = _extent(values, inner, parameters)
    accesses = [r for r in model.references if r.statement == name and r.relation.dim(isl.dim_type.out)]

    def along(loop: int, simd: bool) -> StatementCost:
        strides = [access_direction(timing, r.relation, loop) for r in accesses]
        for position in _shared_lines(model, flat, name, loop, accesses, strides, line):
            strides[position] = TEMPORAL
        return StatementCost(name, instances, simd, tuple(strides), 1.0, _extent(values, loop, parameters))

    if marked or not carried(inner):
        return along(inner, True)
    prefix = timing.project_out(isl.dim_type.out, inner + 1, timing.dim(isl.dim_type.out) - inner - 1)
    scalar = replace(along(inner, False), loop=str(prefix.range()), chain=chain(name, inner))
    if not loops or carried(loops[-1]) or (_extent(values, loops[-1], parameters) or lanes) < lanes:
        return scalar
    outer = along(loops[-1], True)  # gcc vectorizes the loop around a loop it cannot, in vectors of lines
    if SCATTERED in outer.strides:
        return scalar
    return min(scalar, outer, key=lambda cost: cost.per_instance(lanes))


def _shared_lines(
    model: PolyModel,
    flat: isl.UnionMap,
    name: str,
    loop: int,
    accesses: list[Reference],
    strides: list[str],
    line: int,
) -> list[int]:
    """The scattered ``accesses`` of statement ``name`` that, in each iteration of the loops up to ``loop``, touch
    only lines that a statement before it in the same iteration touches (in the same row, less than a ``line`` of
    bytes away): those lines are in L1 already.  A body unrolled by hand (``a[i]``, ``a[i + 1]``, ... in one
    iteration) loads each line once; its statements distributed into loops of their own load it once each."""
    names = [statement.name for statement in model.scop.statements]
    earlier = set(names[: names.index(name)]) if name in names else set()

    def iteration(statement: str) -> isl.Map:
        timing = isl.Map.from_union_map(flat.intersect_domain(isl.UnionSet.from_set(model.domains[statement])))
        return timing.project_out(isl.dim_type.out, loop + 1, timing.dim(isl.dim_type.out) - loop - 1)

    shared: list[int] = []
    for position, ref in enumerate(accesses):
        if strides[position] != SCATTERED:
            continue
        others = [r for r in model.references if r.statement in earlier and r.array == ref.array]
        per_line = max(1, line // model.element_bytes(ref.array))
        if any(_near(ref, other, iteration(name), iteration(other.statement), per_line) for other in others):
            shared.append(position)
    return shared


def _near(ref: Reference, other: Reference, mine: isl.Map, theirs: isl.Map, per_line: int) -> bool:
    """Whether every element pair that ``ref`` and ``other`` touch in one iteration (``mine``, ``theirs``: their
    statements' iterations) lies in one row, fewer than ``per_line`` elements apart; False when there is none."""
    same = mine.apply_range(theirs.reverse())
    if same.is_empty():
        return False
    pairs = ref.relation.reverse().apply_range(same).apply_range(other.relation)
    if pairs.is_empty():
        return False
    deltas = pairs.deltas()
    last = deltas.dim(isl.dim_type.set) - 1
    near = isl.Set.universe(deltas.get_space())
    for position in range(last):
        near = near.fix_val(isl.dim_type.set, position, isl.Val.zero(near.get_ctx()))
    near = near.lower_bound_val(isl.dim_type.set, last, isl.Val.int_from_si(near.get_ctx(), 1 - per_line))
    near = near.upper_bound_val(isl.dim_type.set, last, isl.Val.int_from_si(near.get_ctx(), per_line - 1))
    return deltas.is_subset(near)


def seen_by_gcc(deps: Dependences) -> isl.UnionMap:
    """The dependences that bind gcc's code for the loops as written: every flow of values, and the anti and
    output dependences on arrays.  gcc keeps a scalar in a register of its own in each iteration (and in each
    vector lane), so reusing a scalar's storage orders nothing."""
    scalars = {r.array for r in deps.model.references if not r.relation.dim(isl.dim_type.out)}
    result = isl.UnionMap.empty(deps.space)
    for dep in deps.items:
        if dep.kind == FLOW or dep.array not in scalars:
            result = result.union(isl.UnionMap.from_map(dep.relation))
    return result


def choose_as_written(written: ScheduleScore, transformed: ScheduleScore, lost_reuse: str | None) -> AsWrittenChoice:
    """Keep the order as written unless it loses reuse (``lost_reuse``: ``polyopt.analysis.written_reuse``) or
    the transformed schedule is predicted ``AS_WRITTEN_MARGIN`` times faster."""
    if lost_reuse is not None:
        return AsWrittenChoice(False, written, transformed, f"the original order loses reuse: {lost_reuse}")
    ratio = written.cycles / transformed.cycles if transformed.cycles else math.inf
    if ratio >= AS_WRITTEN_MARGIN:
        reason = f"the transformed schedule is predicted {ratio:.3g}x faster"
        return AsWrittenChoice(False, written, transformed, reason)
    return AsWrittenChoice(
        True,
        written,
        transformed,
        f"the transformed schedule is predicted {ratio:.3g}x as fast, below the margin {AS_WRITTEN_MARGIN:g}x",
    )
