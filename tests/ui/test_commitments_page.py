"""The commitments page on a real library: notes written for this test (English and German) imported
through the normal path and consolidated by the rules, then shown across projects by due date, with
overdue marked in words, the sidebar's count, "Show done", and a click that opens the note at the
quote (and at the words that said it was done)."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from PySide6.QtCore import Qt

from app.consolidation.service import consolidate
from app.ingest.imports import import_corpus
from app.library import Library
from app.paths import DataDir
from tests.conftest import MODELS_DIR, require_models
from tests.support.ui_helpers import WAIT_MS, idle, note

pytestmark = pytest.mark.slow  # a library indexed with the embedding model, built once

TODAY = date(2026, 3, 11)
NOTES = [
    note(
        "orchard-1",
        "Orchard Bank",
        "2026-03-04T09:00:00",
        [
            "Morning, notes from the Orchard Bank steering call.",
            "I'll send Jana Novak the pricing deck by Monday.",
            "Tomasz owes us the load-test results by the end of next week.",
        ],
        title="Orchard steering",
    ),
    note(
        "fischer-1",
        "Fischer Logistik",
        "2026-03-05T10:00:00",
        ["Kurzes Update zu Fischer Logistik.", "Ich schicke Frau Berger das Angebot bis Freitag."],
        title="Fischer Update",
    ),
    note(
        "orchard-2",
        "Orchard Bank",
        "2026-03-10T08:30:00",
        ["Quick Orchard Bank follow-up.", "The pricing deck went out to Jana yesterday."],
        title="Orchard follow-up",
    ),
]


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    require_models()
    root = tmp_path_factory.mktemp("commitments-ui") / "library"
    corpus = root.parent / "notes.jsonl"
    corpus.write_text("\n".join(json.dumps(n) for n in NOTES) + "\n", "utf-8")
    with Library(DataDir(root, MODELS_DIR)) as library:
        import_corpus(library, corpus)
        consolidate(library, use_model=False)
    return root


@pytest.fixture
def win(qtbot, template: Path, _isolated_library: Path) -> Iterator[Any]:  # type: ignore[no-untyped-def]
    from ui.window import MainWindow

    shutil.copytree(template, _isolated_library)
    library = Library(DataDir.resolve())
    window = MainWindow(library, background=False)
    qtbot.addWidget(window)
    window.commitments_page.today = TODAY
    window.show()
    idle(qtbot, window)
    yield window
    window.close()
    idle(qtbot, window)
    library.close()


def _show(win: Any, qtbot: Any) -> Any:
    qtbot.mouseClick(win.sidebar.commitments_button, Qt.MouseButton.LeftButton)
    page = win.commitments_page
    assert win.stack.currentWidget() is page
    qtbot.waitUntil(lambda: len(page.cards) == 3, timeout=WAIT_MS)
    idle(qtbot, win)
    return page


def test_commitments_of_all_projects_by_due_date_with_overdue_marked(win, qtbot) -> None:  # type: ignore[no-untyped-def]
    page = _show(win, qtbot)
    overdue, due, done = page.cards
    assert overdue.overdue and overdue.commitment.project == "Fischer Logistik"
    assert "<b>I → Frau Berger</b>: das Angebot" in overdue.title.text()
    assert "Overdue by 5 days" in overdue.due.text() and overdue.due.accessibleName().startswith("Overdue.")
    assert overdue.quote.quote.accessibleName() == "Stated: Ich schicke Frau Berger das Angebot bis Freitag"
    assert "Tomasz → us" in due.title.text() and "Due Fri 13 Mar 2026" in due.due.text()
    assert "in 2 days" in due.due.text() and not due.overdue
    assert done.commitment.done and done.done_quote is not None
    assert "The pricing deck went out to Jana yesterday" in done.done_quote.quote.text()
    assert page.summary.text().startswith("1 overdue · 1 due · 1 done")
    qtbot.waitUntil(lambda: "1 overdue" in win.sidebar.commitments_button.text(), timeout=WAIT_MS)
    page.show_done.setChecked(False)
    assert [c.commitment.id for c in page.cards] == [overdue.commitment.id, due.commitment.id]
    win.show_timeline()
    action = win.actions_by_name["commitments"]
    assert action.shortcut().toString() == "Ctrl+4"
    action.trigger()
    assert win.stack.currentWidget() is page


def test_a_click_opens_the_note_at_the_quote(win, qtbot) -> None:  # type: ignore[no-untyped-def]
    page = _show(win, qtbot)
    card = page.cards[1]
    qtbot.mouseClick(card.quote.citation, Qt.MouseButton.LeftButton)
    view = win.recording_view
    assert win.stack.currentWidget() is view
    qtbot.waitUntil(lambda: view.model.current_row is not None, timeout=WAIT_MS)
    segment = view.model.segments[view.model.current_row]
    assert "owes us the load-test results" in segment.raw_text
    assert view.recording is not None and view.recording.id == card.commitment.recording_id
    win.consolidation_links.show_commitments()
    qtbot.waitUntil(lambda: len(page.cards) == 3, timeout=WAIT_MS)
    done = page.cards[2].done_quote
    qtbot.mouseClick(done.citation, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: view.recording is not None and view.recording.title == "Orchard follow-up", timeout=WAIT_MS
    )
    qtbot.waitUntil(lambda: view.model.current_row is not None, timeout=WAIT_MS)
    assert "went out to Jana" in view.model.segments[view.model.current_row].raw_text
