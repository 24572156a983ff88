"""Tests for the emit stage: the small C AST printer, statement printing, helper macros and splicing."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest
from pycparser import c_ast

from polyopt import __version__
from polyopt.analysis.reductions import find_reductions
from polyopt.emit.body import print_statement
from polyopt.emit.cast import CBlock, CFor, CIf, CStmt
from polyopt.emit.cprint import print_c
from polyopt.emit.isl_ast import Generated, Storage, generate
from polyopt.emit.splice import HELPER_DEFINITIONS, RegionCode, render_region, splice
from polyopt.frontend.cparse import parse_region
from polyopt.frontend.extract import extract_scop
from polyopt.frontend.regions import Region, find_regions
from polyopt.marks import ELEMENT, PARALLEL_MARK, SECTION, SIMD_MARK, ReductionClause
from polyopt.model import PolyModel, build_model
from polyopt.schedule_tree import insert_loop_mark

ParseBody = Callable[[str], c_ast.Compound]
ModelOf = Callable[[str], PolyModel]

# -- the C AST printer --------------------------------------------------------


def test_for_loop_with_pragma_and_unit_step() -> None:
    loop = CFor("c0", "0", "c0 < n", "1", (CStmt("a[c0] = 0;"),), pragmas=("omp parallel for",))

    assert print_c((loop,)) == "#pragma omp parallel for\nfor (int c0 = 0; c0 < n; c0++) {\n  a[c0] = 0;\n}\n"


def test_for_loop_with_non_unit_step_and_empty_body() -> None:
    assert print_c((CFor("c1", "n", "c1 >= 0", "-2", ()),)) == "for (int c1 = n; c1 >= 0; c1 += -2) {\n}\n"


def test_nested_tree_with_indent_and_unit() -> None:
    tree = (
        CFor(
            "c0",
            "0",
            "c0 < n",
            "1",
            (
                CIf("c0 == 0", (CStmt("a[c0] = 1;"),), (CStmt("a[c0] = 2;"),)),
                CBlock((CStmt("const int c1 = 3;"), CStmt("b[c1] = c0;"))),
                CFor("c1", "c0", "c1 <= polyopt_min(n - 1, c0 + 3)", "1", (CStmt("c[c0][c1] += 1;"),), ("omp simd",)),
            ),
            ("omp parallel for",),
        ),
        CIf("n > 0", (CStmt("x = 1;"),)),
    )

    assert print_c(tree, "\t", "    ") == (
        "\t#pragma omp parallel for\n"
        "\tfor (int c0 = 0; c0 < n; c0++) {\n"
        "\t    if (c0 == 0) {\n"
        "\t        a[c0] = 1;\n"
        "\t    } else {\n"
        "\t        a[c0] = 2;\n"
        "\t    }\n"
        "\t    {\n"
        "\t        const int c1 = 3;\n"
        "\t        b[c1] = c0;\n"
        "\t    }\n"
        "\t    #pragma omp simd\n"
        "\t    for (int c1 = c0; c1 <= polyopt_min(n - 1, c0 + 3); c1++) {\n"
        "\t        c[c0][c1] += 1;\n"
        "\t    }\n"
        "\t}\n"
        "\tif (n > 0) {\n"
        "\t    x = 1;\n"
        "\t}\n"
    )


def test_if_without_else_and_several_pragmas() -> None:
    tree = (CIf("n > 2", (CFor("c0", "2", "c0 < n", "1", (CStmt("x++;"),), ("omp a", "omp b")),)),)

    assert print_c(tree, "  ") == (
        "  if (n > 2) {\n"
        "    #pragma omp a\n"
        "    #pragma omp b\n"
        "    for (int c0 = 2; c0 < n; c0++) {\n"
        "      x++;\n"
        "    }\n"
        "  }\n"
    )


def test_loop_bound_is_computed_once_unless_the_loop_has_pragmas() -> None:
    bound = ("<=", "polyopt_min(n - 1, c0 + 3)")
    body = (CStmt("x++;"),)
    plain = print_c((CFor("c1", "c0", "c1 <= polyopt_min(n - 1, c0 + 3)", "1", body, bound=bound),))
    marked = print_c((CFor("c1", "c0", "c1 <= polyopt_min(n - 1, c0 + 3)", "1", body, ("omp simd",), bound),))

    header = plain.splitlines()[0]
    assert header.startswith("for (int c1 = c0, ")
    assert header.count("polyopt_min(n - 1, c0 + 3)") == 1
    assert "c1 <= polyopt_min" not in header
    assert marked == "#pragma omp simd\nfor (int c1 = c0; c1 <= polyopt_min(n - 1, c0 + 3); c1++) {\n  x++;\n}\n"


def test_print_c_rejects_other_objects() -> None:
    with pytest.raises(TypeError):
        print_c(("a = 1;",))  # type: ignore[arg-type]


# -- statements ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "substitution", "expected"),
    [
        ("a[i] = b[i] * 2 + i;", {"i": "c0 + 1"}, "a[(c0 + 1)] = (b[(c0 + 1)] * 2) + (c0 + 1);"),
        ("a[i][j] = a[i][j] * i;", {"i": "c0", "j": "-c1"}, "a[c0][(-c1)] = a[c0][(-c1)] * c0;"),
        ("a[i] = b[i] - (c[i] - d[i]);", {"i": "-1"}, "a[(-1)] = b[(-1)] - (c[(-1)] - d[(-1)]);"),
        ("a[i] = i % 2;", {"i": "c0 - 1"}, "a[(c0 - 1)] = (c0 - 1) % 2;"),
        ("a[i] = b[i];", {"i": "42"}, "a[42] = b[42];"),
        ("a[i] = b[i];", {}, "a[i] = b[i];"),
    ],
)
def test_iterators_are_substituted_with_parentheses_when_needed(
    parse_body: ParseBody, body: str, substitution: dict[str, str], expected: str
) -> None:
    statement = parse_body(body + "\n").block_items[0]

    assert print_statement(statement, substitution) == expected


def test_macros_casts_and_literals_are_preserved(parse_body: ParseBody) -> None:
    body = "a[i] = SCALAR_VAL(1.5) * SQRT_FUN(A[i][i]) / (DATA_TYPE)_PB_N + 0x10 + 1.0e-3f;\n"
    statement = parse_body(body).block_items[0]

    assert print_statement(statement, {"i": "2 * c0"}) == (
        "a[(2 * c0)] = (((SCALAR_VAL(1.5) * SQRT_FUN(A[(2 * c0)][(2 * c0)])) / ((DATA_TYPE) _PB_N)) + 0x10) + 1.0e-3f;"
    )


def test_only_iterator_names_are_substituted(parse_body: ParseBody) -> None:
    statement = parse_body("ix[i] += i_max * x + i;\n").block_items[0]

    assert print_statement(statement, {"i": "c0"}) == "ix[c0] += (i_max * x) + c0;"


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ("x++;", "x++;"),
        ("--a[i];", "--a[c0];"),
        ("a[i] = -(-b[i]);", "a[c0] = -(-b[c0]);"),
        ("a[i] = b[i] - -c[i];", "a[c0] = b[c0] - (-c[c0]);"),
        ("a[i] = b[i] > 0 ? b[i] : -b[i];", "a[c0] = (b[c0] > 0) ? (b[c0]) : (-b[c0]);"),
        ("a[i] = b[i] = 0;", "a[c0] = (b[c0] = 0);"),
    ],
)
def test_statement_forms(parse_body: ParseBody, body: str, expected: str) -> None:
    statement = parse_body(body + "\n").block_items[0]

    assert print_statement(statement, {"i": "c0"}) == expected


# -- generated code and its helper macros -------------------------------------


def _generate(model_of: ModelOf, body: str) -> tuple[Generated, str]:
    model = model_of(body)
    generated = generate(model.schedule, model.scop, "c")
    return generated, print_c(generated.code)


def test_plain_loops_need_no_helpers(model_of: ModelOf) -> None:
    generated, text = _generate(model_of, "for (i = 0; i < n; i++)\n  for (j = 0; j <= i / 2; j++)\n    a[i][j] = 0;\n")

    assert generated.helpers == frozenset()
    assert "polyopt_" not in text
    assert text.startswith("for (int c0 = 0; c0 < n; c0++) {\n")
    assert "c0 / 2" in text
    assert "    a[c0][c1] = 0;\n" in text


@pytest.mark.parametrize(
    ("inner", "helpers"),
    [
        ("for (j = i; j < min(n, i + 4); j++)", {"polyopt_min"}),
        ("for (j = max(0, i - 4); j < n; j++)", {"polyopt_max"}),
        ("for (j = MAX(0, i - 4); j < MIN(n, i + 4); j++)", {"polyopt_min", "polyopt_max"}),
        ("for (j = floord(i, 3); j < n; j++)", {"polyopt_floord"}),
    ],
)
def test_helpers_are_used_only_when_needed(model_of: ModelOf, inner: str, helpers: set[str]) -> None:
    generated, text = _generate(model_of, f"for (i = -n; i < n; i++)\n  {inner}\n    a[i][j] = 0;\n")

    assert generated.helpers == helpers
    for name in HELPER_DEFINITIONS:
        assert (f"{name}(" in text) == (name in helpers), text


def test_decreasing_loop_substitutes_a_negated_iterator(model_of: ModelOf) -> None:
    generated, text = _generate(model_of, "for (i = n - 1; i >= 0; i--)\n  a[i] = a[i + 1] * 2;\n")

    assert generated.helpers == frozenset()
    assert text.startswith("for (int c0 = -n + 1; ")
    assert "  a[(-c0)] = a[(-c0) + 1] * 2;\n" in text


def test_parallel_mark_becomes_an_omp_pragma(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  a[i] = b[i];\n")
    band = model.schedule.get_root().child(0)
    marked = insert_loop_mark(band, PARALLEL_MARK).get_schedule()

    generated = generate(marked, model.scop, "t")

    (loop,) = generated.code
    assert isinstance(loop, CFor)
    assert loop.iterator == "t0"
    assert loop.pragmas == ("omp parallel for",)


# -- marked loops: kept elements and sections ---------------------------------

COLUMN_SUMS = "for (i = 0; i < m; i++)\n  for (j = 0; j < {n}; j++)\n    y[j] += A[i][j];\n"


def _marked(
    model_of: ModelOf, body: str, marks: list[tuple[str, ReductionClause]], sections: tuple[str, ...] = ()
) -> str:
    """The code for ``body`` with the given marks (outermost first) on its first band's first member."""
    model = model_of(body)
    node = model.schedule.get_root().child(0)
    for kind, clause in marks:
        node = insert_loop_mark(node, kind, (clause,)).child(0)
    storage = Storage(find_reductions(model), {array: model.section(array) for array in sections})
    return print_c(generate(node.get_schedule(), model.scop, "c", storage).code)


def test_a_statement_without_a_loop_over_its_marked_member_updates_the_element_itself(model_of: ModelOf) -> None:
    text = _marked(
        model_of, "for (k = 0; k < 1; k++)\n  c[0] = c[0] + a[k];\n", [(SIMD_MARK, ReductionClause("+", "c", ELEMENT))]
    )

    assert text == "c[0] = c[0] + a[0];\n"


def test_parallel_and_simd_marks_on_one_member_keep_the_element_in_one_local(model_of: ModelOf) -> None:
    clause = ReductionClause("+", "c", ELEMENT)
    body = "for (k = 0; k < n; k++)\n  c[0] = c[0] + a[k];\n"

    text = _marked(model_of, body, [(PARALLEL_MARK, clause), (SIMD_MARK, clause)])

    assert text == (
        "if ((0) < n) {\n"
        "  {\n"
        "    __typeof__(c[0]) c0_red = c[0];\n"
        "    #pragma omp parallel for simd reduction(+:c0_red)\n"
        "    for (int c0 = 0; c0 < n; c0++) {\n"
        "      c0_red = c0_red + a[c0];\n"
        "    }\n"
        "    c[0] = c0_red;\n"
        "  }\n"
        "}\n"
    )


def test_a_section_runs_in_parallel_only_with_one_to_section_limit_elements(model_of: ModelOf) -> None:
    mark = (PARALLEL_MARK, ReductionClause("+", "y", SECTION))

    text = _marked(model_of, COLUMN_SUMS.format(n="n"), [mark], ("y",))

    head, _, sequential = text.partition("} else {\n")
    assert head.splitlines()[:2] == [
        "if (m >= 1 && n >= 1 && n <= 16384) {",
        "  #pragma omp parallel for reduction(+:y[0:polyopt_max(n, 1)])",
    ]
    assert "#pragma" not in sequential


def test_a_constant_section_length_is_printed_as_it_is(model_of: ModelOf) -> None:
    mark = (PARALLEL_MARK, ReductionClause("+", "y", SECTION))

    text = _marked(model_of, COLUMN_SUMS.format(n="100"), [mark], ("y",))

    assert text.splitlines()[:2] == ["if (m >= 1) {", "  #pragma omp parallel for reduction(+:y[0:100])"]


def test_a_section_that_never_fits_its_clause_fails_loudly_and_is_not_dropped(model_of: ModelOf) -> None:
    mark = (PARALLEL_MARK, ReductionClause("+", "y", SECTION))

    with pytest.raises(ValueError, match="never fits"):
        _marked(model_of, COLUMN_SUMS.format(n="20000"), [mark], ("y",))


def test_a_mark_the_printer_does_not_know_fails_loudly(model_of: ModelOf) -> None:
    model = model_of(COLUMN_SUMS.format(n="n"))
    band = model.schedule.get_root().child(0)
    schedule = band.insert_mark(isl.Id("omp_parallel_for", context=band.get_ctx())).get_schedule()

    with pytest.raises(ValueError, match="unexpected mark"):
        generate(schedule, model.scop, "c")


# -- splicing and helper definitions ------------------------------------------

TWO_REGIONS = (
    "/* head */\n"  # 1
    "void f(int n, double A[n][n]) {\n"  # 2
    "#pragma scop\n"  # 3
    "  for (i = 0; i < n; i++)\n"
    "    for (j = i; j < min(n, i + 4); j++)\n"
    "      A[i][j] = 0;\n"
    "#pragma endscop\n"
    "}\n"
    "\n"
    "void g(int n, double B[n][n]) {\n"
    "    #pragma scop\n"  # 11
    "    for (i = 0; i < n; i++)\n"
    "        for (j = max(0, i - 2); j < min(n, i + 4); j++)\n"
    "            B[i][j] = 1;\n"
    "    #pragma endscop\n"
    "}\n"
)


def _region_code(region: Region, text: str) -> RegionCode:
    scop = extract_scop(parse_region(region, text), region.location)
    model = build_model(scop)
    generated = generate(model.schedule, scop, "c")
    return RegionCode(region, print_c(generated.code, region.indent), generated.helpers, "original order")


def test_render_region_defines_helpers_with_guards() -> None:
    (region,) = find_regions("int x;\n#pragma scop\n  a[0] = 1;\n#pragma endscop\n", "f.c")
    item = RegionCode(region, "  a[0] = 1;\n", frozenset({"polyopt_min", "polyopt_floord"}), "original order")

    assert render_region(item, "  ") == (
        f"  /* polyopt {__version__}: region 1 (line 2); original order */\n"
        "#ifndef polyopt_floord\n"
        f"#define polyopt_floord{HELPER_DEFINITIONS['polyopt_floord']}\n"
        "#endif\n"
        "#ifndef polyopt_min\n"
        f"#define polyopt_min{HELPER_DEFINITIONS['polyopt_min']}\n"
        "#endif\n"
        "  a[0] = 1;\n"
    )
    bare = RegionCode(region, "  a[0] = 1;\n", frozenset(), "original order")
    assert "#" not in render_region(bare, "  ")


def test_each_region_guards_the_helpers_it_uses() -> None:
    regions = find_regions(TWO_REGIONS, "two.c")
    items = [_region_code(region, TWO_REGIONS) for region in regions]
    assert [item.helpers for item in items] == [{"polyopt_min"}, {"polyopt_min", "polyopt_max"}]

    output = splice(TWO_REGIONS, items)

    # Every definition sits behind its guard, so the preprocessor defines each macro once.
    for name in ("polyopt_min", "polyopt_max"):
        assert output.count(f"#define {name}") == output.count(f"#ifndef {name}\n#define {name}(")
        assert output.index(f"#define {name}") < output.index(f"{name}(")
    assert output.count("#define polyopt_min") == 2
    assert output.count("#define polyopt_max") == 1
    assert "polyopt_floord" not in output


def test_splice_keeps_the_text_outside_regions() -> None:
    regions = find_regions(TWO_REGIONS, "two.c")
    items = [_region_code(region, TWO_REGIONS) for region in regions]

    output = splice(TWO_REGIONS, items)

    first, second = regions
    prefix, middle, suffix = (
        TWO_REGIONS[: first.start],
        TWO_REGIONS[first.end : second.start],
        TWO_REGIONS[second.end :],
    )
    assert output.startswith(prefix + "  /* polyopt ")
    assert output.endswith("\n" + suffix)
    assert middle in output
    assert "#pragma scop" not in output and "#pragma endscop" not in output


def test_splice_converts_generated_newlines_to_the_file_convention() -> None:
    text = "int x;\r\n#pragma scop\r\n  a[0] = 1;\r\n#pragma endscop\r\nint y;\r\n"
    (region,) = find_regions(text, "f.c")
    item = RegionCode(region, "  a[0] = 1;\n", frozenset({"polyopt_max"}), "original order")

    output = splice(text, [item], "\r\n")

    assert output.startswith("int x;\r\n")
    assert output.endswith("  a[0] = 1;\r\nint y;\r\n")
    assert "\n" not in output.replace("\r\n", "")


def test_splice_without_replacements_is_the_identity() -> None:
    assert splice(TWO_REGIONS, []) == TWO_REGIONS


def test_helpers_are_visible_to_a_region_after_a_conditional_block() -> None:
    text = TWO_REGIONS.replace("void f(", "#ifdef USE_F\nvoid f(").replace("}\n\nvoid g(", "}\n#endif\n\nvoid g(")
    items = [_region_code(region, text) for region in find_regions(text, "two.c")]

    output = splice(text, items)

    after_conditional = output[output.index("#endif\n\nvoid g(") :]
    assert "#define polyopt_min" in after_conditional
