"""Macros in a region (``polyopt.frontend.macros``): each program is built from the original and from the
optimized file, both with the same ``-D`` flags, and their outputs must agree; the optimized text shows
whether the macro kept its name or was replaced by its expansion."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from polyopt.driver import optimize_text
from polyopt.frontend.lexing import tokens
from polyopt.frontend.macros import _operand
from polyopt.options import Options
from tests.support import assert_same_output, compile_c, needs_gcc, run_binary, run_polyopt

_PROGRAM = """#include <stdio.h>
#define NN 5
{defines}
static double A[40], B[40];
static void kernel(int n) {{
  int i;
#pragma scop
{region}
#pragma endscop
}}
int main(void) {{
  for (int a = 0; a < 40; a++) {{ A[a] = a; B[a] = 100 + a; }}
  kernel(12);
  for (int a = 0; a < 40; a++) printf("%g %g\\n", A[a], B[a]);
  return 0;
}}
"""


@dataclass(frozen=True)
class Case:
    defines: str
    region: str
    present: tuple[str, ...] = ()  # in the optimized region
    absent: tuple[str, ...] = ()
    flags: tuple[str, ...] = ()


CASES = {
    "object_times_two": Case("#define W NN+1", "for (i = 0; i < W*2; i++)\n  A[i] += B[i];", ("c0 <= 6",)),
    "two_times_object": Case("#define W NN+1", "for (i = 0; i < 2*W; i++)\n  A[i] += B[i];", ("c0 <= 10",)),
    # the model must see A[i + 9], read before the first loop writes it: the two loops cannot be fused as one
    "subscript": Case(
        "#define W NN+1",
        "for (i = 0; i < 20; i++)\n  A[i] = B[i] + 1;\nfor (i = 0; i < 20; i++)\n  B[i] = A[i + 12 - W*2];",
        ("- 5) + (1 * 2)",),
    ),
    "step": Case("#define W NN+1", "for (i = 0; i < 30; i += 2*W)\n  A[i] = B[i] * 2;", ("c0 += 11",)),
    "function_like": Case(
        "#define IDX(k) k+1", "for (i = 0; i < 12; i++)\n  A[IDX(i)*2] = B[IDX(i)*2] + B[i];", (), ("IDX",)
    ),
    "parameter_expression": Case("#define M n-1", "for (i = 0; i < 2*M; i++)\n  A[i] += B[i];", ("2 * n - 1",), ("M",)),
    "command_line": Case("", "for (i = 0; i < W*2; i++)\n  A[i] += B[i];", ("c0 <= 6",), (), ("-DW=NN+1",)),
    "parenthesized": Case("#define W (NN+1)", "for (i = 0; i < 2*W; i++)\n  A[i] += B[W];", ("B[W]",)),
    "parenthesized_parameter": Case("#define M (n-1)", "for (i = 0; i < 2*M; i++)\n  A[i] += B[i];", ("M",)),
    "redefined": Case(
        "#define W (2)\n#undef W\n#define W NN+1", "for (i = 0; i < W*2; i++)\n  A[i] += B[i];", ("c0 <= 6",)
    ),
    "undefined_after": Case(
        "#define W NN+1",
        "for (i = 0; i < W*2; i++)\n  A[i] += B[i];\n#pragma endscop\n}\n#undef W\n#define W 3\n"
        "static void other(void) {\n  int i;\n#pragma scop\nfor (i = 0; i < W*2; i++)\n  A[i] -= 1;",
        ("c0 <= 6", "2 * W;"),
    ),
    "chained": Case(
        "#define V NN+1\n#define W (V)\n#define SQ(x) x*x",
        "for (i = 0; i < SQ(W); i++)\n  A[i] += B[SQ(2)];",
        ("c0 <= 35",),
    ),
}


@needs_gcc
@pytest.mark.parametrize("name", sorted(CASES))
def test_macro_in_region(name: str, tmp_path: Path) -> None:
    case = CASES[name]
    source = tmp_path / f"{name}.c"
    source.write_text(_PROGRAM.format(defines=case.defines, region=case.region))
    defines = [flag[2:] for flag in case.flags]
    expected = run_binary(compile_c(source, defines=defines, out_dir=tmp_path)).stdout
    optimized = tmp_path / "out" / f"{name}.c"
    optimized.parent.mkdir()
    process = run_polyopt(source, ("--identity", *case.flags), output=optimized)
    assert process.returncode == 0, process.stderr
    assert "warning" not in process.stderr, process.stderr
    text = optimized.read_text()
    kernel = text[text.index("static void kernel") : text.index("int main")]
    for present in case.present:
        assert present in kernel, kernel
    for absent in case.absent:
        assert absent not in kernel, kernel
    actual = run_binary(compile_c(optimized, defines=defines, flags=("-fopenmp",), out_dir=optimized.parent), threads=2)
    assert_same_output(expected, actual.stdout)


def test_macro_whose_expansion_is_unknown_declines_the_region() -> None:
    """Without the preprocessor's expansions (a missing header), a macro that the file defines as text that
    is not one operand declines its region, with a warning at the macro."""
    text = '#include "missing.h"\n#define W NN+1\nvoid f(double *A) {\n  int i;\n#pragma scop\n'
    text += "  for (i = 0; i < 2*W; i++)\n    A[i] = 0;\n#pragma endscop\n}\n"
    outcome = optimize_text(text, "k.c", Options(), None, _never)
    assert outcome.text == text
    assert any("k.c:6:21: warning: region not optimized: macro 'W'" in w for w in outcome.warnings), outcome.warnings


def test_positions_after_an_expansion_stay_the_file_columns() -> None:
    """A construct after a replaced macro on the same line is reported at its column in the file."""
    text = "#define NN 5\n#define W NN+1\nvoid f(double *A) {\n  int i;\n#pragma scop\n"
    line = "  for (i = 0; i < 2*W; i++)  A[i] = rand();"
    text += f"{line}\n#pragma endscop\n}}\n"
    outcome = optimize_text(text, "k.c", Options(), None, _never)
    column = line.index("rand") + 1
    assert any(f"k.c:6:{column}: warning" in w and "'rand'" in w for w in outcome.warnings), outcome.warnings


def _never(*_: object) -> None:
    raise AssertionError("the region must not reach optimization")


@pytest.mark.parametrize(
    ("expansion", "operand"),
    [
        ("16", True),
        ("n", True),
        ("( 5 +1)", True),
        ("-1", True),
        ("-(n)", True),
        ("sqrtf(x)", True),
        ("a[i].f", True),
        ("unsigned long", True),
        ("5 +1", False),
        ("-n+1", False),
        ("(a)+(b)", False),
        ("", False),
        ("i+1*2", False),
    ],
)
def test_operand(expansion: str, operand: bool) -> None:
    assert _operand(tokens(expansion)) is operand
