"""The ``polyopt`` command line: ``polyopt check ...``, ``polyopt tune ...`` and ``polyopt FILE ...``.

Public: ``main`` (the console script), ``options_from_arguments``, ``prepared`` (``polyopt.command``'s, the
flags of ``polyopt FILE`` read as it reads them).  ``polyopt.command`` holds the optimizing command and
``polyopt.program`` the other two; this module only chooses among them, so that those import no module that
imports them.  ``python -m polyopt.cli --flags-markdown`` prints README's flag table from ``polyopt.flags.FLAGS``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from polyopt.command import optimize
from polyopt.command import options_from_arguments as options_from_arguments
from polyopt.command import prepared as prepared
from polyopt.flags import flags_markdown
from polyopt.program.check import command as check
from polyopt.program.tune import command as tune

# the words that name a command of their own when they come first
_COMMANDS: dict[str, click.Command] = {"check": check, "tune": tune}


class _Polyopt(click.Command):
    """polyopt's command line: ``polyopt check ...`` and ``polyopt tune ...`` (the word first, always) run
    those commands, anything else ``polyopt.command.optimize``: a file named ``check`` is optimized as
    ``polyopt ./check``."""

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None, **extra: Any) -> Any:
        arguments = list(sys.argv[1:] if args is None else args)
        if arguments[:1] and arguments[0] in _COMMANDS:
            return _COMMANDS[arguments[0]].main(arguments[1:], prog_name=f"polyopt {arguments[0]}", **extra)
        return optimize.main(arguments, prog_name, **extra)


main = _Polyopt("main")


if __name__ == "__main__":
    if sys.argv[1:] != ["--flags-markdown"]:
        sys.exit("usage: python -m polyopt.cli --flags-markdown  (README's flag table)")
    print(flags_markdown(), end="")
