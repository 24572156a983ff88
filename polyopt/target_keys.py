"""The keys of a target file: the machine's facts and the profile of numbers fitted on it, each with
its default and meaning (``polyopt.machine`` reads and prints them).

Public: ``Key``, ``KEYS``, ``SETTINGS``, ``DEFAULTS``, ``SIZE``, ``COUNT``, ``PRICE``, ``FACT``,
``PROFILE``, ``LIMIT_FIELDS``, ``BLAS_THRESHOLD``, ``BLAS2_THRESHOLD``, ``PARALLEL_WORK``, ``SECTION_LIMIT``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SIZE = "size"  # bytes, with an optional binary suffix
COUNT = "count"  # a non-negative integer
PRICE = "price"  # a non-negative decimal number

FACT = "fact"  # read off the machine (detected when a target file leaves it out)
PROFILE = "profile"  # fitted by measurement (its default when a target file leaves it out)


@dataclass(frozen=True)
class Key:
    """One key of a target file: the ``Machine`` field it sets, its default, whether it is a fact or
    part of the profile, how its value is written (``SIZE``, ``COUNT``, ``PRICE``), the smallest
    value allowed, the flag that also sets it (None: the target file only), and what it means
    (``noun``, in messages; ``meaning``, one line in the printed target file and the docs)."""

    field: str
    default: int | float
    group: str
    kind: str
    minimum: int
    flag: str | None
    noun: str
    meaning: str

    @property
    def name(self) -> str:
        """The key's spelling in a target file."""
        return self.field.replace("_", "-")

    @property
    def label(self) -> str:
        """How a message names the key: ``the L1 data cache size (--l1)``."""
        return f"{self.noun} ({self.flag or self.name})"


BLAS_THRESHOLD = 192**3
BLAS2_THRESHOLD = 1024**2
PARALLEL_WORK = 1 << 24
SECTION_LIMIT = 16384

KEYS = (
    Key("l1", 32 << 10, FACT, SIZE, 1, "--l1", "the L1 data cache size", "bytes of L1 data cache of one core"),
    Key("l2", 1 << 20, FACT, SIZE, 1, "--l2", "the L2 cache size", "bytes of L2 cache as seen by one core"),
    Key("l3", 8 << 20, FACT, SIZE, 0, "--l3", "the L3 cache size", "bytes of L3 cache (0: none)"),
    Key("line", 64, FACT, SIZE, 1, "--line", "the cache line size", "bytes of a cache line"),
    Key("cores", 1, FACT, COUNT, 1, "--cores", "the number of cores", "cores the program may run on"),
    Key(
        "simd_bytes",
        16,
        FACT,
        COUNT,
        1,
        "--simd-bytes",
        "the vector width in bytes",
        "vector register width in bytes: 16 SSE, 32 AVX2, 64 AVX-512",
    ),
    Key(
        "vector_registers",
        16,
        FACT,
        COUNT,
        1,
        "--vector-registers",
        "the number of vector registers",
        "vector registers the compiler may allocate: 16 SSE/AVX2, 32 AVX-512",
    ),
    Key(
        "blas3_threshold",
        BLAS_THRESHOLD,
        PROFILE,
        COUNT,
        0,
        "--blas-threshold",
        "the level-3 BLAS threshold",
        "work M·N·K from which matrix-matrix routines are called (python -m polyopt.calibrate)",
    ),
    Key(
        "blas2_threshold",
        BLAS2_THRESHOLD,
        PROFILE,
        COUNT,
        0,
        "--blas2-threshold",
        "the level-2 BLAS threshold",
        "work M·N from which matrix-vector routines (GEMV, GER) are called",
    ),
    Key(
        "parallel_work",
        PARALLEL_WORK,
        PROFILE,
        COUNT,
        0,
        "--parallel-work",
        "the work from which loops run in parallel",
        "statement instances from which a parallel loop starts threads (its if clause)",
    ),
    Key(
        "op_cycles",
        1.0,
        PROFILE,
        PRICE,
        0,
        None,
        "the cycles of a statement instance",
        "fusion cost model: cycles of one statement instance",
    ),
    Key(
        "byte_cycles",
        0.5,
        PROFILE,
        PRICE,
        0,
        None,
        "the cycles of a streamed byte",
        "fusion cost model: cycles of one byte streamed from memory",
    ),
    Key(
        "section_limit",
        SECTION_LIMIT,
        PROFILE,
        COUNT,
        1,
        None,
        "the section limit",
        "most elements of an array section reduced in parallel (a copy on each thread's stack)",
    ),
    Key(
        "kc_limit",
        512,
        PROFILE,
        COUNT,
        1,
        None,
        "the microkernel's kc limit",
        "GEMM microkernel: most steps of the sum per block (kc)",
    ),
    Key(
        "nc_limit",
        4096,
        PROFILE,
        COUNT,
        1,
        None,
        "the microkernel's nc limit",
        "GEMM microkernel: most columns of C per block and core (nc)",
    ),
    Key(
        "isl_max_coefficient",
        4,
        PROFILE,
        COUNT,
        1,
        None,
        "isl's largest schedule coefficient",
        "isl scheduler: largest coefficient of an iterator in a schedule (skewing factor)",
    ),
    Key(
        "isl_max_constant_term",
        8,
        PROFILE,
        COUNT,
        0,
        None,
        "isl's largest schedule constant",
        "isl scheduler: largest constant term of a schedule (shift)",
    ),
    Key(
        "tile_l2_share",
        8,
        PROFILE,
        COUNT,
        1,
        None,
        "the L2 share of a tile",
        "tile sizes: a tile's footprint may fill L2 divided by this, when that is more than L1",
    ),
    Key(
        "tile_gamma_floor",
        0.5,
        PROFILE,
        PRICE,
        0,
        None,
        "the smallest reuse ratio of a tile",
        "tile sizes: no member's tile below this fraction of the largest-reuse member's (Alg. 3's γ)",
    ),
    Key(
        "tile_inner_vectors",
        8,
        PROFILE,
        COUNT,
        1,
        None,
        "the vectors of an inner tile",
        "tile sizes: vector registers' worth of elements in the vector (innermost) tile member",
    ),
    Key(
        "tile_scalar_inner_lines",
        4,
        PROFILE,
        COUNT,
        1,
        None,
        "the lines of a scalar inner tile",
        "tile sizes: cache lines' worth of elements in an innermost member that cannot vectorize",
    ),
    Key(
        "tile_reduction_min",
        16,
        PROFILE,
        COUNT,
        1,
        None,
        "the smallest tile beside a whole reduction row",
        "tile sizes: a simd reduction loop runs whole when the other members' tiles still reach this",
    ),
    Key(
        "tile_balance_slack",
        0.1,
        PROFILE,
        PRICE,
        0,
        None,
        "the load imbalance allowed",
        "tile sizes: parallel tiles are evened out when the busiest core runs this much over an even share",
    ),
    Key(
        "stream_threads",
        2,
        PROFILE,
        COUNT,
        0,
        None,
        "the streaming thread rule",
        "a parallel loop over data beyond this many times the L2 of all cores starts threads from the instances "
        "that touch that many bytes, when fewer than parallel-work (0: off)",
    ),
    Key(
        "small_loop_rules",
        1,
        PROFILE,
        COUNT,
        0,
        "--small-loop-rules",
        "the small-loop rules",
        "1: a simd reduction needs 8 vectors per run, and no loop is unrolled and jammed into a loop that gcc "
        "unrolls completely (0: off, so that small programs take the paths of large ones)",
    ),
    Key(
        "blocks_microkernel",
        131_072,
        PROFILE,
        COUNT,
        0,
        "--blocks-microkernel",
        "the microkernel threshold",
        "work M·N·K from which a GEMM, SYMM or TRMM that is not called runs on the GEMM microkernel; below it "
        "its packing costs more than the loops (0: from any work)",
    ),
    Key(
        "as_written_below",
        65_536,
        PROFILE,
        COUNT,
        0,
        "--as-written-below",
        "the as-written threshold",
        "statement instances below which a region whose sizes are not known when it is optimized runs as written "
        "(a run-time test; 0: never)",
    ),
    Key(
        "rank_k_microkernel",
        216_000_000,
        PROFILE,
        COUNT,
        0,
        "--rank-k-microkernel",
        "the rank-k microkernel threshold",
        "work N·N·K from which a SYRK or SYR2K that is not called runs on the GEMM microkernel, on its "
        "triangle (0: never)",
    ),
    Key(
        "unroll_jam",
        4,
        PROFILE,
        COUNT,
        0,
        None,
        "the unroll-and-jam factor",
        "copies of the loop around an innermost loop jammed into it: an accumulator in registers, "
        "recurrences interleaved (0, 1: none)",
    ),
)
# the machine's limits for a roofline (``polyopt.roofline``): 0 until measured by ``python -m polyopt.measure``
_LIMIT_KEYS = (
    (f"peak_gflops_{kind}{suffix}", f"roofline: GFLOP/s of {kind} FMAs at the vector width on {cores}")
    for kind in ("double", "float")
    for suffix, cores in (("_core", "one core"), ("", "all cores"))
)
_BANDWIDTH_KEYS = (
    (f"bandwidth_{level}{suffix}", f"roofline: GB/s streamed from {name} (STREAM copy/triad) on {cores}")
    for level, name in (("l1", "L1"), ("l2", "L2"), ("l3", "L3"), ("dram", "DRAM"))
    for suffix, cores in (("_core", "one core"), ("", "all cores"))
)
_INTEGER_KEYS = (
    (f"peak_gops_int{suffix}", f"roofline: G operations/s of int adds at the vector width on {cores}")
    for suffix, cores in (("_core", "one core"), ("", "all cores"))
)
_DIVISION_KEYS = (
    (f"peak_gdivs_double{suffix}", f"roofline: G double divisions/s at the vector width on {cores}")
    for suffix, cores in (("_core", "one core"), ("", "all cores"))
)
KEYS += tuple(
    Key(field, 0.0, PROFILE, PRICE, 0, None, f"the {field.replace('_', ' ')}", f"{meaning} (0: not measured)")
    for field, meaning in (*_LIMIT_KEYS, *_BANDWIDTH_KEYS, *_INTEGER_KEYS, *_DIVISION_KEYS)
)
LIMIT_FIELDS = tuple(key.field for key in KEYS if key.meaning.startswith("roofline: "))
SETTINGS = tuple(key.field for key in KEYS)  # the fields a target file sets
DEFAULTS: dict[str, Any] = {key.field: key.default for key in KEYS}
