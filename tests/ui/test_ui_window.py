"""The main window on a real library: projects, timeline, a recording's transcript, edits, search."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt

from app.ingest.imports import import_corpus
from app.project_service import add_project, list_projects
from app.recording_service import list_recordings
from tests.support.ui_helpers import WAIT_MS, assert_every_line_shown, note, sidebar_names, write_corpus

# `slow` below: the real window (the `window` fixture) loads the embedding and chat models as it
# starts (warm-up).


@pytest.mark.slow
def test_first_run_shows_guidance_not_errors(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    qtbot.waitUntil(lambda: window.readiness is not None, timeout=WAIT_MS)
    assert window.readiness.first_run
    assert window.stack.currentWidget() is window.welcome
    assert "Create a project" in window.welcome.steps.text()
    # whatever the microphone and models situation, it is a notice in the window, never a dialog
    from PySide6.QtWidgets import QDialog

    assert not [d for d in window.findChildren(QDialog) if d.isVisible()]
    for text in window.notices.texts():
        assert text.startswith(("Note:", "Info:"))


@pytest.mark.slow
def test_create_rename_archive_projects(window, qtbot, library) -> None:  # type: ignore[no-untyped-def]
    window.sidebar.create_project("Harbourline")
    qtbot.waitUntil(lambda: "Harbourline" in sidebar_names(window), timeout=WAIT_MS)
    assert window.stack.currentWidget() is window.timeline  # the welcome page gives way
    assert window.sidebar.current_project() == "Harbourline"  # a new project is selected
    window.sidebar.rename_project("Harbourline", "Harbourline Ltd")
    qtbot.waitUntil(lambda: "Harbourline Ltd" in sidebar_names(window), timeout=WAIT_MS)
    assert [p.name for p in list_projects(library)] == ["Harbourline Ltd"]
    window.sidebar.set_archived("Harbourline Ltd", True)
    qtbot.waitUntil(lambda: "Harbourline Ltd" not in sidebar_names(window), timeout=WAIT_MS)
    window.sidebar.show_archived.setChecked(True)
    qtbot.waitUntil(lambda: "Harbourline Ltd" in sidebar_names(window), timeout=WAIT_MS)
    row = sidebar_names(window).index("Harbourline Ltd")
    assert "archived" in window.projects.item(row).data(Qt.ItemDataRole.UserRole + 1)


@pytest.mark.slow
def test_a_duplicate_project_name_is_a_notice(window, qtbot, library) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "Atlas")
    window.sidebar.create_project("atlas")
    qtbot.waitUntil(lambda: any("already exists" in t for t in window.notices.texts()), timeout=WAIT_MS)


@pytest.mark.slow
def test_imported_note_is_on_the_timeline_and_opens(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    corpus = write_corpus(
        tmp_path / "notes.jsonl",
        [
            note(
                "a",
                "Harbourline",
                "2026-06-01T08:40:00",
                ["The go-live is the 6th.", "No wait, the 13th."],
                speaker="Dana",
            ),
            note(
                "b", "Atlas", "2026-06-03T09:15:00", ["We picked Postgres for reporting."], title="Reporting"
            ),
        ],
    )
    import_corpus(library, corpus)
    window.check_for_outside_changes()  # what the window does every few seconds: the CLI imported
    model = window.timeline_model
    qtbot.waitUntil(lambda: len(model.row_of_id) == 2, timeout=WAIT_MS)
    kinds = [r.kind for r in model.rows]
    assert kinds[0] == "week" and kinds[1] == "day" and kinds.count("recording") == 2
    newest = model.rows[2].recording
    assert newest.title == "Reporting" and newest.project == "Atlas"
    assert "Reporting" in model.data(model.index(2), Qt.ItemDataRole.AccessibleTextRole)

    row = model.row_for(
        next(i for i, r in model.row_of_id.items() if model.rows[r].recording.project == "Harbourline")
    )
    window.timeline.view.setCurrentIndex(model.index(row))
    qtbot.keyClick(window.timeline.view, Qt.Key.Key_Return)
    view = window.recording_view
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=WAIT_MS)
    assert window.stack.currentWidget() is view
    first = view.model.index(0, 2).data()
    assert first == "The go-live is the 6th."
    assert view.model.index(0, 1).data() == "Dana"
    assert view.model.index(1, 0).data() == "0:04"
    assert "transcript" in view.no_audio.text()  # no audio: it says so instead of a dead player


@pytest.mark.slow
def test_an_edit_is_a_version_and_the_raw_stays(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import_corpus(
        library,
        write_corpus(
            tmp_path / "n.jsonl",
            [note("k", "Harbourline", "2026-06-01T08:40:00", ["I spoke to Kent about the budget."])],
        ),
    )
    recording_id = list_recordings(library)[0].id
    window.open_recording(recording_id)
    view = window.recording_view
    qtbot.waitUntil(lambda: view.model.rowCount() == 1, timeout=WAIT_MS)
    index = view.model.index(0, 2)
    assert view.model.setData(index, "I spoke to Chen about the budget.")
    qtbot.waitUntil(lambda: view.model.segments[0].edited, timeout=WAIT_MS)
    assert view.model.index(0, 2).data().startswith("I spoke to Chen")
    assert "Kent" in view.model.index(0, 2).data(Qt.ItemDataRole.ToolTipRole)
    view.show_raw.setChecked(True)
    assert view.model.index(0, 2).data() == "I spoke to Kent about the budget."
    assert not view.model.flags(index) & Qt.ItemFlag.ItemIsEditable  # the raw words cannot be edited
    from app.edits import edit_history

    versions = edit_history(library, view.model.segments[0].id)
    assert [v.version for v in versions] == [0, 1]
    assert versions[0].text == "I spoke to Kent about the budget."


@pytest.mark.slow
def test_search_marks_matches_and_opens_the_moment(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import_corpus(
        library,
        write_corpus(
            tmp_path / "n.jsonl",
            [
                note(
                    "r",
                    "Atlas",
                    "2026-06-01T08:40:00",
                    ["Morning notes.", "We decided against Redis for the session cache.", "Lunch."],
                ),
                note("s", "Harbourline", "2026-06-02T10:00:00", ["Nothing about caches here, only budgets."]),
            ],
        ),
    )
    qtbot.keyClicks(window.search_box, "redis")
    qtbot.keyClick(window.search_box, Qt.Key.Key_Return)
    page = window.search_page
    qtbot.waitUntil(lambda: len(page.cards) >= 1, timeout=WAIT_MS)
    card = page.cards[0]
    assert card.place.project == "Atlas"
    # The passage starts at "Morning notes." (0:00); the result opens at the sentence that matched.
    assert card.place.start == 4.0
    # The other note says nothing of Redis or caches worth showing: results stop where relevance falls.
    assert [c.place.project for c in page.cards] == ["Atlas"]
    assert "font-weight:bold'>Redis</span>" in card.body.text()
    assert "Atlas" in card.citation.accessibleName()
    qtbot.mouseClick(card.citation, Qt.MouseButton.LeftButton)
    view = window.recording_view
    qtbot.waitUntil(lambda: view.model.rowCount() == 3, timeout=WAIT_MS)
    assert window.stack.currentWidget() is view
    assert view.model.current_row == round(card.place.start / 4.0)


@pytest.mark.slow
def test_projects_created_elsewhere_appear(window, qtbot, library) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "From the CLI")
    window.check_for_outside_changes()
    qtbot.waitUntil(lambda: "From the CLI" in sidebar_names(window), timeout=WAIT_MS)


@pytest.mark.slow
def test_the_ask_scope_follows_the_selected_project(window, qtbot, library) -> None:  # type: ignore[no-untyped-def]
    add_project(library, "Atlas")
    window.sidebar.refresh()
    qtbot.waitUntil(lambda: "Atlas" in sidebar_names(window), timeout=WAIT_MS)
    panel = window.ask_panel
    assert panel.scope.count() == 1 and panel.scope_projects() is None
    window.sidebar.select_project("Atlas")
    assert [panel.scope.itemText(i) for i in range(panel.scope.count())] == ["All projects", "Only Atlas"]
    panel.scope.setCurrentIndex(1)
    assert panel.scope_projects() == ["Atlas"]
    window.sidebar.select_project(None)
    assert panel.scope.count() == 1 and panel.scope_projects() is None


def test_missing_models_are_guidance_with_a_way_to_fix_them(qtbot, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from app.library import Library
    from app.paths import DataDir
    from ui.window import MainWindow

    monkeypatch.setenv("VERBATIM_MODELS_DIR", str(tmp_path / "no models here"))
    library = Library(DataDir.resolve())
    win = MainWindow(library, background=False)
    qtbot.addWidget(win)
    win.show()
    qtbot.waitUntil(lambda: win.readiness is not None, timeout=WAIT_MS)
    assert {m.role for m in win.readiness.missing_models} == {
        "transcription",
        "transcription_fast",
        "embedding",
        "chat",
    }
    notice = win.notices.notices["models"]
    assert "not set up yet" in notice.accessibleName() and notice.action_button.text() == "Set up models"
    assert win.welcome.provision_button.isVisibleTo(win.welcome)
    assert "The models are not set up yet" in win.welcome.problems.text()
    win.close()
    qtbot.waitUntil(win.ops.is_idle, timeout=WAIT_MS)
    library.close()


@pytest.mark.slow
def test_an_empty_project_says_how_to_add_notes_here_and_one_note_is_one_note(  # type: ignore[no-untyped-def]
    window, qtbot, library, tmp_path
) -> None:
    qtbot.waitUntil(lambda: window.readiness is not None, timeout=WAIT_MS)
    window.sidebar.create_project("Harbourline")
    qtbot.waitUntil(lambda: window.timeline.empty.isVisible(), timeout=WAIT_MS)
    hint = window.timeline.empty.text()
    assert "Ctrl+I" in hint
    # This machine has no microphone (outside the recording tests' virtual one): no record shortcut.
    assert ("Ctrl+Shift+R" in hint) == window.readiness.can_record
    import_corpus(
        library,
        write_corpus(tmp_path / "n.jsonl", [note("a", "Harbourline", "2026-06-01T08:40:00", ["Hi."])]),
    )
    window.check_for_outside_changes()
    qtbot.waitUntil(lambda: len(window.timeline_model.row_of_id) == 1, timeout=WAIT_MS)
    assert window.timeline.summary.text() == "1 note, newest first"


@pytest.mark.slow
def test_a_double_click_plays_a_line_without_editing_and_f2_edits(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QAbstractItemView

    import_corpus(
        library,
        write_corpus(
            tmp_path / "n.jsonl",
            [note("k", "Harbourline", "2026-06-01T08:40:00", ["I spoke to Kent.", "The budget is fine."])],
        ),
    )
    window.open_recording(list_recordings(library)[0].id)
    view = window.recording_view
    qtbot.waitUntil(lambda: view.model.rowCount() == 2, timeout=WAIT_MS)
    table = view.table
    cell = table.visualRect(view.model.index(1, 2)).center()
    qtbot.mouseClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)  # a double-click's first
    qtbot.mouseDClick(table.viewport(), Qt.MouseButton.LeftButton, pos=cell)
    qtbot.waitUntil(lambda: table.currentIndex().row() == 1, timeout=WAIT_MS)  # the line is chosen
    assert table.state() != QAbstractItemView.State.EditingState
    qtbot.keyClick(table, Qt.Key.Key_F2)
    assert table.state() == QAbstractItemView.State.EditingState


@pytest.mark.slow
def test_clicking_the_selected_project_does_not_start_a_rename(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtWidgets import QAbstractItemView, QApplication

    window.sidebar.create_project("Harbourline")
    qtbot.waitUntil(lambda: window.sidebar.current_project() == "Harbourline", timeout=WAIT_MS)
    projects = window.sidebar.projects
    item = projects.currentItem()
    where = projects.visualItemRect(item).center()
    projects.setFocus()
    qtbot.mouseClick(projects.viewport(), Qt.MouseButton.LeftButton, pos=where)
    # kept: a rename on a click on the selected item starts after the double-click interval, and
    # there is no event for it not starting
    qtbot.wait(QApplication.doubleClickInterval() + 300)
    assert projects.state() != QAbstractItemView.State.EditingState


@pytest.mark.slow
def test_a_missing_microphone_is_said_once(window, qtbot) -> None:  # type: ignore[no-untyped-def]
    from PySide6.QtGui import QTextDocument
    from PySide6.QtWidgets import QLabel

    qtbot.waitUntil(lambda: window.readiness is not None, timeout=WAIT_MS)
    if window.readiness.can_record:
        pytest.skip("this machine has a microphone")
    problem = window.readiness.microphone_problem or "No microphone found."

    def shown(label: QLabel) -> str:
        document = QTextDocument()
        document.setHtml(label.text())
        return document.toPlainText()

    said = [shown(label) for label in window.findChildren(QLabel) if label.isVisible()]
    assert sum(problem in text for text in said) == 1, said


@pytest.mark.slow
def test_search_leaves_archived_projects_out_until_they_are_shown(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    from app.project_service import archive_project

    import_corpus(
        library,
        write_corpus(
            tmp_path / "n.jsonl",
            [
                note("a", "Scratch", "2026-06-01T08:40:00", ["The zeppelin hangar budget is huge."]),
                note("b", "Atlas", "2026-06-02T10:00:00", ["We picked Postgres for reporting."]),
            ],
        ),
    )
    archive_project(library, "Scratch")
    window.check_for_outside_changes()
    window.sidebar.select_project(None)  # All projects
    qtbot.waitUntil(lambda: window.current_project() is None, timeout=WAIT_MS)
    page = window.search_page

    def search_for(text: str) -> None:
        window.search_box.setText(text)
        window.on_search_box_return_pressed()

    search_for("zeppelin hangar")
    qtbot.waitUntil(lambda: not page.heading.text().startswith("Searching"), timeout=WAIT_MS)
    assert all(card.place.project != "Scratch" for card in page.cards)
    window.sidebar.show_archived.setChecked(True)
    search_for("zeppelin hangar")
    qtbot.waitUntil(lambda: any(card.place.project == "Scratch" for card in page.cards), timeout=WAIT_MS)
    assert window.ask_panel.include_archived


@pytest.mark.slow
def test_search_results_show_every_wrapped_line_when_narrow(window, qtbot, library, tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Long passages found by a search, on a 340 px page: each is as tall as its wrapped text needs.
    The results were aligned to the top, which sizes them by their size hint: once they were more than
    the page holds (two passages did not show it, four do), each lost its last two lines. (In the
    window today the page is at least as wide as the recording view, ~490 px, where it did not clip.)"""
    from ui.pages.search_page import SearchPage

    lines = [
        "Tomasz Wilk from Brightline Signs rang again this morning and said the kiosk enclosures for "
        "the ferry company need a second coat of marine paint, which adds a week and a bit.",
        "We agreed to move the kiosk install to the week after the launch demo, so that Ben can see "
        "the enclosures before they are bolted to the pier, and the electrician can run power.",
        "I'll send Ben the revised kiosk schedule and the paint quote from Brightline Signs by "
        "Thursday, with the drawings attached and a note about the pier access times.",
    ]
    projects = ["Harbour App", "Linden Bakery", "Kestrel Ferries", "Pier Works"]
    notes = [note(f"n{i}", name, f"2026-03-0{i + 1}T09:00:00", lines) for i, name in enumerate(projects)]
    import_corpus(library, write_corpus(tmp_path / "n.jsonl", notes))
    page = SearchPage(window.ops, library)
    qtbot.addWidget(page)
    page.resize(340, 800)
    page.show()
    page.search("Brightline Signs kiosk enclosures", project=None)
    qtbot.waitUntil(lambda: len(page.cards) >= 3, timeout=WAIT_MS)
    viewport = page.results.parentWidget()
    qtbot.waitUntil(lambda: page.results.height() > viewport.height(), timeout=WAIT_MS)  # it scrolls
    assert_every_line_shown(qtbot, page.results)
