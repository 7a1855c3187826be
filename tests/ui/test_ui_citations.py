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


def test_a_label_its_caller_chose_survives_resizes(qtbot) -> None:  # type: ignore[no-untyped-def]
    """A short label ("▶ at 1:15" for the note already open) stays through resizes; one given with
    a two-line form wraps to that form, not to the place's full label."""
    panel = QWidget()
    layout = QVBoxLayout(panel)
    here, compact = CitationButton(PLACE), CitationButton(PLACE)
    here.setText("▶ at 1:15")  # as QuoteBlock set it before set_label
    compact.set_label("▶ Hartwell Logistics · 12 Mar 2026 · 1:15", "▶ Hartwell Logistics\n12 Mar 2026 · 1:15")
    for button in (here, compact):
        layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
    qtbot.addWidget(panel)
    panel.resize(compact.one_line_width() // 2 + 40, 200)
    panel.show()
    qtbot.waitUntil(lambda: "\n" in compact.text(), timeout=WAIT_MS)
    assert compact.text() == "▶ Hartwell Logistics\n12 Mar 2026 · 1:15" and here.text() == "▶ at 1:15"
    panel.resize(compact.one_line_width() + 100, 200)
    qtbot.waitUntil(lambda: "\n" not in compact.text(), timeout=WAIT_MS)
    assert compact.text() == "▶ Hartwell Logistics · 12 Mar 2026 · 1:15" and here.text() == "▶ at 1:15"
    assert here.width() < compact.width()  # sized by its own label, not the full one


def test_a_claim_quoting_a_corrected_line_shows_the_correction_beside_the_raw_quote(qtbot) -> None:  # type: ignore[no-untyped-def]
    from ui.widgets.answer_view import ClaimCard

    citation = {
        "project": "Atlas",
        "recording_id": 1,
        "spoken_at": "2026-03-02T09:00:00",
        "start": 4.0,
        "end": 6.0,
        "segment_ids": [2],
        "quote": "Kent <wants> the pilot",
    }
    raw = {"text": "Kent <wants> the pilot", "kind": "stated", "citations": [citation]}
    card = ClaimCard({**raw, "corrected": "Chen <wants> the pilot & more"})
    qtbot.addWidget(card)
    assert card.text.text() == "Kent <wants> the pilot"  # the raw words stay the quote
    assert card.corrected is not None
    assert card.corrected.text() == "You corrected this line: “Chen <wants> the pilot & more”"
    assert card.corrected.textFormat() == Qt.TextFormat.PlainText
    plain = ClaimCard(raw)
    qtbot.addWidget(plain)
    assert plain.corrected is None


def test_a_long_quote_under_a_citation_is_shown_whole_in_a_narrow_panel(qtbot) -> None:  # type: ignore[no-untyped-def]
    """Every wrapped line of an answer is on screen: the panel gives each card the height its
    wrapped text needs at the panel's width (an aligned layout gave only the size hint, and the
    last line of a long quote under a second citation was cut off)."""
    from PySide6.QtWidgets import QLabel, QScrollArea

    from ui.widgets.answer_view import AnswerView

    quote = (
        "Drumlane, quickly, Niamh says there've been fourteen clarification questions on the van "
        "tender already, two of them asking whether a van is a vehicle, which I'm choosing to find charming."
    )
    cite = {"project": "drumlane-fleet", "recording_id": 1, "spoken_at": "2027-10-19T17:45:00", "start": 36.0}
    answer = {
        "question": "so are we back up to 42 vans?",
        "answer_found": True,
        "claims": [
            {
                "kind": "stated",
                "text": "Lot one's been cut back to thirty-six vans because the budget came in lower",
                "citations": [
                    {**cite, "quote": "Lot one's been cut back"},
                    {**cite, "project": "brenner-dual-sourcing", "recording_id": 2, "quote": quote},
                ],
            }
        ],
    }
    view = AnswerView()
    view.show_answer(answer)
    area = QScrollArea()
    area.setWidget(view)
    area.setWidgetResizable(True)
    qtbot.addWidget(area)
    area.resize(340, 700)
    area.show()
    qtbot.waitExposed(area)
    labels = [lab for lab in view.findChildren(QLabel) if lab.wordWrap() and lab.isVisible()]
    qtbot.waitUntil(lambda: all(lab.width() > 0 for lab in labels), timeout=WAIT_MS)
    assert any(quote in lab.text() for lab in labels)
    for lab in labels:
        assert lab.height() >= lab.heightForWidth(lab.width()), lab.text()
    view.show_answer({**answer, "claims": []})  # a new answer replaces the old one's cards
    assert view.claims == [] and view.not_found is not None
