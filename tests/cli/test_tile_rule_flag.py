"""``--tile-rule``: switching the tile-size model's rules off and on from the command line."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from polyopt.__main__ import main
from polyopt.command import options_from_arguments
from polyopt.options import TILE_RULE_NAMES
from tests.support import EXAMPLES


@pytest.mark.parametrize(
    ("arguments", "disabled"),
    [
        ([], set()),
        (["--tile-rule=-even-out"], {"even-out"}),
        (["--tile-rule", "-even-out,-per-core"], {"even-out", "per-core"}),
        (["--tile-rule=-even-out", "--tile-rule=-per-core,+even-out"], {"per-core"}),
    ],
)
def test_tile_rules_are_switched_off_and_on_in_order(arguments: list[str], disabled: set[str]) -> None:
    assert options_from_arguments(arguments).tiling.disabled_rules == frozenset(disabled)


@pytest.mark.parametrize("value", ["-no-such-rule", "even-out", "+", "-even-out,"])
def test_an_unknown_or_unsigned_rule_is_a_usage_error_listing_the_rules(value: str) -> None:
    with pytest.raises(click.UsageError) as raised:
        options_from_arguments([f"--tile-rule={value}"])

    assert f"'{value.split(',')[-1]}'" in raised.value.message
    assert ", ".join(TILE_RULE_NAMES) in raised.value.message


def test_the_command_exits_with_a_usage_error_on_an_unknown_rule(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main, ["--tile-rule=-evenout", str(EXAMPLES / "gemm.c"), "-o", str(tmp_path / "out.c")], prog_name="polyopt"
    )

    assert result.exit_code == 2 and "Usage: polyopt" in result.stderr
    assert "expected -NAME or +NAME, not '-evenout' (rules: resident, no-reuse, streamed-rows, scalar-inner," in result.stderr
    assert not (tmp_path / "out.c").exists()
