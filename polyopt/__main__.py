"""The ``polyopt`` command line (the console script, and ``python -m polyopt``): ``polyopt check ...``,
``polyopt tune ...`` and ``polyopt FILE ...``.

Public: ``main``.  ``polyopt.command`` holds the optimizing command and ``polyopt.program`` the other two, and
both read their flags through ``polyopt.cli``; this module only chooses among them, at the top of the package,
so that none of them imports a module that imports it.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from typing import Any

import click

from polyopt.command import optimize
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
    main()
