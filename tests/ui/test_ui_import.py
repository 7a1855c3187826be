"""Getting notes in without the command line: drag and drop, watched folders; jobs with cancel."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
from PySide6.QtGui import QDropEvent
from PySide6.QtWidgets import QPushButton

from app.jobs.queue import JobEvent, enqueue, get_job
from app.project_service import add_project
from app.recording_service import list_recordings
from tests.support.ui_helpers import WAIT_MS, note, write_corpus

# `slow` below: the real window (the `window` fixture) loads the embedding and chat models as it
# starts (warm-up).


def _drop(win, paths: list[Path]) -> None:  # type: ignore[no-untyped-def]
    data = QMimeData()
    data.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    event = QDropEvent(
        QPointF(200, 200),
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    win.dropEvent(event)


def _select(win, qtbot, project: str) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(
        lambda: project in [win.projects.item(i).text() for i in range(win.projects.count())], timeout=WAIT_MS
    )
    win.sidebar.select_project(project)
    qtbot.waitUntil(lambda: win.current_project() == project, timeout=WAIT_MS)


@pytest.mark.slow
def test_dropped_files_go_into_the_selected_project(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "Beacon")
    window.sidebar.refresh()
    _select(window, qtbot, "Beacon")
    transcript = tmp_path / "call with Imogen.txt"
    transcript.write_text("Four languages at launch: English, French, German and Dutch.\n", "utf-8")
    unsupported = tmp_path / "slides.pdf"
    unsupported.write_bytes(b"%PDF-1.4")
    _drop(window, [transcript, unsupported])
    qtbot.waitUntil(lambda: "import" in window.notices.notices, timeout=WAIT_MS)
    text = window.notices.notices["import"].accessibleName()
    assert "Beacon: 1 imported" in text and "1 could not be imported" in text and "slides.pdf" in text
    qtbot.waitUntil(lambda: len(window.timeline_model.row_of_id) == 1, timeout=WAIT_MS)
    (recording,) = list_recordings(library)
    assert recording.project == "Beacon" and recording.source == "transcript"


@pytest.mark.slow
def test_a_drop_with_no_project_asks_for_one_first(window, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = write_corpus(tmp_path / "n.jsonl", [note("x", "Any", "2026-06-01T08:00:00", ["Hello."])])
    _drop(window, [path])
    assert "Create a project first" in window.notices.notices["import"].accessibleName()


@pytest.mark.slow
def test_a_watched_folder_imports_what_lands_in_it(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from ui.dialogs.settings_dialog import SettingsDialog

    add_project(library, "Harbourline")
    folder = tmp_path / "phone sync"
    folder.mkdir()
    window.sidebar.refresh()
    qtbot.waitUntil(lambda: len(window.sidebar.loaded_projects()) == 1, timeout=WAIT_MS)
    dialog = SettingsDialog(window.ops, library, window.sidebar.loaded_projects(), window)
    qtbot.addWidget(dialog)
    dialog.add_watched(str(folder), "Harbourline")
    qtbot.waitUntil(lambda: dialog.watched.count() == 1, timeout=WAIT_MS)
    assert library.settings.watched_folders[0].project == "Harbourline"
    qtbot.waitUntil(lambda: window.background.watcher is not None, timeout=WAIT_MS)
    (folder / "memo.txt").write_text("The dry run is on Monday.\n", "utf-8")
    qtbot.waitUntil(lambda: len(window.timeline_model.row_of_id) == 1, timeout=30_000)
    assert list_recordings(library)[0].project == "Harbourline"
    dialog.watched.setCurrentRow(0)
    dialog.remove_watched()
    qtbot.waitUntil(lambda: not library.settings.watched_folders, timeout=WAIT_MS)


def test_background_jobs_show_with_progress_and_cancel(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from ui.window import MainWindow

    win = MainWindow(library, background=False)  # no job worker: the queued job waits for us
    qtbot.addWidget(win)
    job_id = enqueue(library, "transcribe")
    panel = win.jobs_panel
    panel.on_job_event(JobEvent(job_id, "transcribe", 7, "running", 0.42, 90.0))
    assert "Transcribing note 7" in panel.summary.text() and "about 2 min left" in panel.summary.text()
    assert panel.bar.value() == 42
    panel.on_cancel_clicked()
    qtbot.waitUntil(lambda: get_job(library, job_id).status == "cancelled", timeout=WAIT_MS)
    panel.on_job_event(JobEvent(job_id, "transcribe", 7, "cancelled", 0.42))
    assert not panel.lines() and not panel.isVisible()
    win.close()
    qtbot.waitUntil(win.ops.is_idle, timeout=WAIT_MS)


@pytest.mark.slow
def test_the_import_dialog_opens_in_the_last_folder_used_else_home(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from app.settings import Settings

    assert window.import_folder() == str(Path.home())  # never the app's own working folder
    folder = tmp_path / "dictations"
    folder.mkdir()
    window.remember_import_folder(folder)
    qtbot.waitUntil(lambda: window.import_folder() == str(folder), timeout=WAIT_MS)
    assert Settings.load(library.data_dir.settings_path).last_import_folder == str(
        folder
    )  # kept for next time
    folder.rmdir()
    assert window.import_folder() == str(Path.home())  # a folder since removed: home again


@pytest.mark.slow
def test_the_status_bar_says_the_import_ended_not_importing_for_the_session(window, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    window.sidebar.create_project("Hartwell Logistics")
    qtbot.waitUntil(lambda: window.sidebar.current_project() == "Hartwell Logistics", timeout=WAIT_MS)
    note_file = tmp_path / "call.txt"
    note_file.write_text("The phase one budget is 40,000 euros.\n", "utf-8")
    window.import_paths([note_file])
    assert window.status_label.text() == "Importing into Hartwell Logistics…"
    qtbot.waitUntil(lambda: "Importing" not in window.status_label.text(), timeout=WAIT_MS)
    assert window.status_label.text() == "Imported into Hartwell Logistics: 1 imported."


@pytest.mark.slow
def test_every_file_that_could_not_be_imported_is_one_click_away(window, qtbot, tmp_path) -> None:  # type: ignore[no-untyped-def]
    window.sidebar.create_project("Atlas")
    qtbot.waitUntil(lambda: window.sidebar.current_project() == "Atlas", timeout=WAIT_MS)
    broken = []
    for n in range(5):
        path = tmp_path / f"broken-{n}.wav"
        path.write_bytes(b"RIFF\\x00\\x00\\x00\\x00WAVEnot really audio")
        broken.append(path)
    window.import_paths(broken)
    qtbot.waitUntil(lambda: "import" in window.notices.notices, timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "could not be imported" in window.notices.texts()[-1], timeout=WAIT_MS)
    notice = window.notices.notices["import"]
    (button,) = [b for b in notice.findChildren(QPushButton) if b.text() == "Show all 5"]
    button.click()
    box = window.import_failures_box
    qtbot.waitUntil(box.isVisible, timeout=WAIT_MS)
    assert all(f"broken-{n}.wav" in box.detailedText() for n in range(5))
    box.close()
