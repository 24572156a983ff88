"""Tests for ``polyopt.frontend.params``: parameter values from hints, the preprocessor, or the default."""

from __future__ import annotations

import subprocess
from pathlib import Path
from typing import Any

import pytest

from polyopt.frontend import params
from polyopt.frontend.params import DEFAULT_PARAMETER_VALUE, ParameterValue, parameter_values, preprocess
from tests.support import needs_gcc

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"


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
    found, _ = parameter_values(text, "k.c", names, hints or {})
    return {name: (value.value, value.origin) for name, value in found.items()}


@needs_gcc
def test_a_polybench_chain_resolves_to_the_else_value() -> None:
    assert _values(POLYBENCH_STYLE, ["_PB_N"]) == {"_PB_N": (1000, "#define in file")}


@needs_gcc
def test_the_example_gemm_resolves_through_its_header() -> None:
    path = EXAMPLES / "gemm.c"

    found, failure = parameter_values(path.read_text(), str(path), ["_PB_NI", "_PB_NJ", "_PB_NK"], {})

    assert failure is None
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
    found, _ = parameter_values(POLYBENCH_STYLE, "k.c", ["n", "_PB_N", "n"], {})

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
def test_without_a_working_gcc_every_name_gets_the_default(compiler: str) -> None:
    preprocessed = preprocess(POLYBENCH_STYLE, "k.c", ["_PB_N"], (), compiler)

    found, failure = parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N"], {"M": 3}, preprocessed=preprocessed)

    assert found == {"_PB_N": ParameterValue("_PB_N", DEFAULT_PARAMETER_VALUE, "default: the preprocessor failed")}
    assert failure is not None


def test_a_gcc_that_times_out_gives_the_default(monkeypatch: pytest.MonkeyPatch) -> None:
    def slow(command: list[str], **kwargs: Any) -> subprocess.CompletedProcess[bytes]:
        raise subprocess.TimeoutExpired(command, params.PREPROCESS_TIMEOUT)

    monkeypatch.setattr(params.subprocess, "run", slow)

    found, failure = parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N"], {})

    assert found["_PB_N"].value == DEFAULT_PARAMETER_VALUE
    assert failure == f"gcc -E took longer than {params.PREPROCESS_TIMEOUT:g} s"


@needs_gcc
def test_a_missing_include_gives_the_default_and_says_why() -> None:
    text = '#include "no_such_header.h"\n' + POLYBENCH_STYLE

    found, failure = parameter_values(text, "k.c", ["_PB_N"], {})

    assert found == {"_PB_N": ParameterValue("_PB_N", DEFAULT_PARAMETER_VALUE, "default: the preprocessor failed")}
    assert failure is not None and "k.c:1:10" in failure and "no_such_header.h" in failure


def test_no_failure_is_reported_when_every_name_has_a_hint() -> None:
    text = '#include "no_such_header.h"\n' + POLYBENCH_STYLE

    assert parameter_values(text, "k.c", ["_PB_N"], {"_PB_N": 8}) == (
        {"_PB_N": ParameterValue("_PB_N", 8, "--param")},
        None,
    )


@needs_gcc
def test_a_bound_that_expands_to_a_variable_stands_for_the_macro_its_definition_names() -> None:
    scalar_bounds = POLYBENCH_STYLE.replace("#define LOOP_BOUND(x, y) x", "#define LOOP_BOUND(x, y) y")

    found, _ = parameter_values(scalar_bounds, "k.c", ["_PB_N", "n"], {})
    given, _ = parameter_values(scalar_bounds, "k.c", ["_PB_N"], {}, ("-DN=77",))

    assert found == {
        "_PB_N": ParameterValue("_PB_N", 1000, "via N: #define in file"),
        "n": ParameterValue("n", DEFAULT_PARAMETER_VALUE, "default"),
    }
    assert given == {"_PB_N": ParameterValue("_PB_N", 77, "via N: -DN=77")}


@needs_gcc
def test_dash_d_selects_the_dataset_and_the_origin_names_the_flags() -> None:
    found, _ = parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N"], {}, ("-DSMALL_DATASET",))

    assert found == {"_PB_N": ParameterValue("_PB_N", 60, "#define in file, with -DSMALL_DATASET")}


@needs_gcc
def test_a_value_defined_by_dash_d_is_named_by_its_flag() -> None:
    found, _ = parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N"], {}, ("-DN=100",))

    assert found == {"_PB_N": ParameterValue("_PB_N", 100, "-DN=100")}


@needs_gcc
def test_dash_u_applies_in_command_line_order() -> None:
    undone, _ = parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N"], {}, ("-DN=100", "-UN"))
    redone, _ = parameter_values(POLYBENCH_STYLE, "k.c", ["_PB_N"], {}, ("-UN", "-DN=100"))

    assert (undone["_PB_N"].value, redone["_PB_N"].value) == (1000, 100)


@needs_gcc
def test_includes_resolve_from_the_source_folder_and_dash_i(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "inc").mkdir()
    (tmp_path / "src" / "sizes.h").write_text("#include <base.h>\n#define N (BASE * 2)\n")
    (tmp_path / "inc" / "base.h").write_text("#define BASE 21\n")
    monkeypatch.chdir(tmp_path)
    text = '#include "sizes.h"\n'

    missing, failure = parameter_values(text, "src/k.c", ["N"], {})
    found, none = parameter_values(text, "src/k.c", ["N"], {}, ("-Iinc",))

    assert missing["N"].value == DEFAULT_PARAMETER_VALUE and "base.h" in (failure or "")
    assert none is None
    assert found == {"N": ParameterValue("N", 42, "#define in src/sizes.h, with -Iinc")}


@needs_gcc
def test_undecodable_bytes_in_the_file_do_not_raise() -> None:
    text = b"/* caf\xe9 */\n".decode("utf-8", errors="surrogateescape") + POLYBENCH_STYLE

    assert _values(text, ["_PB_N"]) == {"_PB_N": (1000, "#define in file")}


@needs_gcc
def test_gcc_accepts_gnu_c_rejects_a_syntax_error_and_cannot_tell_without_gcc(tmp_path: Path) -> None:
    (tmp_path / "size.h").write_text("#define SIZE 4\n")
    gnu = '#include "size.h"\nint f(int x) { return __builtin_expect(x, SIZE) ?: ({ x + 1; }); }\n'
    source = str(tmp_path / "f.c")

    assert params.gcc_accepts(gnu, source, ()) is True
    assert params.gcc_accepts(gnu.replace("?:", "?: ?"), source, ()) is False
    assert params.gcc_accepts(gnu, source, (), compiler="no-such-compiler-polyopt") is None
