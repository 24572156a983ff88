"""The layers under the idiom families (``polyopt.library``): the statement layer, which reads
the C of a statement, and the isl shape layer, which tests its domain."""

from __future__ import annotations

import pytest

from polyopt.library import shapes, statements
from polyopt.library.statements import Ref, Term
from tests.library.idiom_cases import GEMV, SYRK, ModelOf, product_body, size_text

PRODUCT = (Ref("A", ("i", "k")), Ref("B", ("k", "j")))


@pytest.mark.parametrize(
    ("update", "terms"),
    [
        ("C[i][j] += A[i][k] * B[k][j];", (Term(PRODUCT, ()),)),
        (
            "C[i][j] = C[i][j] - 2 * A[i][k] * B[k][j];",
            (Term(PRODUCT, ("2",), False),),
        ),
        (
            "C[i][j] -= a * x[i] + y[j];",
            (Term((Ref("x", ("i",)),), ("a",), False), Term((Ref("y", ("j",)),), (), False)),
        ),
    ],
)
def test_an_update_is_its_target_and_signed_terms(model_of: ModelOf, update: str, terms: tuple[Term, ...]) -> None:
    model = model_of(product_body(update))

    found = statements.update(model, model.scop.statements[0])

    assert found is not None and (found.target, found.terms) == (Ref("C", ("i", "j")), terms)


@pytest.mark.parametrize(
    "update",
    [
        "C[i][j] = A[i][k] * B[k][j];",  # not added to C
        "C[i][j] += A[i][k + 1] * B[k][j];",  # an element not subscripted by iterators alone
        "C[i][j] = C[i][j] + A[i][k] + C[i][j];",  # C added to itself twice
    ],
)
def test_a_statement_that_is_no_update(model_of: ModelOf, update: str) -> None:
    model = model_of(product_body(update))

    assert statements.update(model, model.scop.statements[0]) is None


@pytest.mark.parametrize(
    ("body", "zeroed"),
    [
        ("t = 0;", Ref("t", ())),
        ("x[i] = SCALAR_VAL(0.0);", Ref("x", ("i",))),
        ("x[i] = (float)0.0f;", Ref("x", ("i",))),
        ("x[i] = 1;", None),
        ("x[i] = y[i];", None),
    ],
)
def test_zeroed_is_the_element_a_statement_sets_to_0(model_of: ModelOf, body: str, zeroed: Ref | None) -> None:
    model = model_of(f"for (i = 0; i < n; i++)\n  {body}\n")

    assert statements.zeroed(model.scop.statements[0]) == zeroed


@pytest.mark.parametrize(
    ("body", "copied"),
    [
        ("x[i][j] = y[j];", (Ref("x", ("i", "j")), Ref("y", ("j",)))),
        ("x[i][j] = 2 * y[j];", None),
        ("x[i][j] = y[j + 1];", None),
    ],
)
def test_a_copy_is_its_two_elements(model_of: ModelOf, body: str, copied: tuple[Ref, Ref] | None) -> None:
    model = model_of(GEMV.format(body.rstrip(";")))

    assert statements.copy(model.scop.statements[0]) == copied


@pytest.mark.parametrize(
    ("lower", "upper", "shape"),
    [
        ("0", "<= i", (True, False)),
        ("0", "< i", (True, True)),
        ("i", "< n", (False, False)),
        ("i + 1", "< n", (False, True)),
        ("0", "< n", None),  # the whole box
        ("1", "<= i", None),  # not from the first column
    ],
)
def test_triangle_tells_lower_or_upper_and_strict(
    model_of: ModelOf, lower: str, upper: str, shape: tuple[bool, bool] | None
) -> None:
    model = model_of(SYRK.format(lower, upper, "C[i][j] += A[i][k] * A[j][k]"))
    statement = model.scop.statements[0]

    found = shapes.triangle(model.domains[statement.name], "i", "j", "k")

    assert (found and found[:2]) == (shape or None)


@pytest.mark.parametrize(
    ("order", "names", "sizes"),
    [
        ("ijk", {"r": "i", "c": "j", "k": "k"}, ("ni", "nj", "nk")),
        ("kij", {"r": "i", "c": "j", "k": "k"}, ("ni", "nj", "nk")),  # whatever the loop order
        ("ijk", {"r": "j", "c": "k", "k": "i"}, ("nj", "nk", "ni")),  # in the order of the names
    ],
)
def test_box_sizes_each_iterator(model_of: ModelOf, order: str, names: dict[str, str], sizes: tuple[str, ...]) -> None:
    model = model_of(product_body("C[i][j] += A[i][k] * B[k][j];", order))
    domain = model.domains[model.scop.statements[0].name]

    assert tuple(size_text(size) for size in shapes.box(domain, names)) == sizes


def test_a_box_not_from_0_has_no_sizes(model_of: ModelOf) -> None:
    body = "for (i = 1; i < ni; i++)\n  for (j = 0; j < nj; j++)\n    C[i][j] += A[i][j];\n"
    model = model_of(body)

    assert shapes.box(model.domains[model.scop.statements[0].name], {"r": "i", "c": "j"}) == ()
