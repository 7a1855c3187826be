"""Application entry: QApplication, the main window, the event loop."""

from __future__ import annotations

import argparse
import sys

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal
from PySide6.QtWidgets import (
    QApplication,
    QLabel,
    QListWidget,
    QMainWindow,
    QSplitter,
    QVBoxLayout,
    QWidget,
)

from app.library import Library
from app.model_status import all_model_status
from app.projects import list_projects


class _Signals(QObject):
    finished = Signal(object)


class _StatusJob(QRunnable):
    """Checks the models off the UI thread: hashing 400 MB takes a second or two."""

    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self.signals = _Signals()

    def run(self) -> None:
        statuses = all_model_status(self.library, verify=True, load=False)
        self.signals.finished.emit(statuses)


class MainWindow(QMainWindow):
    def __init__(self, library: Library) -> None:
        super().__init__()
        self.library = library
        self.setWindowTitle("Verbatim")
        self.resize(900, 560)
        self.projects = QListWidget()
        self.projects.setAccessibleName("Projects")
        self.models = QLabel("Checking models…")
        self.models.setWordWrap(True)
        right = QWidget()
        layout = QVBoxLayout(right)
        layout.addWidget(QLabel("<b>Models</b>"))
        layout.addWidget(self.models)
        layout.addStretch(1)
        splitter = QSplitter()
        splitter.addWidget(self.projects)
        splitter.addWidget(right)
        self.setCentralWidget(splitter)
        self.refresh_projects()
        job = _StatusJob(library)
        job.signals.finished.connect(self.on_status_job_finished)
        QThreadPool.globalInstance().start(job)

    def refresh_projects(self) -> None:
        self.projects.clear()
        self.projects.addItem("All projects")
        for project in list_projects(self.library):
            self.projects.addItem(f"{project.name}  ({project.recordings})")

    def on_status_job_finished(self, statuses: list) -> None:
        lines = []
        for s in statuses:
            ok = s.present and s.sha256_verified
            lines.append(f"{'✔' if ok else '✘'} {s.role}: {s.name}" + ("" if ok else f" — {s.problem}"))
        self.models.setText("<br>".join(lines))


def run_app(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="verbatim app")
    parser.add_argument("--data-dir")
    args, qt_args = parser.parse_known_args(argv)
    app = QApplication([sys.argv[0], *qt_args])
    library = Library.open(args.data_dir)
    window = MainWindow(library)
    window.show()
    code = app.exec()
    library.close()
    return int(code)
