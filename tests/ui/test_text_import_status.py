"""A note imported as text is never transcribed: while it is made searchable the window says so,
with no transcription wait and no "length" made up from a reading pace.

Seen in use: a 60 MB .txt showed "Waiting to transcribe · 1291 h 31 min" (its synthetic duration at
2.5 words a second, next to a status it never has), which read as a transcription ETA.
"""

from __future__ import annotations

from datetime import datetime

from PySide6.QtCore import Qt

from memory.store import projects, recordings
from tests.support.ui_helpers import WAIT_MS


def _text_note_being_indexed(library, name: str) -> int:  # type: ignore[no-untyped-def]
    """A text import as it stands while its indexing runs: segments stored, status queued."""
    store = library.store
    project = projects.add_project(store, "Scratch").id
    rid = recordings.create_recording(
        store,
        project_id=project,
        spoken_at=datetime.now().replace(microsecond=0).isoformat(),
        source="transcript",
        status="queued",
        title="Huge export",
        source_name=name,
        duration=4_648_260.0,  # 11.6 million words at 2.5 words a second
    )
    recordings.append_segments(
        store, rid, [recordings.SegmentIn(start=0.0, end=4.0, text="The phase one budget was agreed.")]
    )
    return rid


def test_a_text_import_shows_no_transcription_nor_its_length(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.background.stop()  # start-up indexing would finish the note before the test reads it
    rid = _text_note_being_indexed(window.library, "huge.txt")
    window.timeline_model.reload()
    qtbot.waitUntil(lambda: rid in window.timeline_model.row_of_id, timeout=WAIT_MS)
    model = window.timeline_model
    said = model.data(model.index(model.row_for(rid)), Qt.ItemDataRole.AccessibleTextRole)
    assert "Being made searchable" in said
    assert "transcribe" not in said.lower() and "1291 h" not in said
    window.open_recording(rid)
    qtbot.waitUntil(lambda: "Being made searchable" in window.recording_view.meta.text(), timeout=WAIT_MS)
    assert " h " not in window.recording_view.meta.text()


def test_a_subtitle_import_keeps_its_real_length(qtbot, window) -> None:  # type: ignore[no-untyped-def]
    window.background.stop()
    rid = _text_note_being_indexed(window.library, "meeting.srt")  # cue times are real times
    window.timeline_model.reload()
    qtbot.waitUntil(lambda: rid in window.timeline_model.row_of_id, timeout=WAIT_MS)
    model = window.timeline_model
    said = model.data(model.index(model.row_for(rid)), Qt.ItemDataRole.AccessibleTextRole)
    assert "1291 h 11 min" in said and "Being made searchable" in said
