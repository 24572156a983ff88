"""Tests for ``polyopt.frontend.regions``: finding ``#pragma scop`` regions in C text."""

from __future__ import annotations

import pytest

from polyopt.diagnostics import InputError, Location
from polyopt.frontend.regions import find_regions

TWO_FUNCTIONS = (
    "#include <stdio.h>\n"  # 1
    "\n"  # 2
    "void first(int n, double a[n])\n"  # 3
    "{\n"  # 4
    "#pragma scop\n"  # 5
    "  for (int i = 0; i < n; i++)\n"  # 6
    "    a[i] = 0;\n"  # 7
    "#pragma endscop\n"  # 8
    "}\n"  # 9
    "\n"  # 10
    "void second(int n, double b[n])\n"  # 11
    "{\n"  # 12
    "    #  pragma   scop\n"  # 13
    "\tfor (int j = 0; j < n; j++)\n"  # 14
    "\t\tb[j] = 1;\n"  # 15
    "    #pragma endscop\n"  # 16
    "  #pragma scop\n"  # 17
    "\n"  # 18
    "        b[0] = 2;\n"  # 19
    "  #pragma endscop\n"  # 20
    "}\n"  # 21
)


def test_regions_in_different_functions_are_found_in_file_order() -> None:
    regions = find_regions(TWO_FUNCTIONS, "two.c")

    assert [r.index for r in regions] == [1, 2, 3]
    assert [r.location for r in regions] == [
        Location("two.c", 5, 1),
        Location("two.c", 13, 5),
        Location("two.c", 17, 3),
    ]
    assert [r.body_line for r in regions] == [6, 14, 18]


def test_region_offsets_span_both_pragma_lines() -> None:
    first, second, third = find_regions(TWO_FUNCTIONS, "two.c")

    assert TWO_FUNCTIONS[first.start : first.end] == (
        "#pragma scop\n  for (int i = 0; i < n; i++)\n    a[i] = 0;\n#pragma endscop\n"
    )
    assert TWO_FUNCTIONS[second.start : second.end] == (
        "    #  pragma   scop\n\tfor (int j = 0; j < n; j++)\n\t\tb[j] = 1;\n    #pragma endscop\n"
    )
    # Back-to-back regions: the second ends where the third begins.
    assert second.end == third.start
    assert TWO_FUNCTIONS[third.end :] == "}\n"


def test_region_body_is_the_text_between_the_pragma_lines() -> None:
    first, second, third = find_regions(TWO_FUNCTIONS, "two.c")

    assert first.body == "  for (int i = 0; i < n; i++)\n    a[i] = 0;\n"
    assert second.body == "\tfor (int j = 0; j < n; j++)\n\t\tb[j] = 1;\n"
    assert third.body == "\n        b[0] = 2;\n"


def test_indent_is_the_leading_whitespace_of_the_first_non_blank_line() -> None:
    first, second, third = find_regions(TWO_FUNCTIONS, "two.c")

    assert first.indent == "  "
    assert second.indent == "\t"
    assert third.indent == "        "


def test_indent_of_a_blank_region_is_empty() -> None:
    (region,) = find_regions("#pragma scop\n   \n\n#pragma endscop\n", "blank.c")

    assert region.body == "   \n\n"
    assert region.indent == ""


def test_text_without_pragmas_has_no_regions() -> None:
    assert find_regions("", "empty.c") == []
    assert find_regions("int main(void) { return 0; }\n", "plain.c") == []


def test_other_pragmas_and_longer_words_do_not_open_regions() -> None:
    text = "#pragma omp parallel for\n#pragma scopes\n#pragma scop_x\n#pragma endscopy\n#pragma once\n"

    assert find_regions(text, "other.c") == []


def test_endscop_on_the_last_line_without_newline() -> None:
    text = "x;\n#pragma scop\na[0] = 1;\n#pragma endscop"
    (region,) = find_regions(text, "eof.c")

    assert region.end == len(text)
    assert region.body == "a[0] = 1;\n"
    assert region.body_line == 3


def test_region_with_empty_body() -> None:
    text = "#pragma scop\n#pragma endscop\nint x;\n"
    (region,) = find_regions(text, "e.c")

    assert region.body == ""
    assert region.body_line == 2
    assert text[region.end :] == "int x;\n"


def test_unterminated_scop_is_reported_at_its_pragma() -> None:
    text = "int x;\n\n  #pragma scop\n  a[0] = 1;\n"

    with pytest.raises(InputError) as caught:
        find_regions(text, "dir/u.c")

    assert caught.value.location == Location("dir/u.c", 3, 3)
    assert "unterminated '#pragma scop'" in caught.value.message
    assert str(caught.value).startswith("dir/u.c:3:3: error: unterminated '#pragma scop'")


def test_unterminated_scop_after_a_complete_region() -> None:
    text = "#pragma scop\na[0] = 1;\n#pragma endscop\n#pragma scop\n"

    with pytest.raises(InputError) as caught:
        find_regions(text, "u.c")

    assert caught.value.location == Location("u.c", 4, 1)


def test_nested_scop_is_reported_at_the_inner_pragma_and_names_the_outer_line() -> None:
    text = "void f(void) {\n#pragma scop\n  a[0] = 1;\n    #pragma scop\n  a[1] = 2;\n#pragma endscop\n}\n"

    with pytest.raises(InputError) as caught:
        find_regions(text, "n.c")

    error = caught.value
    assert error.location == Location("n.c", 4, 5)
    assert "nested '#pragma scop'" in error.message
    assert "line 2" in error.message
    assert str(error).startswith("n.c:4:5: error: nested '#pragma scop'")


def test_endscop_without_scop_is_reported_at_its_pragma() -> None:
    text = "int x;\n #pragma endscop\n"

    with pytest.raises(InputError) as caught:
        find_regions(text, "s.c")

    assert caught.value.location == Location("s.c", 2, 2)
    assert str(caught.value) == "s.c:2:2: error: '#pragma endscop' without a matching '#pragma scop'"


def test_second_endscop_after_a_region_is_stray() -> None:
    text = "#pragma scop\na[0] = 1;\n#pragma endscop\n#pragma endscop\n"

    with pytest.raises(InputError) as caught:
        find_regions(text, "s.c")

    assert caught.value.location == Location("s.c", 4, 1)
    assert "without a matching '#pragma scop'" in caught.value.message


def test_crlf_lines_give_the_same_lines_and_offsets() -> None:
    text = "int x;\r\n#pragma scop\r\n  a[0] = 1;\r\n#pragma endscop\r\nint y;\r\n"
    (region,) = find_regions(text, "crlf.c")

    assert region.location == Location("crlf.c", 2, 1)
    assert region.body_line == 3
    assert region.body == "  a[0] = 1;\r\n"
    assert region.indent == "  "
    assert text[: region.start] == "int x;\r\n"
    assert text[region.end :] == "int y;\r\n"


def test_pragmas_inside_a_block_comment_do_not_open_a_region() -> None:
    text = "/* disabled:\n#pragma scop\n  a[0] = 1;\n#pragma endscop\n*/\nint x;\n"

    assert find_regions(text, "c.c") == []
