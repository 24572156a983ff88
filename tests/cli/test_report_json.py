"""Tests for ``--report=json``: one JSON document with the text report's decisions, documented in doc/report.md."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from polyopt.diagnostics import Location
from polyopt.frontend.params import ParameterValue
from polyopt.pipeline import LAYOUT
from polyopt.report import DependenceLine, RegionReport, Section, StatementLine, format_report
from tests.cli.test_cli import run
from tests.support import EXAMPLES, working_copy

REPORT_DOC = Path(__file__).resolve().parent.parent.parent / "doc" / "report.md"
OUTSIDE_THE_MODEL = """\
int f(int);
void k(int n, int *a)
{
#pragma scop
  for (int i = 0; i < n; i++)
    a[f(i)] = i;
#pragma endscop
}
"""


@pytest.fixture
def gemm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example gemm.c and its header in a fresh current folder."""
    return working_copy([EXAMPLES / "gemm.c", EXAMPLES / "polybench_lite.h"], tmp_path, monkeypatch)


def rebuilt(region: dict[str, Any]) -> RegionReport:
    """The ``RegionReport`` that a region of the JSON document describes (its sections under the pipeline's
    headings, in their order)."""
    parameters = tuple(ParameterValue(**parameter) for parameter in region["parameters"])
    statements = tuple(
        StatementLine(**(statement | {"location": Location(**statement["location"])}))
        for statement in region["statements"]
    )
    dependences = tuple(
        DependenceLine(**(dependence | {"carried_by": tuple(dependence["carried_by"])}))
        for dependence in region["dependences"]
    )
    sections = tuple(
        Section(heading, (region[heading.key],) if heading.joined else tuple(region[heading.key])) for heading in LAYOUT
    )
    location = Location(**region["location"])
    return RegionReport(region["index"], location, parameters, statements, dependences, sections)


def test_the_json_report_of_gemm_has_the_text_reports_decisions(gemm: Path) -> None:
    text = run("gemm.c", "-o", "text.c", "--report")
    result = run("gemm.c", "-o", "json.c", "--report=json")

    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stderr)
    (region,) = document["regions"]
    assert document["source"] == "gemm.c" and document["warnings"] == [] and document["tile_sizes_file"] is None
    assert region["optimized"] is True and region["summary"] in (gemm.parent / "json.c").read_text()
    assert region["parameters"][0] == {"name": "_PB_NI", "value": 1000, "origin": "#define in file"}
    assert region["tiles"] and region["parallel"]
    machine, *reports = text.stderr.split("\n", 1)
    assert machine == f"machine: {document['machine']}"
    library, regions = reports[0].split("\nregion ", 1)
    assert [line.strip() for line in library.splitlines()] == document["library"]
    assert format_report(rebuilt(region)) == "region " + regions
    assert (gemm.parent / "json.c").read_text() == (gemm.parent / "text.c").read_text()


@pytest.mark.parametrize("spelling", [["--report", "json"], ["--report=json"]])
def test_report_takes_its_value_joined_or_apart(gemm: Path, spelling: list[str]) -> None:
    result = run(*spelling, "gemm.c", "-o", "out.c")

    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stderr)["regions"][0]["optimized"] is True


@pytest.mark.parametrize("arguments", [["--report", "gemm.c", "-o", "out.c"], ["gemm.c", "-o", "out.c", "--report"]])
def test_report_alone_is_the_text_report_wherever_it_stands(gemm: Path, arguments: list[str]) -> None:
    result = run(*arguments)

    assert result.exit_code == 0, result.stderr
    assert result.stderr.startswith("machine: ") and "region 1 at gemm.c:" in result.stderr


def test_an_unknown_report_format_is_a_usage_error(gemm: Path) -> None:
    result = run("gemm.c", "--report=xml")

    assert result.exit_code == 2 and "'xml' is not one of 'text', 'json'" in result.stderr


def test_a_region_kept_as_written_and_every_warning_are_in_the_document(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "k.c").write_text(
        '#include "missing.h"\n' + OUTSIDE_THE_MODEL + OUTSIDE_THE_MODEL.replace("void k(", "void h(")
    )

    result = run("k.c", "--silent", "-o", "out.c", "--report=json")

    assert result.exit_code == 0, result.stderr
    document = json.loads(result.stderr)
    assert [region["optimized"] for region in document["regions"]] == [False, False]
    assert document["regions"][0] == {
        "index": 1,
        "location": {"file": "k.c", "line": 5, "column": 1},
        "optimized": False,
        "summary": None,
        "warnings": ["k.c:7:7: warning: region not optimized: call to 'f' in an affine expression"],
    }
    assert document["warnings"][0].startswith("polyopt: warning: ignoring Pluto's options --silent")
    assert len(document["warnings"]) == 3


def test_every_key_of_the_document_is_documented_in_doc_report(gemm: Path) -> None:
    document = json.loads(run("gemm.c", "-o", "out.c", "--report=json").stderr)
    section = re.split(r"\n##+ ", REPORT_DOC.read_text().split("# The JSON report", 1)[1], maxsplit=1)[0]
    documented = set(re.findall(r"`([a-z_]+)`", section))

    region = document["regions"][0]
    keys = set(document) | set(region) | set(region["location"]) | set(region["parameters"][0])
    keys |= set(region["statements"][0]) | set(region["dependences"][0])
    assert keys - documented == set()
