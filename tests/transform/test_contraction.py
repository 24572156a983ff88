"""Which dead arrays ``polyopt.analysis.contraction`` turns into scalars under a schedule."""

from __future__ import annotations

import pytest

from polyopt.analysis.contraction import plan_contractions
from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.reductions import find_reductions
from polyopt.options import Options
from polyopt.passes.base import RegionContext
from polyopt.pipeline import transform
from tests.transform.support import KernelOf

PRODUCER_CONSUMER = "for (i = 0; i < n; i++)\n  t[i] = a[i] * 2;\nfor (i = 0; i < n; i++)\n  b[i] = t[i] + 1;\n"


def _contracted(kernel_of: KernelOf, body: str, dead: frozenset[str], original: bool = False) -> list[str]:
    model = kernel_of(body).model
    deps = compute_dependences(model)
    reductions = find_reductions(model)
    schedule = model.schedule if original else transform(RegionContext.of(model, deps, Options(), reductions))[1]
    found = plan_contractions(model, deps, schedule, dead, reductions)
    return [contraction.array for contraction in found]


def test_a_fused_dead_temporary_becomes_a_scalar(kernel_of: KernelOf) -> None:
    assert _contracted(kernel_of, PRODUCER_CONSUMER, frozenset({"t"})) == ["t"]


def test_a_temporary_not_declared_dead_is_kept(kernel_of: KernelOf) -> None:
    assert _contracted(kernel_of, PRODUCER_CONSUMER, frozenset()) == []


def test_a_dead_array_that_is_only_written_becomes_a_scalar(kernel_of: KernelOf) -> None:
    assert _contracted(kernel_of, PRODUCER_CONSUMER, frozenset({"b"})) == ["b"]


def test_a_reversed_consumer_is_fused_in_reverse_and_contracted(kernel_of: KernelOf) -> None:
    body = "for (i = 0; i < n; i++)\n  t[i] = a[i];\nfor (i = 0; i < n; i++)\n  b[i] = t[n - 1 - i];\n"

    assert _contracted(kernel_of, body, frozenset({"t"})) == ["t"]


def test_in_the_original_order_every_value_is_overwritten_before_its_read(kernel_of: KernelOf) -> None:
    """Unfused, all of t is written before any of it is read: one scalar cannot hold it."""
    assert _contracted(kernel_of, PRODUCER_CONSUMER, frozenset({"t"}), original=True) == []


@pytest.mark.parametrize(
    "body",
    [
        "for (i = 1; i < n; i++)\n  b[i] = t[i - 1];\n",  # reads values from before the region
        # one read of the consumer reaches a value written before, the other one a value from before the region
        "t[0] = a[0] * 2;\nb[0] = t[0] + t[n - 1];\n",
        # each value is read twice, far apart
        "for (i = 0; i < n; i++)\n  t[i] = a[i];\nfor (i = 0; i < n; i++)\n  b[i] = t[i] + t[n - 1 - i];\n",
        "for (i = 0; i < n; i++) {\n  t[i] = 0;\n  for (j = 0; j < n; j++)\n    t[i] += A[i][j];\n  b[i] = t[i];\n}\n",
    ],
)
def test_temporaries_that_need_their_storage_are_kept(kernel_of: KernelOf, body: str) -> None:
    assert _contracted(kernel_of, body, frozenset({"t"})) == []
