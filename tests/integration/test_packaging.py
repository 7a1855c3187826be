"""What the desktop bundle relies on, tested in the source tree: the model weights found inside a
frozen bundle (sys._MEIPASS), and a bundle's first start setting its models up with progress.

The bundle itself is built and smoke-tested by `make package` and packaging/smoke_test.sh (CI:
`.ci/run --package`), not here: building it takes minutes.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from models.catalogue import SHIPPED, SMOLLM2, package_dir, shipped_path, source_path
from models.provision import is_provisioned, provision_model
from tests.conftest import MODELS_DIR, require_models
from tests.support.ui_helpers import WAIT_MS


def _bundle_with(tmp_path: Path, packages: tuple[str, ...]) -> Path:
    """A stand-in for a bundle's _internal folder: the model packages as plain folders."""
    bundle = tmp_path / "_internal"
    bundle.mkdir()
    for name in packages:
        (bundle / name).symlink_to(package_dir(name), target_is_directory=True)
    return bundle


def test_a_frozen_bundle_reads_the_weights_it_carries(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    bundle = _bundle_with(tmp_path, SMOLLM2.packages)
    monkeypatch.setattr(sys, "_MEIPASS", str(bundle), raising=False)
    relative = next(iter(SMOLLM2.sources))
    assert source_path(relative) == bundle / relative
    models = tmp_path / "models"
    assert provision_model(SMOLLM2, models)  # copied and checked against the pinned sha256
    assert is_provisioned(SMOLLM2, models)


def _models_without_chat(tmp_path: Path) -> Path:
    """Every shipped model but the chat model, linked from the shared folder (nothing copied)."""
    models = tmp_path / "models"
    models.mkdir()
    for model in SHIPPED.values():
        if model is not SMOLLM2:
            os.symlink(shipped_path(model, MODELS_DIR), shipped_path(model, models))
    return models


@pytest.mark.slow
def test_a_bundle_sets_up_missing_models_on_first_start_with_progress(  # type: ignore[no-untyped-def]
    tmp_path: Path, monkeypatch, qtbot
) -> None:
    require_models()
    from app.library import Library
    from app.paths import DataDir
    from ui.window import MainWindow

    models = _models_without_chat(tmp_path)
    monkeypatch.setenv("VERBATIM_MODELS_DIR", str(models))
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    library = Library(DataDir.resolve())
    win = MainWindow(library, background=False)
    qtbot.addWidget(win)
    shown: list[tuple[float | None, str]] = []
    show_progress = win.welcome.show_setup_progress

    def record(fraction: float | None, message: str) -> None:
        shown.append((fraction, message))
        show_progress(fraction, message)

    monkeypatch.setattr(win.welcome, "show_setup_progress", record)
    win.show()
    qtbot.waitUntil(lambda: win.welcome.setup_progress.isVisibleTo(win.welcome), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: is_provisioned(SMOLLM2, models, verify=False), timeout=60_000)
    qtbot.waitUntil(lambda: not win.welcome.setup_progress.isVisibleTo(win.welcome), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: win.readiness is not None and not win.readiness.missing_models, timeout=WAIT_MS)
    assert is_provisioned(SMOLLM2, models)  # the real file, checked against its pinned sha256
    assert "models" not in win.notices.notices  # set up without asking, so no "Set up models" notice
    assert any(f is not None and SMOLLM2.name in message for f, message in shown)  # what it writes
    assert shown[-1] == (None, "")  # and the bar goes away when done
    win.close()
    qtbot.waitUntil(win.ops.is_idle, timeout=WAIT_MS)
    library.close()
