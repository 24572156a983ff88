"""Tests for ``polyopt.frontend.params``: parameter values from hints, the preprocessor, or the default."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from polyopt.frontend import params
from polyopt.frontend.params import DEFAULT_PARAMETER_VALUE, ParameterValue, parameter_values

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"

needs_gcc = pytest.mark.skipif(shutil.which(params.CC) is None, reason="gcc is not installed")

POLYBENCH_STYLE = """\
#if defined(MINI_DATASET)
# define N_DEFAULT 20
#elif defined(SMALL_DATASET)
# define N_DEFAULT 60
#else
# define N_DEFAULT 1000
#endif
#ifndef N
# define N N_DEFAULT
#endif
#define LOOP_BOUND(x, y) x
#define _PB_N LOOP_BOUND(N, n)
void kernel(int n, double a[N])
{
#pragma scop
  for (int i = 0; i < _PB_N; i++)
    a[i] = 0;
#pragma endscop
}
"""


def _values(text: str, names: list[str], hints: dict[str, int] | None = None) -> dict[str, tuple[int, str]]:
    found = parameter_values(text, "k.c", names, hints or {})
    return {name: (value.value, value.origin) for name, value in found.items()}


@needs_gcc
def test_a_polybench_chain_resolves_to_the_else_value() -> None:
    assert _values(POLYBENCH_STYLE, ["_PB_N"]) == {"_PB_N": (1000, "#define in file")}


@needs_gcc
def test_the_example_gemm_resolves_through_its_header() -> None:
    path = EXAMPLES / "gemm.c"

    found = parameter_values(path.read_text(), str(path), ["_PB_NI", "_PB_NJ", "_PB_NK"], {})

    assert found == {
        "_PB_NI": ParameterValue("_PB_NI", 1000, "#define in file"),
        "_PB_NJ": ParameterValue("_PB_NJ", 1100, "#define in file"),
        "_PB_NK": ParameterValue("_PB_NK", 1200, "#define in file"),
    }


@needs_gcc
def test_plain_defines_and_integer_arithmetic() -> None:
    text = "#define N 500\n#define M (2 * (N + 4) / 3 - 1UL)\n#define H 0x40\n#define O 017\n#define D (-7 / 2 + 10)\n"

    assert _values(text, ["N", "M", "H", "O", "D"]) == {
        "N": (500, "#define in file"),
        "M": (335, "#define in file"),
        "H": (64, "#define in file"),
        "O": (15, "#define in file"),
        "D": (7, "#define in file"),  # C division truncates toward zero
    }


@needs_gcc
def test_a_hint_wins_over_the_file() -> None:
    assert _values(POLYBENCH_STYLE, ["_PB_N"], {"_PB_N": 64}) == {"_PB_N": (64, "--param")}


@needs_gcc
@pytest.mark.parametrize(
    "definition",
    ["", "#define n m\n", "#define n 1.5\n", "#define n 0\n", "#define n (-3)\n", "#define n (1 / 0)\n"],
)
def test_a_name_without_a_positive_integer_value_gets_the_default(definition: str) -> None:
    assert _values(definition + POLYBENCH_STYLE, ["n"]) == {"n": (DEFAULT_PARAMETER_VALUE, "default")}


@needs_gcc
def test_values_are_returned_in_the_order_asked_without_repeats() -> None:
    found = parameter_values(POLYBENCH_STYLE, "k.c", ["n", "_PB_N", "n"], {})

    assert list(found) == ["n", "_PB_N"]


def test_gcc_runs_once_and_not_at_all_when_every_name_has_a_hint(monkeypatch: pytest.MonkeyPatch) -> None:
    commands: list[list[str]] = []
    real_run = subprocess.run

    def recording_run(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        commands.append(command)
        return real_run(command, **kwargs)

    monkeypatch.setattr(params.subprocess, "run", recording_run)

    parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N", "n", "M"], {"M": 3})
    assert len(commands) == 1 and commands[0][:2] == [params.CC, "-E"]
    parameter_values(POLYBENCH_STYLE, "k.c", ["M"], {"M": 3})
    assert len(commands) == 1


@pytest.mark.parametrize("compiler", ["/nonexistent/gcc", "false"])
def test_without_a_working_gcc_every_name_gets_the_default(monkeypatch: pytest.MonkeyPatch, compiler: str) -> None:
    monkeypatch.setattr(params, "CC", compiler)

    assert _values(POLYBENCH_STYLE, ["_PB_N"], {"M": 3}) == {"_PB_N": (DEFAULT_PARAMETER_VALUE, "default")}


def test_a_gcc_that_times_out_gives_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        raise subprocess.TimeoutExpired(command, params.PREPROCESS_TIMEOUT)

    monkeypatch.setattr(params.subprocess, "run", slow)

    assert _values(POLYBENCH_STYLE, ["_PB_N"]) == {"_PB_N": (DEFAULT_PARAMETER_VALUE, "default")}


@needs_gcc
def test_a_missing_include_gives_the_default() -> None:
    text = '#include "no_such_header.h"\n' + POLYBENCH_STYLE

    assert _values(text, ["_PB_N"]) == {"_PB_N": (DEFAULT_PARAMETER_VALUE, "default")}


@needs_gcc
def test_undecodable_bytes_in_the_file_do_not_raise() -> None:
    text = b"/* caf\xe9 */\n".decode("utf-8", errors="surrogateescape") + POLYBENCH_STYLE

    assert _values(text, ["_PB_N"]) == {"_PB_N": (1000, "#define in file")}
