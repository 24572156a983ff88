"""Where ``polyopt.analysis.inplace`` keeps a scalar in the element it is stored to, and the rewritten
statements (``polyopt.transform.inplace``)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from pycparser import c_generator

from polyopt.analysis.dependences import compute_dependences
from polyopt.analysis.inplace import plan_in_place
from polyopt.model import PolyModel
from polyopt.transform.inplace import hold_in_place

ModelOf = Callable[..., PolyModel]
DOUBLES = "int n;\ndouble A[9][9], B[9][9], a[9], b[9], x[9], y[9], z[9], w;\n"


@pytest.fixture
def model_of(model_of: ModelOf) -> ModelOf:
    """The snippets' model, with ``n`` declared ``int``, the other names ``double`` unless ``declarations`` says."""
    return lambda body, declarations=DOUBLES: model_of(body, declarations)


LUDCMP = (
    "for (i = 0; i < n; i++) {\n  for (j = 0; j < i; j++) {\n    w = A[i][j];\n"
    "    for (k = 0; k < j; k++)\n      w -= A[i][k] * A[k][j];\n    A[i][j] = w / A[j][j];\n  }\n"
    "  for (j = i; j < n; j++) {\n    w = A[i][j];\n    for (k = 0; k < i; k++)\n"
    "      w -= A[i][k] * A[k][j];\n    A[i][j] = w;\n  }\n}\n"
    "for (i = 0; i < n; i++) {\n  w = b[i];\n  for (j = 0; j < i; j++)\n    w -= A[i][j] * y[j];\n  y[i] = w;\n}\n"
    "for (i = n - 1; i >= 0; i--) {\n  w = y[i];\n  for (j = i + 1; j < n; j++)\n    w -= A[i][j] * x[j];\n"
    "  x[i] = w / A[i][i];\n}\n"
)


def _ranges(
    model_of: ModelOf, body: str, declarations: str = DOUBLES
) -> list[tuple[str, str, tuple[str, ...], str, str]]:
    model = model_of(body, declarations)
    places, _ = plan_in_place(model, compute_dependences(model))
    return [(p.scalar, p.load, p.between, p.store, p.text) for p in places]


def _held(model_of: ModelOf, body: str) -> dict[str, str]:
    """The statements of ``body`` after its scalars are kept in place, as C."""
    model = model_of(body)
    places, _ = plan_in_place(model, compute_dependences(model))
    printer = c_generator.CGenerator()
    return {s.name: printer.visit(s.body) for s in hold_in_place(model.scop, places).statements}


def test_ludcmp_keeps_w_in_a_and_y_but_not_in_its_last_range(model_of: ModelOf) -> None:
    assert _ranges(model_of, LUDCMP) == [
        ("w", "S0", ("S1",), "S2", "A[i][j]"),
        ("w", "S3", ("S4",), "S5", "A[i][j]"),
        ("w", "S6", ("S7",), "S8", "y[i]"),
    ]


def test_ludcmp_becomes_lu(model_of: ModelOf) -> None:
    bodies = _held(model_of, LUDCMP)

    assert bodies == {
        "S1": "A[i][j] -= A[i][k] * A[k][j]",
        "S2": "A[i][j] = A[i][j] / A[j][j]",
        "S4": "A[i][j] -= A[i][k] * A[k][j]",
        "S6": "y[i] = b[i]",
        "S7": "y[i] -= A[i][j] * y[j]",
        "S9": "w = y[i]",
        "S10": "w -= A[i][j] * x[j]",
        "S11": "x[i] = w / A[i][i]",
    }
    model = model_of(LUDCMP)
    places, _ = plan_in_place(model, compute_dependences(model))
    s7 = next(s for s in hold_in_place(model.scop, places).statements if s.name == "S7")
    assert [a.array for a in s7.reads] == ["y", "A", "y"] and [a.array for a in s7.writes] == ["y"]


@pytest.mark.parametrize(
    "body",
    [
        # the store reads its own element besides the scalar
        "for (i = 0; i < n; i++) {\n  w = 0;\n  for (j = 0; j < n; j++)\n    w += B[i][j];\n"
        "  z[i] = z[i] + w;\n}\nw = 1;\n",
        # an update reads the stored element (j = i)
        "for (i = 0; i < n; i++) {\n  w = 0;\n  for (j = 0; j < n; j++)\n    w += A[j][i] * z[j];\n"
        "  z[i] = w;\n}\nw = 1;\n",
        # another statement between load and store writes the stored element
        "for (i = 0; i < n; i++) {\n  w = a[i];\n  z[i] = 2;\n  z[i] = w;\n}\nw = 1;\n",
        # the scalar's value after the region is the last sum
        "for (i = 0; i < n; i++) {\n  w = 0;\n  for (j = 0; j < n; j++)\n    w += B[i][j];\n  z[i] = w;\n}\n",
        # a statement after the store reads the scalar
        "for (i = 0; i < n; i++) {\n  w = a[i];\n  z[i] = w;\n  b[i] = w;\n}\nw = 1;\n",
        # between the load and the store the scalar is set, not updated
        "for (i = 0; i < n; i++) {\n  w = a[i];\n  w = w * w;\n  z[i] = w;\n}\nw = 1;\n",
        # the load reads the scalar
        "for (i = 0; i < n; i++) {\n  w = w + a[i];\n  z[i] = w;\n}\nw = 1;\n",
    ],
)
def test_scalar_stays_where_the_element_is_not_free(model_of: ModelOf, body: str) -> None:
    assert _ranges(model_of, body) == []


def test_a_load_of_the_element_itself_and_a_plain_store_disappear(model_of: ModelOf) -> None:
    body = "for (i = 0; i < n; i++) {\n  w = z[i];\n  for (j = 0; j < n; j++)\n    w += B[i][j];\n  z[i] = w;\n}\n"
    body += "w = 1;\n"

    assert _held(model_of, body) == {"S1": "z[i] += B[i][j]", "S3": "w = 1"}


def _triangle(load: str, updates: str, store: str) -> str:
    """ludcmp's first loop nest with the given (possibly guarded) load, update loop and store."""
    body = f"for (i = 0; i < n; i++)\n  for (j = 0; j < i; j++) {{\n    {load}\n    {updates}\n    {store}\n  }}\n"
    return body + "w = 0;\n"


LOAD, UPDATES, STORE = "w = A[i][j];", "for (k = 0; k < j; k++) w -= A[i][k] * A[k][j];", "A[i][j] = w;"
NOT_FED = "a read of w in the range does not take the value the same iteration's load or updates wrote"
NOT_STORED = "the store does not run in every iteration where the load does"


@pytest.mark.parametrize(
    ("body", "declined"),
    [
        # at j = 1 the updates change only w; the rewrite would change A[i][1]
        (_triangle(LOAD, UPDATES, f"if (j != 1) {STORE}"), ("S0", "S2", NOT_STORED)),
        # at j = 1 the updates and the store continue the w of (i, 0); the rewrite would start from A[i][1]
        (_triangle(f"if (j != 1) {LOAD}", UPDATES, STORE), ("S0", "S2", NOT_FED)),
        # load and store run together, but the updates at j = 1 continue the w of (i, 0)
        (_triangle(f"if (j != 1) {LOAD}", UPDATES, f"if (j != 1) {STORE}"), ("S0", "S2", NOT_FED)),
        # where the load does not run, another statement of the same iteration sets w
        (
            _triangle(f"if (j == 1) w = B[i][j];\n    if (j != 1) {LOAD}", UPDATES, STORE),
            ("S1", "S3", NOT_FED),
        ),
        # in its first iteration the store reads the w from before the region
        ("for (i = 0; i < n; i++) {\n  if (i > 0)\n    w = a[i];\n  z[i] = w;\n}\nw = 1;\n", ("S0", "S1", NOT_FED)),
    ],
)
def test_guarded_ranges_are_declined_with_the_reason(
    model_of: ModelOf, body: str, declined: tuple[str, str, str]
) -> None:
    model = model_of(body)
    places, lines = plan_in_place(model, compute_dependences(model))
    load, store, reason = declined
    element = "z[i]" if "z[i]" in body else "A[i][j]"

    assert places == ()
    assert lines == (f"w not kept in {element} from {load} to {store}: {reason}",)


def test_a_range_guarded_as_a_whole_is_kept(model_of: ModelOf) -> None:
    body = _triangle(f"if (j != 1) {{\n    {LOAD}", UPDATES, f"{STORE}\n    }}")

    assert _ranges(model_of, body) == [("w", "S0", ("S1",), "S2", "A[i][j]")]
    assert _held(model_of, body) == {"S1": "A[i][j] -= A[i][k] * A[k][j]", "S3": "w = 0"}


@pytest.mark.parametrize(
    ("declarations", "reason"),
    [
        ("double A[9][9];\nint w;\n", "w is int and A[i][j] is double"),
        ("int A[9][9];\ndouble w;\n", "w is double and A[i][j] is int"),
        ("double A[9][9];\nfloat w;\n", "w is float and A[i][j] is double"),
        ("double A[9][9];\nlong double w;\n", "w is long double and A[i][j] is double"),
        ("long A[9][9];\nunsigned long w;\n", "w is unsigned long and A[i][j] is long"),
        # a type from a header may be any type but its own
        ("double A[9][9];\nDATA_TYPE w;\n", "w is DATA_TYPE and A[i][j] is double"),
        (
            "#ifdef F\n#define T float\n#else\n#define T double\n#endif\nT w;\ndouble A[9][9];\n",
            "w is T and A[i][j] is double",
        ),
        ("double A[9][9];\n", "w is not declared here and A[i][j] is double"),
        ("", "w is not declared here and A[i][j] is not declared here"),
    ],
)
def test_a_scalar_of_another_type_than_the_element_is_declined(
    model_of: ModelOf, declarations: str, reason: str
) -> None:
    updates = "for (k = 0; k < j; k++) w -= B[i][k] * B[k][j];"  # integer terms: updates of any w
    model = model_of(_triangle(LOAD, updates, STORE), "int n, B[9][9];\n" + declarations)
    places, lines = plan_in_place(model, compute_dependences(model))

    assert places == ()
    assert lines == (f"w not kept in A[i][j] from S0 to S2: {reason}",)


@pytest.mark.parametrize(
    "declarations",
    [
        "double A[9][9], w;\n",
        "DATA_TYPE POLYBENCH_2D(A, 9, 9, n, n);\nDATA_TYPE w;\n",
        "typedef double real;\n#define REAL double\nreal A[9][9];\nREAL w;\n",
        "long int A[9][9];\nsigned long w;\n",
        "#ifdef F\n#define T float\n#else\n#define T double\n#endif\nT A[9][9];\nT w;\n",
    ],
)
def test_a_scalar_of_the_element_type_is_kept(model_of: ModelOf, declarations: str) -> None:
    body = _triangle(LOAD, UPDATES, STORE)

    assert _ranges(model_of, body, "int n;\n" + declarations) == [("w", "S0", ("S1",), "S2", "A[i][j]")]
