"""The benchmark of the loop corpus (``python -m polyopt.bench --corpus bench/corpus``): each kernel built
original, by polyopt and by any ``--vs`` tool with the benchmark's gcc flags, run interleaved, its checksums
compared and its times tabulated with the geometric mean, the minimum and the count below 0.9x.

Public: ``CORPUS``, ``CORPUS_RTOL``, ``SLOW_SPEEDUP``, ``corpus_kernels``, ``parse_run``, ``read_run``,
``bench_corpus_kernel``, ``corpus_rows``, ``corpus_table``, ``corpus_summary``, ``machine_description``,
``bench_header``, ``corpus_main``.

A corpus program (``bench/corpus/README.md``) calls its region ``REPS`` times and prints one line,
``checksum <value> time <seconds> s``: the time is the region's, without the process's start-up.
"""

from __future__ import annotations

import argparse
import datetime
import shlex
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path

from polyopt.bench.polybench import FAILED, OK, WRONG, Cell, tool_programs
from polyopt.bench.timing import geometric_mean, interleaved, twins
from polyopt.machine import PROC_CPUINFO, detect
from polyopt.measure.probe_cache import cpuinfo_field
from polyopt.toolchain import CC, CFLAGS, ToolchainError, compile_c, first_difference, run_program

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT / "bench" / "corpus"
# Relative tolerance of the checksums: polyopt's reductions may add in another order (float sums of
# thousands of terms), and -march=native lets gcc contract a*b+c differently in differently shaped loops.
CORPUS_RTOL = 1e-4
SLOW_SPEEDUP = 0.9  # a kernel below this speedup is counted as slowed down
RUN_SECONDS = 600.0


def corpus_kernels(folder: Path) -> dict[str, Path]:
    """Every kernel of the corpus ``folder``: name (the file's stem) → its ``.c`` file, by name."""
    return {path.stem: path for path in sorted(folder.glob("*.c"))}


def parse_run(output: str) -> tuple[str, float]:
    """The checksum (as printed) and the region's seconds of a corpus program's ``output``."""
    for line in output.splitlines():
        words = line.split()
        if len(words) == 5 and words[0] == "checksum" and words[2] == "time" and words[4] == "s":
            try:
                return words[1], float(words[3])
            except ValueError:
                break
    raise ToolchainError(f"no 'checksum <value> time <seconds> s' line in the output: {output[-300:]!r}")


def read_run(binary: Path, threads: int) -> tuple[float, str]:
    """Run a corpus program with ``threads`` OpenMP threads: its region's seconds and its checksum."""
    checksum, seconds = parse_run(run_program(binary, threads=threads, timeout=RUN_SECONDS).stdout)
    return seconds, checksum


def bench_corpus_kernel(
    source: Path, threads: int, runs: int, min_seconds: float, flags: Sequence[str], vs: Mapping[str, str], rtol: float
) -> dict[str, Cell]:
    """Each column's result for the kernel ``source``: the median of its interleaved times, WRONG when its
    checksum differs from the original's beyond ``rtol``, FAILED when the tool, gcc or a run failed.
    Columns whose preprocessed code is the same are built and timed once (``same_as``).
    ``ToolchainError`` when the original program fails."""
    with tempfile.TemporaryDirectory(prefix=f"polyopt-corpus-{source.stem}-") as tmp:
        folder = Path(tmp)
        programs = tool_programs(source, folder / "src", (), flags, vs)
        cells = {name: Cell(FAILED, program) for name, program in programs.items() if isinstance(program, str)}
        sources = {name: program for name, program in programs.items() if isinstance(program, Path)}
        try:
            twin = twins(sources, ())
        except subprocess.CalledProcessError:  # a program that does not preprocess fails its build below
            twin = {name: name for name in sources}
        binaries: dict[str, Path] = {}
        for name in dict.fromkeys(twin.values()):
            try:
                binaries[name] = compile_c(sources[name], folder / f"{name}.bin", flags=CFLAGS)
            except ToolchainError as error:
                cells[name] = Cell(FAILED, str(error))
        times, checksums, failures = interleaved(binaries, lambda binary: read_run(binary, threads), runs, min_seconds)
        if "original" not in binaries or "original" in failures:
            raise ToolchainError(failures.get("original", cells.get("original", Cell(FAILED)).message))
        for name, first in twin.items():
            if first not in binaries or first in failures:
                cells[name] = Cell(FAILED, failures.get(first, cells[first].message if first in cells else ""))
                continue
            same_as = first if first != name else None
            seconds = statistics.median(times[first])
            difference = first_difference(
                checksums["original"], checksums[first], rel_tol=rtol, names=("original", name)
            )
            status = OK if difference is None else WRONG
            cells[name] = Cell(status, difference or "", seconds=seconds, same_as=same_as)
        return {name: cells[name] for name in programs}


def _speedup(cells: Mapping[str, Cell], column: str) -> float | None:
    """The original's time over ``column``'s, for a column whose checksum is right."""
    base, cell = cells["original"].seconds, cells[column]
    if cell.status != OK or base is None or not cell.seconds:
        return None
    return base / cell.seconds


def corpus_rows(results: Mapping[str, Mapping[str, Cell]], columns: Sequence[str]) -> list[list[str]]:
    """The table's header and rows: each column's median seconds, each tool's speedup over the original
    (``=`` NAME when its code is NAME's), and the checksum check (``ok``, or the WRONG and failed columns)."""
    tools = [name for name in columns if name != "original"]
    rows = [["kernel", *(f"{name} s" for name in columns), *(f"{name} x" for name in tools), "checksum"]]
    for kernel, cells in results.items():
        row = [kernel]
        row += [f"{cells[name].seconds:.4f}" if cells[name].seconds is not None else "-" for name in columns]
        for name in tools:
            speedup, same_as = _speedup(cells, name), cells[name].same_as
            text = f"{speedup:.2f}" if speedup is not None else cells[name].status
            row.append(text + (f" (= {same_as})" if same_as else ""))
        bad = [f"{cell.status.upper()} {name}" for name, cell in cells.items() if cell.status != OK]
        row.append(", ".join(bad) if bad else "ok")
        rows.append(row)
    return rows


def corpus_table(rows: Sequence[Sequence[str]], markdown: bool) -> str:
    """``rows`` (the first is the header) as a markdown table, or as aligned plain-text columns."""
    if markdown:
        lines = ["| " + " | ".join(row) + " |" for row in rows]
        return "\n".join([lines[0], "|" + "---|" * len(rows[0]), *lines[1:]]) + "\n"
    widths = [max(len(row[index]) for row in rows) for index in range(len(rows[0]))]
    return "".join(
        "  ".join(
            cell.ljust(width) if index == 0 else cell.rjust(width)
            for index, (cell, width) in enumerate(zip(row, widths, strict=True))
        ).rstrip()
        + "\n"
        for row in rows
    )


def corpus_summary(results: Mapping[str, Mapping[str, Cell]], column: str) -> str:
    """``column``'s geometric mean speedup, its minimum, the kernels below ``SLOW_SPEEDUP`` and the
    wrong and failed kernels, one line each."""
    speedups = {kernel: value for kernel, cells in results.items() if (value := _speedup(cells, column)) is not None}
    lines = []
    if speedups:
        slowest = min(speedups, key=lambda kernel: speedups[kernel])
        slow = sorted((kernel for kernel, value in speedups.items() if value < SLOW_SPEEDUP), key=speedups.get)
        lines += [
            f"{column}: geometric mean speedup {geometric_mean(list(speedups.values())):.2f}x over"
            f" {len(speedups)} kernels, min {speedups[slowest]:.2f}x ({slowest})",
            f"{column}: {len(slow)} kernels below {SLOW_SPEEDUP}x"
            + (": " + ", ".join(f"{kernel} {speedups[kernel]:.2f}x" for kernel in slow) if slow else ""),
        ]
    for status in (WRONG, FAILED):
        kernels = [kernel for kernel, cells in results.items() if cells[column].status == status]
        if kernels:
            lines.append(f"{column}: {status.upper()} on {len(kernels)} kernels: {', '.join(kernels)}")
    return "".join(f"{line}\n" for line in lines)


def _commit() -> str:
    """The repository's commit (short), marked when the work tree has changes; 'unknown' outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True)
        status = subprocess.run(["git", "status", "--porcelain"], cwd=ROOT, capture_output=True, text=True)
    except OSError:
        return "unknown"
    if head.returncode != 0:
        return "unknown"
    return head.stdout.strip() + (" (with uncommitted changes)" if status.stdout.strip() else "")


def machine_description() -> str:
    """This machine as a benchmark names it: its CPU model and its cores."""
    try:
        model = cpuinfo_field(PROC_CPUINFO.read_text(errors="replace"), "model name") or "unknown CPU"
    except OSError:
        model = "unknown CPU"
    return f"{model}, {detect().cores} cores"


def bench_header(command: str) -> str:
    """One line: the date, the commit, the CPU model and cores, gcc's version and flags, and ``command``."""
    try:
        version = subprocess.run([CC, "--version"], capture_output=True, text=True).stdout.splitlines()[0]
    except (OSError, IndexError):
        version = CC
    return (
        f"{datetime.date.today().isoformat()}, commit {_commit()}, {machine_description()},"
        f" {version} {' '.join(CFLAGS)}: {command}"
    )


def corpus_main(args: argparse.Namespace, command: str) -> int:
    """``--corpus DIR``: bench every kernel (or ``--kernels``), print the header, the table and the summary.
    Exit 1 when a checksum is wrong, 2 for an unknown kernel or an empty corpus, else 0."""
    kernels = corpus_kernels(args.corpus)
    if args.only is not None:
        wanted = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = [name for name in wanted if name not in kernels]
        if unknown:
            print(f"error: no kernel {', '.join(unknown)} in {args.corpus}", file=sys.stderr)
            return 2
        kernels = {name: kernels[name] for name in wanted}
    if not kernels:
        print(f"error: no kernel (*.c) in {args.corpus}", file=sys.stderr)
        return 2
    vs: Mapping[str, str] = args.vs  # by column name (vs_columns)
    columns = ["original", "polyopt", *vs]
    flags = shlex.split(args.flags)
    print(bench_header(command))
    print(
        f"{len(kernels)} kernels, OMP_NUM_THREADS={args.threads}, median of {args.runs} interleaved rounds or more"
        f" (until each program's times add up to {args.min_seconds} s), checksums within {args.rtol:g}",
        flush=True,
    )
    results: dict[str, dict[str, Cell]] = {}
    for name, source in kernels.items():
        try:
            results[name] = bench_corpus_kernel(source, args.threads, args.runs, args.min_seconds, flags, vs, args.rtol)
        except ToolchainError as error:
            results[name] = {column: Cell(FAILED, f"the original program failed: {error}") for column in columns}
        print(
            f"{name}: " + ", ".join(f"{column} {cell.status}" for column, cell in results[name].items()),
            file=sys.stderr,
            flush=True,
        )
    print(corpus_table(corpus_rows(results, columns), args.markdown), end="")
    for column in columns[1:]:
        print(corpus_summary(results, column), end="")
    for kernel, cells in results.items():
        for column, cell in cells.items():
            if cell.status != OK:
                print(f"{kernel}, {column}: {cell.status.upper()}: {cell.message.strip()[:2000]}")
    wrong = any(cell.status == WRONG for cells in results.values() for cell in cells.values())
    return 1 if wrong else 0
