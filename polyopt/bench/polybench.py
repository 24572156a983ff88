"""The benchmark of a PolyBench/C tree: each kernel checked as ``polyopt check`` compares, then timed
against the original and other tools (``python -m polyopt.bench --polybench DIR``)."""

from __future__ import annotations

import argparse
import json
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

from polyopt.bench.timing import geometric_mean, interleaved, twins
from polyopt.program.check import optimize
from polyopt.program.harness import (
    DUMP_DEFINE,
    THREADS,
    Build,
    CheckFailure,
    build,
    outputs_difference,
    run_outputs,
)
from polyopt.toolchain import CC, CFLAGS, ToolchainError, run_program

DATASETS = ("MINI", "SMALL", "MEDIUM", "LARGE", "EXTRALARGE")
# The correctness builds: gcc's contraction of a*b+c into FMAs (-march=native) differs between differently
# shaped loops; PolyBench's gramschmidt at MINI is ill-conditioned enough that the original program built
# with -O2 and with -O3 -march=native prints different arrays.
CHECK_CFLAGS = (*CFLAGS, "-ffp-contract=off")
OK, WRONG, FAILED = "ok", "wrong", "failed"
TOOL_SECONDS = 3600.0


@dataclass(frozen=True)
class PolyBenchKernel:
    """One kernel of a PolyBench/C tree: ``NAME.c`` beside its ``NAME.h``, built with ``utilities/``."""

    name: str
    source: Path
    utilities: Path

    def cpp_flags(self, dataset: str) -> tuple[str, ...]:
        """The preprocessor flags a Makefile builds it with at ``dataset``."""
        return (f"-I{self.utilities}", f"-I{self.source.parent}", f"-D{dataset}_DATASET")

    def build(self, dataset: str, define: str, cflags: Sequence[str]) -> Build:
        """How it is built at ``dataset``, with ``-Ddefine`` (``POLYBENCH_DUMP_ARRAYS`` or ``POLYBENCH_TIME``)."""
        cpp_flags = (*self.cpp_flags(dataset), f"-D{define}")
        return Build(cflags=tuple(cflags), cpp_flags=cpp_flags, extra_sources=(self.utilities / "polybench.c",))


def polybench_kernels(root: Path) -> list[PolyBenchKernel]:
    """Every kernel of the PolyBench/C tree ``root`` (a ``NAME.c`` beside a ``NAME.h``), by name."""
    utilities = root / "utilities"
    if not (utilities / "polybench.c").is_file() or not (utilities / "polybench.h").is_file():
        raise ToolchainError(f"{root} is not a PolyBench/C tree: it has no utilities/polybench.c and polybench.h")
    sources = (path for path in root.rglob("*.c") if path.with_suffix(".h").is_file() and path.parent != utilities)
    return sorted((PolyBenchKernel(path.stem, path, utilities) for path in sources), key=lambda kernel: kernel.name)


@dataclass(frozen=True)
class Cell:
    """One column's result for one kernel: ``status`` OK, WRONG (its output differs from the original's
    at the check dataset) or FAILED (the tool, the build or a run failed; ``message`` says which), the
    median kernel time, and the earlier column whose code is the same (timed once for both)."""

    status: str
    message: str = ""
    seconds: float | None = None
    same_as: str | None = None


_NAMED = re.compile(r"([\w.+-]+)=(.+)", re.S)  # --vs NAME=COMMAND
_OWN_COLUMNS = ("original", "polyopt")


def tool_name(command: str) -> str:
    """The name of ``command``'s program (``polycc``), or of the module that ``python3 -m MODULE`` runs (the last
    part of its dotted name: ``cblas_reference``); ``vs`` for an empty command."""
    words = shlex.split(command)
    if not words:
        return "vs"
    program = Path(words[0]).name
    if program.startswith("python") and words[1:2] == ["-m"] and len(words) > 2:
        return words[2].rpartition(".")[2]
    return program


def vs_columns(templates: Sequence[str]) -> dict[str, str]:
    """Each ``--vs`` tool's command under its column name: the NAME of ``NAME=COMMAND``, else its program's name
    (``tool_name``), numbered when taken.  Raises ``ValueError`` when a NAME is given twice or names one of
    polyopt's own columns (``original``, ``polyopt``)."""
    columns: dict[str, str] = {}
    for template in templates:
        named = _NAMED.fullmatch(template)
        if named is not None:
            name, command = named.groups()
            if name in columns or name in _OWN_COLUMNS:
                raise ValueError(f"--vs {template}: the column name '{name}' is taken")
            columns[name] = command
            continue
        name = label = tool_name(template)
        number = len(columns) + 1
        while label in columns or label in _OWN_COLUMNS:
            label, number = f"{name}-{number}", number + 1
        columns[label] = template
    return columns


def _tool(command: str, out: Path, folder: Path) -> Path | str:
    """Run another tool's ``command`` in ``folder``: ``out``, or why it failed."""
    try:
        done = subprocess.run(shlex.split(command), capture_output=True, text=True, cwd=folder, timeout=TOOL_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as error:
        return f"{command}: {error}"
    if done.returncode != 0:
        return f"{command} exited with {done.returncode}: {done.stderr.strip()[-2000:]}"
    return out if out.is_file() else f"{command} wrote no {out.name}"


def tool_programs(
    source: Path, folder: Path, cpp_flags: Sequence[str], flags: Sequence[str], vs: Mapping[str, str]
) -> dict[str, Path | str]:
    """Each column's program, written into the new ``folder``: a copy of ``source``, polyopt's output with
    ``flags`` and each ``vs`` tool's (the tools see ``cpp_flags`` as ``{cppflags}``), or why the tool failed."""
    folder.mkdir()
    copy = folder / source.name
    shutil.copyfile(source, copy)
    programs: dict[str, Path | str] = {"original": copy}
    try:
        optimize(copy, folder / f"{source.stem}.polyopt.c", [*flags, *cpp_flags])
        programs["polyopt"] = folder / f"{source.stem}.polyopt.c"
    except CheckFailure as failure:
        programs["polyopt"] = str(failure)
    quoted = " ".join(map(shlex.quote, cpp_flags))
    for name, template in vs.items():
        out = folder / f"{source.stem}.{name}.c"
        programs[name] = _tool(template.format(**{"in": str(copy), "out": str(out), "cppflags": quoted}), out, folder)
    return programs


def _check_columns(
    kernel: PolyBenchKernel, programs: Mapping[str, Path | str], folder: Path, dataset: str, rtol: float
) -> dict[str, Cell]:
    """Each column's program against the original's at ``dataset``, as ``polyopt check`` compares them
    (the arrays PolyBench dumps, with each of ``THREADS``); ``ToolchainError`` when the original fails."""
    how = kernel.build(dataset, DUMP_DEFINE, CHECK_CFLAGS)
    original = programs["original"]
    assert isinstance(original, Path)
    expected = run_outputs(build(original, folder / "original.bin", how), threads=1)
    cells = {"original": Cell(OK)}
    for name, program in programs.items():
        if name == "original":
            continue
        if isinstance(program, str):
            cells[name] = Cell(FAILED, program)
            continue
        try:
            binary = build(program, folder / f"{name}.bin", how)
            differences = (
                (threads, outputs_difference(expected, run_outputs(binary, threads), rtol, name)) for threads in THREADS
            )
            wrong = next(((threads, text) for threads, text in differences if text is not None), None)
        except ToolchainError as error:
            cells[name] = Cell(FAILED, str(error))
            continue
        cells[name] = (
            Cell(OK) if wrong is None else Cell(WRONG, f"at {dataset}, OMP_NUM_THREADS={wrong[0]}: {wrong[1]}")
        )
    return cells


def _polybench_time(binary: Path, threads: int) -> tuple[float, str]:
    """The kernel time a PolyBench program built with ``-DPOLYBENCH_TIME`` prints (the last line of stdout)."""
    done = run_program(binary, threads=threads, timeout=3600)
    lines = done.stdout.split()
    try:
        return float(lines[-1]), done.stdout
    except (IndexError, ValueError):
        raise ToolchainError(f"{binary} printed no time: {done.stdout[-200:]!r}") from None


@dataclass(frozen=True)
class BenchSettings:
    """How each kernel is benchmarked: checked at ``check_dataset`` within ``rtol``, timed at ``dataset``
    with ``threads`` (``runs`` rounds at least, more while under ``min_seconds``: ``rounds_wanted``),
    optimized with polyopt's ``flags`` and compared with each ``vs`` tool's command under its column name."""

    dataset: str
    check_dataset: str
    threads: int
    runs: int
    min_seconds: float
    flags: Sequence[str]
    vs: Mapping[str, str]
    rtol: float


def bench_polybench_kernel(kernel: PolyBenchKernel, settings: BenchSettings) -> dict[str, Cell]:
    """Each column's result for ``kernel``: correctness at ``settings.check_dataset``, then the columns that
    passed are timed interleaved at ``settings.dataset`` (their tools run again with its ``-D``).
    ``ToolchainError`` when the original program fails."""
    dataset, check_dataset, threads = settings.dataset, settings.check_dataset, settings.threads
    flags, vs = settings.flags, settings.vs
    with tempfile.TemporaryDirectory(prefix=f"polyopt-bench-{kernel.name}-") as tmp:
        folder = Path(tmp)
        checked = tool_programs(kernel.source, folder / check_dataset, kernel.cpp_flags(check_dataset), flags, vs)
        cells = _check_columns(kernel, checked, folder / check_dataset, check_dataset, settings.rtol)
        timed = (
            checked
            if dataset == check_dataset
            else tool_programs(kernel.source, folder / dataset, kernel.cpp_flags(dataset), flags, vs)
        )
        programs: dict[str, Path] = {}
        for name, cell in cells.items():
            program = timed[name]
            if cell.status == OK and isinstance(program, str):
                cells[name] = Cell(FAILED, f"at {dataset}: {program}")
            elif cell.status == OK and isinstance(program, Path):
                programs[name] = program
        how = kernel.build(dataset, "POLYBENCH_TIME", CFLAGS)
        try:
            twin = twins(programs, how.cpp_flags)
        except subprocess.CalledProcessError:  # a program that does not preprocess fails its build below
            twin = {name: name for name in programs}
        binaries: dict[str, Path] = {}
        for name in dict.fromkeys(twin.values()):
            try:
                binaries[name] = build(programs[name], folder / f"{name}.{dataset}.bin", how)
            except ToolchainError as error:
                cells[name] = Cell(FAILED, f"at {dataset}: {error}")
        times, _, failures = interleaved(
            binaries, lambda binary: _polybench_time(binary, threads), settings.runs, settings.min_seconds
        )
        if "original" in failures or "original" not in binaries:
            raise ToolchainError(failures.get("original", cells["original"].message))
        for name, first in twin.items():
            if first in failures or first not in binaries:
                cells[name] = Cell(FAILED, failures.get(first, cells[first].message))
            else:
                same_as = first if first != name else None
                cells[name] = Cell(OK, seconds=statistics.median(times[first]), same_as=same_as)
        return cells


def polyopt_versus_best(cells: Mapping[str, Cell]) -> float | None:
    """The best other column's time (the original's among them) over polyopt's: above 1, polyopt is faster."""
    polyopt = cells.get("polyopt")
    others = [cell.seconds for name, cell in cells.items() if name != "polyopt" and cell.seconds is not None]
    if polyopt is None or polyopt.seconds is None or not others:
        return None
    return min(others) / polyopt.seconds


def _speedup(cells: Mapping[str, Cell], column: str) -> float | None:
    base, seconds = cells["original"].seconds, cells[column].seconds
    return base / seconds if base is not None and seconds else None


def _speedups(results: Mapping[str, Mapping[str, Cell]], column: str) -> list[float]:
    return [speedup for cells in results.values() if (speedup := _speedup(cells, column)) is not None]


def polybench_table(results: Mapping[str, Mapping[str, Cell]], columns: Sequence[str]) -> str:
    """The markdown table: each column's median seconds and speedup over the original (``wrong`` or
    ``failed`` instead), polyopt's ratio to the best other column, and their geometric means."""
    tools = [name for name in columns if name != "original"]
    header = ["kernel", *(f"{name} s" for name in columns), *(f"{name} x" for name in tools), "polyopt vs best"]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    notes = []
    for kernel, cells in results.items():
        row = [
            kernel,
            *(
                f"{cells[name].seconds:.6f}" if cells[name].seconds is not None else cells[name].status
                for name in columns
            ),
        ]
        for name in tools:
            speedup, same_as = _speedup(cells, name), cells[name].same_as
            if speedup is None:
                row.append(cells[name].status)
            else:
                row.append(f"{speedup:.2f}" + (f" (= {same_as})" if same_as else ""))
        ratio = polyopt_versus_best(cells)
        row.append(f"{ratio:.2f}" if ratio is not None else "")
        lines.append("| " + " | ".join(row) + " |")
        notes += [
            f"- {kernel}, {name}: {cell.status}: {cell.message.splitlines()[0] if cell.message else ''}"
            for name, cell in cells.items()
            if cell.status != OK
        ]
    means = [geometric_mean(_speedups(results, name)) for name in tools]
    ratios = [ratio for cells in results.values() if (ratio := polyopt_versus_best(cells)) is not None]
    overall = geometric_mean(ratios)
    row = ["geometric mean", *("" for _ in columns), *(f"{mean:.2f}" if mean is not None else "" for mean in means)]
    row.append(f"{overall:.2f}" if overall is not None else "")
    lines.append("| " + " | ".join(row) + " |")
    return "\n".join(lines + ([""] + notes if notes else [])) + "\n"


def polybench_json(
    results: Mapping[str, Mapping[str, Cell]], columns: Sequence[str], settings: Mapping[str, object]
) -> dict[str, object]:
    """The results as plain data for ``--json``."""
    tools = [name for name in columns if name != "original"]
    ratios = [ratio for cells in results.values() if (ratio := polyopt_versus_best(cells)) is not None]
    return {
        **settings,
        "kernels": {
            kernel: {name: asdict(cell) | {"speedup": _speedup(cells, name)} for name, cell in cells.items()}
            for kernel, cells in results.items()
        },
        "geometric_mean_speedup": {name: geometric_mean(_speedups(results, name)) for name in tools},
        "polyopt_vs_best": {
            "per_kernel": {kernel: polyopt_versus_best(cells) for kernel, cells in results.items()},
            "geometric_mean": geometric_mean(ratios),
        },
    }


def polybench_main(args: argparse.Namespace) -> int:
    """``--polybench DIR``: check and time every kernel of the tree; print the table (and write ``--json``)."""
    try:
        kernels = polybench_kernels(args.polybench)
    except ToolchainError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    if args.only is not None:
        wanted = [name.strip() for name in args.only.split(",") if name.strip()]
        unknown = sorted(set(wanted) - {kernel.name for kernel in kernels})
        if unknown:
            print(f"error: no kernel {', '.join(unknown)} in {args.polybench}", file=sys.stderr)
            return 2
        kernels = [kernel for kernel in kernels if kernel.name in wanted]
    vs: Mapping[str, str] = args.vs  # by column name (vs_columns)
    columns = ["original", "polyopt", *vs]
    flags = shlex.split(args.flags)
    commands = {"polyopt": " ".join(["polyopt", *flags, "{cppflags}", "{in}", "-o", "{out}"]), **vs}
    settings = {
        "dataset": args.dataset,
        "check_dataset": args.check_dataset,
        "threads": args.threads,
        "cflags": " ".join(CFLAGS),
        "check_cflags": " ".join(CHECK_CFLAGS),
        "rtol": args.rtol,
        "commands": commands,
    }
    print(
        f"{len(kernels)} kernels of {args.polybench}: checked at {args.check_dataset} (OMP_NUM_THREADS="
        f"{', '.join(map(str, THREADS))}, relative tolerance {args.rtol:g}, -ffp-contract=off), timed at"
        f" {args.dataset} with {args.threads} threads, median of {args.runs} rounds or more, {CC} {' '.join(CFLAGS)}",
        flush=True,
    )
    bench = BenchSettings(
        dataset=args.dataset,
        check_dataset=args.check_dataset,
        threads=args.threads,
        runs=args.runs,
        min_seconds=args.min_seconds,
        flags=flags,
        vs=vs,
        rtol=args.rtol,
    )
    results: dict[str, dict[str, Cell]] = {}
    for kernel in kernels:
        try:
            results[kernel.name] = bench_polybench_kernel(kernel, bench)
        except ToolchainError as error:
            results[kernel.name] = {name: Cell(FAILED, f"the original program failed: {error}") for name in columns}
        print(
            f"{kernel.name}: " + ", ".join(f"{name} {cell.status}" for name, cell in results[kernel.name].items()),
            file=sys.stderr,
            flush=True,
        )
    print(polybench_table(results, columns), end="")
    for name, command in commands.items():
        print(f"{name}: {command}")
    if args.json is not None:
        args.json.write_text(json.dumps(polybench_json(results, columns, settings), indent=2) + "\n")
    return 0
