"""Measurements of this machine, above the pipeline: ``probe`` times the BLAS library, polyopt's microkernel and
its loops (``polyopt.library.choice`` turns the times into the library choice), ``probe_cache`` keeps them per
user (and serves ``polyopt tune`` and the limits), ``limits`` measures the peak rates and bandwidths of a roofline,
and ``cblas_reference`` is the benchmark's yardstick for library calls.  ``python -m polyopt.measure`` prints the
machine as a target file with its limits measured."""
