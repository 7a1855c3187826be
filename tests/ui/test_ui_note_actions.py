"""A whole note in the window: Delete (no question; Undo in the notice), the Trash page (restore,
empty), Move to project and Re-transcribe from the timeline's context menu, earlier transcripts."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QMenu, QMessageBox

from app.ingest.imports import import_corpus, import_files
from app.project_service import add_project, set_project_options
from memory.store import note_ops, recordings
from memory.store.jobs import open_job
from tests.conftest import require_models
from tests.support.audio_helpers import speech_file
from tests.support.ui_helpers import WAIT_MS, idle, note, write_corpus
from ui.pages.timeline_model import RECORDING_ROLE

pytestmark = pytest.mark.slow  # the real window loads the embedding model; one test transcribes


def _notes(library, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "Oakridge")
    corpus = write_corpus(
        tmp_path / "notes.jsonl",
        [
            note(
                "h1",
                "Hartwell",
                "2026-03-02T09:00:00",
                ["The phase one budget is 40,000 pounds."],
                title="Budget",
            ),
            note(
                "s1",
                "Scratch",
                "2026-03-03T09:00:00",
                ["The warehouse uses Redis for caching."],
                title="Cache",
            ),
        ],
    )
    assert {r.status for r in import_corpus(library, corpus)} == {"imported"}


def _ids(window) -> set[int]:  # type: ignore[no-untyped-def]
    return set(window.timeline_model.row_of_id)


def _select(window, qtbot, recording_id: int) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: recording_id in _ids(window), timeout=WAIT_MS)
    row = window.timeline_model.row_for(recording_id)
    window.timeline.view.setCurrentIndex(window.timeline_model.index(row))


def _action(menu: QMenu, text: str):  # type: ignore[no-untyped-def]
    for action in menu.actions():
        if action.text() == text:
            return action
        if action.menu() is not None and (found := _action(action.menu(), text)) is not None:
            return found
    return None


def test_delete_undo_and_the_trash_page(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _notes(library, tmp_path)
    window.timeline_model.reload()
    [cache] = [r.id for r in recordings.list_recordings(library.store) if r.title == "Cache"]
    _select(window, qtbot, cache)
    window.timeline.view.setFocus()
    qtbot.keyClick(window.timeline.view, Qt.Key.Key_Delete)  # no question asked
    qtbot.waitUntil(lambda: cache not in _ids(window), timeout=WAIT_MS)
    notice = window.notices.notices[f"trashed:{cache}"]
    assert "“Cache” is in the trash" in notice.accessibleName() and notice.action_button.text() == "Undo"
    qtbot.waitUntil(lambda: window.sidebar.trash_button.text() == "Trash · 1", timeout=WAIT_MS)
    idle(qtbot, window)
    scratch = [
        window.projects.item(i)
        for i in range(window.projects.count())
        if window.projects.item(i).text() == "Scratch"
    ]
    assert "0 notes" in scratch[0].data(Qt.ItemDataRole.UserRole + 1)

    notice.action_button.click()  # Undo
    qtbot.waitUntil(lambda: cache in _ids(window), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: window.sidebar.trash_button.text() == "Trash", timeout=WAIT_MS)
    assert f"trashed:{cache}" not in window.notices.notices
    assert recordings.get_recording(library.store, cache).trashed_at is None

    _select(window, qtbot, cache)
    window.note_actions.delete_current()
    qtbot.waitUntil(lambda: cache not in _ids(window), timeout=WAIT_MS)
    window.sidebar.trash_button.click()
    page = window.note_actions.trash_page
    assert window.stack.currentWidget() is page
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=WAIT_MS)
    text = page.list.item(0).data(Qt.ItemDataRole.AccessibleTextRole)
    assert text.startswith("Cache, Scratch") and "gone for good on" in text and "(in 30 days)" in text
    page.list.item(0).setSelected(True)
    page.restore_button.click()
    qtbot.waitUntil(lambda: page.list.count() == 0 and page.empty_label.isVisible(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: cache in _ids(window), timeout=WAIT_MS)

    _select(window, qtbot, cache)
    window.note_actions.delete_current()
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=WAIT_MS)
    answers = iter([QMessageBox.StandardButton.Cancel, QMessageBox.StandardButton.Yes])
    original = QMessageBox.question
    QMessageBox.question = staticmethod(lambda *a, **k: next(answers))  # type: ignore[method-assign]
    try:
        page.empty_button.click()  # asked first: Cancel keeps it
        idle(qtbot, window)
        assert page.list.count() == 1
        page.empty_button.click()
    finally:
        QMessageBox.question = original  # type: ignore[method-assign]
    qtbot.waitUntil(lambda: page.list.count() == 0, timeout=WAIT_MS)
    assert recordings.list_recordings(library.store, trashed=None)[0].title == "Budget"
    assert len(recordings.list_recordings(library.store, trashed=None)) == 1


def test_move_from_the_context_menu(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _notes(library, tmp_path)
    window.sidebar.refresh()
    window.timeline_model.reload()
    [budget] = [r for r in recordings.list_recordings(library.store) if r.title == "Budget"]
    qtbot.waitUntil(lambda: len(window.sidebar.loaded_projects()) == 3, timeout=WAIT_MS)
    _select(window, qtbot, budget.id)
    recording = window.timeline.view.currentIndex().data(RECORDING_ROLE)
    menu = window.note_actions.menu_for(recording, window.timeline.view, with_open=True)
    assert not _action(menu, "Hartwell").isEnabled()  # where it is already
    assert not _action(menu, "Re-transcribe…").isEnabled()  # imported as text: no audio
    _action(menu, "Oakridge").trigger()
    qtbot.waitUntil(
        lambda: recordings.get_recording(library.store, budget.id).project == "Oakridge", timeout=WAIT_MS
    )
    qtbot.waitUntil(
        lambda: (
            window.timeline_model.recording_at(window.timeline_model.row_for(budget.id)).project == "Oakridge"
        ),
        timeout=WAIT_MS,
    )
    assert "Moved “Budget” to Oakridge" in window.status_label.text()

    window.open_recording(budget.id)  # the note page's "Note" menu offers the same actions
    view = window.recording_view
    qtbot.waitUntil(lambda: view.recording is not None and view.recording.id == budget.id, timeout=WAIT_MS)
    view.note_button.click()
    qtbot.waitUntil(lambda: window.note_actions.menu.isVisible(), timeout=WAIT_MS)
    assert _action(window.note_actions.menu, "Open") is None
    _action(window.note_actions.menu, "Move to trash").trigger()
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.timeline, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: budget.id not in _ids(window), timeout=WAIT_MS)
    assert recordings.get_recording(library.store, budget.id).trashed_at is not None


def test_retranscribe_and_make_the_earlier_transcript_current(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    require_models()
    add_project(library, "Kestrel")
    set_project_options(library, "Kestrel", transcription_model="tiny.en")
    clip = speech_file(tmp_path, "Becker wants the Kestrel rollout in June.", "becker.flac")
    [item] = import_files(library, [clip], project="Kestrel")
    rid = item.recording_id
    window.background.wake_jobs()
    qtbot.waitUntil(
        lambda: recordings.get_recording(library.store, rid).status in ("indexed", "consolidated"),
        timeout=120_000,
    )
    window.timeline_model.reload()
    _select(window, qtbot, rid)
    first = [s.raw_text for s in recordings.list_segments(library.store, rid)]

    menu = window.note_actions.menu_for(
        window.timeline.view.currentIndex().data(RECORDING_ROLE), window.timeline.view, with_open=True
    )
    _action(menu, "Re-transcribe…").trigger()
    qtbot.waitUntil(
        lambda: window.note_actions.dialog is not None and window.note_actions.dialog.isVisible(),
        timeout=WAIT_MS,
    )
    dialog = window.note_actions.dialog
    assert "kept word for word" in dialog.about.text() and "tiny.en" in dialog.model.itemText(0)
    assert "the names its notes say): Kestrel" in dialog.about.text()  # the vocabulary it will get
    dialog.model.setCurrentIndex(dialog.model.findData("base"))
    dialog.start_button.click()
    qtbot.waitUntil(
        lambda: [v.version for v in note_ops.transcript_versions(library.store, rid)] == [1], timeout=WAIT_MS
    )
    job = open_job(library.store, "transcribe", rid)
    assert job is None or job.payload["model"] == "base"  # with the transcript to fall back on
    qtbot.waitUntil(
        lambda: (
            recordings.get_recording(library.store, rid).model == "whisper-base"
            and recordings.get_recording(library.store, rid).status in ("indexed", "consolidated")
        ),
        timeout=120_000,
    )
    assert recordings.get_recording(library.store, rid).transcript_version == 2

    window.note_actions.show_versions(recordings.get_recording(library.store, rid))
    qtbot.waitUntil(
        lambda: window.note_actions.dialog is not dialog and window.note_actions.dialog.isVisible(),
        timeout=WAIT_MS,
    )
    versions = window.note_actions.dialog
    assert versions.list.count() == 2 and versions.chosen_version() == 1
    qtbot.waitUntil(lambda: first[0] in versions.text.toPlainText(), timeout=WAIT_MS)  # version 1's words
    versions.make_current.click()
    qtbot.waitUntil(
        lambda: recordings.get_recording(library.store, rid).transcript_version == 1, timeout=WAIT_MS
    )
    assert [s.raw_text for s in recordings.list_segments(library.store, rid)] == first


def test_notes_30_days_in_the_trash_go_for_good_at_start(request, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    _notes(library, tmp_path)
    old, recent = recordings.list_recordings(library.store)
    note_ops.trash(library.store, old.id)
    note_ops.trash(library.store, recent.id)
    library.store.execute("UPDATE recordings SET trashed_at = '2020-01-01T09:00:00' WHERE id = ?", (old.id,))
    window = request.getfixturevalue("window")  # opens now, on this library
    page = window.note_actions.trash_page
    qtbot.waitUntil(lambda: window.sidebar.trash_button.text() == "Trash · 1", timeout=WAIT_MS)
    assert [r.id for r in recordings.list_recordings(library.store, trashed=None)] == [recent.id]
    window.sidebar.trash_button.click()
    qtbot.waitUntil(lambda: page.list.count() == 1, timeout=WAIT_MS)
    assert page.list.item(0).data(Qt.ItemDataRole.UserRole) == recent.id
