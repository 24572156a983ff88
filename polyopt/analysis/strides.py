"""Strides of array accesses along schedule dimensions, and the intra-tile score.

Public: ``SPATIAL``, ``TEMPORAL``, ``SCATTERED``, ``FORWARD``, ``BACKWARD``, ``access_stride``,
``access_direction``, ``innermost_varying``, ``DimensionScore``, ``intra_tile_score``.

The stride of an access along a schedule dimension is how its array element
moves when that dimension advances by one and all others stay fixed:
``TEMPORAL`` (same element, stride 0), ``SPATIAL`` (next element of the last
subscript, stride +-1) or ``SCATTERED`` (anything else).  ``access_direction`` tells
a spatial walk ``FORWARD`` (+1) from ``BACKWARD`` (-1): a vector loop reads the second
reversed, a permutation per vector.
"""

from __future__ import annotations

from dataclasses import dataclass

import islpy as isl

SPATIAL, TEMPORAL, SCATTERED = "spatial", "temporal", "scattered"
FORWARD, BACKWARD = "forward", "backward"


def _shift(dims: int, position: int, ctx: isl.Context) -> isl.Map:
    names = [f"t{d}" for d in range(dims)]
    moved = [f"{n} + 1" if d == position else n for d, n in enumerate(names)]
    return isl.Map(f"{{ [{', '.join(names)}] -> [{', '.join(moved)}] }}", context=ctx)


def _fixed(space: isl.Space, values: list[int]) -> isl.Set:
    result = isl.Set.universe(space)
    for position, value in enumerate(values):
        result = result.fix_val(isl.dim_type.set, position, isl.Val.int_from_si(space.get_ctx(), value))
    return result


def _varies(schedule: isl.Map, position: int) -> bool:
    """Whether schedule dimension ``position`` takes more than one value for the statement."""
    values = schedule.range()
    rank = values.dim(isl.dim_type.set)
    values = values.project_out(isl.dim_type.set, position + 1, rank - position - 1)
    values = values.project_out(isl.dim_type.set, 0, position)
    differences = isl.Map.from_domain_and_range(values, values).deltas()
    return not differences.is_subset(_fixed(differences.get_space(), [0]))


def _classify(deltas: isl.Set) -> str:
    rank = deltas.dim(isl.dim_type.set)
    if rank == 0:
        return TEMPORAL
    space = deltas.get_space()
    zero = _fixed(space, [0] * rank)
    if deltas.is_subset(zero):
        return TEMPORAL
    unit = zero
    for step in (1, -1):
        unit = unit.union(_fixed(space, [0] * (rank - 1) + [step]))
    return SPATIAL if deltas.is_subset(unit) else SCATTERED


def _deltas(schedule: isl.Map, access: isl.Map, position: int) -> isl.Set:
    """How the element of ``access`` moves when schedule dimension ``position`` advances by one."""
    at_time = schedule.reverse().apply_range(access)
    shift = _shift(schedule.dim(isl.dim_type.out), position, access.get_ctx())
    moved = at_time.reverse().apply_range(shift.align_params(at_time.get_space())).apply_range(at_time)
    return moved.deltas()


def access_stride(schedule: isl.Map, access: isl.Map, position: int) -> str:
    """Stride kind of one access along schedule dimension ``position``.

    ``schedule`` maps the statement's instances to schedule vectors and
    ``access`` maps them to the elements of one array reference.
    """
    deltas = _deltas(schedule, access, position)
    if deltas.is_empty() and access.dim(isl.dim_type.out) > 0:
        # No instance one step ahead: the dimension is constant here (stride 0),
        # or it advances in larger steps (a loop with a step: not contiguous).
        return SCATTERED if _varies(schedule, position) else TEMPORAL
    return _classify(deltas)


def access_direction(schedule: isl.Map, access: isl.Map, position: int) -> str:
    """``access_stride``, with a spatial walk told ``FORWARD`` or ``BACKWARD`` (the last subscript
    moves by -1 somewhere)."""
    kind = access_stride(schedule, access, position)
    if kind != SPATIAL:
        return kind
    deltas = _deltas(schedule, access, position)
    rank = deltas.dim(isl.dim_type.set)
    back = _fixed(deltas.get_space(), [0] * (rank - 1) + [-1])
    return FORWARD if deltas.intersect(back).is_empty() else BACKWARD


def innermost_varying(schedule: isl.Map) -> int | None:
    """The last schedule dimension that takes more than one value for the statement (its innermost
    loop), None when it runs once."""
    rank = schedule.dim(isl.dim_type.out)
    return next((position for position in reversed(range(rank)) if _varies(schedule, position)), None)


@dataclass(frozen=True)
class DimensionScore:
    """PolyMage dense-matrix thesis, Alg. 5: score = 2s + 4t + 8v - 16(a - s - t) for one candidate
    innermost dimension."""

    spatial: int
    temporal: int
    accesses: int
    vectorizable: bool

    @property
    def streams(self) -> bool:
        """Whether every access moves with stride 0 or 1 along the dimension."""
        return self.spatial + self.temporal == self.accesses

    @property
    def score(self) -> int:
        others = self.accesses - self.spatial - self.temporal
        return 2 * self.spatial + 4 * self.temporal + 8 * int(self.vectorizable) - 16 * others


def intra_tile_score(kinds: list[str], parallel: bool) -> DimensionScore:
    """Score a dimension from its access strides; vectorizable = parallel and no scattered access."""
    spatial = kinds.count(SPATIAL)
    temporal = kinds.count(TEMPORAL)
    return DimensionScore(spatial, temporal, len(kinds), parallel and spatial + temporal == len(kinds))
