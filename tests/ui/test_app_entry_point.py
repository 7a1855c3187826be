"""The installed `verbatim-app` console script, as a user starts it: its arguments reach the app.

The script calls `ui.launch.main()` with no arguments; `--data-dir` and `--theme` were once dropped
there and the default library opened instead of the one asked for (a data risk).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any, cast

import pytest

from tests.support.waiting import wait_until

SCRIPT = Path(sys.executable).parent / "verbatim-app"
START_S = 90.0  # a cold Qt and library start on 2 busy cores


def _environment(tmp_path: Path) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        QT_QPA_PLATFORM="offscreen",
        VERBATIM_DATA_DIR=str(tmp_path / "default-library"),  # where a dropped --data-dir would lead
        XDG_CONFIG_HOME=str(tmp_path / "config"),
        XDG_DATA_HOME=str(tmp_path / "data"),
    )
    return env


@pytest.mark.slow
def test_the_console_script_opens_the_library_given_by_data_dir(tmp_path: Path) -> None:
    if not SCRIPT.exists():
        pytest.fail(f"{SCRIPT} is missing: install the project (make install)")
    chosen = tmp_path / "chosen-library"
    app = subprocess.Popen(
        [str(SCRIPT), "--data-dir", str(chosen), "--theme", "dark"],
        env=_environment(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until(
            (chosen / "verbatim.db").exists,
            "the app to open the library given by --data-dir",
            timeout=START_S,
            process=app,
        )
    finally:
        app.send_signal(signal.SIGTERM)  # closes the window as the user would
        _, err = app.communicate(timeout=60)
    assert app.returncode == 0, err.decode()
    assert not (tmp_path / "default-library").exists()


@pytest.mark.slow
def test_the_console_script_refuses_an_unknown_theme_instead_of_ignoring_it(tmp_path: Path) -> None:
    result = subprocess.run(
        [str(SCRIPT), "--theme", "purple", "--data-dir", str(tmp_path / "lib")],
        env=_environment(tmp_path),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 2 and "invalid choice" in result.stderr
    assert not (tmp_path / "default-library").exists()


def test_a_sigterm_during_start_closes_the_window_once_it_is_shown(qtbot: Any) -> None:
    """The console-script test above once sent SIGTERM after the library file appeared but before
    the window was built, and the default action killed the app (exit -15): the handler is now in
    place as soon as Qt is up, and a SIGTERM that came during start closes the window when shown."""
    from PySide6.QtWidgets import QApplication, QWidget

    from ui.main import TerminateRequest

    before = signal.getsignal(signal.SIGTERM)
    try:
        request = TerminateRequest(cast(QApplication, QApplication.instance()))
        os.kill(os.getpid(), signal.SIGTERM)  # while the library opens: no window yet
        qtbot.waitUntil(lambda: request.asked, timeout=5000)
        window = QWidget()
        qtbot.addWidget(window)
        window.show()
        request.close(cast(Any, window))
        qtbot.waitUntil(lambda: not window.isVisible(), timeout=5000)
    finally:
        signal.signal(signal.SIGTERM, before)
