"""Library calls for BLAS idioms (PolyMage dense-matrix thesis, Sec. 4.4): statements that CBLAS routines
compute, recognized on the polyhedral model, cut out of their region and run by CBLAS calls, by polyopt's GEMM
microkernel (PolyDL's outer-product microkernel) or by the loops, whichever the probe's measurements say is fastest.

Public: ``Tail``, ``Idiom``, ``RankK``, ``Gemm``, ``BatchedGemm``, ``Gemv``, ``Rank1``, ``Ger``, ``Syrk``,
``Syr2k``, ``Symm``, ``Trmm``, ``CblasCode``, ``find_idioms``.

Modules, by what they do:

- ``protocol``: what every idiom kind is (``Idiom``): its recognition, CBLAS spelling, microkernel
  operands and threshold key; ``idioms``: one module per idiom family implementing it (``gemm``,
  ``batched_gemm`` (PolyBench's doitgen), ``gemv``, ``ger``, ``rank_k`` (SYRK, SYR2K), ``symm``, ``trmm``);
- recognition: ``statements`` reads the statements' C (the only module that does), ``shapes`` tests
  domains and access relations with isl, ``recognition`` tries every kind's ``match`` (``find_idioms``);
- the code: ``cblas`` is how an idiom spells its calls, ``blas`` wraps them into the code that decides at
  run time whether they run; ``operands`` is how an idiom names its operands to the microkernel,
  ``microkernel_plan`` the microkernel's blocking, ``microkernel`` its C text;
- the decision: ``choice`` says which of the call, the microkernel and the loops computes each idiom
  kind, by size, from the probe's measurements (``polyopt.measure.probe``);
- the cut: ``segments`` cuts the region around its idioms; the pipeline's pass ``polyopt.passes.library``
  runs the segments.

The calls compute in the type of the updated elements (they run only on ``float`` or ``double``
arrays, ``polyopt.library.blas``), and must compute what the statements compute in their declared types
(``polyopt.frontend.declarations``): an accumulator (SYMM's ``t``, the batched GEMM's buffer) is
declared of the type of the elements it is combined into, and a term's factors other than elements
are multiplied in floating arithmetic (``statements``).
"""

from polyopt.library.cblas import CblasCode
from polyopt.library.idioms.batched_gemm import BatchedGemm
from polyopt.library.idioms.gemm import Gemm
from polyopt.library.idioms.gemv import Gemv
from polyopt.library.idioms.ger import Ger, Rank1
from polyopt.library.idioms.rank_k import RankK, Syr2k, Syrk
from polyopt.library.idioms.symm import Symm
from polyopt.library.idioms.trmm import Trmm
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
    "RankK",
    "Symm",
    "Syr2k",
    "Syrk",
    "Tail",
    "Trmm",
    "find_idioms",
]
