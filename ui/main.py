"""Application entry: QApplication, theme, the main window, the event loop."""

from __future__ import annotations

import argparse
import signal
import sys

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication

from app.library import Library
from app.logging_setup import setup_logging
from ui.theme import apply_theme, follow_system
from ui.window import MainWindow

__all__ = ["MainWindow", "run_app"]


def run_app(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="verbatim-app")
    parser.add_argument(
        "--data-dir", help="library folder (default: $VERBATIM_DATA_DIR or the user data folder)"
    )
    parser.add_argument("--theme", choices=("system", "light", "dark"), default="system")
    args, qt_args = parser.parse_known_args(argv)
    app = QApplication([sys.argv[0], *qt_args])
    app.setApplicationName("Verbatim")
    app.setDesktopFileName("verbatim")
    dark = {"system": None, "light": False, "dark": True}[args.theme]
    apply_theme(app, dark=dark)
    if dark is None:
        follow_system(app)
    library = Library.open(args.data_dir)
    setup_logging(library.data_dir.logs_dir)
    window = MainWindow(library)
    window.show()
    close_on_terminate(app, window)
    code = app.exec()
    library.close()
    return int(code)


def close_on_terminate(app: QApplication, window: MainWindow) -> None:
    """SIGTERM (a logout, `kill`, a package's smoke test) closes the window as the user would:
    a recording stops and is kept, background work winds down, and the exit code is 0."""
    if sys.platform == "win32":
        return
    signal.signal(signal.SIGTERM, lambda *_: QTimer.singleShot(0, window.close))
    # Python runs signal handlers only between bytecodes: wake it while Qt's loop waits.
    wake = QTimer(app)
    wake.timeout.connect(lambda: None)
    wake.start(300)
