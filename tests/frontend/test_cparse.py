"""Tests for ``polyopt.frontend.cparse``: parsing a region, and syntax errors located in the original file."""

from __future__ import annotations

import pytest
from pycparser import c_ast

from polyopt.diagnostics import InputError, Location, UnsupportedRegion
from polyopt.frontend.cparse import parse_region
from polyopt.frontend.lexing import blank_comments
from polyopt.frontend.regions import find_regions


def _parse(text: str, filename: str = "f.c") -> c_ast.Compound:
    (region,) = find_regions(text, filename)
    return parse_region(region, text)


def _syntax_error(text: str, filename: str = "f.c") -> InputError:
    with pytest.raises(InputError) as caught:
        _parse(text, filename)
    return caught.value


# A file whose region starts on line 9, after typedefs and type macros that
# make the parser's wrapper longer than the original prefix.
PREFIX = (
    "#include <math.h>\n"  # 1
    "#define DATA_TYPE double\n"  # 2
    "#define real float\n"  # 3
    "typedef long index_t;\n"  # 4
    "typedef unsigned char byte;\n"  # 5
    "\n"  # 6
    "void kernel(int n, DATA_TYPE a[n], DATA_TYPE b[n])\n"  # 7
    "{\n"  # 8
    "#pragma scop\n"  # 9
)
SUFFIX = "#pragma endscop\n}\n"


def test_valid_region_parses_to_its_statements() -> None:
    body = _parse(PREFIX + "  for (i = 0; i < n; i++)\n    a[i] = (DATA_TYPE) b[i] + (real) 1;\n  x = 2;\n" + SUFFIX)

    assert isinstance(body, c_ast.Compound)
    assert [type(item) for item in body.block_items] == [c_ast.For, c_ast.Assignment]
    assert body.block_items[0].coord.line == 10
    assert body.block_items[1].coord.line == 12


def test_casts_to_undeclared_types_and_file_typedefs_parse() -> None:
    body = _parse(PREFIX + "  a[0] = (index_t) (byte) (my_type) b[0];\n" + SUFFIX)

    assignment = body.block_items[0]
    assert isinstance(assignment.rvalue, c_ast.Cast)
    assert assignment.rvalue.to_type.type.type.names == ["index_t"]


def test_syntax_error_is_located_on_the_original_line_and_column() -> None:
    text = PREFIX + "  for (i = 0; i < n; i++)\n    a[i] = ;\n" + SUFFIX
    error = _syntax_error(text, "src/kernel.c")

    assert error.location == Location("src/kernel.c", 11, 12)
    assert text.splitlines()[10][11] == ";"
    assert str(error).startswith("src/kernel.c:11:12: error: syntax error: ")


def test_missing_semicolon_points_at_the_next_token() -> None:
    text = PREFIX + "  a[0] = 1\n  b[0] = 2;\n" + SUFFIX
    error = _syntax_error(text)

    assert error.location == Location("f.c", 11, 3)
    assert error.message.startswith("syntax error: ")


def test_illegal_character_is_located_and_quoted() -> None:
    text = "void f(void)\n{\n#pragma scop\n\tfor (i = 0; i < n; i++)\n\t\ta[i] = b[i] @ 2;\n#pragma endscop\n}\n"
    error = _syntax_error(text)

    assert error.location == Location("f.c", 5, 15)
    assert "'@'" in error.message


def test_positions_count_blanked_comments() -> None:
    text = "#pragma scop\n/* a comment\n   over lines */ x = 1; /* c */ y = ;\n#pragma endscop\n"
    error = _syntax_error(text)

    assert error.location == Location("f.c", 3, 37)
    assert text.splitlines()[2][36] == ";"


def test_the_original_file_name_is_kept_even_with_quotes_and_backslashes() -> None:
    for name in ['my "dir"/k.c', "C:\\src\\k.c", "a b/k 2.c"]:
        error = _syntax_error("#pragma scop\na[0] = = 1;\n#pragma endscop\n", name)

        assert error.location is not None
        assert error.location.file == name
        assert error.location.line == 2
        assert str(error).startswith(f"{name}:2:")


def test_blank_comments_keeps_positions_and_strings() -> None:
    text = 'a = 1; /* x\ny */ b = "/* no */"; // tail\nc = 2;'

    blanked = blank_comments(text)

    assert len(blanked) == len(text)
    assert blanked.count("\n") == text.count("\n")
    assert blanked == 'a = 1;     \n     b = "/* no */";        \nc = 2;'


def test_unmatched_closing_brace_is_a_syntax_error() -> None:
    error = _syntax_error("void f(void) {\n#pragma scop\n  a[0] = 1; }\n#pragma endscop\n")

    assert error.location is not None
    assert error.location.line == 3


def test_region_spanning_two_functions_is_rejected() -> None:
    text = (
        "void f(int n, double *a) {\n"
        "#pragma scop\n"
        "  for (int i = 0; i < n; i++) a[i] = 0;\n"
        "}\n"
        "void g(int n, double *b) {\n"
        "  for (int i = 0; i < n; i++) b[i] = 1;\n"
        "#pragma endscop\n"
        "}\n"
    )

    with pytest.raises((InputError, UnsupportedRegion)) as caught:
        _parse(text)

    assert caught.value.location is not None
    assert caught.value.location.line == 4


def test_crlf_region_parses() -> None:
    body = _parse("void f(void)\r\n{\r\n#pragma scop\r\n  a[0] = 1;\r\n  b[0] = 2;\r\n#pragma endscop\r\n}\r\n")

    assert len(body.block_items) == 2
