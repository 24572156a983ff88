"""Tests for ``polyopt.frontend.lexing``: the one reading of comments, literals, directives and tokens."""

from __future__ import annotations

from polyopt.frontend.lexing import (
    Define,
    blank_comments,
    definitions,
    directives,
    includes,
    line_marker,
    number_kind,
    plain_code,
    pragma,
    pragmas,
    tokens,
    without_directives,
)

TEXT = (
    '#include "polybench.h"\n'
    "#  define N 10 /* rows */\n"
    "#define F(x, y) ((x) + \\\n    (y))\n"
    "#undef N\n"
    'char *s = "#define NOT 1"; // #define NOR 2\n'
    "  #pragma polyopt dead(a, b)\n"
    "#pragma scop\n"
)


def test_hiding_comments_literals_and_directives_keeps_every_offset_and_line() -> None:
    for hidden in (blank_comments(TEXT), plain_code(TEXT), without_directives(TEXT)):
        assert len(hidden) == len(TEXT) and hidden.count("\n") == TEXT.count("\n")
    assert '"#define NOT 1"' in blank_comments(TEXT) and "NOR" not in blank_comments(TEXT)
    assert "NOT" not in plain_code(TEXT)
    assert without_directives(TEXT).split() == [
        "char",
        "*s",
        "=",
        '"#define',
        "NOT",
        '1";',
        "//",
        "#define",
        "NOR",
        "2",
    ]


def test_a_directive_runs_across_its_continuation_lines() -> None:
    found = directives(blank_comments(TEXT))

    assert [directive.name for directive in found] == ["include", "define", "define", "undef", "pragma", "pragma"]
    assert found[2].text == "#define F(x, y) ((x) + \\\n    (y))"


def test_definitions_and_undefinitions_come_in_file_order() -> None:
    assert list(definitions(blank_comments(TEXT))) == [
        ("N", Define("N", None, "10")),
        ("F", Define("F", "(x, y)", "((x) +      (y))")),
        ("N", None),
    ]


def test_pragmas_includes_and_line_markers() -> None:
    assert pragma("  #  pragma   scop\n") == "scop" and pragma("#pragma scoped\n") == "scoped" and pragma("x\n") is None
    ((directive, rest),) = pragmas(TEXT, "polyopt")
    assert rest == " dead(a, b)" and directive.text.index("#") == 2
    assert includes(TEXT) == ["polybench.h"]
    assert line_marker('# 12 "gemm.h" 2') == "gemm.h" and line_marker("#define N 1") is None


def test_tokens_and_number_literals() -> None:
    assert [(t.kind, t.text) for t in tokens('p->x += 1.5e-3 * "s"')] == [
        ("name", "p"),
        ("punct", "->"),
        ("name", "x"),
        ("punct", "+="),
        ("number", "1.5e-3"),
        ("punct", "*"),
        ("string", '"s"'),
    ]
    assert [number_kind(text) for text in ("(-16UL)", "0x1F", "2.5f", ".5e3", "N", "1e")] == [
        "integer",
        "integer",
        "floating",
        "floating",
        None,
        None,
    ]
