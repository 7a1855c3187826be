"""Cancel in the status bar stops a huge text import part-way, in the window as the user meets it:
the status line says it was cancelled, the note under way is gone whole, the library is consistent.

Seen in use: Cancel on a 60 MB .txt import did nothing for 2.5 minutes at 160 % CPU (the import
looked at Cancel only between files), and the half-imported note was indexed again at every start.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.consistency import library_problems
from memory.search import index
from memory.store import recordings
from tests.support.long_text import big_text

pytestmark = pytest.mark.slow  # tens of megabytes of text and the embedding model

WAIT_MS = 120_000  # a fail-safe: the old code went on for many minutes


def test_cancel_in_the_status_bar_stops_a_huge_import(qtbot, window, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    window.background.stop()  # start-up indexing stays out of the way: the import is the one task
    store = window.library.store
    path = big_text(tmp_path / "huge.txt", 12)

    def indexing() -> bool:  # read on the main thread while the import's thread works
        found = recordings.list_recordings(store)
        return bool(found) and bool(index.recording_chunks(store, found[0].id))

    window.importer.import_paths([path], "Scratch")
    qtbot.waitUntil(indexing, timeout=WAIT_MS)
    assert [op.label for op in window.ops.running_tasks()] == ["Importing into Scratch"]
    assert window.jobs_panel.cancel_button.isVisible()
    qtbot.mouseClick(window.jobs_panel.cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not window.ops.running_tasks(), timeout=WAIT_MS)
    qtbot.waitUntil(lambda: "cancelled" in window.status_label.text(), timeout=WAIT_MS)
    assert recordings.list_recordings(store) == []
    assert library_problems(window.library) == []
