"""Data-dependent statements and summarized calls in ``polyopt.frontend.extract``: the accesses they get
(``Unknown`` subscripts, may-writes, guards), how they print, and the constructs still declined."""

from __future__ import annotations

from collections.abc import Callable

import islpy as isl
import pytest

from polyopt.diagnostics import UnsupportedRegion
from polyopt.emit.body import print_statement
from polyopt.frontend.scop import Access, BinOp, Const, Scop, Unknown, Var, opaque_arrays
from polyopt.model import PolyModel

ScopOf = Callable[..., Scop]
ModelOf = Callable[..., PolyModel]

ITERATOR = Var("i")


def _printed(scop: Scop, name: str) -> str:
    return print_statement(scop.statement(name).body, {"i": "c0"})


def test_indirect_subscript_is_an_unknown_index_written_maybe(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  h[idx[i]] += 1;\n")
    (statement,) = model.scop.statements

    assert statement.writes == (Access("h", (Unknown(),), may=True),)
    assert set(statement.reads) == {Access("idx", (ITERATOR,)), Access("h", (Unknown(),))}
    assert statement.opaque == "data-dependent"
    write = next(ref for ref in model.references if ref.is_write)
    assert write.may
    assert write.relation.is_equal(isl.Map("[n] -> { S0[i] -> h[x] : 0 <= i < n }"))
    assert _printed(model.scop, "S0") == "h[idx[c0]] += 1;"


def test_a_gather_reads_an_unknown_element_and_writes_exactly(scop_of: ScopOf) -> None:
    (statement,) = scop_of("for (i = 0; i < n; i++)\n  a[i] = b[k + idx[i]];\n").statements

    assert statement.writes == (Access("a", (ITERATOR,)),)
    assert set(statement.reads) == {Access("idx", (ITERATOR,)), Access("k", ()), Access("b", (Unknown(),))}


def test_a_scalar_written_in_the_region_makes_a_subscript_unknown(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++) {\n  a[k] = b[i];\n  k = k + 1;\n}\n")

    assert scop.statement("S0").writes == (Access("a", (Unknown(),), may=True),)
    assert Access("k", ()) in scop.statement("S0").reads
    assert "k" not in scop.parameters


def test_data_dependent_condition_guards_its_statement(model_of: ModelOf) -> None:
    model = model_of("s = 0;\nfor (i = 0; i < n; i++)\n  if (a[i] > 0)\n    s += a[i];\n")
    statement = model.scop.statement("S1")

    assert statement.writes == (Access("s", (), may=True),)
    assert set(statement.reads) == {Access("a", (ITERATOR,)), Access("s", ())}
    assert _printed(model.scop, "S1") == "if (a[c0] > 0) s += a[c0];"
    assert model.domains["S1"].is_equal(isl.Set("[n] -> { S1[i] : 0 <= i < n }"))
    assert opaque_arrays(model.scop) == {"a", "s"}


def test_affine_conjuncts_of_a_guard_narrow_the_domain(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  if (i > 2 && a[i - 1] > 0)\n    b[i] = 0;\n")

    assert model.domains["S0"].is_equal(isl.Set("[n] -> { S0[i] : 2 < i < n }"))
    assert _printed(model.scop, "S0") == "if ((c0 > 2) && (a[c0 - 1] > 0)) b[c0] = 0;"
    assert model.scop.statement("S0").reads == (Access("a", (BinOp("-", ITERATOR, Const(1)),)),)


def test_every_statement_of_a_guarded_block_and_of_its_else_carries_the_guard(scop_of: ScopOf) -> None:
    scop = scop_of(
        "for (i = 0; i < n; i++)\n  if (c[i] > 0) {\n    x[i] = 1;\n    y[i] = 2;\n  } else\n    z[i] = 3;\n"
    )

    assert [_printed(scop, s.name) for s in scop.statements] == [
        "if (c[c0] > 0) x[c0] = 1;",
        "if (c[c0] > 0) y[c0] = 2;",
        "if (!(c[c0] > 0)) z[c0] = 3;",
    ]
    assert all(s.writes[0].may and Access("c", (ITERATOR,)) in s.reads for s in scop.statements)


def test_nested_guards_print_outermost_first(scop_of: ScopOf) -> None:
    scop = scop_of(
        "for (i = 0; i < n; i++)\n  if (c[i])\n    for (j = 0; j < m; j++)\n"
        "      if (d[j] > c[i])\n        x[i][j] = 0;\n"
    )

    text = print_statement(scop.statement("S0").body, {"i": "c0", "j": "c1"})
    assert text == "if (c[c0]) if (d[c1] > c[c0]) x[c0][c1] = 0;"
    assert {a.array for a in scop.statement("S0").reads} == {"c", "d"}


def test_one_guarded_statement_may_write_what_its_condition_reads(scop_of: ScopOf) -> None:
    (statement,) = scop_of("for (i = 0; i < n; i++)\n  if (a[i] > 0)\n    a[i] = 0;\n").statements

    assert statement.writes == (Access("a", (ITERATOR,), may=True),)


@pytest.mark.parametrize(
    ("body", "position", "fragment"),
    [
        (
            "for (i = 0; i < n; i++)\n  if (c[i] > 0) {\n    c[i] = 0;\n    y[i] = 1;\n  }\n",
            "5:7",
            "reads 'c', which a statement it guards writes",
        ),
        (
            "for (i = 0; i < n; i++)\n  if (a[i] > 0)\n    a[i] = 0;\n  else\n    a[i] = 1;\n",
            "5:7",
            "reads 'a', which a statement it guards writes",
        ),
        (
            "if (a[0] > 0)\n  for (i = 0; i < n; i++)\n    a[i] = 0;\n",
            "4:5",
            "reads 'a', which a statement it guards writes",
        ),
        (
            "for (i = 0; i < n; i++)\n  if (a[i] > 0 && b[i]++ > 0)\n    c[i] = 0;\n",
            "5:7",
            "data-dependent condition writes 'b'",
        ),
        (
            "for (i = 0; i < n; i++)\n  for (j = 0; j < len[i]; j++)\n    b[j] = 0;\n",
            "5:19",
            "array access in a loop bound",
        ),
    ],
)
def test_still_declined(scop_of: ScopOf, body: str, position: str, fragment: str) -> None:
    with pytest.raises(UnsupportedRegion) as caught:
        scop_of(body)

    assert fragment in caught.value.message
    assert f"{caught.value.location.line}:{caught.value.location.column}" == position


# -- calls --------------------------------------------------------------------

COPY = "void copy(double *dst, const double *src, int i) { dst[i] = src[i]; }\n"
SCALE = "static inline void scale(double r[], int j, double f) {\n  double t = r[j] * f;\n  r[j] = t;\n  return;\n}\n"


def test_a_call_is_summarized_from_its_callee(model_of: ModelOf) -> None:
    model = model_of("for (i = 0; i < n; i++)\n  copy(a, b, i + 1);\n", COPY)
    (statement,) = model.scop.statements

    after = BinOp("+", ITERATOR, Const(1))
    assert statement.reads == (Access("b", (after,)),)
    assert statement.writes == (Access("a", (after,)),)
    assert statement.opaque == "call to 'copy'"
    assert _printed(model.scop, "S0") == "copy(a, b, c0 + 1);"


def test_a_row_argument_prefixes_the_callee_subscripts(scop_of: ScopOf) -> None:
    scop = scop_of("for (i = 0; i < n; i++)\n  for (j = 0; j < m; j++)\n    scale(A[i], j, b[i]);\n", SCALE)
    (statement,) = scop.statements

    element = Access("A", (ITERATOR, Var("j")))
    assert set(statement.reads) == {Access("b", (ITERATOR,)), element}
    assert statement.writes == (element,)


def test_a_call_with_an_indirect_argument_writes_maybe(scop_of: ScopOf) -> None:
    (statement,) = scop_of("for (i = 0; i < n; i++)\n  copy(a, b, idx[i]);\n", COPY).statements

    assert statement.writes == (Access("a", (Unknown(),), may=True),)
    assert Access("idx", (ITERATOR,)) in statement.reads


@pytest.mark.parametrize(
    ("declarations", "call", "reason"),
    [
        ("", "touch(a, i)", "its body is not in this file"),
        ("void touch(double *x, int i) { for (int k = 0; k < i; k++) x[k] = 0; }\n", "touch(a, i)", "has a loop"),
        ("void touch(double *x, int i) { if (i) x[i] = 0; }\n", "touch(a, i)", "has a 'if'"),
        ("double g;\nvoid touch(double *x, int i) { g = x[i]; }\n", "touch(a, i)", "assigns 'g'"),
        ("double g;\nvoid touch(double *x, int i) { x[i] = g; }\n", "touch(a, i)", "reads 'g'"),
        ("void touch(double *x, int i) { x[i] = f(x[i]); }\n", "touch(a, i)", "calls 'f'"),
        ("void touch(double *x, int i) { int k = i + 1; x[k] = 0; }\n", "touch(a, i)", "uses 'k'"),
        ("void touch(double *x, int i) { i = 2; x[i] = 0; }\n", "touch(a, i)", "assigns 'i'"),
        ("void touch(double *x, int i) { *x = i; }\n", "touch(a, i)", "assigns '"),
        ("void touch(double *x, int i) { x[i] = 0; }\n", "touch(&a[i], i)", "is not an array or a row"),
        ("void touch(double *x, int i) { x[i] = 0; }\n", "touch(a)", "given 1 arguments for 2 parameters"),
        ("void touch(double *x, ...) { x[0] = 0; }\n", "touch(a, i)", "variable number of arguments"),
        ("void touch(double *x, int i) { x[i] = 0; { return; } x[0] = 1; }\n", "touch(a, i)", "'return' before"),
        ("void touch(double *x, int i) { { int i = 0; x[i] = 1; } }\n", "touch(a, i)", "hides its parameter"),
    ],
)
def test_calls_not_summarized_are_declined_with_the_reason(
    scop_of: ScopOf, declarations: str, call: str, reason: str
) -> None:
    with pytest.raises(UnsupportedRegion) as caught:
        scop_of(f"for (i = 0; i < n; i++)\n  {call};\n", declarations)

    assert "call to 'touch' as a statement may have side effects: " in caught.value.message
    assert reason in caught.value.message


def test_a_call_may_not_write_a_parameter_of_the_region(scop_of: ScopOf) -> None:
    with pytest.raises(UnsupportedRegion, match="'n' is written by call to 'copy'"):
        scop_of("for (i = 0; i < n; i++)\n  copy(n, b, 0);\n", COPY)


@pytest.mark.parametrize(
    ("body", "domain"),
    [
        ("for (i = 0; i < n; i++)\n  if (0.5 < a[i])\n    b[i] = 0;\n", "[n] -> { S0[i] : 0 <= i < n }"),
        ("for (i = 0; i < n; i++)\n  if (i * n > 2 && a[i] > 0)\n    b[i] = 0;\n", "[n] -> { S0[i] : 0 <= i < n }"),
        ("for (i = 0; i < n; i++)\n  if (a[i] > 0 && i >= 3)\n    b[i] = 0;\n", "[n] -> { S0[i] : 3 <= i < n }"),
    ],
)
def test_any_condition_that_reads_an_array_is_a_guard(model_of: ModelOf, body: str, domain: str) -> None:
    model = model_of(body)

    assert model.domains["S0"].is_equal(isl.Set(domain))
    assert model.scop.statement("S0").writes == (Access("b", (ITERATOR,), may=True),)


def test_a_subscript_that_reads_an_array_is_unknown_whatever_else_it_does(scop_of: ScopOf) -> None:
    (statement,) = scop_of("for (i = 0; i < n; i++)\n  h[(idx[i] % 7 + 7) % (n + 4)] = 1;\n").statements

    assert statement.writes == (Access("h", (Unknown(),), may=True),)
    assert statement.reads == (Access("idx", (ITERATOR,)), Access("n", ()))


def test_a_callee_defined_twice_is_not_summarized(scop_of: ScopOf) -> None:
    twice = f"#ifdef FAST\n{COPY}#else\n{COPY.replace('dst[i] = src[i]', 'dst[i + 1] = src[i]')}#endif\n"

    with pytest.raises(UnsupportedRegion, match="it is defined more than once"):
        scop_of("for (i = 0; i < n; i++)\n  copy(a, b, i);\n", twice)
