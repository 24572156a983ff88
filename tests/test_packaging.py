"""The distribution lists every package of the source tree: an installed polyopt is the whole of it; and no
module of polyopt imports, at module level or inside a function, a module that imports it back, nor does any
folder of polyopt (a subpackage, or a module at the top) import one that imports it back."""

from __future__ import annotations

import ast
import configparser
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _listed() -> set[str]:
    config = configparser.ConfigParser()
    config.read(ROOT / "setup.cfg")
    return set(config["options"]["packages"].split())


def test_setup_cfg_lists_every_package_of_the_source_tree() -> None:
    found = {".".join(init.parent.relative_to(ROOT).parts) for init in (ROOT / "polyopt").rglob("__init__.py")}

    assert found <= _listed(), f"missing from setup.cfg's packages: {sorted(found - _listed())}"


def _modules() -> dict[str, Path]:
    """Every module of polyopt by its dotted name (a package by its own name, for its ``__init__.py``)."""
    modules = {}
    for path in (ROOT / "polyopt").rglob("*.py"):
        parts = path.relative_to(ROOT).with_suffix("").parts
        modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return modules


def _imported(node: ast.Import | ast.ImportFrom, package: str) -> Iterator[str]:
    """The dotted names an import statement of a module in ``package`` reads: ``from a.b import c`` reads
    ``a.b.c`` when that is a module, else ``a.b``."""
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    base = node.module or ""
    if node.level:
        parent = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parent, base] if base else parent)
    yield base
    yield from (f"{base}.{alias.name}" for alias in node.names)


def _import_graph() -> dict[str, set[str]]:
    """For each module of polyopt, the other modules of polyopt it imports anywhere in its text."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        graph[name] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import | ast.ImportFrom):
                graph[name] |= _read_modules(set(_imported(node, package)), modules) - {name}
    return graph


def _read_modules(dotted: set[str], modules: dict[str, Path]) -> set[str]:
    """The modules among one statement's ``dotted`` names: a package only when none of its modules is named."""
    found = dotted & modules.keys()
    return {module for module in found if not any(other.startswith(module + ".") for other in found)}


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as the list of its modules (the first one again at the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for imported in sorted(graph[module]):
            found = visit(imported)
            if found is not None:
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(graph):
        found = visit(module)
        if found is not None:
            return found
    return None


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}

    assert _cycle(graph) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def test_no_module_of_polyopt_imports_itself_back() -> None:
    graph = _import_graph()

    assert {"polyopt.__main__", "polyopt.command", "polyopt.cli.flags"} <= set(graph)
    assert "polyopt.command" in graph["polyopt.__main__"]
    assert _cycle(graph) is None


def _folder(module: str) -> str:
    """The folder of polyopt that holds ``module``: its subpackage at the top (``polyopt.passes``), else itself."""
    return ".".join(module.split(".")[:2])


def test_no_folder_of_polyopt_imports_itself_back() -> None:
    folders: dict[str, set[str]] = {}
    for module, imported in _import_graph().items():
        folders.setdefault(_folder(module), set()).update(_folder(other) for other in imported)
    graph = {folder: imported - {folder} for folder, imported in folders.items()}

    assert "polyopt.driver" in graph["polyopt.measure"]  # the probe runs the optimizer: it stands above it
    assert _cycle(graph) is None
