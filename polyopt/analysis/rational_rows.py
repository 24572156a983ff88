"""Exact linear algebra on rows of ``Fraction``: dot products, rank, basis extension, inverse."""

from __future__ import annotations

from fractions import Fraction


def unit_row(depth: int, position: int) -> tuple[Fraction, ...]:
    """The row of ``depth`` zeros with a 1 at ``position``."""
    return tuple(Fraction(int(k == position)) for k in range(depth))


def dot(row: tuple[Fraction, ...], direction: tuple[Fraction, ...]) -> Fraction:
    return sum((a * b for a, b in zip(row, direction, strict=True)), Fraction(0))


def row_rank(rows: list[tuple[Fraction, ...]]) -> int:
    """The rank of the matrix of ``rows`` (Gaussian elimination)."""
    matrix = [list(row) for row in rows]
    rank = 0
    columns = len(matrix[0]) if matrix else 0
    for column in range(columns):
        pivot = next((r for r in range(rank, len(matrix)) if matrix[r][column]), None)
        if pivot is None:
            continue
        matrix[rank], matrix[pivot] = matrix[pivot], matrix[rank]
        for r in range(len(matrix)):
            if r != rank and matrix[r][column]:
                factor = matrix[r][column] / matrix[rank][column]
                matrix[r] = [a - factor * b for a, b in zip(matrix[r], matrix[rank], strict=True)]
        rank += 1
    return rank


def extend_basis(basis: list[tuple[Fraction, ...]], row: tuple[Fraction, ...]) -> bool:
    """Append ``row`` to ``basis`` when it is independent of it."""
    if len(basis) == len(row) or row_rank(basis + [row]) == len(basis):
        return False
    basis.append(row)
    return True


def inverse(matrix: list[tuple[Fraction, ...]]) -> list[list[Fraction]]:
    """The inverse of the invertible square ``matrix`` (Gauss-Jordan)."""
    size = len(matrix)
    work = [list(row) + [Fraction(int(r == c)) for c in range(size)] for r, row in enumerate(matrix)]
    for column in range(size):
        pivot = next(r for r in range(column, size) if work[r][column])
        work[column], work[pivot] = work[pivot], work[column]
        scale = work[column][column]
        work[column] = [value / scale for value in work[column]]
        for r in range(size):
            if r != column and work[r][column]:
                factor = work[r][column]
                work[r] = [a - factor * b for a, b in zip(work[r], work[column], strict=True)]
    return [row[size:] for row in work]


def column_of(matrix: list[list[Fraction]], index: int) -> tuple[Fraction, ...]:
    return tuple(row[index] for row in matrix)
