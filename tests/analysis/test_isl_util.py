"""``polyopt.isl_util.coalesced``: isl's coalescing, or the value itself where isl fails on it."""

from __future__ import annotations

import islpy as isl

from polyopt.isl_util import coalesced


def test_pieces_are_merged_where_isl_can() -> None:
    split = isl.Set("{ S[i] : 0 <= i < 5; S[i] : 5 <= i < 10 }")

    merged = coalesced(split)

    assert merged.is_equal(split) and merged.n_basic_set() == 1


class _Refusing:
    """Stands for an isl value on which ``coalesce`` fails, as isl's does on some unions of maps."""

    def coalesce(self) -> _Refusing:
        raise isl.Error("call to isl_union_map_coalesce failed: cannot relax redundant constraint")


def test_a_value_isl_cannot_coalesce_is_kept_as_it_is() -> None:
    value = _Refusing()

    assert coalesced(value) is value  # type: ignore[type-var]
