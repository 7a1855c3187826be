"""The core runs without Qt, and the layers only import downwards."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

from tests.conftest import REPO

CORE = ("app", "capture", "memory", "models")


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


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


# What each package may import from the project's own packages.
ALLOWED = {
    "models": {"models"},
    "memory": {"memory", "models"},
    "capture": {"capture", "memory", "models"},
    "app": {"app", "capture", "memory", "models"},
    "ui": {"ui", "app", "models"},
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
