"""CBLAS calls' C text (``polyopt.library.blas``): every matrix passed needs rows that are arrays, which
the compiler decides from the declared types (``LEADING_HELPER``: 0 for row pointers, and then the
loops run)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from polyopt.emit.cast import CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.splice import HELPER_DEFINITIONS
from polyopt.library import find_idioms
from polyopt.library.blas import LEADING_HELPER, cblas_available, library_block, library_enabled
from polyopt.model import PolyModel
from tests.e2e.handwritten import DECLARATIONS
from tests.e2e.test_blas import CASES
from tests.support import compile_c, run_binary

LOOPS = (CStmt("/* loops */;"),)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_matrix_passed_is_checked_to_have_rows_that_are_arrays(
    model_of: Callable[..., PolyModel], name: str
) -> None:
    case = CASES[name]
    idioms = find_idioms(model_of(case.body, DECLARATIONS.format(type=case.kind)))
    assert idioms
    for idiom in idioms:
        sizes = [f"s{index}" for index in range(len(idiom.sizes))]

        text = print_c((library_block(idiom, sizes, LOOPS, 100)[0],))

        condition = re.search(r"^ *if \((.*)\) \{$", text, re.MULTILINE)
        calls = re.findall(r"cblas_[ds]\w+\((.*)\);", text)
        assert condition is not None and calls and "sizeof" not in "".join(calls)
        for arguments in (call.split(", ") for call in calls):
            matrices = [
                index for index, argument in enumerate(arguments) if re.fullmatch(r"\(void \*\)&.*\]\[0\]", argument)
            ]
            assert matrices
            for index in matrices:
                leading = arguments[index + 1]
                assert leading.startswith(f"(int){LEADING_HELPER}(")
                assert f"{leading.removeprefix('(int)')} > 0" in condition.group(1)


DECLARED = """#include <stdio.h>
#include <stddef.h>
#define polyopt_leading_dimension{definition}
static double **rows, *const *constant_rows, G[4][5], (*T)[7], U[2][3][4], (*W)[3][4];
static float F[3][9];
static double *P[6];
static void show(int n, int m, double V[n][m], double Z[n][m][4], double *R[n])
{{
  printf("%zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu %zu\\n", polyopt_leading_dimension(rows),
         polyopt_leading_dimension(constant_rows), polyopt_leading_dimension(P), polyopt_leading_dimension(R),
         polyopt_leading_dimension(G), polyopt_leading_dimension(F), polyopt_leading_dimension(T),
         polyopt_leading_dimension(V), polyopt_leading_dimension(U), polyopt_leading_dimension(U[0]),
         polyopt_leading_dimension(W), polyopt_leading_dimension(Z), polyopt_leading_dimension(Z[0]));
}}
int main(void)
{{
  static double V[3][6], Z[3][6][4], *R[3];
  show(3, 6, V, Z, R);
  return 0;
}}
"""


def test_leading_dimension_is_the_row_length_of_arrays_of_arrays_and_0_for_row_pointers(tmp_path: Path) -> None:
    source = tmp_path / "declared.c"
    source.write_text(DECLARED.format(definition=HELPER_DEFINITIONS[LEADING_HELPER]))

    binary = compile_c(source, flags=["-O2", "-Wall", "-Wextra", "-Werror"], include_dirs=(), out_dir=tmp_path)

    assert run_binary(binary).stdout.split() == ["0", "0", "0", "0", "5", "9", "7", "6", "3", "4", "3", "6", "4"]


def test_blas_auto_looks_for_cblas_h_with_the_preprocessor_flags(tmp_path: Path) -> None:
    (tmp_path / "found").mkdir()
    (tmp_path / "broken").mkdir()
    (tmp_path / "found" / "cblas.h").write_text("/* a cblas.h only -I finds */\n")
    (tmp_path / "broken" / "cblas.h").write_text("#error this cblas.h comes first\n")

    assert cblas_available((f"-I{tmp_path / 'found'}",))
    assert library_enabled("auto", (f"-I{tmp_path / 'found'}",))
    assert not cblas_available((f"-I{tmp_path / 'broken'}",))
    assert not library_enabled("auto", (f"-I{tmp_path / 'broken'}",))
