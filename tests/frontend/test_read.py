"""Tests for ``polyopt.frontend.read``: a file's regions, each modelled or declined with its reason."""

from __future__ import annotations

import pytest

from polyopt.diagnostics import InputError, Location
from polyopt.frontend.read import Declined, Modelled, file_regions, read_regions

PROGRAM = (
    "#define N 100\n"  # 1
    "double a[N], b[N];\n"  # 2
    "void f(int m)\n"  # 3
    "{\n"  # 4
    "#pragma scop\n"  # 5
    "  for (int i = 0; i < N; i++)\n"  # 6
    "    a[i] = b[i] + m;\n"  # 7
    "#pragma endscop\n"  # 8
    "#pragma scop\n"  # 9
    "  while (a[0] > 0)\n"  # 10
    "    a[0] -= 1;\n"  # 11
    "#pragma endscop\n"  # 12
    "#pragma scop\n"  # 13
    "  for (int j = 0; j < m; j++)\n"  # 14
    "    b[j] = rand();\n"  # 15
    "#pragma endscop\n"  # 16
    "}\n"  # 17
)


def test_each_region_is_modelled_or_declined_with_its_reason_in_file_order() -> None:
    read = read_regions(PROGRAM, "k.c")

    first, second, third = read.regions
    assert isinstance(first, Modelled) and isinstance(second, Declined) and isinstance(third, Declined)
    assert read.modelled == (first,)
    assert [item.region.index for item in read.regions] == [1, 2, 3]
    assert [s.name for s in first.scop.statements] == ["S0"]
    assert first.setting.values() == {"N": 100} and first.setting.parameter("N").origin == "#define in file"
    assert "while" in second.reason and second.location == Location("k.c", 10, 3)
    assert "'rand'" in third.reason and third.location is not None and third.location.line == 15
    assert third.warning().startswith("k.c:15:") and ": warning: region not optimized: " in third.warning()
    assert read.warnings == ()


def test_hints_give_parameter_values_and_the_prefix_avoids_the_file_names() -> None:
    text = PROGRAM.replace("b[i] + m", "c0 + t0")
    (first, *_) = read_regions(text, "k.c", params={"N": 7}).regions

    assert isinstance(first, Modelled)
    assert first.setting.prefix == "p"
    assert first.setting.values() == {"N": 7} and first.setting.parameter("N").origin == "--param"


def test_a_parameter_that_has_no_value_in_the_file_is_guessed() -> None:
    text = (
        "void f(int n, double *a)\n{\n#pragma scop\n  for (int i = 0; i < n; i++)\n    a[i] = 0;\n#pragma endscop\n}\n"
    )
    (region,) = read_regions(text, "k.c").regions

    assert isinstance(region, Modelled)
    assert region.setting.guessed() == frozenset({"n"}) and region.setting.prefix == "c"


def test_a_failed_preprocessor_run_is_one_warning_about_the_file() -> None:
    text = '#include "missing.h"\n' + PROGRAM.replace("#define N 100\n", "#define N 100\n", 1)

    read = read_regions(text, "k.c")

    (warning,) = read.warnings
    assert warning.startswith("k.c: warning: the preprocessor failed")
    assert isinstance(read.regions[0], Modelled)


def test_a_malformed_region_raises_and_file_regions_keeps_the_text_as_written() -> None:
    with pytest.raises(InputError):
        read_regions("#pragma scop\nx = 1;\n", "k.c")

    (region,) = file_regions(
        "void f(double *__restrict__ a) {\n#pragma scop\n  a[0] = __extension__ 1;\n#pragma endscop\n}\n", "k.c"
    )
    assert region.text == "  a[0] = __extension__ 1;\n" and "__extension__" not in region.body


ELEMENTS = """#include "types.h"
static unsigned char bytes[64];
static float singles[64];
static DATA_TYPE data[64];
static long wide[64];
void kernel(void) {
#pragma scop
  for (int i = 0; i < 64; i++)
    wide[i] = bytes[i] + singles[i] + data[i];
#pragma endscop
}
"""


def test_each_array_has_the_element_size_of_its_declared_type_a_header_macro_expanded(tmp_path) -> None:
    (tmp_path / "types.h").write_text("#define DATA_TYPE float\n")
    source = tmp_path / "elements.c"
    (modelled,) = read_regions(ELEMENTS, str(source)).modelled
    declarations = modelled.scop.declarations
    sizes = {name: declarations.element_bytes(name) for name in ("bytes", "singles", "data", "wide", "undeclared")}
    assert sizes == {"bytes": 1, "singles": 4, "data": 4, "wide": 8, "undeclared": 8}
    assert declarations.resolved().objects["data"].name == "float"
