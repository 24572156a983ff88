"""Declarations and structure members inside a region (``polyopt.frontend.locals`` through ``extract_scop``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pycparser import c_ast, c_generator, c_parser

from polyopt.diagnostics import UnsupportedRegion
from polyopt.emit.body import print_statement
from polyopt.frontend.declarations import FLOATING, INTEGER
from polyopt.frontend.locals import clashing_declarations, member_name, members_overlap, renamed
from polyopt.frontend.scop import Access, Local, Scop, Unknown, Var
from polyopt.transform.privatization import privatized

ScopOf = Callable[..., Scop]
ParseBody = Callable[[str], c_ast.Compound]


def _bodies(scop: Scop) -> list[str]:
    return [print_statement(statement.body, {}) for statement in scop.statements]


def test_a_declaration_with_an_initializer_is_a_statement(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++) {\n  double t = a[i] * 2;\n  b[i] = t + c[i];\n}\n")

    assert _bodies(scop) == ["t = a[i] * 2;", "b[i] = t + c[i];"]
    assert scop.statements[0].writes == (Access("t", ()),)
    assert scop.locals == (Local("t", "double", ("i",)),)
    assert scop.declarations.objects["t"].kind == FLOATING
    assert scop.exits and scop.exits[0].variable == "i"


def test_a_declaration_without_an_initializer_is_no_statement(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++) {\n  long k;\n  k = a[i];\n  b[i] = k;\n}\n")

    assert _bodies(scop) == ["k = a[i];", "b[i] = k;"]
    assert scop.locals == (Local("k", "long", ("i",)),)
    assert scop.declarations.objects["k"].kind == INTEGER


def test_qualifiers_are_dropped_from_the_spelled_type(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++) {\n  const unsigned long u = a[i];\n  b[i] = u;\n}\n")

    assert scop.locals == (Local("u", "unsigned long", ("i",)),)


def test_names_declared_twice_are_renamed_apart(scop_of: ScopOf) -> None:
    body = (
        "for (i = 0; i < n; i++) {\n  double t = a[i];\n  b[i] = t;\n}\n"
        "for (j = 0; j < n; j++) {\n  double t = b[j];\n  c[j] = t;\n}\n"
    )
    scop = scop_of(body)

    assert [local.name for local in scop.locals] == ["t_1", "t_2"]
    assert _bodies(scop) == ["t_1 = a[i];", "b[i] = t_1;", "t_2 = b[j];", "c[j] = t_2;"]
    assert {"t_1", "t_2"} <= scop.identifiers


def test_a_declaration_that_shadows_a_parameter_is_renamed(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < m; i++) {\n  double m = a[i];\n  b[i] = m;\n}\n")

    assert scop.parameters == ("m",)
    assert _bodies(scop) == ["m_1 = a[i];", "b[i] = m_1;"]


def test_a_top_level_declaration_has_no_loops(scop_of: ScopOf) -> None:
    scop = scop_of("double s = 0;\nfor (i = 0; i < n; i++)\n  s += a[i];\nr[0] = s;\n")

    assert scop.locals == (Local("s", "double", ()),)
    assert len(scop.statements) == 3


def test_a_declared_iterator_needs_no_value_after_the_region(scop_of: ScopOf) -> None:
    scop = scop_of("int k;\nfor (k = 0; k < n; k++)\n  a[k] = 0;\n")

    assert scop.exits == ()


def test_clashing_declarations() -> None:
    function = (
        c_parser.CParser()
        .parse("void f(void) { { int a; a = 1; } { int a; } { int b; } c = b; { int d; d = 2; } s.d = 0; }")
        .ext[0]
    )

    assert clashing_declarations(function.body) == {"a", "b"}


def test_privatized_locals_have_one_element_per_iteration(scop_of: ScopOf) -> None:
    scop = privatized(
        scop_of("for (i = 0; i < n; i++)\n  for (j = 0; j < n; j++) {\n    int t = a[i][j];\n    b[j][i] = t;\n  }\n"),
        frozenset({"t"}),
    )

    assert scop.statements[0].writes == (Access("t", (Var("i"), Var("j"))),)
    assert _bodies(scop) == ["t[i][j] = a[i][j];", "b[j][i] = t[i][j];"]
    assert scop.declarations.objects["t"].levels == 2


# -- structure members -----------------------------------------------------------


def test_members_are_arrays_of_their_own(scop_of: ScopOf) -> None:
    body = "for (i = 0; i < n; i++) {\n  s.f[i] = p->g[i] + a[i].x;\n  s.sum += a[i].y;\n  m.in.v[i] = 0;\n}\n"
    scop = scop_of(body)

    first, second, third = scop.statements
    assert first.writes == (Access("s_f", (Var("i"),)),)
    assert first.reads == (Access("p_g", (Var("i"),)), Access("a_x", (Var("i"),)))
    assert second.writes == (Access("s_sum", ()),)
    assert third.writes == (Access("m_in_v", (Var("i"),)),)
    assert scop.members == {
        "s_f": "s.f",
        "p_g": "p->g",
        "a_x": "a[].x",
        "s_sum": "s.sum",
        "a_y": "a[].y",
        "m_in_v": "m.in.v",
    }
    assert _bodies(scop)[0] == "s.f[i] = p->g[i] + a[i].x;"


def test_a_member_name_avoids_the_region_names(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  s_f[i] = s.f[i];\n")

    assert scop.statements[0].reads == (Access("s_f_", (Var("i"),)),)


def test_member_name() -> None:
    assert member_name("a[].f", set()) == "a_f"
    assert member_name("p->f", {"p_f"}) == "p_f_"


@pytest.mark.parametrize(
    ("first", "second", "overlap"),
    [
        ("p->x", "p[].x", True),
        ("s.in", "s.in.v", True),
        ("a[].f", "a[].f[].g", True),
        ("s.a", "s.ab", False),
        ("s.f", "s.g", False),
        ("s.f", "t.f", False),
    ],
)
def test_members_overlap(first: str, second: str, overlap: bool) -> None:
    assert members_overlap(first, second) is overlap
    assert members_overlap(second, first) is overlap


def test_members_that_may_overlap_are_declined(scop_of: ScopOf) -> None:
    with pytest.raises(UnsupportedRegion, match=r"'p->x' and 'p\[\].x' may overlap"):
        scop_of("for (i = 0; i < n; i++)\n  p[i].x = p->x;\n")


def test_renaming_leaves_member_names_alone(parse_body: ParseBody) -> None:
    (statement,) = parse_body("s.t = t;\n").block_items

    printed = c_generator.CGenerator().visit(renamed(statement, {"t": c_ast.ID("u")}))

    assert printed == "s.t = u"


def test_a_declared_scalar_in_a_subscript_is_data_dependent(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++) {\n  int k = b[i];\n  a[k] = 0;\n}\n")

    assert scop.statements[1].writes == (Access("a", (Unknown(),), may=True),)
    assert Access("k", ()) in scop.statements[1].reads
