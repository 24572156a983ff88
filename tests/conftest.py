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
"""

from __future__ import annotations

import os
from collections.abc import Callable

import pytest
from pycparser import c_ast

from polyopt.frontend.cparse import parse_region
from polyopt.frontend.declarations import declared_types
from polyopt.frontend.extract import extract_scop
from polyopt.frontend.regions import find_regions
from polyopt.frontend.scop import Scop
from polyopt.library.probe import NO_PROBE_VARIABLE
from polyopt.model import PolyModel, build_model

# No test's outcome may depend on this machine's measurements: polyopt's runs, in this process and in
# the ones it starts, do without the probe (tests/library/test_probe.py gives it measurements of its own).
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
