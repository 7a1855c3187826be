"""The timeline model stays lazy with thousands of recordings and groups them by week and day."""

from __future__ import annotations

from datetime import date, datetime, timedelta

from PySide6.QtCore import Qt

from memory.store import projects, recordings
from tests.support.ui_helpers import WAIT_MS
from ui.format import day_label, duration, last_activity, status_text, week_label


def _fill(library, count: int) -> None:  # type: ignore[no-untyped-def]
    """`count` recordings, one every 7 hours back from now, over two projects."""
    store = library.store
    a = projects.add_project(store, "Harbourline").id
    b = projects.add_project(store, "Atlas").id
    now = datetime.now().replace(microsecond=0)
    with store.transaction():
        for n in range(count):
            recordings.create_recording(
                store,
                project_id=a if n % 3 else b,
                spoken_at=(now - timedelta(hours=7 * n)).isoformat(),
                source="import",
                status="transcribing" if n == 0 else "indexed",
                duration=1800 + n,
                title=f"Note {n}",
            )


def test_a_large_timeline_loads_a_page_at_a_time(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from ui.operations import Operations
    from ui.pages.timeline_model import PAGE_SIZE, TimelineModel

    _fill(library, 3 * PAGE_SIZE + 17)
    errors: list[BaseException] = []
    ops = Operations(errors.append)
    model = TimelineModel(ops, library)
    model.show_project(None)
    qtbot.waitUntil(lambda: model.loaded_count == PAGE_SIZE, timeout=WAIT_MS)
    assert model.canFetchMore() and len(model.row_of_id) == PAGE_SIZE
    model.fetchMore()
    qtbot.waitUntil(lambda: model.loaded_count == 2 * PAGE_SIZE, timeout=WAIT_MS)
    while model.canFetchMore() or model.fetching:
        model.fetchMore()
        qtbot.waitUntil(lambda: not model.fetching, timeout=WAIT_MS)
    assert model.loaded_count == 3 * PAGE_SIZE + 17 and model.exhausted and not errors
    # newest first, each recording under the right week and day headings, each heading once
    spoken = [r.recording.spoken_at for r in model.rows if r.recording is not None]
    assert spoken == sorted(spoken, reverse=True)
    headings = [r.label for r in model.rows if r.kind == "week"]
    assert len(headings) == len(set(headings)) and headings[0] == "This week"
    days = [r.label for r in model.rows if r.kind == "day"]
    assert len(days) == len(set(days))
    # the newest one is being transcribed: the row says so, in words
    first = model.row_for(model.rows[2].recording.id)
    assert "Transcribing" in model.data(model.index(first), Qt.ItemDataRole.AccessibleTextRole)
    assert model.active_ids() == [model.rows[2].recording.id]
    ops.shutdown()


def test_one_project_only_and_a_reload_keeps_what_was_shown(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from ui.operations import Operations
    from ui.pages.timeline_model import TimelineModel

    _fill(library, 30)
    ops = Operations(lambda exc: None)
    model = TimelineModel(ops, library)
    model.show_project("Atlas")
    qtbot.waitUntil(lambda: model.exhausted, timeout=WAIT_MS)
    assert {r.recording.project for r in model.rows if r.recording} == {"Atlas"}
    assert model.loaded_count == 10
    model.reload()
    qtbot.waitUntil(lambda: not model.fetching, timeout=WAIT_MS)
    assert model.loaded_count == 10
    ops.shutdown()


def test_words_for_times_and_statuses() -> None:
    today = date(2026, 6, 10)  # a Wednesday
    assert week_label(date(2026, 6, 8), today) == "This week"
    assert week_label(date(2026, 6, 5), today) == "Last week"
    assert week_label(date(2026, 5, 20), today) == "Week of 18 May"
    assert week_label(date(2025, 5, 20), today) == "Week of 19 May 2025"
    assert day_label(today, today).startswith("Today")
    assert day_label(date(2026, 6, 9), today).startswith("Yesterday")
    assert last_activity("2026-06-10T17:00:00", today) == "today 17:00"
    assert last_activity("2026-06-07T09:00:00", today) == "3 days ago"
    assert last_activity("2026-05-01T09:00:00", today) == "1 May"
    # Spoken after today (an imported note dated ahead, or a clock set back): its date, not "today".
    assert last_activity("2027-03-02T17:00:00", today) == "2 Mar 2027"
    assert last_activity("2026-06-12T08:00:00", today) == "12 Jun"
    assert duration(38 * 60) == "38 min" and duration(3900) == "1 h 05 min" and duration(12) == "12 s"
    assert status_text("transcribing", 0.42) == "Transcribing 42%"
    assert status_text("failed", 0, "the file is damaged") == "Failed: the file is damaged"
    assert status_text("indexed") == "Ready"


def test_a_reload_keeps_the_selected_recording(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from ui.operations import Operations
    from ui.pages.timeline_model import RECORDING_ROLE, TimelineModel
    from ui.pages.timeline_view import TimelineView

    _fill(library, 40)
    ops = Operations(lambda exc: None)
    model = TimelineModel(ops, library)
    view = TimelineView()
    qtbot.addWidget(view)
    view.setModel(model)
    model.show_project(None)
    qtbot.waitUntil(lambda: model.exhausted, timeout=WAIT_MS)
    chosen = [r.recording for r in model.rows if r.recording is not None][25]
    view.setCurrentIndex(model.index(model.row_for(chosen.id)))
    model.reload()
    qtbot.waitUntil(lambda: not model.fetching, timeout=WAIT_MS)
    assert view.currentIndex().data(RECORDING_ROLE).id == chosen.id
    ops.shutdown()
