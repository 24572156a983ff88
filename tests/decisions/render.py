"""The decisions of one ``--report=json`` document as stable, readable text (the golden files here).

Every field of the document and of its regions is rendered by name, in the document's order,
except those that are not decisions (``OMITTED``): the findings (statements, dependences,
parameters and their provenance), positions and the machine line.  A field the report gains
later appears without a change here; empty fields are left out.  Messages lose the
``file:line:column:`` prefix of the source.

Public: ``OMITTED``, ``render_decisions``.
"""

from __future__ import annotations

import re
from typing import Any

OMITTED = frozenset({"format", "source", "machine", "location", "index", "parameters", "statements", "dependences"})
_INDENT = "  "


def render_decisions(document: dict[str, Any]) -> str:
    """The text of ``document`` (a parsed ``--report=json``): file-wide fields, then one block per region."""
    position = re.compile(re.escape(str(document.get("source", ""))) + r":\d+(?::\d+)?: ")
    lines: list[str] = []
    for key, value in document.items():
        if key == "regions":
            for region in value:
                lines.append(f"region {region.get('index', '?')}")
                lines.extend(_fields(region, _INDENT, position))
        elif key not in OMITTED:
            lines.extend(_field(key, value, "", position))
    return "\n".join(lines) + "\n"


def _fields(entry: dict[str, Any], indent: str, position: re.Pattern[str]) -> list[str]:
    return [line for key, value in entry.items() if key not in OMITTED for line in _field(key, value, indent, position)]


def _field(key: str, value: Any, indent: str, position: re.Pattern[str]) -> list[str]:
    if value is None or value == [] or value == {}:
        return []
    if isinstance(value, dict):
        return [f"{indent}{key}:", *_fields(value, indent + _INDENT, position)]
    if not isinstance(value, list):
        return [f"{indent}{key}: {_scalar(value, position)}"]
    lines = [f"{indent}{key}:"]
    for item in value:
        if isinstance(item, dict):
            block = _fields(item, indent + _INDENT * 2, position)
            lines.extend([f"{indent}{_INDENT}- {block[0].lstrip()}", *block[1:]] if block else [])
        else:
            lines.append(f"{indent}{_INDENT}{_scalar(item, position)}")
    return lines


def _scalar(value: Any, position: re.Pattern[str]) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return position.sub("", str(value))
