"""The benchmarks: ``python -m polyopt.bench`` (``suite``: the example kernels, a PolyBench/C tree through
``polybench``, or the loop corpus through ``corpus``, timed as ``timing`` does, with the roofline of
``roofline``) and ``python -m polyopt.bench.gemm``
(``gemm``: polyopt's GEMM microkernel against the library call).  The results and the corpus are in the
repository's ``bench/`` folder."""
