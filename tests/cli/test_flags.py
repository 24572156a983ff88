"""Tests for ``polyopt.cli.flags``: the one table of options makes the command's click options and
doc/usage.md's flag table, and names the ``Options`` field each flag sets."""

from __future__ import annotations

import dataclasses
import subprocess
import sys
from pathlib import Path

import click

from polyopt.cli.flags import FLAGS, flags_markdown
from polyopt.command import optimize
from polyopt.options import Options

USAGE = Path(__file__).resolve().parents[2] / "doc" / "usage.md"


def test_the_usage_flag_table_is_the_rendered_one() -> None:
    table = flags_markdown()
    text = USAGE.read_text(encoding="utf-8")
    start = text.index("| flag | meaning |\n")

    assert text[start : start + len(table)] == table


def test_python_m_polyopt_cli_prints_the_flag_table() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "polyopt.cli", "--flags-markdown"], capture_output=True, text=True, timeout=60
    )

    assert result.returncode == 0, result.stderr
    assert result.stdout == flags_markdown()


def test_every_option_of_the_command_comes_from_the_table_in_its_order() -> None:
    options = [param for param in optimize.params if isinstance(param, click.Option) and param.name != "version"]

    assert [param.opts[0] for param in options] == [flag.spellings[0].split("/")[0] for flag in FLAGS]
    assert [param.help for param in options] == [flag.help for flag in FLAGS]


def test_each_flag_names_an_options_field_and_each_field_has_a_flag() -> None:
    fields = {field.name: field for field in dataclasses.fields(Options)}
    defaults = Options()
    for flag in FLAGS:
        if not flag.field:
            continue
        top, *inner = flag.field.split(".")
        assert top in fields, flag.spellings
        value = getattr(defaults, top)
        for name in inner:
            value = getattr(value, name)  # raises for a field that does not exist

    named = {flag.field.split(".")[0] for flag in FLAGS}
    assert set(fields) - named == {"scheduler"}  # isl's operation budget has no flag
