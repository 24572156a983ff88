"""``polyopt tune``'s decisions: the variants of each region, the programs that time them, the choice per
region and the file composed from the choices.  No I/O here: ``polyopt.program.tune`` optimizes and caches,
``polyopt.program.tune_measure`` builds and runs.

Public: ``Alternative``, ``ALTERNATIVES``, ``AS_WRITTEN``, ``MARGIN``, ``TIMES_VARIABLE``, ``TIMERS``, ``Variant``,
``RegionVariants``, ``variants_of``, ``Program``, ``programs``, ``isolated``, ``instrumented``, ``timers_source``,
``VariantResult``, ``RegionChoice``, ``TuneResult``, ``choose``, ``composed``, ``describe``, ``seconds_text``.

Each region's variants are the code as written, then the code of each ``ALTERNATIVES`` entry, identical
code once (``variants_of``).  Program k runs variant k of every region that has one and the code as written
of the others (``programs``): as many builds as the region with the most variants has variants.  A program
whose output is wrong is split into one program per region it times (``isolated``), so a wrong variant is
rejected alone.  Each region is timed by two calls around its code (``instrumented``): a statement before
and one after, no new block, so declarations stay visible after it.
"""

from __future__ import annotations

import statistics
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from polyopt.emit.splice import RegionCode, splice
from polyopt.frontend.regions import Region
from polyopt.outcome import RegionOutcome


@dataclass(frozen=True)
class Alternative:
    """One way to optimize every region: polyopt's ``flags`` added to the user's (none: polyopt's default)."""

    flags: tuple[str, ...]

    @property
    def name(self) -> str:
        return " ".join(self.flags) or "optimized"


# The alternatives timed against the code as written; one that contradicts the user's flags is left out.
ALTERNATIVES = (
    Alternative(()),
    Alternative(("--fuse=none",)),
    Alternative(("--notile",)),
    Alternative(("--noparallel",)),
    Alternative(("--blas=none",)),
)
AS_WRITTEN = "as written"
MARGIN = 0.03  # a variant replaces the code as written when its median time is lower by more than this fraction
TIMES_VARIABLE = "POLYOPT_TUNE_TIMES"  # names the file the instrumented program writes its region times to
_ENTER, _LEAVE = "polyopt_tune_enter", "polyopt_tune_leave"
# The timers, after the definitions of POLYOPT_TUNE_REGIONS (the largest region index) and POLYOPT_TUNE_VARIABLE.
TIMERS = """\
/* polyopt tune's region timers: the time of each region (summed over its executions) and how often it
   ran, written at exit to the file that the variable POLYOPT_TUNE_VARIABLE names, one line per region:
   index, nanoseconds, count. */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 199309L
#endif
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static __thread long long polyopt_tune_started[POLYOPT_TUNE_REGIONS + 1];
static long long polyopt_tune_elapsed[POLYOPT_TUNE_REGIONS + 1];
static long long polyopt_tune_count[POLYOPT_TUNE_REGIONS + 1];

static long long polyopt_tune_now(void)
{
  struct timespec now;
  clock_gettime(CLOCK_MONOTONIC, &now);
  return (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
}

void polyopt_tune_enter(int region)
{
  polyopt_tune_started[region] = polyopt_tune_now();
}

void polyopt_tune_leave(int region)
{
  __atomic_add_fetch(&polyopt_tune_elapsed[region], polyopt_tune_now() - polyopt_tune_started[region],
                     __ATOMIC_RELAXED);
  __atomic_add_fetch(&polyopt_tune_count[region], 1, __ATOMIC_RELAXED);
}

__attribute__((destructor)) static void polyopt_tune_write(void)
{
  const char *name = getenv(POLYOPT_TUNE_VARIABLE);
  FILE *file = name ? fopen(name, "w") : NULL;
  if (!file)
    return;
  for (int region = 1; region <= POLYOPT_TUNE_REGIONS; region++)
    fprintf(file, "%d %lld %lld\\n", region, polyopt_tune_elapsed[region], polyopt_tune_count[region]);
  fclose(file);
}
"""


@dataclass(frozen=True)
class Variant:
    """One candidate code of a region: ``code`` None for the region as written; ``names``: the alternatives
    whose code this is (identical code is one variant)."""

    names: tuple[str, ...]
    code: RegionCode | None

    @property
    def summary(self) -> str:
        return self.code.summary if self.code is not None else AS_WRITTEN


@dataclass(frozen=True)
class RegionVariants:
    """A region and its variants, the first one as written."""

    region: Region
    variants: tuple[Variant, ...]


def variants_of(
    regions: Sequence[Region], outcomes: Sequence[tuple[str, Sequence[RegionOutcome]]]
) -> tuple[RegionVariants, ...]:
    """Each region's variants: as written, then the code of each named alternative's outcomes (the region
    outcomes of one run of polyopt, in file order), identical code (and helpers) once under all its names,
    and none that is the region's own text (the variant as written)."""
    found: list[RegionVariants] = []
    for position, region in enumerate(regions):
        named: dict[tuple[str, frozenset[str]], Variant] = {}
        for name, regions_outcomes in outcomes:
            code = regions_outcomes[position].code
            if code is None or (code.code == region.text and not code.helpers):
                continue
            key = (code.code, code.helpers)
            earlier = named.get(key)
            named[key] = Variant((*earlier.names, name), earlier.code) if earlier else Variant((name,), code)
        found.append(RegionVariants(region, (Variant((AS_WRITTEN,), None), *named.values())))
    return tuple(found)


@dataclass(frozen=True)
class Program:
    """One instrumented build: the variant each region runs (``picks``, by region position) and the positions
    of the regions it times (``timed``: those whose variant this program is the one to time)."""

    picks: tuple[int, ...]
    timed: frozenset[int]

    @property
    def name(self) -> str:
        return "program-" + "-".join(map(str, self.picks))


def programs(variants: Sequence[RegionVariants]) -> tuple[Program, ...]:
    """Program k: variant k of each region that has one (timed there), as written elsewhere; program 0
    runs every region as written."""
    count = max((len(region.variants) for region in variants), default=1)
    return tuple(
        Program(
            tuple(k if k < len(region.variants) else 0 for region in variants),
            frozenset(r for r, region in enumerate(variants) if k < len(region.variants)),
        )
        for k in range(count)
    )


def isolated(program: Program) -> tuple[Program, ...]:
    """One program per region that ``program`` times: its variant there, every other region as written."""
    return tuple(
        Program(tuple(pick if r == timed else 0 for r, pick in enumerate(program.picks)), frozenset({timed}))
        for timed in sorted(program.timed)
    )


def _code(item: RegionVariants, pick: int, summary: str | None = None) -> RegionCode:
    """The replacement of ``item``'s region by its variant ``pick`` (the region's body when as written)."""
    region, code = item.region, item.variants[pick].code
    if code is None:
        return RegionCode(region, region.text, frozenset(), summary or AS_WRITTEN)
    return RegionCode(region, code.code, code.helpers, summary or code.summary)


def _newline(text: str) -> str:
    return "\r\n" if "\r\n" in text else "\n"


def instrumented(text: str, variants: Sequence[RegionVariants], program: Program) -> str:
    """``text`` with each region replaced by ``program``'s variant between a call that starts its timer and
    one that stops it (declared at the top; defined by ``timers_source``)."""
    newline = _newline(text)
    replacements = []
    for item, pick in zip(variants, program.picks, strict=True):
        code = _code(item, pick)
        index, indent = item.region.index, item.region.indent
        timed = f"{indent}{_ENTER}({index});\n{code.code.rstrip()}\n{indent}{_LEAVE}({index});\n"
        replacements.append(RegionCode(code.region, timed, code.helpers, code.summary))
    declarations = f"void {_ENTER}(int region);{newline}void {_LEAVE}(int region);{newline}"
    return declarations + splice(text, replacements, newline)


def timers_source(variants: Sequence[RegionVariants]) -> str:
    """The C file that defines the timer calls of ``instrumented`` and writes the times at exit."""
    regions = max((item.region.index for item in variants), default=0)
    return f'#define POLYOPT_TUNE_REGIONS {regions}\n#define POLYOPT_TUNE_VARIABLE "{TIMES_VARIABLE}"\n{TIMERS}'


@dataclass(frozen=True)
class VariantResult:
    """What was measured of one variant: its names and summary (``Variant``), the region's seconds in each
    timed run (summed over its executions in the run) and why it was rejected (None: its output was right)."""

    names: tuple[str, ...]
    summary: str
    seconds: tuple[float, ...]
    rejected: str | None = None

    @property
    def median(self) -> float | None:
        return statistics.median(self.seconds) if self.seconds and self.rejected is None else None


@dataclass(frozen=True)
class RegionChoice:
    """One region's measurements and choice: its index and line, each variant's result, the chosen variant
    (an index into ``variants``) and how often the region ran in one run of the program."""

    index: int
    line: int
    variants: tuple[VariantResult, ...]
    chosen: int
    executions: int


@dataclass(frozen=True)
class TuneResult:
    """The outcome of ``polyopt tune``: per region its choice, with the number of timed runs, the threads they
    ran with and the margin the code as written was kept by."""

    regions: tuple[RegionChoice, ...]
    runs: int
    threads: int
    margin: float

    def to_json(self) -> dict[str, Any]:
        return {
            "runs": self.runs,
            "threads": self.threads,
            "margin": self.margin,
            "regions": [
                {
                    "index": region.index,
                    "line": region.line,
                    "chosen": region.chosen,
                    "executions": region.executions,
                    "variants": [
                        {
                            "names": list(v.names),
                            "summary": v.summary,
                            "seconds": list(v.seconds),
                            "rejected": v.rejected,
                        }
                        for v in region.variants
                    ],
                }
                for region in self.regions
            ],
        }

    @staticmethod
    def from_json(data: Mapping[str, Any]) -> TuneResult:
        """The result ``to_json`` wrote; ``KeyError``/``TypeError``/``ValueError`` when ``data`` is not one."""
        regions = tuple(
            RegionChoice(
                int(region["index"]),
                int(region["line"]),
                tuple(
                    VariantResult(tuple(v["names"]), str(v["summary"]), tuple(map(float, v["seconds"])), v["rejected"])
                    for v in region["variants"]
                ),
                int(region["chosen"]),
                int(region["executions"]),
            )
            for region in data["regions"]
        )
        return TuneResult(regions, int(data["runs"]), int(data["threads"]), float(data["margin"]))


def choose(results: Sequence[VariantResult], margin: float) -> int:
    """The fastest correct variant (median time), when it beats the code as written (``results[0]``) by more
    than ``margin``; else the code as written (also when the region never ran)."""
    written = results[0].median
    timed = [(median, k) for k, result in enumerate(results) if (median := result.median) is not None]
    if written is None or not timed:
        return 0
    fastest, best = min(timed)
    return best if fastest < written * (1 - margin) else 0


def seconds_text(seconds: float) -> str:
    """A time for people: in s, ms or us, four significant digits or so."""
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    return f"{seconds * 1e6:.1f} us"


def _tune_summary(choice: RegionChoice) -> str:
    """The comment's note on a tuned region: the chosen variant's median time and the code as written's."""
    chosen, written = choice.variants[choice.chosen], choice.variants[0]
    if chosen.median is None or written.median is None:
        return "kept as written by polyopt tune: the region did not run"
    if choice.chosen == 0:
        others = [(v.median, v.names[0]) for v in choice.variants[1:] if v.median is not None]
        best = f", fastest other {min(others)[1]} {seconds_text(min(others)[0])}" if others else ""
        return f"kept as written by polyopt tune: {seconds_text(written.median)}{best}"
    names = ", ".join(chosen.names)
    return f"chosen by polyopt tune ({names}): {seconds_text(chosen.median)}, as written {seconds_text(written.median)}"


def composed(text: str, variants: Sequence[RegionVariants], result: TuneResult) -> str:
    """``text`` with each region that has variants other than as written replaced by its chosen variant, whose
    comment gives the measured times; a region polyopt kept as written stays untouched."""
    replacements = []
    for item, choice in zip(variants, result.regions, strict=True):
        if len(item.variants) > 1:
            written = choice.chosen == 0
            summary = (
                _tune_summary(choice) if written else f"{item.variants[choice.chosen].summary}; {_tune_summary(choice)}"
            )
            replacements.append(_code(item, choice.chosen, summary))
    return splice(text, replacements, _newline(text))


def describe(result: TuneResult) -> list[str]:
    """The report: per region, each variant's median time (or why it was rejected) and the choice."""
    lines = [
        f"{result.runs} timed run(s) of each program with OMP_NUM_THREADS={result.threads}; median times; the code "
        f"as written is kept unless a variant is faster by more than {result.margin:.0%}"
    ]
    for region in result.regions:
        lines.append(f"region {region.index} (line {region.line}), ran {region.executions} time(s) per run:")
        for k, variant in enumerate(region.variants):
            mark = "  <- chosen" if k == region.chosen else ""
            if variant.rejected is not None:
                measured = f"rejected: {variant.rejected.splitlines()[0]}"
            elif variant.median is None:
                measured = "not timed"
            else:
                measured = seconds_text(variant.median)
            lines.append(f"  {', '.join(variant.names)}: {measured}{mark}")
            if variant.summary != AS_WRITTEN:
                lines.append(f"    {variant.summary}")
    return lines
