"""Tests for ``polyopt.frontend.gnu``: GNU spellings rewritten in place, and the constructs a region cannot hold."""

from __future__ import annotations

import pytest

from polyopt.frontend.gnu import readable, unmodelled


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("float *__restrict__ A = a;", "float *restrict     A = a;"),
        ("static __inline double f(__const int x);", "static inline   double f(const   int x);"),
        ("__signed__ char c; __volatile__ int v;", "signed     char c; volatile     int v;"),
        ("__extension__ long long x;", "              long long x;"),
        ("double t __attribute__((aligned((16)), __unused__)) = 0;", "double t" + " " * 43 + " = 0;"),
        ("__attribute__ ((\n  aligned (64)))\ndouble y;", " " * 16 + "\n" + " " * 16 + "\ndouble y;"),
        ("if (__builtin_expect(a[f(i, j)] > 0, 1)) x;", "if (" + " " * 16 + "(a[f(i, j)] > 0   )) x;"),
    ],
)
def test_plain_spellings_become_standard_c_at_the_same_offsets(text: str, expected: str) -> None:
    assert readable(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        'char *s = "__restrict__ __attribute__((unused))"; /* __inline__ */',
        "typedef double v2 __attribute__((vector_size(16)));",
        "int k __attribute__((aligned(8), cleanup(release)));",
        "x = __builtin_expect(y);",
    ],
)
def test_literals_comments_and_meaningful_attributes_stay(text: str) -> None:
    assert readable(text) == text


@pytest.mark.parametrize(
    ("text", "offset", "construct"),
    [
        ("a[i] = ({ double q = b[i]; q; });", 7, "statement expression '({ ... })'"),
        ("a[i] = 1;\n__typeof__(a[0]) t;", 10, "'__typeof__'"),
        ("typeof (x) y;", 0, "'typeof'"),
        ('asm volatile ("nop");', 0, "'asm'"),
        ('__asm__ __volatile__("" ::: "memory");', 0, "'__asm__'"),
        ('_Pragma("omp simd") for (;;);', 0, "'_Pragma'"),
        ('_Static_assert(1, "one");', 0, "'_Static_assert'"),
        ("_Alignas(16) double t;", 0, "'_Alignas'"),
        ("unsigned __int128 k;", 9, "'__int128'"),
        ("int k __attribute__((mode (DI)));", 6, "'__attribute__((mode (DI)))'"),
    ],
)
def test_unmodelled_names_the_first_construct(text: str, offset: int, construct: str) -> None:
    assert unmodelled(readable(text)) == (offset, construct)


def test_plain_c_and_literals_hold_no_unmodelled_construct() -> None:
    text = 'for (i = 0; i < n; i++)\n  a[i] = (b[i]) + typeof_x + f("({ asm");  /* typeof(a) */'

    assert unmodelled(text) is None
