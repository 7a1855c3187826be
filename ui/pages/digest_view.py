"""A project's digest above its timeline: decisions, commitments (who, what, by when) and open
questions, each the quote as it was said, with its date and time into the recording, newest first.
Clicking the place under a quote opens the recording there and plays it.

Filled by background consolidation (app.consolidation.service); before a note is consolidated it simply
has nothing here yet. Nothing in the digest is the model's reading: each item is a stated quote.
"""

from __future__ import annotations

from datetime import date
from html import escape

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QFrame, QHBoxLayout, QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from app.consolidation import service as consolidation_service
from app.consolidation.views import DigestItem
from app.library import Library
from ui.operations import Operations
from ui.theme import heading_font
from ui.widgets.consolidation_widgets import QuoteBlock, clear_layout, muted_label, section_heading
from ui.widgets.passage_cards import Place

SECTIONS = (
    ("decision", "Decisions", "decision", "decisions"),
    ("commitment", "Commitments", "commitment", "commitments"),
    ("question", "Open questions", "open question", "open questions"),
)
PER_SECTION = 6  # the newest few; "Show all" lists the rest


def due_text(due: str | None) -> str:
    if not due:
        return "no date said"
    try:
        day = date.fromisoformat(due[:10])
    except ValueError:
        return due
    return f"{day:%a} {day.day} {day:%b %Y}"


def digest_place(item: DigestItem) -> Place:
    return Place(item.project, item.recording_id, item.spoken_at, item.start, item.end, item.title)


def counts_text(items: list[DigestItem]) -> str:
    parts = []
    for kind, _title, one, many in SECTIONS:
        n = sum(1 for i in items if i.kind == kind)
        if n:
            parts.append(f"{n} {one if n == 1 else many}")
    return " · ".join(parts)


class DigestPanel(QFrame):
    open_requested = Signal(int, float)

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.project: str | None = None
        self.items: list[DigestItem] = []
        self.blocks: list[QuoteBlock] = []
        self.show_all = False
        self._generation = 0
        self.setAccessibleName("Project digest")
        self.heading = QLabel("Digest")
        self.heading.setFont(heading_font(self.font(), scale=1.15))
        self.summary = muted_label("")
        self.summary.setAccessibleName("What the digest holds")
        self.more_button = QPushButton("Show all")
        self.more_button.setAccessibleName("Show every digest item")
        self.more_button.clicked.connect(self.on_more_clicked)
        self.more_button.hide()
        top = QHBoxLayout()
        top.addWidget(self.heading)
        top.addWidget(self.summary, 1)
        top.addWidget(self.more_button)
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        self.body_layout.setAlignment(Qt.AlignmentFlag.AlignTop)
        self.body_layout.setContentsMargins(0, 0, 8, 0)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setFrameShape(QFrame.Shape.NoFrame)
        self.area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setWidget(self.body)
        self.area.setAccessibleName("Decisions, commitments and open questions")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 4)
        layout.addLayout(top)
        layout.addWidget(self.area, 1)

    # --- loading ----------------------------------------------------------------------------------
    def show_project(self, project: str | None) -> None:
        """Read the project's digest (None: all projects, which have no single digest: hidden)."""
        if project != self.project:
            self.show_all = False
        self.project = project
        self._generation += 1
        generation = self._generation
        self.setVisible(project is not None)
        if project is None:
            return

        def arrived(items: list[DigestItem]) -> None:
            if generation == self._generation:
                self.show_items(items)

        self.ops.query(
            lambda: consolidation_service.project_digest(self.library, project),
            finished=arrived,
            label="project digest",
        )

    def reload(self) -> None:
        if self.project is not None:
            self.show_project(self.project)

    def on_more_clicked(self) -> None:
        self.show_all = not self.show_all
        self.show_items(self.items)

    # --- drawing ----------------------------------------------------------------------------------
    def show_items(self, items: list[DigestItem]) -> None:
        self.items = items
        self._clear()
        self.summary.setText(counts_text(items) + (", newest first" if items else ""))
        hidden = 0
        for kind, title, _one, _many in SECTIONS:
            rows = [i for i in items if i.kind == kind]
            if not rows:
                continue
            shown = rows if self.show_all else rows[:PER_SECTION]
            hidden += len(rows) - len(shown)
            self._add(section_heading(title))
            for item in shown:
                self._add_item(item)
        if not items:
            self._add(
                muted_label(
                    "Nothing here yet. Decisions, commitments and open questions appear once this "
                    "project's notes are consolidated, in the background after each note."
                )
            )
        self.more_button.setVisible(hidden > 0 or self.show_all)
        self.more_button.setText("Show fewer" if self.show_all else f"Show all ({len(items)})")

    def _add_item(self, item: DigestItem) -> None:
        extra = ""
        if item.kind == "commitment":
            who = {"me": "I", "us": "we"}.get(item.who or "", item.who or "not said")
            to = f" → {escape(item.to_whom)}" if item.to_whom else ""
            what = f": {escape(item.what)}" if item.what else ""
            extra = f"<b>Who:</b> {escape(who)}{to}{what} · <b>by:</b> {due_text(item.due)}"
            extra += " · <b>done</b>" if item.done else ""
        block = QuoteBlock(digest_place(item), item.quote, extra=extra)
        block.open_requested.connect(self.open_requested.emit)
        self.blocks.append(block)
        self._add(block)

    def _add(self, widget: QWidget) -> None:
        self.body_layout.addWidget(widget)

    def _clear(self) -> None:
        self.blocks = []
        clear_layout(self.body_layout)
