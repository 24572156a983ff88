"""End-to-end correctness on the loop corpus (``bench/corpus``): polyopt's output prints the original's checksum.

Each kernel is optimized with the default options, both programs are built with ``-O2 -fopenmp`` and
``-DREPS=2`` (two calls of the region: the second starts from the state the first left) and run with
two OpenMP threads; the checksums must agree within ``CORPUS_RTOL`` (reductions may add in another order).
``SAMPLE`` (one or two kernels of each shape) runs by default; the whole corpus, about two minutes on
the project VM, with ``pytest --corpus-all``.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.bench.corpus import CORPUS, CORPUS_RTOL, corpus_kernels, parse_run
from tests.support import assert_same_output, compile_c, needs_gcc, run_binary, run_polyopt

KERNELS = corpus_kernels(CORPUS)
SAMPLE = frozenset(
    {
        "rec_first_order",
        "rec_wavefront",
        "conv1d_taps_outer",
        "pack_positive",
        "pack_histogram",
        "ind_counter_step2",
        "cond_if_else",
        "rev_shift_inplace",
        "red_argmax",
        "red_col_sums",
        "la_transpose_inplace",
        "sten_seidel2d",
        "dist_1d",
        "ivc_glibc_msort_merge",
        "unr_blas_daxpy",
        "shift_openjpeg_dwt97",
        "long_png_paeth",
        "chain_nr_tridag",
        "smallmm_mesa_matmul4",
        "argm_linpack_dgefa",
        "early_linpack_dgesl",
    }
)
FLAGS = ("-O2", "-fopenmp")
DEFINES = ("REPS=2",)


def test_the_corpus_holds_the_sample_and_enough_kernels() -> None:
    assert SAMPLE <= KERNELS.keys()
    assert len(KERNELS) >= 130


@needs_gcc
@pytest.mark.parametrize("kernel", sorted(KERNELS))
def test_polyopt_keeps_the_checksum(kernel: str, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    if kernel not in SAMPLE and not request.config.getoption("corpus_all"):
        pytest.skip("outside the sample: run with --corpus-all")
    source = KERNELS[kernel]
    optimized = tmp_path / f"{kernel}.polyopt.c"
    done = run_polyopt(source, output=optimized)
    assert done.returncode == 0, f"polyopt {source} exited with {done.returncode}:\n{done.stderr}"
    outputs = []
    for program, folder in ((source, tmp_path / "original"), (optimized, tmp_path / "polyopt")):
        folder.mkdir()
        binary = compile_c(program, defines=DEFINES, flags=FLAGS, include_dirs=(), out_dir=folder)
        outputs.append(parse_run(run_binary(binary, threads=2).stdout)[0])
    assert_same_output(*outputs, rel_tol=CORPUS_RTOL, context=f"checksums of {kernel}: original, polyopt")
