"""Named integer constants: the macros and ``enum`` constants that a region may use by value.

Public: ``constant_probes``, ``named_constants``.

A name is a named constant when the preprocessor expands it to an integer (``#define B 16``,
``#define B (4 * 4)``, or ``-DB=16`` on the command line) and neither it nor a macro its definition
names is defined twice or undefined anywhere in the file (so the value holds wherever the region
is), or when an ``enum`` before the region declares it (``enum { B = 16, C }``: ``C`` is 17; an
initializer may use macros and earlier enumerators).  The preprocessor runs once per file, for the
parameters' values as well (``polyopt.frontend.params``): ``constant_probes`` are what it expands.
Without a working preprocessor only the enumerators whose initializers are plain numbers are known.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from polyopt.frontend.lexing import IDENTIFIER, blank_comments
from polyopt.frontend.params import Preprocessed, integer_value
from polyopt.frontend.regions import Region

_ENUM = re.compile(r"\benum\b(?:\s+[A-Za-z_]\w*)?\s*\{([^{}]*)\}")
_ENUMERATOR = re.compile(r"\s*([A-Za-z_]\w*)\s*(?:=(.*))?", re.S)


def _enumerator_lists(text: str) -> list[list[tuple[str, str | None]]]:
    """Each ``enum``'s enumerators in ``text``: the name and the initializer's text (None without one)."""
    lists: list[list[tuple[str, str | None]]] = []
    for match in _ENUM.finditer(text):
        items: list[tuple[str, str | None]] = []
        for part in _top_level_parts(match[1]):
            enumerator = _ENUMERATOR.fullmatch(part)
            if enumerator is None:
                break
            initializer = enumerator[2]
            items.append((enumerator[1], " ".join(initializer.split()) if initializer is not None else None))
        lists.append(items)
    return lists


def _top_level_parts(text: str) -> list[str]:
    """``text`` split at the commas outside parentheses, without an empty last part."""
    parts, depth, start = [], 0, 0
    for index, char in enumerate(text):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    if text[start:].strip():
        parts.append(text[start:])
    return parts


def _enum_values(lists: list[list[tuple[str, str | None]]], expansions: dict[str, str]) -> dict[str, int]:
    """The value of each enumerator, as far as each list's initializers can be computed."""
    values: dict[str, int] = {}
    for items in lists:
        previous = -1
        for name, initializer in items:
            if initializer is None:
                value: int | None = previous + 1
            else:
                expanded = expansions.get(initializer, initializer)
                value = integer_value(IDENTIFIER.sub(lambda m: str(values.get(m[0], m[0])), expanded))
            if value is None:
                break
            values[name] = previous = value
    return values


def constant_probes(text: str, names: Iterable[str]) -> list[str]:
    """What the preprocessor must expand for ``named_constants``: the ``names`` of the file ``text``'s
    regions and the initializers of its enumerators."""
    initializers = [init for items in _enumerator_lists(blank_comments(text)) for _, init in items if init is not None]
    return list(dict.fromkeys([*names, *initializers]))


def named_constants(text: str, region: Region, names: Iterable[str], preprocessed: Preprocessed) -> dict[str, int]:
    """The named constants among ``names`` (identifiers of ``region`` in the file ``text``) and their
    values; ``preprocessed`` expanded the ``constant_probes``."""
    wanted = set(names)
    expansions = dict(preprocessed.expansions)
    lists = _enumerator_lists(blank_comments(text[: region.start]))
    constants = {name: value for name, value in _enum_values(lists, expansions).items() if name in wanted}
    for name in wanted:
        expansion = expansions.get(name, name)
        value = integer_value(expansion) if expansion != name else None
        if value is not None and not set(preprocessed.chain(name)) & preprocessed.redefined:
            constants[name] = value
    return constants
