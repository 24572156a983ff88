"""Pluto's ``polycc`` flags on polyopt's command line: each is ignored with one warning where it changes
nothing about the code polyopt writes, or a usage error that says what polyopt does instead.

Public: ``PlutoFlag``, ``PLUTO_GROUPS``, ``PLUTO_FLAGS``, ``without_pluto_flags``, ``ignored_warning``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import click

from polyopt.diagnostics import format_message


@dataclass(frozen=True)
class PlutoFlag:
    """A flag of Pluto's ``polycc`` that polyopt has no option for: ``ignored`` (with one warning),
    or a usage error; ``instead`` says what polyopt does; ``value``: it takes a value."""

    ignored: bool
    instead: str
    value: bool


# Pluto's other flags: ignored where they change nothing about the code polyopt writes (output,
# solvers, dependence testers, code generator settings, or what polyopt does anyway), rejected where
# they ask for a transformation or an input that polyopt does not have.  A trailing '=' takes a value.
PLUTO_GROUPS: tuple[tuple[bool, str, tuple[str, ...]], ...] = (
    (
        True,
        "polyopt prints only warnings; --report prints its decisions",
        ("--silent", "-q", "--debug", "--moredebug", "--time"),
    ),
    (True, "polyopt's output is indented", ("--indent", "-i")),
    (True, "polyopt reads C with its own front end", ("--pet",)),
    (
        True,
        "polyopt computes exact dependences with isl",
        (
            "--isldep",
            "--candldep",
            "--isldepaccesswise",
            "--isldepstmtwise",
            "--isldepcoalesce",
            "--lastwriter",
            "--nolastwriter",
            "--nodepbound",
            "--rar",
        ),
    ),
    (
        True,
        "polyopt schedules with isl's scheduler and its own cost models",
        (
            "--islsolve",
            "--pipsolve",
            "--glpk",
            "--gurobi",
            "--lp",
            "--dfp",
            "--ilp",
            "--lpcolor",
            "--clusterscc",
            "--flic",
            "--fast-lin-ind-check",
            "--per-cc-obj",
            "--coeff-bound=",
        ),
    ),
    (
        True,
        "polyopt generates code with isl's AST generator",
        ("--cloogsh", "--nocloogbacktrack", "--cloogf=", "--cloogl=", "--codegen-context="),
    ),
    (True, "polyopt marks vector loops itself (omp simd) where they are legal", ("--prevector", "--noprevector")),
    (True, "polyopt orders the loops inside tiles by its own cost model", ("--intratileopt", "--nointratileopt")),
    (True, "polyopt's tile-size model chooses the tile sizes unless --tile-sizes is given", ("--determine-tile-size",)),
    (True, "polyopt neither unrolls nor diamond-tiles", ("--nounroll", "--nounrolljam", "--nodiamond-tile")),
    (True, "polyopt expands scalars that serialize loops (--no-expand turns it off)", ("--scalpriv",)),
    (
        False,
        "polyopt does not unroll; leave it to the C compiler (-funroll-loops)",
        ("--unroll", "--unrolljam", "--ufactor="),
    ),
    (False, "polyopt does not split index sets", ("--iss",)),
    (
        False,
        "polyopt does not diamond-tile; stencils get wavefront (time-skewed) tiles",
        ("--diamond-tile", "--full-diamond-tile"),
    ),
    (False, "choose the fusion with --fuse=model|smart|max|none", ("--typedfuse", "--hybridfuse", "--delayedcut")),
    (
        False,
        "polyopt marks the outermost loops it proves parallel (--noparallel for none)",
        ("--innerpar", "--multipar", "--forceparallel="),
    ),
    (False, "polyopt tiles every permutable band: use --notile, or --tile-sizes", ("--ft=", "--lt=")),
    (
        False,
        "give the machine with --l1, --l2, --l3 or --target; element sizes come from the declared types",
        ("--cache-size=", "--data-element-size="),
    ),
    (False, "polyopt reads C files with '#pragma scop' regions, not scoplib files", ("--readscop",)),
    (False, "polyopt does not write Bee+Cl@k pragmas", ("--bee",)),
)
PLUTO_FLAGS = {
    name.rstrip("="): PlutoFlag(ignored, instead, name.endswith("="))
    for ignored, instead, names in PLUTO_GROUPS
    for name in names
}


def without_pluto_flags(ctx: click.Context, args: list[str]) -> tuple[list[str], tuple[str, ...]]:
    """``args`` without the Pluto flags that polyopt ignores (and their values), and those flags;
    a usage error naming a rejected one."""
    kept: list[str] = []
    ignored: list[str] = []
    tokens: Iterator[str] = iter(args)
    for arg in tokens:
        if arg == "--":
            kept.extend([arg, *tokens])
            break
        name, equals, _ = arg.partition("=")
        flag = PLUTO_FLAGS.get(name)
        if flag is None or (equals and not flag.value):
            kept.append(arg)
        elif not flag.ignored:
            raise click.UsageError(f"Pluto's option '{name}' is not supported: {flag.instead}.", ctx)
        else:
            if flag.value and not equals:
                next(tokens, None)
            ignored.append(name)
    return kept, tuple(dict.fromkeys(ignored))


def ignored_warning(ignored: Sequence[str]) -> str:
    """The one warning naming the Pluto flags that polyopt ignores, and what it does instead."""
    named = "; ".join(f"{name} ({PLUTO_FLAGS[name].instead})" for name in ignored)
    return format_message(None, "warning", f"ignoring Pluto's options {named}")
