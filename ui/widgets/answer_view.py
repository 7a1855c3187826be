"""An answer, claim by claim: stated (your words, quoted, with where and when) or inferred.

Reads the answer's JSON (`Answer.to_json()`, the format of `verbatim ask --json`), so the window
shows exactly what the command line prints. Each kind has its own icon shape and its word; each
citation is a button that opens the recording at that second. "Not in your notes" is said plainly,
first, with the nearest passages below it: never an invented answer.
"""

from __future__ import annotations

from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QVBoxLayout, QWidget

from ui.format import clock
from ui.theme import colours, heading_font
from ui.widgets.icons import inferred_pixmap, stated_pixmap
from ui.widgets.passage_cards import CitationButton, PassageCard, Place

KIND_WORDS = {
    "stated": ("Stated", "your words, quoted"),
    "inferred": ("Inferred", "a reading, not a quote"),
}


def place_of(item: dict[str, Any]) -> Place | None:
    try:
        return Place(
            project=str(item.get("project") or ""),
            recording_id=int(item["recording_id"]),
            spoken_at=str(item.get("spoken_at") or ""),
            start=float(item.get("start") or 0.0),
            end=float(item["end"]) if item.get("end") is not None else None,
            title=str(item.get("title") or ""),
        )
    except (KeyError, TypeError, ValueError):
        return None


def _plain(text: str) -> str:
    return " ".join("".join(ch for ch in text.lower() if ch.isalnum() or ch.isspace()).split())


class ClaimCard(QFrame):
    open_requested = Signal(int, float)

    def __init__(self, claim: dict[str, Any], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.kind = "stated" if claim.get("kind") == "stated" else "inferred"
        c = colours()
        word, meaning = KIND_WORDS[self.kind]
        background = c.stated_bg if self.kind == "stated" else c.inferred_bg
        foreground = c.stated_fg if self.kind == "stated" else c.inferred_fg
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.Window, QColor(background))
        self.setPalette(palette)
        icon = QLabel()
        icon.setPixmap(stated_pixmap(18) if self.kind == "stated" else inferred_pixmap(18))
        icon.setAccessibleName(word)
        self.badge = QLabel(f"<b>{word}</b> <span style='font-weight:normal'>· {meaning}</span>")
        self.badge.setStyleSheet(f"color: {foreground};")
        badge_row = QHBoxLayout()
        badge_row.setSpacing(6)
        badge_row.addWidget(icon)
        badge_row.addWidget(self.badge, 1)
        self.text = QLabel(str(claim.get("text", "")))
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.text.setStyleSheet(
            f"color: {c.text};" + ("" if self.kind == "stated" else " font-style: italic;")
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addLayout(badge_row)
        layout.addWidget(self.text)
        self.corrected: QLabel | None = None
        if claim.get("corrected"):  # the quote is the raw words; the user's correction of the line
            self.corrected = QLabel(f"You corrected this line: “{claim['corrected']}”")
            self.corrected.setWordWrap(True)
            self.corrected.setTextFormat(Qt.TextFormat.PlainText)
            self.corrected.setStyleSheet(f"color: {foreground}; font-style: italic;")
            layout.addWidget(self.corrected)
        self.citations: list[CitationButton] = []
        for citation in claim.get("citations") or []:
            self._add_citation(layout, citation, foreground, said=self.text.text())
        self.setAccessibleName(f"{word} claim: {self.text.text()}")

    def _add_citation(self, layout: QVBoxLayout, citation: dict[str, Any], colour: str, *, said: str) -> None:
        place = place_of(citation)
        if place is None:
            return
        button = CitationButton(place)
        button.open_requested.connect(self.open_requested.emit)
        self.citations.append(button)
        layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
        quote = str(citation.get("quote") or "").strip()
        if quote and _plain(quote) != _plain(said):  # a stated claim is its quote: say it once
            label = QLabel(f"“{quote}”")
            label.setWordWrap(True)
            label.setStyleSheet(f"color: {colour}; margin-left: 18px;")
            label.setAccessibleName(f"Quote at {clock(place.start)}: {quote}")
            layout.addWidget(label)


class AnswerView(QWidget):
    """Shows one answer; `open_requested(recording_id, seconds)` when a citation is clicked."""

    open_requested = Signal(int, float)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.claims: list[ClaimCard] = []
        self.passages: list[PassageCard] = []
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        # Stacked at the top by a stretch after the last card, not by aligning the layout: an aligned
        # layout is only as tall as its size hint, which does not follow the wrapped height of the
        # cards at the panel's width, so the last line of a long quote was cut off.
        self._layout.addStretch(1)
        self.not_found: QLabel | None = None
        self.draft: QLabel | None = None

    def _add(self, widget: QWidget) -> None:
        self._layout.insertWidget(self._layout.count() - 1, widget)  # before the closing stretch

    def clear(self) -> None:
        while self._layout.count() > 1:  # all but the closing stretch
            item = self._layout.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.setParent(None)
                widget.deleteLater()
        self.claims, self.passages, self.not_found, self.draft = [], [], None, None

    def show_answer(self, answer: dict[str, Any]) -> None:
        self.clear()
        claims = [c for c in answer.get("claims") or [] if isinstance(c, dict)]
        found = bool(answer.get("answer_found")) and any(c.get("kind") == "stated" for c in claims)
        if not found:
            self._show_not_found()
        for claim in claims if found else []:
            claim_card = ClaimCard(claim)
            claim_card.open_requested.connect(self.open_requested.emit)
            self._add(claim_card)
            self.claims.append(claim_card)
        passages = [p for p in answer.get("passages") or [] if isinstance(p, dict)] if not found else []
        if passages:
            self._heading("Nearest passages (what was said, not an answer)")
        for passage in passages:
            place = place_of(passage)
            if place is None:
                continue
            card = PassageCard(
                place,
                str(passage.get("text") or passage.get("quote") or ""),
                query=str(answer.get("question") or ""),
            )
            card.open_requested.connect(self.open_requested.emit)
            self._add(card)
            self.passages.append(card)
        self._footer(answer)

    def _show_not_found(self) -> None:
        c = colours()
        self.not_found = QLabel(
            f"<span style='font-size:large'><b>Not in your notes.</b></span><br>"
            f"<span style='color:{c.muted}'>Nothing you said answers this. The passages below are the "
            "closest matches, shown as what was said.</span>"
        )
        self.not_found.setWordWrap(True)
        self.not_found.setAccessibleName("Not in your notes")
        self._add(self.not_found)

    def _heading(self, text: str) -> None:
        label = QLabel(text)
        label.setFont(heading_font(self.font(), scale=1.0))
        label.setWordWrap(True)
        label.setContentsMargins(0, 10, 0, 0)
        self._add(label)

    def _footer(self, answer: dict[str, Any]) -> None:
        timings = answer.get("timings") or {}
        parts = []
        if answer.get("model"):
            parts.append(f"Model: {answer['model']}")
        if timings.get("retrieve_ms") is not None:
            parts.append(f"found in {timings['retrieve_ms']:.0f} ms")
        if timings.get("first_token_ms"):
            parts.append(f"first words after {timings['first_token_ms'] / 1000:.1f} s")
        if timings.get("total_ms"):
            parts.append(f"{timings['total_ms'] / 1000:.1f} s in all")
        if parts:
            label = QLabel(" · ".join(parts))
            label.setStyleSheet(f"color: {colours().muted};")
            label.setWordWrap(True)
            self._add(label)

    def show_draft(self, text: str) -> None:
        """The answer as it streams in, before the checker has labelled its claims."""
        if self.draft is not None:
            self.draft.setText(text)
            return
        self.clear()
        note = QLabel("Writing the answer… each sentence is checked against your notes when it is done.")
        note.setWordWrap(True)
        self._add(note)
        self.draft = QLabel(text)
        self.draft.setWordWrap(True)
        self.draft.setAccessibleName("Answer being written (not yet checked)")
        self.draft.setStyleSheet(f"color: {colours().muted};")
        self._add(self.draft)
