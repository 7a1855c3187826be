"""What the window does to a whole note (app.note_operations): delete it to the trash (no question
asked: the notice that follows has Undo, and the Trash page keeps it 30 days), move it to another
project, re-transcribe it, and read or restore its earlier transcripts.

The timeline's context menu (and Delete on a selected note) and the note page's "Note" menu offer
the same actions; each runs as an operations change (ui/operations.py) and announces what it
changed, so the timeline, the sidebar's counts, the trash and the consolidation views redraw.
"""

from __future__ import annotations

from functools import partial
from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, Qt
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QMenu,
    QPushButton,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import note_operations, project_service, recording_service
from app.note_operations import TRASH_DAYS, TranscriptVersion, VersionSegment
from app.project_service import Project
from app.recording_service import Recording
from ui.format import clock, recording_title, short_date
from ui.operations import Change
from ui.pages.timeline_model import RECORDING_ROLE
from ui.pages.trash_page import TrashPage

if TYPE_CHECKING:
    from ui.shell import Shell

DELETED = {Change.TRASH, Change.RECORDINGS, Change.PROJECTS, Change.CONSOLIDATION, Change.CONNECTIONS}
MOVED = {Change.RECORDINGS, Change.PROJECTS, Change.CONSOLIDATION, Change.CONNECTIONS}
# (model setting, label) offered by the re-transcribe dialog; "" is the project's own choice
MODELS = (
    ("base", "Whisper base: multilingual, slower, fewer mistakes"),
    ("tiny.en", "Whisper tiny.en: English only, fast"),
)


def _lines(count: int) -> str:
    return f"{count} line{'s' if count != 1 else ''}"


class RetranscribeDialog(QDialog):
    """Which model, and what happens to the transcript there is now."""

    def __init__(
        self, recording: Recording, project: Project, vocabulary: list[str], parent: QWidget | None = None
    ) -> None:
        super().__init__(parent)
        self.setWindowTitle("Re-transcribe")
        current = project.transcription_model or "base"
        self.model = QComboBox()
        self.model.setAccessibleName("Transcription model")
        self.model.addItem(f"The project's model ({current})", "")
        for value, label in MODELS:
            self.model.addItem(label, value)
        terms = ", ".join(vocabulary) or "none yet"
        self.about = about = QLabel(
            f"<b>{escape(recording_title(recording))}</b> is transcribed again from its audio, with the"
            f" names the project knows now (yours from Settings → Projects, then the names its notes say):"
            f" {escape(terms)}.<br><br>The transcript it has now"
            f" (version {recording.transcript_version}) is kept word for word, with any edits you made, as an"
            " earlier version: you can read it and make it current again from the note's Transcripts."
        )
        about.setWordWrap(True)
        about.setTextFormat(Qt.TextFormat.RichText)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self.start_button = buttons.addButton("Re-transcribe", QDialogButtonBox.ButtonRole.AcceptRole)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        row = QHBoxLayout()
        row.addWidget(QLabel("Model:"))
        row.addWidget(self.model, 1)
        layout = QVBoxLayout(self)
        layout.addWidget(about)
        layout.addLayout(row)
        layout.addWidget(buttons)
        self.resize(520, 240)

    def chosen_model(self) -> str | None:
        return str(self.model.currentData()) or None


class VersionsDialog(QDialog):
    """A note's earlier transcripts: each one's words (edits marked), and "Make current"."""

    def __init__(
        self, recording: Recording, versions: list[TranscriptVersion], actions: NoteActions, parent: QWidget
    ) -> None:
        super().__init__(parent)
        self.recording, self.owner = recording, actions
        self.setWindowTitle(f"Transcripts of “{recording_title(recording)}”")
        self.list = QListWidget()
        self.list.setAccessibleName("Transcripts")
        self.list.setMaximumHeight(self.fontMetrics().height() * 6)
        now = QListWidgetItem(
            f"Version {recording.transcript_version}, current · {recording.model or 'imported'}"
            f" · {_lines(recording.segments)}"
        )
        now.setData(Qt.ItemDataRole.UserRole, None)
        self.list.addItem(now)
        for v in reversed(versions):
            item = QListWidgetItem(
                f"Version {v.version} · {v.model or 'imported'} · {_lines(v.segments)}"
                f" · replaced {short_date(v.replaced_at)} ({v.reason})"
            )
            item.setData(Qt.ItemDataRole.UserRole, v.version)
            self.list.addItem(item)
        self.text = QTextBrowser()
        self.text.setAccessibleName("Words of the chosen transcript")
        self.make_current = QPushButton("Make current")
        self.make_current.setAccessibleName("Make the chosen earlier transcript current again")
        self.make_current.clicked.connect(self.on_make_current)
        self.list.currentRowChanged.connect(self.on_row)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        buttons.addButton(self.make_current, QDialogButtonBox.ButtonRole.ActionRole)
        layout = QVBoxLayout(self)
        layout.addWidget(self.list)
        layout.addWidget(self.text, 1)
        layout.addWidget(buttons)
        self.resize(640, 480)
        self.list.setCurrentRow(1 if versions else 0)

    def chosen_version(self) -> int | None:
        item = self.list.currentItem()
        return None if item is None else item.data(Qt.ItemDataRole.UserRole)

    def on_row(self, _row: int) -> None:
        version = self.chosen_version()
        self.make_current.setEnabled(version is not None)
        rid = self.recording.id
        if version is None:
            self.owner.window.ops.query(
                lambda: recording_service.list_segments(self.owner.window.library, rid),
                finished=self.show_lines,
                label="current transcript",
            )
        else:
            self.owner.window.ops.query(
                lambda: note_operations.version_segments(self.owner.window.library, rid, version),
                finished=self.show_lines,
                label="earlier transcript",
            )

    def show_lines(self, lines: list[VersionSegment] | list[recording_service.Segment]) -> None:
        rows = []
        for s in lines:
            mark = " <i>(edited; raw words: " + escape(s.raw_text) + ")</i>" if s.edited else ""
            rows.append(f"<p><b>{clock(s.start)}</b> {escape(s.text)}{mark}</p>")
        self.text.setHtml("".join(rows) or "<p>No words.</p>")

    def on_make_current(self) -> None:
        version = self.chosen_version()
        if version is not None:
            self.owner.restore_transcript(self.recording, version)
            self.accept()


class NoteActions(QObject):
    def __init__(self, window: Shell) -> None:
        super().__init__(window)
        self.window = window
        self.trash_page = TrashPage(window.ops, window.library)
        window.stack.addWidget(self.trash_page)
        self.trash_page.back_requested.connect(window.show_timeline)
        self.trash_page.message.connect(window.show_status)
        self.trash_page.count_changed.connect(window.sidebar.set_trash_count)
        window.sidebar.trash_requested.connect(self.show_trash)
        view = window.timeline.view
        view.setContextMenuPolicy(Qt.ContextMenuPolicy.CustomContextMenu)
        view.customContextMenuRequested.connect(self.on_timeline_menu)
        view.installEventFilter(self)  # Delete on a selected note (a key press, not a shortcut: it
        # works whether or not the window is the active one, as Enter does in the list)
        window.recording_view.note_menu_requested.connect(self.on_note_page_menu)
        window.ops.changed.connect(self.on_ops_changed)
        self.dialog: QDialog | None = None
        # Notes 30 days in the trash are deleted for good at start-up (and by `verbatim trash`).
        window.ops.change(
            lambda: note_operations.purge_expired(window.library),
            changes={Change.TRASH},
            label="empty expired trash",
        )

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.window.timeline.view
            and event.type() == QEvent.Type.KeyPress
            and isinstance(event, QKeyEvent)
            and event.key() == Qt.Key.Key_Delete
            and event.modifiers() == Qt.KeyboardModifier.NoModifier
        ):
            self.delete_current()
            return True
        return super().eventFilter(watched, event)

    def on_ops_changed(self, changes: frozenset[Change]) -> None:
        if changes & {Change.TRASH, Change.RECORDINGS}:
            self.trash_page.reload()

    def show_trash(self) -> None:
        self.window.recording_view.player.stop()
        self.window.stack.setCurrentWidget(self.trash_page)
        self.trash_page.reload()
        self.trash_page.list.setFocus()

    # --- menus ---------------------------------------------------------------------------------------
    def menu_for(self, recording: Recording, parent: QWidget, *, with_open: bool) -> QMenu:
        menu = QMenu(parent)
        if with_open:
            menu.addAction("Open", lambda: self.window.open_recording(recording.id))
        move = menu.addMenu("Move to project")
        move.setObjectName("move-menu")
        for project in self.window.sidebar.loaded_projects():
            action = move.addAction(project.name, partial(self.move, recording, project.name))
            action.setEnabled(project.id != recording.project_id)
        move.setEnabled(not move.isEmpty())
        retranscribe = menu.addAction("Re-transcribe…", lambda: self.ask_retranscribe(recording))
        retranscribe.setEnabled(bool(recording.audio_path))
        menu.addAction("Transcripts…", lambda: self.show_versions(recording))
        menu.addSeparator()
        menu.addAction("Move to trash", lambda: self.delete(recording))
        return menu

    def on_timeline_menu(self, pos: QPoint) -> None:
        view = self.window.timeline.view
        recording = view.indexAt(pos).data(RECORDING_ROLE)
        if recording is None:
            return
        view.setCurrentIndex(view.indexAt(pos))
        self.menu = self.menu_for(recording, view, with_open=True)
        self.menu.popup(view.viewport().mapToGlobal(pos))

    def on_note_page_menu(self, recording: Recording, where: QPoint) -> None:
        self.menu = self.menu_for(recording, self.window.recording_view, with_open=False)
        self.menu.popup(where)

    def delete_current(self) -> None:
        recording = self.window.timeline.view.currentIndex().data(RECORDING_ROLE)
        if recording is not None:
            self.delete(recording)

    # --- the actions ---------------------------------------------------------------------------------
    def showing(self, recording_id: int) -> bool:
        """Whether the note page shows this note (it follows what is done to it)."""
        shown = self.window.recording_view.recording
        return shown is not None and shown.id == recording_id

    def delete(self, recording: Recording) -> None:
        """No question asked: the notice has Undo, and the note stays in the trash 30 days."""
        if self.showing(recording.id):
            self.window.show_timeline()

        def done(trashed: Recording) -> None:
            self.window.notices.show_notice(
                f"trashed:{trashed.id}",
                f"“{escape(recording_title(trashed))}” is in the trash;"
                f" it is deleted for good in {TRASH_DAYS} days.",
                action=("Undo", lambda: self.restore(trashed.id)),
            )
            self.window.show_status(f"Moved “{recording_title(trashed)}” to the trash.")

        self.window.ops.change(
            lambda: note_operations.delete_recording(self.window.library, recording.id),
            changes=DELETED,
            finished=done,
            label="move to trash",
        )

    def restore(self, recording_id: int) -> None:
        self.window.notices.dismiss(f"trashed:{recording_id}")
        self.trash_page.restore([recording_id])

    def move(self, recording: Recording, project: str) -> None:
        def done(moved: Recording) -> None:
            self.window.show_status(
                f"Moved “{recording_title(moved)}” to {moved.project}; it is searched there now, and"
                " consolidated again in the background."
            )
            self.window.background.wake_jobs()
            if self.showing(moved.id):
                self.window.recording_view.open_recording(moved.id)

        self.window.ops.change(
            lambda: note_operations.move_recording(self.window.library, recording.id, project),
            changes=MOVED,
            finished=done,
            label="move note",
        )

    def ask_retranscribe(self, recording: Recording) -> None:
        def open_dialog(found: tuple[Project, list[str]]) -> None:
            dialog = RetranscribeDialog(recording, *found, self.window)
            dialog.accepted.connect(lambda: self.retranscribe(recording, dialog.chosen_model()))
            self.dialog = dialog
            dialog.open()

        self.window.ops.query(
            lambda: (
                project_service.get_project(self.window.library, recording.project),
                note_operations.transcription_vocabulary(self.window.library, recording.id),
            ),
            finished=open_dialog,
            label="project for re-transcribing",
        )

    def retranscribe(self, recording: Recording, model: str | None) -> None:
        def done(_job: int) -> None:
            self.window.show_status(
                f"Re-transcription of “{recording_title(recording)}” queued;"
                " its earlier transcript is kept (Transcripts…)."
            )
            self.window.background.wake_jobs()
            if self.showing(recording.id):
                self.window.recording_view.open_recording(recording.id)

        self.window.ops.change(
            lambda: note_operations.retranscribe(self.window.library, recording.id, model=model),
            changes={Change.RECORDINGS, Change.SEGMENTS, Change.CONSOLIDATION},
            finished=done,
            label="re-transcribe",
        )

    def show_versions(self, recording: Recording) -> None:
        def open_dialog(found: tuple[Recording, list[TranscriptVersion]]) -> None:
            fresh, versions = found
            self.dialog = VersionsDialog(fresh, versions, self, self.window)
            self.dialog.open()

        rid = recording.id
        self.window.ops.query(
            lambda: (
                recording_service.get_recording(self.window.library, rid),
                note_operations.transcript_versions(self.window.library, rid),
            ),
            finished=open_dialog,
            label="transcripts",
        )

    def restore_transcript(self, recording: Recording, version: int) -> None:
        def done(fresh: Recording) -> None:
            self.window.show_status(
                f"Transcript {version} of “{recording_title(fresh)}” is current again;"
                " the one it replaced is kept."
            )
            self.window.background.wake_jobs()
            if self.showing(fresh.id):
                self.window.recording_view.open_recording(fresh.id)

        self.window.ops.change(
            lambda: note_operations.restore_transcript(self.window.library, recording.id, version),
            changes={Change.RECORDINGS, Change.SEGMENTS, Change.CONSOLIDATION},
            finished=done,
            label="restore transcript",
        )
