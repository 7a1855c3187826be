"""Settings → Data folder: where everything lives, and choosing another folder for the next start."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QUrl
from PySide6.QtGui import QDesktopServices
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget

from app import paths
from app.library import Library
from models.errors import VerbatimError


class DataFolderTab(QWidget):
    def __init__(
        self, library: Library, say: Callable[[str], None], failed: Callable[[BaseException], None]
    ) -> None:
        super().__init__()
        self._say, self._failed = say, failed
        self.root = library.data_dir.root
        path = QLineEdit(str(self.root))
        path.setReadOnly(True)
        path.setAccessibleName("Data folder")
        open_button = QPushButton("Open folder")
        open_button.setAccessibleName("Open the data folder")
        open_button.clicked.connect(lambda: QDesktopServices.openUrl(QUrl.fromLocalFile(str(self.root))))
        choose = QPushButton("Use another folder…")
        choose.setAccessibleName("Choose another data folder for the next start")
        choose.clicked.connect(self._pick)
        default = QPushButton("Back to the default folder")
        default.setAccessibleName("Use the default data folder from the next start")
        default.clicked.connect(lambda: self.choose(None))
        row = QHBoxLayout()
        row.addWidget(path, 1)
        row.addWidget(open_button)
        choices = QHBoxLayout()
        choices.addWidget(choose)
        choices.addWidget(default)
        choices.addStretch(1)
        explain = QLabel(
            "Everything lives in this one folder: the database, your audio, models and logs. Back it up "
            "as a whole. Another folder takes effect at the next start; this library stays where it is "
            "(to bring it along: <code>verbatim backup --out FILE</code>, then <code>verbatim restore "
            "FILE --into NEW_FOLDER</code>). <code>--data-dir</code> and <code>VERBATIM_DATA_DIR</code> "
            "still come first."
        )
        explain.setWordWrap(True)
        self.next_start = QLabel()
        self.next_start.setWordWrap(True)
        self.next_start.setAccessibleName("Data folder at the next start")
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addLayout(choices)
        layout.addWidget(self.next_start)
        layout.addWidget(explain)
        layout.addStretch(1)
        self._show_next()

    def _pick(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Data folder for Verbatim", str(self.root.parent))
        if folder:
            self.choose(folder)

    def choose(self, folder: str | None) -> None:
        """Remember `folder` (None: the default) for the next start, or say why it cannot be used."""
        try:
            chosen = paths.choose_data_root(folder)
        except VerbatimError as exc:
            self._failed(exc)
            return
        self._show_next()
        where = chosen or paths.default_data_root()
        self._say(f"Verbatim will open {where} at the next start.")

    def _show_next(self) -> None:
        upcoming = paths.chosen_data_root() or paths.default_data_root()
        same = Path(upcoming).resolve() == self.root
        self.next_start.setText("" if same else f"At the next start: <b>{upcoming}</b>")
