"""What one option of the ``polyopt`` command is (``Flag``), and how its value is read.

Public: ``Flag``, ``Parsed``, ``SWITCH``, ``SIZE``, ``REPORT_CHOICES``, ``click_settings``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import click

from polyopt.diagnostics import PolyoptError
from polyopt.machine import parse_size

SWITCH = "switch"  # the ``kind`` of a flag without a value
REPORT_CHOICES = ("text", "json")


class Parsed(click.ParamType):
    """A flag value read by one of polyopt's parsers, whose ``PolyoptError`` becomes click's usage error."""

    def __init__(self, name: str, parse: Callable[[str], Any]) -> None:
        self.name = name
        self._parse = parse

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not isinstance(value, str):
            return value
        try:
            return self._parse(value)
        except PolyoptError as error:
            self.fail(error.message, param, ctx)


SIZE = Parsed("size", parse_size)


@dataclass(frozen=True)
class Flag:
    """One option: its ``spellings`` (click's parameter ``name`` where it is not the first long
    spelling's), its ``help``, the ``Options`` field it sets (``field``, dotted below a nested option:
    ``tiling.sizes``; empty for none), its value (``kind``: ``SWITCH``, a click type, or None for
    text; ``metavar``; ``default``; ``multiple``; other click ``settings``), and its ``readme`` rows
    (spelling, meaning) in doc/usage.md's flag table (none where another flag's row covers it)."""

    spellings: tuple[str, ...]
    help: str
    field: str
    readme: tuple[tuple[str, str], ...] = ()
    kind: Any = None
    metavar: str | None = None
    default: Any = None
    multiple: bool = False
    name: str | None = None
    settings: Mapping[str, Any] = field(default_factory=dict)


def click_settings(flag: Flag) -> dict[str, Any]:
    """The keyword arguments of ``click.option`` for ``flag``."""
    settings: dict[str, Any] = {"help": flag.help, **flag.settings}
    if flag.kind == SWITCH:
        settings["is_flag"] = True
    elif flag.kind is not None:
        settings["type"] = flag.kind
    if flag.metavar is not None:
        settings["metavar"] = flag.metavar
    if flag.default is not None:
        settings["default"] = flag.default
    if flag.multiple:
        settings["multiple"] = True
    return settings
