"""One recording: its raw transcript with times and speakers, synced playback, edits as versions.

Clicking a line (or Enter on it) plays from there; while playing, the line being spoken is marked
and kept in view. F2 or a double-click edits a line: the edit is saved as a new version through
app.edits and the raw words stay one toggle away ("Show raw words"). Beside it, what background
consolidation found in the note (ui/pages/consolidation_view.py): facts, self-corrections, connections.
"""

from __future__ import annotations

from PySide6.QtCore import QItemSelectionModel, QModelIndex, QPoint, Qt, QTimer, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QDialog,
    QDialogButtonBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableView,
    QTextBrowser,
    QVBoxLayout,
    QWidget,
)

from app import edits as edit_service
from app import recording_service
from app.edits import SegmentVersion
from app.library import Library
from app.recording_service import ACTIVE_STATUSES, Recording, RecordingId, Segment
from ui.format import recording_length, recording_status, recording_title, short_date, status_text
from ui.operations import Change, Operations
from ui.pages.consolidation_view import LayersPanel
from ui.pages.transcript_model import SEGMENT_ROLE, SPEAKER, TEXT, TIME, TranscriptModel
from ui.theme import heading_font
from ui.widgets.player import PlayerBar

POLL_MS = 2000
SOURCES = {
    "microphone": "recorded here",
    "import": "imported",
    "watch": "from a watched folder",
    "transcript": "imported transcript",
}


class TranscriptTable(QTableView):
    """Enter plays the selected line; F2 edits it."""

    play_requested = Signal(int)  # row

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if (
            event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter)
            and self.state() != QAbstractItemView.State.EditingState
        ) and self.currentIndex().isValid():
            self.play_requested.emit(self.currentIndex().row())
            return
        if event.key() == Qt.Key.Key_F2 and self.currentIndex().isValid():
            self.edit(self.model().index(self.currentIndex().row(), TEXT))
            return
        super().keyPressEvent(event)


class RecordingView(QWidget):
    back_requested = Signal()
    message = Signal(str)
    open_requested = Signal(int, float)  # another recording, from a connection's quote
    note_menu_requested = Signal(object, QPoint)  # (Recording, where): move, re-transcribe, trash

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.recording: Recording | None = None
        self._pending_seconds: float | None = None
        self._generation = 0
        self.back_button = QPushButton("← Timeline")
        self.back_button.setAccessibleName("Back to the timeline")
        self.back_button.setToolTip("Back to the timeline (Alt+Left)")
        self.back_button.setShortcut("Alt+Left")
        self.back_button.clicked.connect(self.back_requested.emit)
        self.title = QLabel()
        self.title.setFont(heading_font(self.font(), scale=1.35))
        self.title.setWordWrap(True)
        self.title.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.meta = QLabel()
        self.meta.setAccessibleName("About this note")
        self.meta.setWordWrap(True)
        self.show_raw = QCheckBox("Show raw words")
        self.show_raw.setAccessibleName("Show the raw transcript instead of edits")
        self.show_raw.setToolTip("The raw transcript never changes; edits are kept as versions beside it")
        self.show_raw.toggled.connect(self.on_show_raw_toggled)
        self.note_button = QPushButton("Note ▾")
        self.note_button.setAccessibleName(
            "Note actions: move to a project, re-transcribe, transcripts, trash"
        )
        self.note_button.clicked.connect(self.on_note_button_clicked)
        self.versions_button = QPushButton("Versions…")
        self.versions_button.setAccessibleName("Show every version of the selected line")
        self.versions_button.clicked.connect(self.show_versions)
        self.player = PlayerBar()
        self.player.position_changed.connect(self.on_player_position_changed)
        self.player.problem_found.connect(self.message.emit)
        self.no_audio = QLabel()
        self.no_audio.setWordWrap(True)
        self.model = TranscriptModel(self)
        self.model.edit_requested.connect(self.save_edit)
        self.table = self._make_table()
        self.empty = QLabel()
        self.empty.setWordWrap(True)
        self.empty.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.side = self._make_side_panel()
        self._layout()
        self.poll = QTimer(self)
        self.poll.setInterval(POLL_MS)
        self.poll.timeout.connect(self.refresh_if_active)

    def _make_table(self) -> TranscriptTable:
        table = TranscriptTable()
        table.setModel(self.model)
        table.setAccessibleName("Transcript")
        table.setAccessibleDescription("Enter or click plays from a line; F2 edits it.")
        table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        # A click plays from the line; editing is F2 (TranscriptTable.keyPressEvent) only: a
        # double-click opened the editor on a line its first click had just started playing.
        table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        table.setWordWrap(True)
        table.setShowGrid(False)
        table.setAlternatingRowColors(True)
        table.verticalHeader().hide()
        header = table.horizontalHeader()
        header.setSectionResizeMode(TIME, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(SPEAKER, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(TEXT, QHeaderView.ResizeMode.Stretch)
        table.verticalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        table.clicked.connect(self.on_table_clicked)
        table.play_requested.connect(self.play_row)
        return table

    def _make_side_panel(self) -> LayersPanel:
        panel = LayersPanel(self.ops, self.library)
        panel.open_requested.connect(self.on_layers_open_requested)
        panel.message.connect(self.message.emit)
        return panel

    def on_layers_open_requested(self, recording_id: int, seconds: float) -> None:
        if self.recording is not None and recording_id == self.recording.id:
            self.go_to(seconds, play=self.player.path is not None)
        else:
            self.open_requested.emit(recording_id, seconds)

    def _layout(self) -> None:
        top = QHBoxLayout()
        top.addWidget(self.back_button)
        top.addStretch(1)
        top.addWidget(self.show_raw)
        top.addWidget(self.versions_button)
        top.addWidget(self.note_button)
        centre = QWidget()
        centre_layout = QVBoxLayout(centre)
        centre_layout.setContentsMargins(0, 0, 0, 0)
        centre_layout.addWidget(self.player)
        centre_layout.addWidget(self.no_audio)
        centre_layout.addWidget(self.empty)
        centre_layout.addWidget(self.table, 1)
        splitter = QSplitter()
        splitter.addWidget(centre)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        splitter.setSizes([540, 360])  # in proportion: the layers need room for two quotes and buttons
        splitter.setChildrenCollapsible(False)
        layout = QVBoxLayout(self)
        layout.addLayout(top)
        layout.addWidget(self.title)
        layout.addWidget(self.meta)
        layout.addWidget(splitter, 1)
        self.setTabOrder(self.back_button, self.show_raw)
        self.setTabOrder(self.show_raw, self.versions_button)
        self.setTabOrder(self.versions_button, self.player.play_button)
        self.setTabOrder(self.player.play_button, self.player.slider)
        self.setTabOrder(self.player.slider, self.table)

    def on_note_button_clicked(self) -> None:
        if self.recording is not None:
            self.note_menu_requested.emit(
                self.recording, self.note_button.mapToGlobal(self.note_button.rect().bottomLeft())
            )

    # --- opening -----------------------------------------------------------------------------------
    def open_recording(self, recording_id: RecordingId, *, at: float | None = None) -> None:
        """Show a recording; with `at`, play from that second and mark the line said then."""
        self._generation += 1
        generation = self._generation
        self._pending_seconds = at
        self.player.stop()

        def read() -> tuple[Recording, list[Segment], object]:
            recording = recording_service.get_recording(self.library, recording_id)
            segments = recording_service.list_segments(self.library, recording_id)
            return recording, segments, recording_service.audio_file(self.library, recording)

        def arrived(result: tuple[Recording, list[Segment], object]) -> None:
            if generation == self._generation:
                self.show_loaded(*result)

        self.ops.query(read, finished=arrived, label="open recording")

    def show_loaded(self, recording: Recording, segments: list[Segment], audio: object) -> None:
        previous = self.recording
        same = previous is not None and previous.id == recording.id
        if previous is None or not same or previous.status != recording.status:
            self.side.show_recording(recording.id)  # new note, or its consolidation may have moved on
        self.recording = recording
        self.title.setText(recording_title(recording))
        self._show_meta(recording)
        if not same or self.player.path != audio:
            self.player.load(audio)  # type: ignore[arg-type]
        self.no_audio.setVisible(audio is None)
        self.player.setVisible(audio is not None)
        self.no_audio.setText(
            "No audio to play: this note was imported as a transcript."
            if recording.source == "transcript" or not recording.audio_path
            else "The audio file of this note is missing from the data folder."
        )
        self.model.set_segments(segments)
        self.table.setColumnHidden(SPEAKER, not any(s.speaker for s in segments))
        self._show_empty_state(recording, segments)
        self.poll.start() if recording.status in ACTIVE_STATUSES else self.poll.stop()
        if self._pending_seconds is not None:
            seconds, self._pending_seconds = self._pending_seconds, None
            self.go_to(seconds, play=audio is not None)
        elif segments:
            self.table.selectRow(0)
        self.table.setFocus()

    def _show_meta(self, recording: Recording) -> None:
        parts = [recording.project, short_date(recording.spoken_at)]
        parts.append(recording_length(recording))
        parts.append(recording_status(recording))
        parts.append(SOURCES.get(recording.source, recording.source))
        if recording.recovered:
            parts.append("recovered after an interruption")
        self.meta.setText(" · ".join(p for p in parts if p))

    def _show_empty_state(self, recording: Recording, segments: list[Segment]) -> None:
        if segments:
            self.empty.hide()
            return
        if recording.status == "failed":
            text = f"Transcription failed: {recording.status_message or 'no reason was given'}."
        elif recording.status in ACTIVE_STATUSES:
            text = (
                status_text(recording.status, recording.progress)
                + "… the transcript appears here as it comes."
            )
        else:
            text = "No words were found in this recording."
        self.empty.setText(text)
        self.empty.show()

    def refresh_if_active(self) -> None:
        if self.recording is None or self.recording.status not in ACTIVE_STATUSES:
            self.poll.stop()
            return
        generation = self._generation
        recording_id = self.recording.id

        def read() -> tuple[Recording, list[Segment], object]:
            recording = recording_service.get_recording(self.library, recording_id)
            return (
                recording,
                recording_service.list_segments(self.library, recording_id),
                (recording_service.audio_file(self.library, recording)),
            )

        def arrived(result: tuple[Recording, list[Segment], object]) -> None:
            if generation == self._generation and self.table.state() != QAbstractItemView.State.EditingState:
                self.show_loaded(*result)

        self.ops.query(read, finished=arrived, label="refresh recording")

    # --- playback ------------------------------------------------------------------------------------
    def go_to(self, seconds: float, *, play: bool = True) -> None:
        row = self.model.row_at(seconds)
        if row is not None:
            self.model.set_current(row)
            # the line being played is marked by the model (▶, bold, tint); keep the keyboard's place
            # there without a selection, whose colour would hide the mark
            self.table.clearSelection()
            self.table.selectionModel().setCurrentIndex(
                self.model.index(row, TEXT), QItemSelectionModel.SelectionFlag.NoUpdate
            )
            self.table.scrollTo(self.model.index(row, TEXT), QAbstractItemView.ScrollHint.PositionAtCenter)
        self.player.play_from(seconds, play=play)

    def play_row(self, row: int) -> None:
        segment: Segment = self.model.index(row, 0).data(SEGMENT_ROLE)
        self.go_to(segment.start)

    def on_table_clicked(self, index: QModelIndex) -> None:
        if self.player.path is not None:
            self.play_row(index.row())

    def on_player_position_changed(self, seconds: float) -> None:
        row = self.model.row_at(seconds)
        if self.model.set_current(row) and row is not None:
            self.table.scrollTo(self.model.index(row, TEXT), QAbstractItemView.ScrollHint.EnsureVisible)

    def current_segment(self) -> Segment | None:
        row = self.model.current_row
        return self.model.segments[row] if row is not None and row < len(self.model.segments) else None

    # --- edits ---------------------------------------------------------------------------------------
    def on_show_raw_toggled(self, on: bool) -> None:
        self.model.set_show_raw(on)

    def save_edit(self, segment_id: int, text: str) -> None:
        self.ops.change(
            lambda: edit_service.save_edit(self.library, segment_id, text),
            changes={Change.SEGMENTS},
            finished=self.on_edit_saved,
            label="save edit",
        )

    def on_edit_saved(self, segment: Segment) -> None:
        self.model.replace_segment(segment)
        self.message.emit("Edit saved as a new version; the raw words are kept.")

    def show_versions(self) -> None:
        index = self.table.currentIndex()
        if not index.isValid():
            self.message.emit("Select a line to see its versions.")
            return
        segment: Segment = self.model.index(index.row(), 0).data(SEGMENT_ROLE)
        self.ops.query(
            lambda: edit_service.edit_history(self.library, segment.id),
            finished=self._show_versions_dialog,
            label="edit history",
        )

    def _show_versions_dialog(self, versions: list[SegmentVersion]) -> None:
        dialog = QDialog(self)
        dialog.setWindowTitle("Versions of this line")
        browser = QTextBrowser()
        browser.setAccessibleName("Versions")
        items = []
        for v in versions:
            label = (
                "Raw words (as transcribed)"
                if v.is_raw
                else f"Version {v.version}, {short_date(v.created_at)}"
            )
            items.append(f"<p><b>{label}</b><br>{_escape(v.text)}</p>")
        browser.setHtml("".join(items))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(dialog.reject)
        layout = QVBoxLayout(dialog)
        layout.addWidget(browser)
        layout.addWidget(buttons)
        dialog.resize(520, 320)
        dialog.open()


def _escape(text: str) -> str:
    from html import escape

    return escape(text)
