"""A citation in a narrow panel keeps all of its label: project on one line, when on the next
(the Ask panel cut "· at 1:15" off), and goes back to one line when there is room."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QVBoxLayout, QWidget

from tests.support.ui_helpers import WAIT_MS
from ui.widgets.passage_cards import CitationButton, Place

PLACE = Place("Hartwell Logistics", 7, "2026-03-12T09:40:00", 75.0)


def test_a_citation_wraps_in_a_narrow_panel_and_unwraps_when_wide(qtbot) -> None:  # type: ignore[no-untyped-def]
    panel = QWidget()
    layout = QVBoxLayout(panel)
    button = CitationButton(PLACE)
    layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
    qtbot.addWidget(panel)
    one_line = button.one_line_width()
    panel.resize(one_line // 2 + 40, 200)
    panel.show()
    qtbot.waitUntil(lambda: "\n" in button.text(), timeout=WAIT_MS)
    first, second = button.text().split("\n")
    assert first.endswith("Hartwell Logistics") and second.endswith("at 1:15")
    assert button.width() <= panel.width()
    panel.resize(one_line + 100, 200)
    qtbot.waitUntil(lambda: "\n" not in button.text(), timeout=WAIT_MS)
    assert button.text() == "▶ " + PLACE.label() and button.width() >= one_line
