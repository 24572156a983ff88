"""Tests for Pluto's ``polycc`` spellings on the ``polyopt`` command: accepted, mapped, ignored or rejected."""

from __future__ import annotations

from pathlib import Path

import pytest

from polyopt.command import options_from_arguments
from tests.cli.test_cli import run
from tests.support import EXAMPLES, working_copy


@pytest.fixture
def gemm(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The example gemm.c and its header in a fresh current folder."""
    return working_copy([EXAMPLES / "gemm.c", EXAMPLES / "polybench_lite.h"], tmp_path, monkeypatch)


def test_a_pluto_makefile_line_works_unchanged(gemm: Path) -> None:
    pluto = run("gemm.c", "--tile", "--parallel", "-o", "out.c")
    plain = run("gemm.c", "-o", "plain.c")

    assert (pluto.exit_code, pluto.stderr) == (0, "")
    assert (plain.exit_code, plain.stderr) == (0, "")
    assert (gemm.parent / "out.c").read_text() == (gemm.parent / "plain.c").read_text()


@pytest.mark.parametrize(
    ("pluto", "policy"), [(["--smartfuse"], "smart"), (["--maxfuse"], "max"), (["--nofuse"], "none"), ([], "model")]
)
def test_pluto_fusion_flags_are_fuse_policies(pluto: list[str], policy: str) -> None:
    assert options_from_arguments(pluto).fusion == policy


def test_pluto_flags_that_polyopt_has_mean_the_same() -> None:
    assert options_from_arguments(["--second-level-tile"]) == options_from_arguments(["--l2tile"])
    assert options_from_arguments(["--tile", "--parallelize"]) == options_from_arguments([])
    assert options_from_arguments(["--maxfuse", "--fuse=max"]).fusion == "max"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--tile", "--notile"], "'--tile' and '--notile' cannot be given together"),
        (["--parallel", "--noparallel"], "'--parallel' and '--noparallel' cannot be given together"),
        (["--parallelize", "--identity"], "'--parallel' and '--identity' cannot be given together"),
        (["--maxfuse", "--nofuse"], "'--maxfuse' and '--nofuse' cannot be given together"),
        (["--smartfuse", "--fuse=none"], "'--smartfuse' and '--fuse=none' cannot be given together"),
    ],
)
def test_conflicting_flags_are_a_usage_error(gemm: Path, flags: list[str], message: str) -> None:
    result = run("gemm.c", *flags, "-o", "out.c")

    assert result.exit_code == 2, result.stderr
    assert message in result.stderr and "Traceback" not in result.stderr
    assert not (gemm.parent / "out.c").exists()


def test_harmless_pluto_flags_are_ignored_with_one_warning_naming_them(gemm: Path) -> None:
    result = run(
        "gemm.c", "--silent", "--indent", "--noprevector", "--cloogf", "2", "--codegen-context=4", "-o", "out.c"
    )
    plain = run("gemm.c", "-o", "plain.c")

    assert result.exit_code == 0, result.stderr
    (warning,) = result.stderr.splitlines()
    assert warning.startswith("polyopt: warning: ignoring Pluto's options --silent (")
    for flag in ("--indent", "--noprevector", "--cloogf", "--codegen-context"):
        assert f"; {flag} (" in warning
    assert (gemm.parent / "out.c").read_text() == (gemm.parent / "plain.c").read_text()
    assert plain.stderr == ""


@pytest.mark.parametrize(
    ("flags", "named", "instead"),
    [
        (["--unroll"], "--unroll", "-funroll-loops"),
        (["--ufactor=8"], "--ufactor", "-funroll-loops"),
        (["--iss"], "--iss", "does not split index sets"),
        (["--diamond-tile"], "--diamond-tile", "wavefront"),
        (["--typedfuse"], "--typedfuse", "--fuse=model|smart|max|none"),
        (["--cache-size", "32768"], "--cache-size", "--l1, --l2, --l3 or --target"),
        (["--readscop"], "--readscop", "not scoplib files"),
    ],
)
def test_pluto_flags_polyopt_cannot_honour_are_rejected_with_what_it_does_instead(
    gemm: Path, flags: list[str], named: str, instead: str
) -> None:
    result = run("gemm.c", "--tile", *flags, "-o", "out.c")

    assert result.exit_code == 2, result.stderr
    assert f"Pluto's option '{named}' is not supported" in result.stderr and instead in result.stderr
    assert "Traceback" not in result.stderr and not (gemm.parent / "out.c").exists()


def test_an_unknown_flag_is_clicks_usage_error(gemm: Path) -> None:
    result = run("gemm.c", "--no-such-flag", "-o", "out.c")

    assert result.exit_code == 2
    assert "No such option '--no-such-flag'" in result.stderr and "Traceback" not in result.stderr


def test_a_tile_sizes_file_in_the_current_folder_is_used_and_reported(gemm: Path) -> None:
    (gemm.parent / "tile.sizes").write_text("16\n8\n\n64\n")

    found = run("gemm.c", "--tile", "--parallel", "-o", "out.c", "--report")
    given = run("gemm.c", "--tile-sizes", "4,4,4", "-o", "given.c", "--report")

    assert options_from_arguments([]).tiling.sizes == (16, 8, 64)
    assert options_from_arguments(["--tile-sizes", "4,4,4"]).tiling.sizes == (4, 4, 4)
    assert options_from_arguments(["--notile"]).tiling.sizes == ()
    assert found.exit_code == 0, found.stderr
    assert "tile sizes: 16,8,64 from the file tile.sizes in the current folder" in found.stderr
    assert "sizes [16, 8, 64]" in found.stderr
    assert "tile.sizes" not in given.stderr and "sizes [4, 4, 4]" in given.stderr


def test_without_a_tile_sizes_file_the_model_chooses(gemm: Path) -> None:
    assert options_from_arguments(["--tile"]).tiling.sizes == ()
