"""The differential check shared by the fuzz test, the fuzz campaign and the regression cases.

``check(source, flags)`` builds ``source`` with ``gcc -O1``, runs polyopt on it with
``flags``, builds the output with ``gcc -O1 -fopenmp``, runs both (the optimized one with
two threads) and requires identical outputs.  A region polyopt declines ("region not
optimized") passes when the output is the input byte for byte; an internal error, any
other non-zero exit or a traceback fails.
"""

from __future__ import annotations

import tempfile
from collections.abc import Sequence
from pathlib import Path

from tests.e2e.handwritten import REASSOCIATED
from tests.support import assert_same_output, compile_c, run_binary, run_polyopt

OPTION_SETS: tuple[tuple[str, ...], ...] = (
    (),
    ("--notile",),
    ("--fuse=max",),
    ("--tile-sizes=3,5,7",),
    ("--no-reassociate",),
    ("--no-expand",),
)
FLAGS_PREFIX = "/* polyopt flags:"  # a regression case's first line names its flags


def flags_of(source: Path) -> tuple[str, ...]:
    """The flags on a regression case's first line, ``/* polyopt flags: --notile */``."""
    first = source.read_text().splitlines()[0]
    if not first.startswith(FLAGS_PREFIX):
        return ()
    return tuple(first.removeprefix(FLAGS_PREFIX).removesuffix("*/").split())


def tolerance(flags: Sequence[str]) -> dict[str, float]:
    """Exact comparison unless polyopt may reorder reductions (then floating-point sums round differently)."""
    exact = "--no-reassociate" in flags or "--identity" in flags
    return {} if exact else dict(REASSOCIATED)


def check(source: Path, flags: Sequence[str]) -> str:
    """Fail with an ``AssertionError`` if polyopt with ``flags`` changes what ``source`` prints.

    Returns ``"optimized"`` or ``"declined"`` (a region was not optimized).
    """
    with tempfile.TemporaryDirectory(prefix="polyopt-fuzz-") as folder:
        work = Path(folder)
        original = compile_c(source, flags=["-O1"], out_dir=work)
        output = work / f"{source.stem}.opt.c"
        result = run_polyopt(source, flags, output=output)
        context = f"polyopt {' '.join(flags)} {source}\nstderr:\n{result.stderr}"
        if result.returncode != 0 or "Traceback" in result.stderr or "internal error" in result.stderr:
            raise AssertionError(f"polyopt failed (exit {result.returncode}): {context}")
        if "region not optimized" in result.stderr:
            if output.read_bytes() != source.read_bytes():
                raise AssertionError(f"a region was not optimized but the output differs from the input: {context}")
            return "declined"
        optimized = compile_c(output, flags=["-O1", "-fopenmp"], out_dir=work)
        expected = run_binary(original, threads=1, timeout=20).stdout
        actual = run_binary(optimized, threads=2, timeout=20).stdout
        assert_same_output(expected, actual, context=context, **tolerance(flags))
        return "optimized"
