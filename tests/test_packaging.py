"""The distribution lists every package of the source tree: an installed polyopt is the whole of it."""

from __future__ import annotations

import configparser
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _listed() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    return set(config["options"]["packages"].split())


def test_setup_cfg_lists_every_package_of_the_source_tree() -> None:
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "polyopt").rglob("__init__.py")}

    assert found <= _listed(), f"missing from setup.cfg's packages: {sorted(found - _listed())}"
