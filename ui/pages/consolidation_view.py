"""Beside a recording's transcript: what background consolidation found in it.

- Facts, each with its quote; a superseded one is struck through and muted, with what replaced it
  and when ("replaced by Postgres on 2 Mar 2026, 10:00"). Both stay: nothing is deleted.
- Self-corrections: the words taken back → the words meant, each a button to that moment.
- Connections to other projects: both quotes, the rationale labelled "inferred", Accept / Dismiss.
- Stretches about another project: "Assign to PROJECT" links it (the recording stays whole) or Dismiss.

Reads through app.consolidation.views; verdicts and assignments go through app.consolidation.service as
changes, so every view that shows them redraws ({"connections"} / {"consolidation"}).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from app.consolidation import service as consolidation_service
from app.consolidation import views
from app.consolidation.views import Fact, RecordingPanel, StoredCorrection, Stretch
from app.library import Library
from app.recording_service import RecordingId
from ui.format import clock, short_date
from ui.operations import Change, Operations
from ui.theme import colours
from ui.widgets.consolidation_widgets import (
    ConnectionCard,
    QuoteBlock,
    WrappingButton,
    card_frame,
    clear_layout,
    muted_label,
    section_heading,
    send_verdict,
)
from ui.widgets.passage_cards import Place

STATUS = {
    "consolidated": "Consolidated: facts, self-corrections and connections of this note.",
    "partial": "Being consolidated in the background…",
    "pending": "Waiting for background consolidation (it follows transcription by itself).",
}


def fact_place(fact: Fact) -> Place:
    return Place(fact.project, fact.recording_id, fact.spoken_at, fact.start, fact.end)


def replaced_text(fact: Fact, successor: Fact | None) -> str:
    when = short_date(fact.valid_until) or "later"
    if successor is None:
        return f"replaced on {when}"
    return f"replaced by <b>{escape(successor.value)}</b> on {when}"


class LayersPanel(QScrollArea):
    open_requested = Signal(int, float)  # a recording (this one or another) at a second
    message = Signal(str)

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.recording_id: RecordingId | None = None
        self.panel: RecordingPanel | None = None
        self.fact_blocks: dict[int, QuoteBlock] = {}
        self.correction_buttons: list[WrappingButton] = []
        self.cards: list[ConnectionCard] = []
        self.stretch_buttons: dict[int, tuple[QPushButton, QPushButton]] = {}
        self._generation = 0
        self.setWidgetResizable(True)
        self.setMinimumWidth(300)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setAccessibleName("Facts, corrections and connections of this note")
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.status = muted_label("")
        self.status.setAccessibleName("Consolidation of this note")
        self.body_layout.addWidget(self.status)
        # Stacked at the top by a closing stretch, not by aligning the layout: an aligned layout is only
        # as tall as its size hint, so in this narrow panel (300 px) the quotes of a connection card,
        # wrapped to more lines than the hint allows for, lost their last line.
        self.body_layout.addStretch(1)
        self.setWidget(self.body)

    # --- loading ----------------------------------------------------------------------------------
    def show_recording(self, recording_id: RecordingId) -> None:
        self.recording_id = recording_id
        self._generation += 1
        generation = self._generation

        def arrived(panel: RecordingPanel) -> None:
            if generation == self._generation:
                self.show_panel(panel)

        self.ops.query(
            lambda: views.recording_panel(self.library, recording_id), finished=arrived, label="note layers"
        )

    def reload(self) -> None:
        if self.recording_id is not None:
            self.show_recording(self.recording_id)

    # --- drawing ----------------------------------------------------------------------------------
    def show_panel(self, panel: RecordingPanel) -> None:
        same = self.panel is not None and self.panel.layers.recording_id == panel.layers.recording_id
        keep = self.verticalScrollBar().value() if same else 0  # a verdict redraws: stay in place
        self.panel = panel
        self._clear()
        layers = panel.layers
        self.status.setText(STATUS.get(layers.status, layers.status))
        stretches = [s for s in layers.stretches if s.status != "dismissed"]
        if stretches:
            self._add(section_heading(f"About another project ({len(stretches)})"))
            for stretch in stretches:
                self._add(self._stretch_card(stretch))
        self._add(section_heading(f"Facts ({len(layers.facts)})"))
        for fact in layers.facts:
            self._add(self._fact_block(fact, panel.replaced_by.get(fact.id)))
        if not layers.facts:
            self._add(muted_label("No facts found in this note yet."))
        self._add(section_heading(f"Self-corrections ({len(layers.corrections)})"))
        for correction in layers.corrections:
            self._add(self._correction_row(correction, panel.segment_starts))
        if not layers.corrections:
            self._add(muted_label("You did not correct yourself in this note."))
        self._add(section_heading(f"Connections ({len(layers.connections)})"))
        for connection in layers.connections:
            card = ConnectionCard(connection, compact=True, here=self.recording_id)
            card.open_requested.connect(self.open_requested.emit)
            card.verdict_requested.connect(self.give_verdict)
            self.cards.append(card)
            self._add(card)
        if not layers.connections:
            self._add(muted_label("No passage in another project relates to this note yet."))
        QTimer.singleShot(0, self, lambda: self.verticalScrollBar().setValue(keep))

    def _fact_block(self, fact: Fact, successor: Fact | None) -> QuoteBlock:
        c = colours()
        value = escape(fact.value)
        head = f"<b>{escape(fact.attribute)}</b>: " + (f"<s>{value}</s>" if not fact.current else value)
        if not fact.current:
            head += f"<br><span style='color:{c.muted}'>{replaced_text(fact, successor)}</span>"
        elif fact.replaced:
            head += f" <span style='color:{c.muted}'>(current: it replaced an earlier value)</span>"
        if fact.correction_id is not None:
            head += f" <span style='color:{c.muted}'>(as corrected)</span>"
        here = "here" if fact.recording_id == self.recording_id else "compact"
        block = QuoteBlock(fact_place(fact), fact.quote, heading=head, muted=not fact.current, label=here)
        if not fact.current:
            block.heading.setAccessibleName(f"Superseded: {fact.attribute} {fact.value}")
        block.open_requested.connect(self.open_requested.emit)
        self.fact_blocks[fact.id] = block
        return block

    def _correction_row(self, correction: StoredCorrection, starts: dict[int, float]) -> QWidget:
        """✗ the words taken back, then → ✓ the words meant: each plays from where it was said."""
        row = QWidget()
        layout = QVBoxLayout(row)
        layout.setContentsMargins(0, 0, 0, 4)
        layout.setSpacing(0)
        for text, segment_id, mark in (
            (correction.wrong_text, correction.wrong_segment_id, "✗"),
            (correction.right_text, correction.right_segment_id, "→ ✓"),
        ):
            seconds = starts.get(segment_id, 0.0)
            # Wraps in the narrow panel: on one line the words meant made the panel wider than its
            # viewport. Both the words taken back and the words meant are shown whole, never cut to a
            # width (what was said is read as said); "· 0:21" stays together (a no-break space) when
            # it goes onto a line of its own.
            button = WrappingButton(f"{mark} “{text}” ·\u00a0{clock(seconds)}")
            button.setToolTip(f"“{text}”: play from {clock(seconds)}")
            said = "taken back" if mark == "✗" else "meant"
            button.setAccessibleName(f"Words {said}: {text}, at {clock(seconds)}")
            button.clicked.connect(
                lambda _c=False, s=seconds: self.open_requested.emit(correction.recording_id, s)
            )
            self.correction_buttons.append(button)
            layout.addWidget(button, 0, Qt.AlignmentFlag.AlignLeft)
        return row

    def _stretch_card(self, stretch: Stretch) -> QFrame:
        card = QFrame()
        card_frame(card)
        layout = QVBoxLayout(card)
        layout.setContentsMargins(10, 6, 10, 6)
        when = f"{clock(stretch.start)}–{clock(stretch.end)}"
        state = "linked to" if stretch.status == "assigned" else "probably about"
        head = QLabel(f"<b>{when}</b> · {state} <b>{escape(stretch.project)}</b>")
        head.setTextFormat(Qt.TextFormat.RichText)
        head.setWordWrap(True)
        layout.addWidget(head)
        excerpt = stretch.text if len(stretch.text) <= 220 else stretch.text[:220].rsplit(" ", 1)[0] + "…"
        words = QLabel(f"“{escape(excerpt)}”")
        words.setTextFormat(Qt.TextFormat.RichText)  # escaped text: shown as plain, "'" read "&#x27;"
        words.setWordWrap(True)
        words.setAccessibleName(f"Stated: {excerpt}")
        layout.addWidget(words)
        play = QPushButton(f"▶ Play from {clock(stretch.start)}")
        play.setAccessibleName(f"Play the stretch from {clock(stretch.start)}")
        play.clicked.connect(lambda: self.open_requested.emit(stretch.recording_id, stretch.start))
        layout.addWidget(play, 0, Qt.AlignmentFlag.AlignLeft)
        row = QHBoxLayout()  # on a line of their own: the panel may be narrow
        if stretch.status != "assigned":
            # Wraps rather than widen the panel: with Dismiss beside it, "Assign to Linden Bakery" on one
            # line was 1 px wider than the 300 px panel's viewport, and a longer project name more.
            assign = WrappingButton(f"Assign to {stretch.project}", flat=False)
            assign.setAccessibleName(f"Link this stretch to {stretch.project}")
            assign.clicked.connect(lambda: self.assign_stretch(stretch.id))
            dismiss = QPushButton("Dismiss")
            dismiss.setAccessibleName("This stretch belongs to this note's project")
            dismiss.clicked.connect(lambda: self.dismiss_stretch(stretch.id))
            row.addWidget(assign)
            row.addWidget(dismiss)
            row.addStretch(1)
            self.stretch_buttons[stretch.id] = (assign, dismiss)
        layout.addLayout(row)
        return card

    def _add(self, widget: QWidget) -> None:
        self.body_layout.insertWidget(self.body_layout.count() - 1, widget)  # above the closing stretch

    def _clear(self) -> None:
        self.fact_blocks, self.correction_buttons, self.cards, self.stretch_buttons = {}, [], [], {}
        clear_layout(self.body_layout, keep=1)  # the status line (and the closing stretch) stay

    # --- decisions --------------------------------------------------------------------------------
    def give_verdict(self, connection_id: int, verdict: str) -> None:
        send_verdict(self.ops, self.library, self.cards, connection_id, verdict, self.message.emit)

    def assign_stretch(self, stretch_id: int) -> None:
        self.ops.change(
            lambda: consolidation_service.assign_stretch(self.library, stretch_id),
            changes={Change.CONSOLIDATION, Change.CONNECTIONS},
            finished=lambda s: self.message.emit(f"Linked to {s.project}; the note stays whole."),
            label="assign stretch",
        )

    def dismiss_stretch(self, stretch_id: int) -> None:
        self.ops.change(
            lambda: consolidation_service.dismiss_stretch(self.library, stretch_id),
            changes={Change.CONSOLIDATION, Change.CONNECTIONS},
            label="dismiss stretch",
        )
