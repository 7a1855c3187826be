"""Pieces the consolidation views share: a stated quote one click from its audio, a section heading,
and a connection card (both quotes, the inferred rationale, Accept / Dismiss).

What was said is shown as "Stated" with the quote mark icon; what the model made of it as
"Inferred" with the dashed icon, in words too, never by colour alone.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

from PySide6.QtCore import QSize, Qt, Signal
from PySide6.QtGui import QColor, QPalette
from PySide6.QtWidgets import (
    QFrame,
    QHBoxLayout,
    QLabel,
    QLayout,
    QPushButton,
    QSizePolicy,
    QStyle,
    QStyleOptionButton,
    QVBoxLayout,
    QWidget,
)

from app.consolidation import service as consolidation_service
from app.consolidation.views import Connection, Side
from app.library import Library
from ui.format import clock, parse_store_time
from ui.operations import Change, Operations
from ui.theme import colours, heading_font
from ui.widgets.icons import inferred_pixmap, stated_pixmap
from ui.widgets.passage_cards import CitationButton, Place

CONNECTION_KINDS = {
    "person": "Same person",
    "organisation": "Same organisation",
    "technology": "Same technology or vendor",
    "name": "Same name",
    "amount": "Same amount",
    "date": "Same date",
    "calendar_clash": "Calendar clash",
    "meaning": "Close in meaning",
}


def connection_kind(kind: str) -> str:
    return CONNECTION_KINDS.get(kind, kind.replace("_", " ").capitalize())


def short_day(text: str) -> str:
    when = parse_store_time(text)
    return f"{when.day} {when:%b %Y}" if when else ""


def section_heading(text: str) -> QLabel:
    label = QLabel(text)
    label.setFont(heading_font(label.font(), scale=1.1))
    label.setAccessibleName(text)
    label.setContentsMargins(0, 8, 0, 2)
    return label


def muted_label(text: str) -> QLabel:
    label = QLabel(text)
    label.setWordWrap(True)
    label.setStyleSheet(f"color: {colours().muted};")
    return label


def icon_label(kind: str) -> QLabel:
    icon = QLabel()
    icon.setPixmap(stated_pixmap(16) if kind == "stated" else inferred_pixmap(16))
    icon.setAccessibleName("Stated" if kind == "stated" else "Inferred")
    icon.setToolTip("Stated: your words, quoted" if kind == "stated" else "Inferred: not a quote")
    icon.setAlignment(Qt.AlignmentFlag.AlignTop)
    return icon


class WrappingButton(QPushButton):
    """A button whose text word-wraps, for words that must be shown whole in a narrow panel.

    A QPushButton's own text never wraps: its minimum width is its longest line, and in the layers
    panel (300 px) "→ ✓ “Wednesday the 4th of February” · 0:21" made the whole panel wider than its
    viewport, putting the cards' right border under the scroll bar. The text is a word-wrapped label
    inside the button instead; the button still takes the clicks, the focus and the accessible name.
    """

    def __init__(self, text: str, parent: QWidget | None = None, *, flat: bool = True) -> None:
        super().__init__(parent)
        self.setFlat(flat)
        self.label = QLabel(text)
        self.label.setTextFormat(Qt.TextFormat.PlainText)  # the user's words, never read as markup
        self.label.setWordWrap(True)
        self.label.setAttribute(Qt.WidgetAttribute.WA_TransparentForMouseEvents)  # a click is the button's
        self.row = QHBoxLayout(self)
        if flat:
            self.row.setContentsMargins(4, 2, 4, 2)  # as the flat, left-aligned buttons beside it
        else:  # as much room around the text as the style gives a button's own text (its bevel)
            option = QStyleOptionButton()
            self.initStyleOption(option)
            room = self.style().sizeFromContents(QStyle.ContentsType.CT_PushButton, option, QSize(0, 0), self)
            side, top = room.width() // 2, room.height() // 2
            self.row.setContentsMargins(side, top, side, top)
            self.label.setAlignment(Qt.AlignmentFlag.AlignCenter)  # as a button's own text is
        self.row.addWidget(self.label)
        # Preferred, not QPushButton's fixed height: a wrapped label is taller, and the layout gives the
        # button the height its width needs (heightForWidth below).
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Preferred)

    def text(self) -> str:
        return self.label.text()

    def setText(self, text: str) -> None:
        self.label.setText(text)
        self.updateGeometry()

    # QPushButton sizes itself by its own text, which is empty here; these follow the label.
    def sizeHint(self) -> QSize:
        # As wide as the text on one line, so a layout offers that much when it has it (a wrapped
        # label's own hint is a narrower, wrapped shape: it broke "· 0:21" off with room to spare).
        # The 1 px: at exactly the text's advance the label already breaks its last word off.
        margins = self.row.contentsMargins()
        width = self.label.fontMetrics().horizontalAdvance(self.label.text()) + 1
        width += margins.left() + margins.right()
        return QSize(width, self.heightForWidth(width))

    def minimumSizeHint(self) -> QSize:
        return self.row.totalMinimumSize()

    def hasHeightForWidth(self) -> bool:
        return True

    def heightForWidth(self, width: int) -> int:
        return self.row.totalHeightForWidth(width)


class QuoteBlock(QWidget):
    """▶ Project · date · at m:ss, then the quote itself beside the "stated" icon."""

    open_requested = Signal(int, float)

    def __init__(
        self,
        place: Place,
        quote: str,
        *,
        heading: str = "",
        extra: str = "",
        muted: bool = False,
        label: str = "full",
        parent: QWidget | None = None,
    ) -> None:
        """`label`: "full" (project · date, time · at m:ss), "compact" (project · date · m:ss, for a
        narrow panel) or "here" (at m:ss: a moment of the recording already open)."""
        super().__init__(parent)
        c = colours()
        self.heading = QLabel(heading)  # rich text above the quote (a fact's attribute and value)
        self.heading.setTextFormat(Qt.TextFormat.RichText)
        self.heading.setWordWrap(True)
        self.heading.setVisible(bool(heading))
        if muted:
            self.heading.setStyleSheet(f"color: {c.muted};")
        self.citation = CitationButton(place)
        self.citation.open_requested.connect(self.open_requested.emit)
        if label == "compact":
            day, at = short_day(place.spoken_at), clock(place.start)
            self.citation.set_label(f"▶ {place.project} · {day} · {at}", f"▶ {place.project}\n{day} · {at}")
        elif label == "here":
            self.citation.set_label(f"▶ at {clock(place.start)}")
        text = f"“{escape(quote)}”"
        if muted:
            text = f"<s>{text}</s>"
        self.quote = QLabel(text + (f"<br><span>{extra}</span>" if extra else ""))
        self.quote.setTextFormat(Qt.TextFormat.RichText)
        self.quote.setWordWrap(True)
        self.quote.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.quote.setStyleSheet(f"color: {c.muted if muted else c.text};")
        self.quote.setAccessibleName(f"Stated: {quote}")
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)
        row.setSpacing(6)
        row.addWidget(icon_label("stated"))
        row.addWidget(self.quote, 1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 2, 0, 2)
        layout.setSpacing(0)
        layout.addWidget(self.heading)
        layout.addLayout(row)
        layout.addWidget(self.citation, 0, Qt.AlignmentFlag.AlignLeft)


def side_place(side: Side) -> Place:
    return Place(side.project, side.recording_id, side.spoken_at, side.start, side.end, side.title)


def card_frame(frame: QFrame) -> None:
    frame.setFrameShape(QFrame.Shape.StyledPanel)
    frame.setAutoFillBackground(True)
    palette = frame.palette()
    palette.setColor(QPalette.ColorRole.Window, QColor(colours().base))
    frame.setPalette(palette)


class ConnectionCard(QFrame):
    """One connection: what links the two notes, both quotes, the rationale (inferred), the verdict."""

    open_requested = Signal(int, float)
    verdict_requested = Signal(int, str)  # connection id, "accept" | "dismiss"

    def __init__(
        self,
        connection: Connection,
        *,
        compact: bool = False,
        here: int | None = None,
        parent: QWidget | None = None,
    ) -> None:
        """`compact`: short citations for a narrow panel; `here`: the recording already open, whose
        side is cited by its moment only ("▶ at 0:39"), as the facts of that note are."""
        super().__init__(parent)
        self.connection = connection
        c = colours()
        card_frame(self)
        title = f"{connection_kind(connection.kind)}: {connection.shared}" if connection.shared else ""
        self.title = QLabel(
            f"<b>{escape(title or connection_kind(connection.kind))}</b><br>"
            f"<span style='color:{c.muted}'>{escape(connection.a.project)} ↔ "
            f"{escape(connection.b.project)}</span>"
        )
        self.title.setTextFormat(Qt.TextFormat.RichText)
        self.title.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 8)
        layout.setSpacing(4)
        layout.addWidget(self.title)
        self.quotes: list[QuoteBlock] = []
        for side in (connection.a, connection.b):
            label = "here" if side.recording_id == here else "compact" if compact else "full"
            block = QuoteBlock(side_place(side), side.quote, label=label)
            block.open_requested.connect(self.open_requested.emit)
            self.quotes.append(block)
            layout.addWidget(block)
        layout.addLayout(self._rationale_row(connection.rationale))
        layout.addLayout(self._verdict_row(connection))
        self.setAccessibleName(f"Connection between {connection.a.project} and {connection.b.project}")

    def _rationale_row(self, rationale: str) -> QHBoxLayout:
        c = colours()
        self.rationale = QLabel(f"<b>Inferred</b> · {escape(rationale or 'no reason given')}")
        self.rationale.setTextFormat(Qt.TextFormat.RichText)
        self.rationale.setWordWrap(True)
        self.rationale.setStyleSheet(
            f"color: {c.inferred_fg}; background: {c.inferred_bg}; padding: 4px; font-style: italic;"
        )
        self.rationale.setAccessibleName(f"Inferred: {rationale}")
        row = QHBoxLayout()
        row.setSpacing(6)
        row.addWidget(icon_label("inferred"))
        row.addWidget(self.rationale, 1)
        return row

    def _verdict_row(self, connection: Connection) -> QHBoxLayout:
        row = QHBoxLayout()
        self.accept_button = QPushButton("Accept")
        self.accept_button.setAccessibleName("Accept this connection")
        self.accept_button.setToolTip("Keep it: connections like this one rank higher from now on")
        self.accept_button.clicked.connect(lambda: self.verdict_requested.emit(connection.id, "accept"))
        self.dismiss_button = QPushButton("Dismiss")
        self.dismiss_button.setAccessibleName("Dismiss this connection")
        self.dismiss_button.setToolTip("Noise: connections like this one rank lower from now on")
        self.dismiss_button.clicked.connect(lambda: self.verdict_requested.emit(connection.id, "dismiss"))
        self.verdict = QLabel()
        if connection.verdict:
            self.verdict.setText(f"✓ {connection.verdict.capitalize()}")
            self.accept_button.setEnabled(connection.verdict != "accepted")
            self.dismiss_button.setEnabled(connection.verdict != "dismissed")
        row.addWidget(self.verdict)
        row.addStretch(1)
        row.addWidget(self.accept_button)
        row.addWidget(self.dismiss_button)
        return row

    def set_busy(self) -> None:
        self.accept_button.setEnabled(False)
        self.dismiss_button.setEnabled(False)


def clear_layout(layout: QLayout, *, keep: int = 0) -> None:
    """Remove and delete every widget of `layout` after its first `keep` ones; a closing stretch (what
    keeps a list of cards at the top) stays."""
    last = layout.itemAt(layout.count() - 1)
    closing = 1 if last is not None and last.spacerItem() is not None else 0
    while layout.count() > keep + closing:
        entry = layout.takeAt(keep)
        widget = entry.widget() if entry is not None else None
        if widget is not None:
            widget.setParent(None)
            widget.deleteLater()


def send_verdict(
    ops: Operations,
    library: Library,
    cards: list[ConnectionCard],
    connection_id: int,
    verdict: str,
    say: Callable[[str], None],
) -> None:
    """Accept or dismiss a connection off the UI thread; its card waits until the views refresh."""
    for card in cards:
        if card.connection.id == connection_id:
            card.set_busy()
    ops.change(
        lambda: consolidation_service.connection_verdict(library, connection_id, verdict),
        changes={Change.CONNECTIONS},
        finished=lambda c: say(f"Connection {c.verdict}."),
        label="connection verdict",
    )
