"""``python -m polyopt.measure``: print the machine as a target file: its detected facts, the default profile,
and the machine's limits for a roofline (``limits``: measured on first use, then read from
the cache), with on standard error how the limits were found and which kernel measured each.

``--no-limits`` leaves the limits out (0, not measured) and runs no program.  Exit status 1 when the limits
cannot be measured.
"""

from __future__ import annotations

import sys

from polyopt.machine import detect, target_text
from polyopt.measure.limits import measured_limits
from polyopt.toolchain import ToolchainError

USAGE = "usage: python -m polyopt.measure [--no-limits]"


def main(arguments: list[str]) -> None:
    if arguments not in ([], ["--no-limits"]):
        sys.exit(f"{USAGE}\npolyopt.measure: error: unknown arguments: {' '.join(arguments)}")
    machine = detect()
    if arguments:
        print(target_text(machine), end="")
        return
    try:
        limits, what = measured_limits(machine)
    except (OSError, ToolchainError) as error:
        sys.exit(f"polyopt.measure: error: cannot measure the limits: {error}")
    kernels = ", ".join(f"{field.replace('_', '-')} {kernel}" for field, kernel in limits.kernels)
    print(f"limits: {what}; best of {limits.runs} runs; measured by {kernels}", file=sys.stderr)
    print(target_text(limits.applied(machine)), end="")


if __name__ == "__main__":
    main(sys.argv[1:])
