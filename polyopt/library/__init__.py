"""Idiom recognition on the polyhedral model: statements that BLAS calls compute (seed 000, Sec. 4.4).

Public: ``Tail``, ``Idiom``, ``Gemm``, ``BatchedGemm``, ``Gemv``, ``Rank1``, ``Ger``, ``Syrk``, ``Syr2k``,
``Symm``, ``Trmm``, ``CblasCode``, ``find_idioms``.

Layers: ``statements`` reads the statements' C (the only module that does), ``shapes`` tests domains
and access relations with isl, and one module per idiom family (``gemm``, ``gemv``, ``symmetric``,
``triangular``) holds its idioms, their matchers and the CBLAS code of each (``Idiom.cblas``, spelled
with ``cblas``); ``recognition`` tries the matchers.

The calls compute in the type of the updated elements (they run only on ``float`` or ``double``
arrays, ``polyopt.library.blas``), and must compute what the statements compute in their declared types
(``polyopt.frontend.declarations``): an accumulator (SYMM's ``t``, the batched GEMM's buffer) is
declared of the type of the elements it is combined into, and a term's factors other than elements
are multiplied in floating arithmetic (``statements``).
"""

from polyopt.library.cblas import CblasCode
from polyopt.library.idioms.gemm import BatchedGemm, Gemm
from polyopt.library.idioms.gemv import Gemv, Ger, Rank1
from polyopt.library.idioms.symmetric import Symm, Syr2k, Syrk
from polyopt.library.idioms.triangular import Trmm
from polyopt.library.protocol import Idiom, Tail
from polyopt.library.recognition import find_idioms

__all__ = [
    "BatchedGemm",
    "CblasCode",
    "Gemm",
    "Gemv",
    "Ger",
    "Idiom",
    "Rank1",
    "Symm",
    "Syr2k",
    "Syrk",
    "Tail",
    "Trmm",
    "find_idioms",
]
