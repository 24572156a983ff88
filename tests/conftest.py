"""Fixtures shared by the frontend, analysis and emit unit tests.

A region body is written as a C snippet and wrapped in a small file named
``k.c``::

    line 1  void kernel(void)
    line 2  {
    line 3  #pragma scop
    line 4  <first line of the body>
    ...     #pragma endscop
            }

so positions inside the body are reported from line ``BODY_LINE`` (4) on.

Fixtures: ``parse_body`` (body -> the pycparser compound statement),
``scop_of`` (body -> ``Scop``), ``model_of`` (body -> ``PolyModel``).  ``scop_of`` and
``model_of`` take file-scope declarations to put before line 1 as a second argument (the
region's names are then of the types they declare).

The fast tier, ``python3 -m pytest -q -m "not slow"``: ``pytest_collection_modifyitems`` marks ``slow``
every test outside it, by the rule of ``is_slow``; ``python3 -m pytest -q`` (CI)
runs everything.
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable

import pytest
from pycparser import c_ast

from polyopt.frontend.cparse import parse_region
from polyopt.frontend.declarations import declared_types
from polyopt.frontend.extract import extract_scop
from polyopt.frontend.regions import find_regions
from polyopt.frontend.scop import Scop
from polyopt.model import PolyModel, build_model
from polyopt.options import NO_PROBE_VARIABLE

# No test's outcome may depend on this machine's measurements: polyopt's runs, in this process and in
# the ones it starts, do without the probe (tests/measure/test_probe.py gives it measurements of its own).
os.environ[NO_PROBE_VARIABLE] = "1"

FILENAME = "k.c"
BODY_LINE = 4
_HEAD = "void kernel(void)\n{\n#pragma scop\n"
_TAIL = "#pragma endscop\n}\n"


def _region_text(body: str) -> str:
    return _HEAD + body + _TAIL


def _parse_body(body: str) -> c_ast.Compound:
    text = _region_text(body)
    (region,) = find_regions(text, FILENAME)
    assert region.body_line == BODY_LINE
    return parse_region(region, text)


def _scop_of(body: str, declarations: str = "") -> Scop:
    text = declarations + _region_text(body)
    (region,) = find_regions(text, FILENAME)
    return extract_scop(parse_region(region, text), region.location, declared_types(text, region), text)


@pytest.fixture
def parse_body() -> Callable[[str], c_ast.Compound]:
    return _parse_body


@pytest.fixture
def scop_of() -> Callable[..., Scop]:
    return _scop_of


@pytest.fixture
def model_of() -> Callable[..., PolyModel]:
    return lambda body, declarations="": build_model(_scop_of(body, declarations))


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-decisions",
        action="store_true",
        help="rewrite the golden decisions in tests/decisions/ instead of comparing with them",
    )
    parser.addoption(
        "--corpus-all",
        action="store_true",
        help="check every kernel of bench/corpus, not only the sample (tests/e2e/test_corpus.py)",
    )


# The fast tier: what ``-m "not slow"`` keeps.  Every unit test (tests/analysis, emit, frontend, transform,
# cli and the files at the top of tests/) and the golden decisions (tests/decisions) stay, except the test
# functions of SLOW_TESTS; of the end-to-end tests a sample stays:
# - tests/e2e/test_examples.py: the (kernel, option set) pairs of EXAMPLE_SAMPLE, at MINI: every option set
#   once, each on a PolyBench kernel whose family it exercises (linear algebra, BLAS idioms, stencils,
#   data mining, medley), with and without -fopenmp, with 1 and 2 threads;
# - tests/fuzz/test_fuzz.py: the first FUZZ_SEEDS generated programs (one per option set), and the tests of
#   the generator and of the differential check;
# - tests/regressions: the cases of REGRESSION_SAMPLE (minimized programs of external/, from
#   ../shared/cases; shrunk fuzz failures; loops once made slower, slow/);
# - tests/e2e/test_corpus.py: no kernel outside its own SAMPLE;
# - of every other test in tests/e2e and tests/regressions (SAMPLED_FOLDERS), the first FIRST_CASES tests of
#   each module in collection order, so that each module (one feature family: library calls, microkernels,
#   reductions, expansion, contraction, tiling, ...) runs its first case.
# Everything else is marked ``slow``; ``python3 -m pytest -q`` (CI) runs all of it.
SAMPLED_FOLDERS = ("tests/e2e/", "tests/regressions/")
EXAMPLE_SAMPLE: frozenset[tuple[str, str]] = frozenset(
    {
        ("gemm", "default"),
        ("fdtd-2d", "default"),
        ("nussinov", "identity"),
        ("2mm", "fuse=max"),
        ("gemver", "fuse=none"),
        ("bicg", "fuse=smart"),
        ("jacobi-2d", "fixed-tile-size=32"),
        ("seidel-2d", "notile"),
        ("floyd-warshall", "noparallel"),
        ("heat-3d", "l2tile"),
        ("lu", "tile-sizes=3,5,7"),
        ("correlation", "no-reassociate"),
        ("symm", "no-expand"),
        ("doitgen", "blas=cblas+blas-threshold=0+blas2-threshold=0"),
        ("trisolv", "blas=none+no-microkernel+parallel-work=1"),
    }
)
EXAMPLE_SIZE = "MINI"
FUZZ_SEEDS = 14
REGRESSION_SAMPLE = frozenset(
    {
        "int_sum_of_floats",
        "iterator_value_after_region",
        "macro_without_parentheses",
        "kept_element_degenerate_parallel",
        "case_14320",
        "case_710058",
        "diagonal_recurrence",
    }
)
FIRST_CASES = 1
# test functions (node ids without parameters) that take more than about 10 s on the project VM
SLOW_TESTS = frozenset(
    {
        "tests/cli/test_cli.py::test_big_valid_inputs_are_optimized_correctly_under_every_option_set",
        "tests/fuzz/test_fuzz.py::test_a_campaign_survives_a_hung_and_a_crashed_worker",
        "tests/fuzz/test_fuzz.py::test_pivot_programs_are_split_on_outer_and_on_innermost_loops",
        "tests/fuzz/test_fuzz.py::test_sweep_programs_get_rows_jammed_into_a_recurrence",
        "tests/fuzz/test_fuzz.py::test_sweep_programs_get_skewed_tiles_with_a_vector_loop_per_sweep",
        "tests/fuzz/test_fuzz.py::test_sweep_programs_over_three_space_dimensions_get_time_skewed_planes",
    }
)


def _own_rule(item: pytest.Item) -> bool | None:
    """Whether a module with a sample rule of its own keeps ``item`` in the fast tier (None: no such rule)."""
    path = item.nodeid.partition("::")[0]
    params = item.callspec.params if hasattr(item, "callspec") else {}
    if path == "tests/e2e/test_examples.py" and "kernel" in params:
        from tests.e2e.test_examples import options_id

        pair = (params["kernel"], options_id(params["options"]))
        return pair in EXAMPLE_SAMPLE and params.get("size", EXAMPLE_SIZE) == EXAMPLE_SIZE
    if path == "tests/fuzz/test_fuzz.py" and "seed" in params:
        return params["seed"] < FUZZ_SEEDS
    if path.startswith("tests/regressions/") and params:
        return item.callspec.id in REGRESSION_SAMPLE
    if path == "tests/e2e/test_corpus.py" and "kernel" in params:
        from tests.e2e.test_corpus import SAMPLE

        return None if params["kernel"] in SAMPLE else False
    return None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "slow: outside the fast tier (python3 -m pytest -q -m 'not slow')")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark ``slow`` every test outside the fast tier (before ``-m`` deselects by mark)."""
    taken: Counter[str] = Counter()
    for item in items:
        path = item.nodeid.partition("::")[0]
        own = _own_rule(item)
        fast = item.nodeid.partition("[")[0] not in SLOW_TESTS and own is not False
        if fast and own is None and path.startswith(SAMPLED_FOLDERS):
            fast = taken[path] < FIRST_CASES
            taken[path] += 1
        if not fast:
            item.add_marker(pytest.mark.slow)
