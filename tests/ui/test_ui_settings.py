"""Settings save through the app services at once; a bad choice is explained in the dialog."""

from __future__ import annotations

import pytest

from app.project_service import add_project, get_project
from app.recording_service import get_recording
from models.catalogue import Role
from tests.support.ui_helpers import WAIT_MS, note, write_corpus

pytestmark = pytest.mark.slow  # the real window: it loads the embedding and chat models at start (warm-up)


def _dialog(win, qtbot, library):  # type: ignore[no-untyped-def]
    from app.project_service import list_projects
    from ui.dialogs.settings_dialog import SettingsDialog

    dialog = SettingsDialog(win.ops, library, list_projects(library), win, current_project="Atlas")
    qtbot.addWidget(dialog)
    return dialog


def test_project_language_and_vocabulary(window, qtbot, library) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "Atlas")
    dialog = _dialog(window, qtbot, library)
    assert dialog.project_combo.currentText() == "Atlas"
    dialog.language.setText("de")
    dialog.vocabulary.setPlainText("Chen\nBecker\n\n")
    dialog.save_project_options()
    qtbot.waitUntil(lambda: "Saved Atlas" in dialog.status.text(), timeout=WAIT_MS)
    project = get_project(library, "Atlas")
    assert project.language == "de" and project.vocabulary == ["Chen", "Becker"]
    dialog.language.clear()
    dialog.save_project_options()
    qtbot.waitUntil(lambda: get_project(library, "Atlas").language is None, timeout=WAIT_MS)


def test_a_model_of_the_wrong_kind_is_refused_with_its_reason(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "Atlas")
    dialog = _dialog(window, qtbot, library)
    not_a_model = tmp_path / "notes.gguf"
    not_a_model.write_text("hello")
    dialog.set_model(Role.CHAT, not_a_model)
    qtbot.waitUntil(lambda: "not a GGUF file" in dialog.status.text(), timeout=WAIT_MS)
    assert not library.models.is_user_model(Role.CHAT)
    shipped = library.models.path_for(Role.CHAT)
    dialog.set_model(Role.CHAT, shipped)  # a real GGUF: accepted as the user's choice
    # The choice is saved in the background, then the dialog shows it: wait for both.
    qtbot.waitUntil(lambda: library.models.is_user_model(Role.CHAT), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "your file" in dialog.model_labels[Role.CHAT].text(), timeout=WAIT_MS)
    dialog.reset_model(Role.CHAT)
    qtbot.waitUntil(lambda: not library.models.is_user_model(Role.CHAT), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "shipped" in dialog.model_labels[Role.CHAT].text(), timeout=WAIT_MS)


def test_a_recovered_recording_is_announced_and_opens(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from app.ingest.imports import import_corpus

    (result,) = import_corpus(
        library,
        write_corpus(
            tmp_path / "n.jsonl",
            [note("r", "Atlas", "2026-06-01T08:40:00", ["Half a thought before the crash."])],
        ),
    )
    window.on_background_recovered([get_recording(library, result.recording_id)])
    notice = window.notices.notices["recovered"]
    assert "interrupted has been recovered: Atlas" in notice.accessibleName()
    notice.action_button.click()
    view = window.recording_view
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT_MS)
    assert window.stack.currentWidget() is view


def test_another_data_folder_is_used_from_the_next_start(
    window, qtbot, library, tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    from app.paths import DataDir, default_data_root

    dialog = _dialog(window, qtbot, library)
    target = tmp_path / "Notes élsewhere"
    dialog.data_folder.choose(str(target))
    assert "at the next start" in dialog.status.text() and str(target) in dialog.data_folder.next_start.text()
    assert DataDir.resolve().root == library.data_dir.root  # VERBATIM_DATA_DIR still comes first
    monkeypatch.delenv("VERBATIM_DATA_DIR")
    assert DataDir.resolve().root == target.resolve()

    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    dialog.data_folder.choose(str(blocker / "inside"))
    assert "cannot use" in dialog.status.text().lower()
    assert DataDir.resolve().root == target.resolve()  # a refused choice changes nothing

    dialog.data_folder.choose(None)
    assert DataDir.resolve().root == default_data_root()
