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

__all__ = ["MainWindow", "TerminateRequest", "run_app"]


def run_app(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="verbatim-app")
    parser.add_argument(
        "--data-dir", help="library folder (default: $VERBATIM_DATA_DIR or the user data folder)"
    )
    parser.add_argument("--theme", choices=("system", "light", "dark"), default="system")
    args, qt_args = parser.parse_known_args(argv)
    app = QApplication([sys.argv[0], *qt_args])
    terminate = TerminateRequest(app)  # before the library opens: a SIGTERM during start is kept
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
    terminate.close(window)
    code = app.exec()
    library.close()
    return int(code)


class TerminateRequest:
    """SIGTERM (a logout, `kill`, a package's smoke test) closes the window as the user would:
    a recording stops and is kept, background work winds down, and the exit code is 0.

    The handler is installed as soon as Qt is up, before the library opens: a SIGTERM that comes
    while the library opens or the window is built (the default action would kill the process
    there) is kept, and the window closes as soon as it is shown."""

    def __init__(self, app: QApplication) -> None:
        self.window: MainWindow | None = None
        self.asked = False
        if sys.platform == "win32":
            return
        signal.signal(signal.SIGTERM, lambda *_: self._asked())
        # Python runs signal handlers only between bytecodes: wake it while Qt's loop waits.
        wake = QTimer(app)
        wake.timeout.connect(lambda: None)
        wake.start(300)

    def _asked(self) -> None:
        self.asked = True
        if self.window is not None:
            QTimer.singleShot(0, self.window.close)

    def close(self, window: MainWindow) -> None:
        """From now on a SIGTERM closes `window`; one that came during start closes it now."""
        self.window = window
        if self.asked:
            QTimer.singleShot(0, window.close)
