"""A passage of the user's own words with where and when it was said, one click from the audio.

Used by search results, an answer's citations and an answer's nearest passages. The header is a
button ("Harbourline · 2 Jun 2026, 08:40 · at 12:31"), so it is reachable by Tab and read aloud
with its full meaning.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QCursor, QPalette, QResizeEvent
from PySide6.QtWidgets import QFrame, QLabel, QPushButton, QSizePolicy, QVBoxLayout, QWidget

from ui.format import clock, parse_store_time, short_date
from ui.theme import colours
from ui.widgets.highlight import highlight_html


@dataclass(frozen=True)
class Place:
    """Where words were said: enough to open the recording at that moment."""

    project: str
    recording_id: int
    spoken_at: str
    start: float
    end: float | None = None
    title: str = ""

    def label(self) -> str:
        return f"{self.project} · {short_date(self.spoken_at)} · at {clock(self.start)}"

    def label_lines(self) -> str:
        """The label on two lines: the project, then when (for a panel too narrow for one)."""
        return f"{self.project}\n{short_date(self.spoken_at)} · at {clock(self.start)}"

    def spoken(self) -> str:
        when = parse_store_time(self.spoken_at)
        day = f"{when:%A} {when.day} {when:%B %Y}" if when else "an unknown day"
        return f"Play {self.project}, {day}, from {clock(self.start)}"


class CitationButton(QPushButton):
    """A link-like button that opens a recording at a moment."""

    open_requested = Signal(int, float)  # recording id, seconds

    def __init__(self, place: Place, parent: QWidget | None = None, *, prefix: str = "▶ ") -> None:
        super().__init__(parent)
        self.place = place
        self.prefix = prefix
        self.setFlat(True)
        self.setCursor(QCursor(Qt.CursorShape.PointingHandCursor))
        self.setAccessibleName(place.spoken())
        self.setToolTip(place.spoken() + (f" — {place.title}" if place.title else ""))
        palette = self.palette()
        palette.setColor(QPalette.ColorRole.ButtonText, QColor(colours().accent))
        self.setPalette(palette)
        self.setStyleSheet("text-align: left; padding: 2px 4px; text-decoration: underline;")
        self.clicked.connect(lambda: self.open_requested.emit(place.recording_id, place.start))
        # In a narrow panel the label goes onto two lines (project, then when) rather than push the
        # panel wider or lose its end (the Ask panel cut "· at 1:15" off).
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Fixed)
        self.setMinimumWidth(120)
        self.one_line = ""
        self.two_lines = ""
        self.set_label(prefix + place.label(), prefix + place.label_lines())

    def set_label(self, one_line: str, two_lines: str | None = None) -> None:
        """Show `one_line`, or `two_lines` (the same words with a line break) when the button is
        narrower than one line; without `two_lines` the label stays on one line."""
        # Kept here, not only as the button's text: a resize chooses between the two, and choosing
        # from the place's full label instead put it back over a short one its caller had set.
        self.one_line = one_line
        self.two_lines = two_lines if two_lines is not None else one_line
        self._fit(self.width() if self.isVisible() else None)
        self.updateGeometry()  # the size hint follows the label

    def setText(self, text: str) -> None:
        """A label set as text stays on one line and survives resizes (see set_label)."""
        self.set_label(text)

    def one_line_width(self) -> int:
        return self.fontMetrics().horizontalAdvance(self.one_line) + 16  # the padding

    def sizeHint(self) -> QSize:
        # as wide as the label on one line, so a layout offers that much when it has it
        hint = super().sizeHint()
        return QSize(max(hint.width(), self.one_line_width()), hint.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit(event.size().width())

    def _fit(self, width: int | None) -> None:
        """One line or two for `width` (None: not laid out yet, one line until it is)."""
        fits = width is None or width >= self.one_line_width()
        wanted = self.one_line if fits else self.two_lines
        if self.text() != wanted:
            super().setText(wanted)
            self.updateGeometry()  # two lines are taller: the layout gives the height back


class PassageCard(QFrame):
    open_requested = Signal(int, float)

    def __init__(self, place: Place, text: str, *, query: str = "", parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = place
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.citation = CitationButton(place)
        self.citation.open_requested.connect(self.open_requested.emit)
        c = colours()
        self.body = QLabel(highlight_html(text, query, background=c.match_bg, foreground=c.match_text))
        self.body.setTextFormat(Qt.TextFormat.RichText)
        self.body.setWordWrap(True)
        self.body.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.body.setAccessibleName(f"Passage from {place.project}")
        self.body.setAccessibleDescription(text)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 8)
        layout.setSpacing(2)
        layout.addWidget(self.citation, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.body)
