"""Diagnostics: the exception hierarchy and compiler-style messages.

Public: ``Location``, ``PolyoptError``, ``InputError``, ``RegionSyntaxError``, ``UnsupportedRegion``,
``IllegalTransform``, ``OutputError``, ``format_message``, ``EXIT_ERROR``.
Exit codes: 0 success (warnings allowed), 1 an error in the input or output
file, 2 a usage error reported by the command line parser.
"""

from __future__ import annotations

from dataclasses import dataclass

EXIT_ERROR = 1


@dataclass(frozen=True)
class Location:
    """A position in a source file: 1-based line and column."""

    file: str
    line: int = 0
    column: int = 0

    def __str__(self) -> str:
        if self.line <= 0:
            return self.file
        if self.column <= 0:
            return f"{self.file}:{self.line}"
        return f"{self.file}:{self.line}:{self.column}"


def format_message(location: Location | None, severity: str, message: str) -> str:
    """Format ``file:line:col: severity: message`` as C compilers do."""
    prefix = f"{location}: " if location is not None else "polyopt: "
    return f"{prefix}{severity}: {message}"


class PolyoptError(Exception):
    """Base class of every error polyopt reports to its user."""

    def __init__(self, message: str, location: Location | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.location = location

    def __str__(self) -> str:
        return format_message(self.location, "error", self.message)


class InputError(PolyoptError):
    """The input cannot be read or is not valid C: polyopt stops with exit 1."""


class RegionSyntaxError(InputError):
    """A region's text does not parse: an input error when gcc rejects the file too, else the region is kept."""


class OutputError(PolyoptError):
    """The output cannot be written: polyopt stops with exit 1."""


class UnsupportedRegion(PolyoptError):
    """A region is valid C but outside the polyhedral model: it is kept as is."""

    def warning(self) -> str:
        return format_message(self.location, "warning", f"region not optimized: {self.message}")


class IllegalTransform(PolyoptError):
    """A transformation failed its legality check: the region falls back to a safe schedule."""
