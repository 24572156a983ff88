"""``python -m polyopt.roofline``: print the detected machine as a target file (``python -m polyopt.machine``)
with its limits in the profile (``polyopt.roofline.limits``: measured on first use, then read from the
cache), and on standard error how they were found and which kernel measured each (exit 1 when they
cannot be measured)."""

from __future__ import annotations

import sys

from polyopt.machine import detect, target_text
from polyopt.roofline.limits import measured_limits
from polyopt.toolchain import ToolchainError


def main() -> None:
    try:
        limits, what = measured_limits(detect())
    except (OSError, ToolchainError) as error:
        sys.exit(f"polyopt.roofline: error: cannot measure the limits: {error}")
    kernels = ", ".join(f"{field.replace('_', '-')} {kernel}" for field, kernel in limits.kernels)
    print(f"limits: {what}; measured by {kernels}", file=sys.stderr)
    print(target_text(limits.applied(detect())), end="")


if __name__ == "__main__":
    main()
