"""What every test area shares: each test gets its own library folder (data_dir, library), the
provisioned models are shared read-only, an in-memory store, the session's virtual microphone, and
the checks that fail (models, tools) or skip (evaluation sets) cleanly.

Areas, each with its own conftest.py saying what it may use: unit/ (in memory, pure), integration/
(real files, models, audio, CLI processes), faults/ (kills, full disks, bad folders, hostile input),
ui/ (pytest-qt, offscreen). Tests that start a process, load a real model or run real audio, and
the few that take over a second of CPU, are marked `slow`; `make test-fast` runs the rest.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
from hypothesis import settings

# Resolve the shared models folder from the caller's environment before tests change it:
# `make test` provisions the shipped models there once.
from app.paths import DataDir

MODELS_DIR = DataDir.resolve().models_dir
EVAL_DIR = Path(__file__).resolve().parents[1].parent / "shared" / "eval"
REPO = Path(__file__).resolve().parents[1]

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")  # ui/ and the bundle test in integration/

# Property tests assert what happens, never how long an example takes: no per-example deadline
# (Hypothesis's default fails an example slower than 200 ms, which a busy machine makes flaky).
settings.register_profile("verbatim", deadline=None)
settings.load_profile("verbatim")

if TYPE_CHECKING:
    from tests.support.audio_helpers import VirtualMicrophone


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


@pytest.fixture(scope="session")
def virtual_microphone(tmp_path_factory: pytest.TempPathFactory) -> Iterator[VirtualMicrophone]:
    """A private PulseAudio server whose default input hears what `.play()` plays (recording tests in
    integration/, faults/ and ui/); started once, on first use."""
    from tests.support.audio_helpers import virtual_microphone_server

    with virtual_microphone_server(tmp_path_factory.mktemp("pulse")) as microphone:
        yield microphone


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
