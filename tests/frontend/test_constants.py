"""Named integer constants (``polyopt.frontend.constants``) and how ``extract_scop`` uses them."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pycparser import c_ast

from polyopt.diagnostics import Location, UnsupportedRegion
from polyopt.frontend import params
from polyopt.frontend.constants import constant_probes, named_constants
from polyopt.frontend.extract import extract_scop
from polyopt.frontend.regions import find_regions
from polyopt.frontend.scop import Access, BinOp, Const, Unknown, Var
from tests.support import needs_gcc

ParseBody = Callable[[str], c_ast.Compound]
WHERE = Location("k.c", 3, 1)


def _constants(head: str, tail: str = "", names: tuple[str, ...] = ("B",), compiler: str = params.CC) -> dict[str, int]:
    text = f"{head}void f(void)\n{{\n#pragma scop\n  x = 0;\n#pragma endscop\n}}\n{tail}"
    (region,) = find_regions(text, "k.c")
    preprocessed = params.preprocess(text, "k.c", constant_probes(text, names), (), compiler)
    return named_constants(text, region, names, preprocessed)


@needs_gcc
@pytest.mark.parametrize(
    ("head", "expected"),
    [
        ("#define B 16\n", {"B": 16}),
        ("#define B (2 * 8)\n", {"B": 16}),
        ("#define B 0x10UL\n", {"B": 16}),
        ("#define C 4\n#define B (C * C)\n", {"B": 16}),
        ("#define B (-3)\n", {"B": -3}),
        ("#define B n\n", {}),
        ("#define B 1.5\n", {}),
        ("", {}),
    ],
)
def test_a_macro_that_expands_to_an_integer_is_a_constant(head: str, expected: dict[str, int]) -> None:
    assert _constants(head) == expected


@needs_gcc
@pytest.mark.parametrize(
    ("head", "tail"),
    [
        ("#define B 16\n", "#undef B\n#define B 32\n"),
        ("#define C 16\n#define B C\n", "#undef C\n"),
    ],
)
def test_a_macro_defined_again_or_undefined_in_the_file_is_no_constant(head: str, tail: str) -> None:
    assert _constants(head, tail) == {}


@needs_gcc
def test_a_command_line_definition_is_a_constant() -> None:
    text = "void f(void)\n{\n#pragma scop\n  x = 0;\n#pragma endscop\n}\n"
    (region,) = find_regions(text, "k.c")

    preprocessed = params.preprocess(text, "k.c", ["B"], ("-DB=12",))

    assert named_constants(text, region, ["B"], preprocessed) == {"B": 12}


@needs_gcc
def test_enum_constants_count_on_and_may_use_macros_and_earlier_enumerators() -> None:
    head = "#define W 4\nenum sizes { A, B = W * 2, C, D = B + C, E = (1, 2) };\n"

    assert _constants(head, names=("A", "B", "C", "D", "x")) == {"A": 0, "B": 8, "C": 9, "D": 17}


def test_without_a_preprocessor_enums_with_plain_values_still_count() -> None:
    head = "#define B 16\nenum { A = 3, C, D = B };\n"

    assert _constants(head, names=("A", "B", "C", "D"), compiler="/nonexistent/gcc") == {"A": 3, "C": 4}


def test_a_named_constant_is_a_number_as_a_divisor_and_a_factor(parse_body: ParseBody) -> None:
    region = parse_body("for (i = 0; i < B; i += S)\n  h[i % B] = a[B * i] + a[i / (B * 2)];\n")

    scop = extract_scop(region, WHERE, constants={"B": 16, "S": 2})

    (statement,) = scop.statements
    assert statement.writes == (Access("h", (BinOp("%", Var("i"), Const(16)),)),)
    assert statement.reads[0] == Access("a", (BinOp("*", Const(16), Var("i")),))
    assert statement.reads[1] == Access("a", (BinOp("/", Var("i"), BinOp("*", Const(16), Const(2))),))
    assert scop.parameters == ("B",)  # the bound keeps the name, for any value


def test_without_its_value_a_macro_divisor_is_declined(parse_body: ParseBody) -> None:
    with pytest.raises(UnsupportedRegion, match="division by a non-constant"):
        extract_scop(parse_body("for (i = 0; i < n; i++)\n  h[i % B] = 0;\n"), WHERE)


def test_a_named_constant_written_in_the_region_is_a_variable(parse_body: ParseBody) -> None:
    region = parse_body("for (i = 0; i < n; i++)\n  h[i % B] = 0;\nB = 3;\n")

    scop = extract_scop(region, WHERE, constants={"B": 16})

    assert scop.statements[0].writes == (Access("h", (Unknown(),), may=True),)


def test_a_named_constant_beyond_int_is_declined(parse_body: ParseBody) -> None:
    with pytest.raises(UnsupportedRegion, match="constant 'B' = 4294967296 does not fit"):
        extract_scop(parse_body("for (i = 0; i < n; i++)\n  h[i % B] = 0;\n"), WHERE, constants={"B": 2**32})
