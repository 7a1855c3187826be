"""Commitments across all projects (Ctrl+4, or "Commitments" in the sidebar): who owes what to whom
by when, by due date, in four sections: overdue, due, no date said, done.

Each card names the parties and the thing ("I → Oren: the hiring scorecard"), the due date (with
"Overdue by 6 days" in words, not by colour alone), then the quote as it was said with its project,
date and time into the recording, one click from the audio. A done one also shows the later words
that said so, one click from theirs. Nothing here is the model's reading: every quote is stated.
`count_changed` (how many are overdue) feeds the sidebar's badge.
"""

from __future__ import annotations

from datetime import date
from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QCheckBox,
    QFrame,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from app.consolidation import views
from app.consolidation.views import Commitment, CommitmentGroups
from app.library import Library
from ui.operations import Operations
from ui.theme import colours, heading_font
from ui.widgets.consolidation_widgets import (
    QuoteBlock,
    card_frame,
    clear_layout,
    muted_label,
    section_heading,
)
from ui.widgets.passage_cards import Place

SUBJECTS = {"me": "I", "us": "We"}
KEEP = "white-space: nowrap"


def due_day(due: str | None) -> str:
    if not due:
        return "no date said"
    day = date.fromisoformat(due[:10])
    return f"{day:%a} {day.day} {day:%b %Y}"


def parties(c: Commitment) -> str:
    who = SUBJECTS.get(c.who, c.who[:1].upper() + c.who[1:])
    return f"{who} → {c.to_whom}" if c.to_whom else who


def due_line(c: Commitment, today: date) -> str:
    """ "Due Tue 25 Aug 2026 (by next Tuesday) · Overdue by 6 days", as rich text."""
    # The line wraps in a narrow column; the date and "⚠ Overdue by N days" each stay whole on a line.
    line = f"<span style='{KEEP}'>Due {due_day(c.due_date)}</span>" if c.due_date else "No date said"
    if c.due_text:
        line += f" <span style='color:{colours().muted}'>({escape(c.due_text)})</span>"
    if c.done_on(today):
        return line + " · <b>Done</b>"
    if c.due_date is not None:
        days = (today - date.fromisoformat(c.due_date)).days
        if days > 0:
            late = f"Overdue by {days} day{'s' if days != 1 else ''}"
            return line + f" · <b style='color:{colours().error}; {KEEP}'>⚠ {late}</b>"
        line += " · due today" if days == 0 else f" · in {-days} day{'s' if days != -1 else ''}"
    return line


def place(c: Commitment) -> Place:
    return Place(c.project, c.recording_id, c.spoken_at, c.start, c.end, c.title)


def done_place(c: Commitment) -> Place:
    return Place(c.done_project or c.project, c.done_recording_id or c.recording_id, c.done_spoken_at or "",
                 c.done_start or 0.0)  # fmt: skip


class CommitmentCard(QFrame):
    """One commitment: parties and thing, due date, the quote (and the words that said it was done)."""

    open_requested = Signal(int, float)

    def __init__(self, commitment: Commitment, today: date, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.commitment = commitment
        self.overdue = commitment.overdue(today)
        card_frame(self)
        self.title = QLabel(f"<b>{escape(parties(commitment))}</b>: {escape(commitment.what)}")
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        self.due = QLabel(due_line(commitment, today))
        self.due.setTextFormat(Qt.TextFormat.RichText)
        # Wraps: the page has no horizontal scroll bar, and at its narrowest (487 px) the line on one
        # line made the card wider than the column, cutting off its end and the card's right border.
        self.due.setWordWrap(True)
        self.due.setAccessibleName(
            ("Overdue. " if self.overdue else "") + f"Due {due_day(commitment.due_date)}"
        )
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(3)
        layout.addWidget(self.title)
        layout.addWidget(self.due)
        self.quote = QuoteBlock(place(commitment), commitment.quote)
        self.quote.open_requested.connect(self.open_requested.emit)
        layout.addWidget(self.quote)
        self.done_quote: QuoteBlock | None = None
        if commitment.done_on(today) and commitment.done_quote:
            self.done_quote = QuoteBlock(
                done_place(commitment), commitment.done_quote, heading="<b>Done:</b>"
            )
            self.done_quote.open_requested.connect(self.open_requested.emit)
            layout.addWidget(self.done_quote)
        self.setAccessibleName(f"Commitment: {parties(commitment)}, {commitment.what}")


class CommitmentsPage(QWidget):
    open_requested = Signal(int, float)
    back_requested = Signal()
    count_changed = Signal(int)  # how many are overdue

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.today: date | None = None  # None: the day it is read (a test or a screenshot sets one)
        self.groups: CommitmentGroups | None = None
        self.cards: list[CommitmentCard] = []
        self._generation = 0
        self.back_button = QPushButton("← Timeline")
        self.back_button.setAccessibleName("Back to the timeline")
        self.back_button.clicked.connect(self.back_requested.emit)
        self.heading = QLabel("Commitments")
        self.heading.setFont(heading_font(self.font(), scale=1.35))
        self.heading.setAccessibleName("Commitments across projects")
        self.summary = muted_label("")
        self.summary.setAccessibleName("How many commitments are overdue, due and done")
        self.explain = muted_label(
            "Who owes what to whom, and by when, across all projects, by due date. Each is your own "
            "words, one click from the audio; the date is read from them against the day of the note. "
            "A later note that says it went out marks it done."
        )
        self.show_done = QCheckBox("Show done")
        self.show_done.setChecked(True)
        self.show_done.setAccessibleName("Show commitments a later note says are done")
        self.show_done.toggled.connect(lambda _on: self.groups is not None and self.show_groups(self.groups))
        top = QHBoxLayout()
        top.addWidget(self.summary, 1)
        top.addWidget(self.show_done)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        # Cards stack above a closing stretch, not by aligning the layout to the top: an aligned layout
        # is only as tall as its size hint, and once the due line wraps (a narrow column) a quote lost
        # its last line.
        self.body_layout.addStretch(1)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setWidget(self.body)
        self.area.setAccessibleName("Commitments, by due date")
        layout = QVBoxLayout(self)
        layout.addWidget(self.back_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.heading)
        layout.addWidget(self.explain)
        layout.addLayout(top)
        layout.addWidget(self.area, 1)

    def reload(self) -> None:
        """Read the commitments (also when the page is hidden: the sidebar shows how many are overdue)."""
        self._generation += 1
        generation = self._generation
        today = self.today

        def arrived(groups: CommitmentGroups) -> None:
            if generation == self._generation:
                self.show_groups(groups)

        self.ops.query(
            lambda: views.commitment_groups(self.library, today=today), finished=arrived, label="commitments"
        )

    def show_groups(self, groups: CommitmentGroups) -> None:
        self.groups = groups
        keep = self.area.verticalScrollBar().value()
        self._clear()
        counts = [
            (len(groups.overdue), "overdue"),
            (len(groups.due), "due"),
            (len(groups.undated), "with no date said"),
            (len(groups.done), "done"),
        ]
        self.summary.setText(
            " · ".join(f"{n} {word}" for n, word in counts if n)
            + f" — as of {due_day(groups.today.isoformat())}"
        )
        self.heading.setText(f"Commitments ({groups.open} open)" if groups.open else "Commitments")
        sections = [
            ("Overdue", groups.overdue),
            ("Due", groups.due),
            ("No date said", groups.undated),
            ("Done", groups.done if self.show_done.isChecked() else []),
        ]
        for title, rows in sections:
            if not rows:
                continue
            self._add(section_heading(f"{title} ({len(rows)})"))
            for c in rows:
                card = CommitmentCard(c, groups.today)
                card.open_requested.connect(self.open_requested.emit)
                self.cards.append(card)
                self._add(card)
        if not (groups.open or groups.done):
            self._add(
                muted_label(
                    'No commitments yet. "I\'ll send Jana the deck by Monday", "Markus owes us the data '
                    'by Friday": they appear here once a note is consolidated, in the background.'
                )
            )
        QTimer.singleShot(0, self, lambda: self.area.verticalScrollBar().setValue(keep))
        self.count_changed.emit(len(groups.overdue))

    def _add(self, widget: QWidget) -> None:
        self.body_layout.insertWidget(self.body_layout.count() - 1, widget)  # above the closing stretch

    def _clear(self) -> None:
        self.cards = []
        clear_layout(self.body_layout)  # the closing stretch stays
