"""The trash: deleted notes, kept 30 days, each with the day it goes for good; restore any of them, or
empty the trash (the one step that asks first: it cannot be undone)."""

from __future__ import annotations

from datetime import date

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMessageBox,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app import note_operations
from app.library import Library
from app.note_operations import TRASH_DAYS, TrashedNote
from ui.format import parse_store_time, recording_title
from ui.operations import Change, Operations
from ui.theme import heading_font

ID_ROLE = Qt.ItemDataRole.UserRole


def _day(text: str) -> str:
    when = parse_store_time(text)
    return f"{when.day} {when:%b %Y}" if when else ""


def describe(note: TrashedNote, today: date) -> str:
    """'Hartwell · spoken 2 Mar 2026 · deleted 25 Nov 2026 · gone for good on 25 Dec 2026 (in 30 days)'."""
    rec = note.recording
    left = (date.fromisoformat(note.purge_on) - today).days
    when = "today" if left <= 0 else ("tomorrow" if left == 1 else f"in {left} days")
    return (
        f"{rec.project} · spoken {_day(rec.spoken_at)} · deleted {_day(note.trashed_at)}"
        f" · gone for good on {_day(note.purge_on)} ({when})"
    )


class TrashPage(QWidget):
    back_requested = Signal()
    count_changed = Signal(int)
    message = Signal(str)

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.notes: list[TrashedNote] = []
        self.back_button = QPushButton("← Timeline")
        self.back_button.setAccessibleName("Back to the timeline")
        self.back_button.clicked.connect(self.back_requested.emit)
        heading = QLabel("Trash")
        heading.setFont(heading_font(self.font(), scale=1.35))
        self.explanation = QLabel(
            f"Deleted notes stay here for {TRASH_DAYS} days, out of search, answers and digests; then"
            " they are deleted for good with their audio. Restore puts a note back in its project."
        )
        self.explanation.setWordWrap(True)
        self.list = QListWidget()
        self.list.setAccessibleName("Notes in the trash")
        self.list.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        self.list.setWordWrap(True)
        self.list.setSpacing(2)
        self.list.itemSelectionChanged.connect(self._update_buttons)
        self.list.itemActivated.connect(lambda _item: self.restore_selected())
        self.empty_label = QLabel("The trash is empty.")
        self.empty_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.restore_button = QPushButton("Restore")
        self.restore_button.setAccessibleName("Restore the selected notes")
        self.restore_button.clicked.connect(self.restore_selected)
        self.empty_button = QPushButton("Empty trash…")
        self.empty_button.setAccessibleName("Delete every note in the trash for good")
        self.empty_button.clicked.connect(self.confirm_empty)
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addStretch(1)
        buttons = QHBoxLayout()
        buttons.addWidget(self.restore_button)
        buttons.addStretch(1)
        buttons.addWidget(self.empty_button)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(heading)
        layout.addWidget(self.explanation)
        layout.addWidget(self.empty_label)
        layout.addWidget(self.list, 1)
        layout.addLayout(buttons)
        self._update_buttons()

    # --- loading -------------------------------------------------------------------------------------
    def reload(self) -> None:
        self.ops.query(
            lambda: note_operations.list_trash(self.library), finished=self.show_notes, label="trash"
        )

    def show_notes(self, notes: list[TrashedNote]) -> None:
        selected = set(self.selected_ids())
        self.notes = notes
        self.list.clear()
        today = date.today()
        for note in notes:
            title = recording_title(note.recording)
            detail = describe(note, today)
            item = QListWidgetItem(f"{title}\n{detail}")
            item.setData(ID_ROLE, note.recording.id)
            item.setData(Qt.ItemDataRole.AccessibleTextRole, f"{title}, {detail}")
            self.list.addItem(item)
            item.setSelected(note.recording.id in selected)
        if notes and not self.list.selectedItems():
            self.list.setCurrentRow(0)
        self.empty_label.setVisible(not notes)
        self.list.setVisible(bool(notes))
        self._update_buttons()
        self.count_changed.emit(len(notes))

    def selected_ids(self) -> list[int]:
        return [int(item.data(ID_ROLE)) for item in self.list.selectedItems()]

    def _update_buttons(self) -> None:
        self.restore_button.setEnabled(bool(self.list.selectedItems()))
        self.empty_button.setEnabled(bool(self.notes))

    # --- restore and empty ---------------------------------------------------------------------------
    def restore_selected(self) -> None:
        ids = self.selected_ids()
        if ids:
            self.restore(ids)

    def restore(self, ids: list[int]) -> None:
        def run() -> list[str]:
            return [recording_title(note_operations.restore_recording(self.library, rid)) for rid in ids]

        def done(titles: list[str]) -> None:
            what = f"“{titles[0]}”" if len(titles) == 1 else f"{len(titles)} notes"
            self.message.emit(f"Restored {what}: back in the timeline and in search.")

        self.ops.change(
            run,
            changes={Change.TRASH, Change.RECORDINGS, Change.PROJECTS, Change.CONSOLIDATION},
            finished=done,
            label="restore from the trash",
        )

    def confirm_empty(self) -> None:
        count = len(self.notes)
        answer = QMessageBox.question(
            self,
            "Empty the trash",
            f"Delete {count} note{'s' if count != 1 else ''} for good, with their audio?"
            " This cannot be undone.",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Cancel,
            QMessageBox.StandardButton.Cancel,
        )
        if answer == QMessageBox.StandardButton.Yes:
            self.empty()

    def empty(self) -> None:
        def done(gone: list[int]) -> None:
            self.message.emit(f"Deleted {len(gone)} note{'s' if len(gone) != 1 else ''} for good.")

        self.ops.change(
            lambda: note_operations.empty_trash(self.library),
            changes={Change.TRASH},
            finished=done,
            label="empty the trash",
        )
