"""Application entry: QApplication, theme, the main window, the event loop."""

from __future__ import annotations

import argparse
import sys

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
    code = app.exec()
    library.close()
    return int(code)
