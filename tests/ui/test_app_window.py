"""The desktop entry point: a real window offscreen, and a clear message with no display."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow  # a real window (it warms the models up) and `make run` in a child process


def test_window_shows_projects(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from app.project_service import add_project
    from ui.main import MainWindow

    add_project(library, "Harbourline")
    window = MainWindow(library)
    qtbot.addWidget(window)
    window.show()

    def texts() -> list[str]:
        return [window.projects.item(i).text() for i in range(window.projects.count())]

    qtbot.waitUntil(lambda: len(texts()) == 2, timeout=10_000)  # loaded off the main thread
    assert texts()[0] == "All projects" and texts()[1].startswith("Harbourline")
    window.close()
    qtbot.waitUntil(window.ops.is_idle, timeout=10_000)


def test_make_run_without_display_explains_and_shows_the_cli() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    result = subprocess.run(
        [sys.executable, "-m", "ui.launch"], capture_output=True, text=True, env=env, cwd=REPO, timeout=60
    )
    assert result.returncode == 0
    assert "No display found" in result.stdout and "verbatim COMMAND" in result.stdout
    assert "projects" in result.stdout  # the CLI's command list follows
    assert "PySide6" not in result.stderr
