"""The core runs without Qt, the layers only import downwards, no module imports itself in a circle,
private names stay in their module, and the product never imports its measurement tooling."""

from __future__ import annotations

import ast
import functools
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import REPO

CORE = ("app", "bench", "capture", "memory", "models")
PACKAGES = ("app", "bench", "capture", "memory", "models", "ui")


@pytest.mark.slow
def test_importing_the_core_does_not_import_qt() -> None:
    modules = [p for pkg in CORE for p in sorted((REPO / pkg).rglob("*.py"))]
    names = [".".join(p.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__") for p in modules]
    code = (
        "import sys, importlib\n"
        f"for name in {names!r}:\n"
        "    importlib.import_module(name)\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'ui'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, check=True
    )
    assert result.stdout.strip() == "", f"core imported: {result.stdout}"


@functools.cache
def _tree(path: Path) -> ast.Module:
    """Each file parsed once per run: the checks below walk the same trees."""
    return ast.parse(path.read_text("utf-8"))


def _imports(path: Path) -> set[str]:
    tree = _tree(path)
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


# What each package may import from the project's own packages. bench/ is tooling beside the
# product (like tests/): it may use the core, and nothing in the product may import it.
ALLOWED = {
    "models": {"models"},
    "memory": {"memory", "models"},
    "capture": {"capture", "memory", "models"},
    "app": {"app", "capture", "memory", "models"},
    "ui": {"ui", "app", "models"},
    "bench": {"bench", "app", "capture", "memory", "models"},
}


def test_layers_import_only_downwards() -> None:
    own = set(ALLOWED)
    problems = []
    for package, allowed in ALLOWED.items():
        for path in sorted((REPO / package).rglob("*.py")):
            bad = (_imports(path) & own) - allowed
            if bad:
                problems.append(f"{path.relative_to(REPO)} imports {sorted(bad)}")
    assert not problems, "\n".join(problems)


def test_sql_lives_only_in_memory() -> None:
    import re

    # A SELECT with any column list up to its FROM inside one string, and every other statement.
    pattern = re.compile(
        r"\b(SELECT\b[^\"'\n]*\bFROM|INSERT INTO|UPDATE \w+ SET|DELETE FROM"
        r"|CREATE (TABLE|VIRTUAL|INDEX|TRIGGER)|PRAGMA \w+)\b"
    )
    offenders = [
        str(path.relative_to(REPO))
        for package in ("app", "capture", "models", "ui")
        for path in (REPO / package).rglob("*.py")
        if pattern.search(path.read_text("utf-8"))
    ]
    assert not offenders, offenders


# --- the import graph, function-level and TYPE_CHECKING imports included ---------------------------


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(REPO).with_suffix("").parts).removesuffix(".__init__")


def _project_modules() -> dict[str, Path]:
    return {_module_name(p): p for package in PACKAGES for p in sorted((REPO / package).rglob("*.py"))}


def _import_edges(modules: dict[str, Path]) -> dict[str, set[str]]:
    """module -> the project modules it imports. `from a.b import c` is an edge to a.b.c when that
    is a module, else to a.b."""

    def resolve(name: str) -> str | None:
        parts = name.split(".")
        for end in range(len(parts), 0, -1):
            candidate = ".".join(parts[:end])
            if candidate in modules:
                return candidate
        return None

    edges: dict[str, set[str]] = {}
    for name, path in modules.items():
        found: set[str | None] = set()
        for node in ast.walk(_tree(path)):
            if isinstance(node, ast.Import):
                found.update(resolve(alias.name) for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found.update(resolve(f"{node.module}.{alias.name}") for alias in node.names)
        edges[name] = {m for m in found if m is not None and m != name}
    return edges


@functools.cache
def _project_edges() -> dict[str, set[str]]:
    """The project's import graph, read once per run (three tests walk it)."""
    return _import_edges(_project_modules())


def _circles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), iteratively."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: list[list[str]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def test_circles_are_found() -> None:
    edges = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": set()}
    assert _circles(edges) == [["a", "b", "c"]]


def test_no_import_circles() -> None:
    circles = _circles(_project_edges())
    assert not circles, "import circles:\n" + "\n".join(" -> ".join(c) for c in circles)


# memory's sub-packages in the order they may import each other: each only from those before it.
MEMORY_ORDER = ("memory.store", "memory.text", "memory.search", "memory.consolidate", "memory.answer")


def test_memory_subpackages_import_in_order() -> None:
    def rank(module: str) -> int | None:
        return next((i for i, p in enumerate(MEMORY_ORDER) if module.startswith(p + ".")), None)

    problems = []
    for name, targets in _project_edges().items():
        here = rank(name)
        for target in targets:
            there = rank(target)
            if here is not None and there is not None and there > here:
                problems.append(f"{name} imports {target}")
    assert not problems, "\n".join(sorted(problems))


def _private_imports(path: Path) -> list[str]:
    """`from x import _name` and `module._name` of a project module, in one product file."""
    tree = _tree(path)
    own = set(PACKAGES)
    bound: set[str] = set()
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] in own:
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__"):
                    found.append(f"{node.lineno}: from {node.module} import {alias.name}")
                bound.add(alias.asname or alias.name)
        elif isinstance(node, ast.Import):
            bound.update(a.asname or a.name for a in node.names if a.name.split(".")[0] in own)
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in bound
            and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ):
            found.append(f"{node.lineno}: {node.value.id}.{node.attr}")
    return found


def test_private_names_stay_in_their_module() -> None:
    problems = [
        f"{path.relative_to(REPO)}:{line}"
        for path in _project_modules().values()
        for line in _private_imports(path)
    ]
    assert not problems, "\n".join(problems)


def test_the_product_never_imports_its_tooling() -> None:
    """bench/ (benchmarks, evals) and ui/dev/ (screenshots, demo notes, start-time bench) are beside
    the product: no product module imports them, at any level."""
    problems = []
    for name, targets in _project_edges().items():
        if name.startswith(("bench", "ui.dev")):
            continue
        problems += [f"{name} imports {t}" for t in targets if t.startswith(("bench", "ui.dev"))]
    assert not problems, "\n".join(sorted(problems))
