"""Words with apostrophes, ampersands and angle brackets read as said on every card: never as HTML
source ("the lead&#x27;s warehouse" was shown on the card of an aside about another project)."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt
from PySide6.QtGui import QTextDocument
from PySide6.QtWidgets import QLabel, QWidget

from memory.consolidate.connection_store import Connection, Side
from memory.consolidate.stretches import Stretch
from ui.pages.consolidation_view import LayersPanel
from ui.widgets.consolidation_widgets import ConnectionCard, QuoteBlock
from ui.widgets.passage_cards import Place

SAID = "the lead's warehouse & the harbour's dock"


def shown(label: QLabel) -> str:
    """What the user reads: rich text rendered, plain text as it is."""
    text = label.text()
    rich = label.textFormat() == Qt.TextFormat.RichText or (
        label.textFormat() == Qt.TextFormat.AutoText and GuiQt.mightBeRichText(text)
    )
    if not rich:
        return text
    document = QTextDocument()
    document.setHtml(text)
    return document.toPlainText()


def shown_texts(widget: QWidget) -> list[str]:
    return [shown(label) for label in widget.findChildren(QLabel)]


def _assert_reads_as_said(widget: QWidget) -> None:
    texts = shown_texts(widget)
    assert any(SAID in t for t in texts), texts
    assert not any("&#" in t or "&amp;" in t or "&lt;" in t for t in texts), texts


def test_an_aside_card_shows_the_words_as_said(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    from ui.operations import Operations

    errors: list[BaseException] = []
    panel = LayersPanel(Operations(errors.append), library)
    qtbot.addWidget(panel)
    stretch = Stretch(1, 1, 0, 2, 4.0, 19.0, 2, "Tessera & Co", 1.0, "suggested", f"Quick aside: {SAID}.")
    _assert_reads_as_said(panel._stretch_card(stretch))
    assert not errors


def test_quote_and_connection_cards_show_the_words_as_said(qtbot) -> None:  # type: ignore[no-untyped-def]
    block = QuoteBlock(Place("O'Brien & Sons", 1, "2026-03-02T10:00:00", 12.0), SAID)
    qtbot.addWidget(block)
    _assert_reads_as_said(block)

    def side(project: str, recording: int) -> Side:
        return Side(1, project, recording, "note", "2026-03-02T10:00:00", [1], SAID, 3.0, 8.0)

    card = ConnectionCard(
        Connection(1, side("A & B", 1), side("C's", 2), "same_org", "Lead's", 0.9, {}, "", "", None, "")
    )
    qtbot.addWidget(card)
    _assert_reads_as_said(card)


def test_a_self_correction_shows_all_the_words_taken_back_and_meant(qtbot, library) -> None:  # type: ignore[no-untyped-def]
    """The buttons wrap, so the words are not cut to a width ("six hundred and forty thous…")."""
    from memory.consolidate.correction_store import StoredCorrection
    from ui.operations import Operations

    panel = LayersPanel(Operations(lambda _e: None), library)
    qtbot.addWidget(panel)
    wrong, right = (
        "six hundred and forty thousand & change",
        "four hundred and sixty thousand over the three years",
    )
    correction = StoredCorrection(1, 1, "no", "value", 1, 0, 5, wrong, 1, 6, 14, right)
    texts = shown_texts(panel._correction_row(correction, {1: 12.0}))
    assert any(f"“{wrong}”" in t for t in texts) and any(f"“{right}”" in t for t in texts), texts
