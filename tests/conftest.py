"""Every test gets its own library folder; the provisioned models are shared (read-only)."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

# Resolve the shared models folder from the caller's environment before tests change it:
# `make test` provisions the shipped models there once.
from app.paths import DataDir

MODELS_DIR = DataDir.resolve().models_dir
EVAL_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "eval"
REPO = Path(__file__).resolve().parents[1]

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@pytest.fixture(autouse=True)
def _isolated_library(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    data = tmp_path / "library"
    monkeypatch.setenv("VERBATIM_DATA_DIR", str(data))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))  # a chosen data folder stays in the test
    monkeypatch.setenv("VERBATIM_MODELS_DIR", str(MODELS_DIR))
    yield data


@pytest.fixture
def data_dir(_isolated_library: Path) -> DataDir:
    return DataDir.resolve()


@pytest.fixture
def library(data_dir: DataDir):  # type: ignore[no-untyped-def]
    from app.library import Library

    lib = Library(data_dir)
    yield lib
    lib.close()


@pytest.fixture
def store():  # type: ignore[no-untyped-def]
    from memory.store.store import Store

    s = Store(":memory:")
    yield s
    s.close()


def eval_set(name: str) -> Path:
    """A set of ../shared/eval, or skip the test cleanly when it is absent."""
    path = EVAL_DIR / name
    if not (path / "corpus.jsonl").is_file() and not (path / "manifest.tsv").is_file():
        pytest.skip(f"evaluation set {name} not found at {path}")
    return path


def require_models() -> None:
    from models.catalogue import SHIPPED
    from models.provision import is_provisioned

    missing = [m.name for m in SHIPPED.values() if not is_provisioned(m, MODELS_DIR, verify=False)]
    if missing:
        pytest.fail(f"models not provisioned in {MODELS_DIR}: {missing}; run 'make install'")


def require_tool(name: str) -> str:
    found = shutil.which(name)
    if not found:
        pytest.fail(f"{name} is not installed; run 'make install' (packaging/setup/system-deps.sh)")
    return found
