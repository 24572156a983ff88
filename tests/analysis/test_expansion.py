"""Which scalars ``polyopt.analysis.expansion`` expands, along which loops."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.expansion import plan_expansions
from polyopt.model import PolyModel

ModelOf = Callable[[str], PolyModel]

SYMM = (
    "for (i = 0; i < m; i++)\n  for (j = 0; j < n; j++) {\n    temp2 = 0;\n"
    "    for (k = 0; k < i; k++) {\n      C[k][j] += B[i][j] * A[i][k];\n      temp2 += B[k][j] * A[i][k];\n    }\n"
    "    C[i][j] = beta * C[i][j] + alpha * temp2;\n  }\n"
)


def _plan(model_of: ModelOf, body: str, taken: frozenset[str] = frozenset()) -> list[tuple[str, str, tuple[str, ...]]]:
    model = model_of(body)
    return [(e.scalar, e.name, e.loops) for e in plan_expansions(model, compute_dependences(model), taken)]


def test_symm_temporary_is_expanded_along_i_and_j(model_of: ModelOf) -> None:
    model = model_of(SYMM)
    (expansion,) = plan_expansions(model, compute_dependences(model), frozenset())

    assert (expansion.scalar, expansion.loops, expansion.lows) == ("temp2", ("i", "j"), (0, 0))
    expected_sizes = ["[m, n] -> { [(m)] : m > 0 and n > 0 }", "[m, n] -> { [(n)] : m > 0 and n > 0 }"]
    expected_last = ["[m, n] -> { [(m - 1)] : m > 0 and n > 0 }", "[m, n] -> { [(n - 1)] : m > 0 and n > 0 }"]
    for values, texts in ((expansion.sizes, expected_sizes), (expansion.last, expected_last)):
        expected = [isl.PwAff.read_from_str(model.ctx, text) for text in texts]
        assert all(v.is_equal(e) for v, e in zip(values, expected, strict=True))


def test_a_row_temporary_is_expanded_along_the_rows(model_of: ModelOf) -> None:
    body = "for (i = 1; i < n; i++) {\n  t = z[i];\n  for (j = 0; j < n; j++)\n    B[i][j] = t * A[i][j];\n}\n"

    assert _plan(model_of, body) == [("t", "t_x", ("i",))]


def test_the_new_name_avoids_taken_names(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++) {\n  t = a[i];\n  b[i] = t;\n}\n"

    assert _plan(model_of, body, frozenset({"t_x"})) == [("t", "t_x_", ("i",))]


@pytest.mark.parametrize(
    "body",
    [
        "for (i = 0; i < n; i++) {\n  b[i] = t;\n  t = a[i];\n}\n",  # the value flows to the next iteration
        "for (i = 0; i < n; i++) {\n  t = t * 2;\n  b[i] = t;\n}\n",  # the first read gets the value from before
        "for (i = 1; i < n; i++) {\n  t = b[i - 1];\n  b[i] = t + 1;\n}\n",  # i carries b's flow anyway
        "t = a[0];\nb[0] = t;\n",  # no loop to expand along
        "for (i = 0; i < n; i++)\n  s += a[i];\n",  # a reduction: its value flows on
    ],
)
def test_scalars_that_must_or_need_not_be_expanded_are_kept(model_of: ModelOf, body: str) -> None:
    assert _plan(model_of, body) == []
