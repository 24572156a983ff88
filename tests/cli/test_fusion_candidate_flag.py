"""``--fusion-candidate``: switching the candidate schedules of fusion groups off and on from the command line."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from polyopt.__main__ import main
from polyopt.command import options_from_arguments
from polyopt.diagnostics import PolyoptError
from polyopt.options import FUSION_CANDIDATE_NAMES, Options
from tests.support import EXAMPLES


@pytest.mark.parametrize(
    ("arguments", "disabled"),
    [
        ([], set()),
        (["--fusion-candidate=-row-fused"], {"row-fused"}),
        (["--fusion-candidate", "-row-fused,-isl"], {"row-fused", "isl"}),
        (["--fusion-candidate=-resident", "--fusion-candidate=-isl,+resident"], {"isl"}),
    ],
)
def test_candidates_are_switched_off_and_on_in_order(arguments: list[str], disabled: set[str]) -> None:
    assert options_from_arguments(arguments).disabled_fusion_candidates == frozenset(disabled)


@pytest.mark.parametrize("value", ["-no-such-candidate", "isl", "+", "-isl,", "-original"])
def test_an_unknown_or_unsigned_candidate_is_a_usage_error_listing_the_candidates(value: str) -> None:
    with pytest.raises(click.UsageError) as raised:
        options_from_arguments([f"--fusion-candidate={value}"])

    assert f"--fusion-candidate: expected -NAME or +NAME, not '{value.split(',')[-1]}'" in raised.value.message
    assert f"(candidates: {', '.join(FUSION_CANDIDATE_NAMES)})" in raised.value.message


def test_options_with_an_unknown_candidate_are_rejected() -> None:
    with pytest.raises(PolyoptError, match="unknown fusion candidate 'rows' \\(candidates: row-fused, resident,"):
        Options(disabled_fusion_candidates=frozenset({"isl", "rows"})).validate()


def test_the_command_exits_with_a_usage_error_on_an_unknown_candidate(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["--fusion-candidate=-rowfused", str(EXAMPLES / "mvt.c"), "-o", str(tmp_path / "out.c")],
        prog_name="polyopt",
    )

    assert result.exit_code == 2 and "Usage: polyopt" in result.stderr
    assert "expected -NAME or +NAME, not '-rowfused' (candidates: row-fused, resident, plane-tiled," in result.stderr
    assert not (tmp_path / "out.c").exists()
