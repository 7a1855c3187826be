"""Search results: the best passages for a query (hybrid search), query words marked, one click to play."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from app import search as search_service
from app.library import Library
from app.search import Hit
from ui.operations import Operations
from ui.theme import heading_font
from ui.widgets.passage_cards import PassageCard, Place

RESULTS = 20


def place_of(hit: Hit) -> Place:
    """Where a result opens: the sentence that matched when it is known, else the passage's start."""
    start = hit.start
    if hit.matched_at is not None and hit.start <= hit.matched_at <= hit.end:
        start = hit.matched_at
    return Place(hit.project, hit.recording_id, hit.spoken_at, start, hit.end, hit.title)


class SearchPage(QWidget):
    open_requested = Signal(int, float)
    back_requested = Signal()

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.query = ""
        self.cards: list[PassageCard] = []
        self._generation = 0
        self.back_button = QPushButton("← Timeline")
        self.back_button.setAccessibleName("Back to the timeline")
        self.back_button.clicked.connect(self.back_requested.emit)
        self.heading = QLabel()
        self.heading.setFont(heading_font(self.font(), scale=1.25))
        self.heading.setWordWrap(True)
        self.heading.setAccessibleName("Search results")
        self.results = QWidget()
        self.results_layout = QVBoxLayout(self.results)
        # Results stack at the top above a closing stretch, not by aligning the layout to the top: an
        # aligned layout is only as tall as its size hint, and a narrow page cut passages' last lines off.
        self.results_layout.addStretch(1)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroll.setWidget(self.results)
        scroll.setAccessibleName("Matching passages")
        layout = QVBoxLayout(self)
        layout.addWidget(self.back_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.heading)
        layout.addWidget(scroll, 1)

    def search(self, query: str, *, project: str | None, include_archived: bool = False) -> None:
        self._generation += 1
        generation = self._generation
        self.query = query
        where = f"in {project}" if project else "in all projects"
        self.heading.setText(f"Searching {where} for “{query}”…")
        self._clear()

        def run() -> list[Hit]:
            hits = search_service.search(
                self.library,
                query,
                projects=[project] if project else None,
                k=RESULTS,
                include_archived=include_archived,
            )
            return search_service.cut_where_relevance_falls(hits)  # not every passage of the library

        def arrived(hits: list[Hit]) -> None:
            if generation == self._generation:
                self.show_hits(hits, where)

        def failed(exc: BaseException) -> None:
            if generation == self._generation:
                self.heading.setText(f"Search {where} for “{query}” did not run.")
                self.ops.report_error(exc)

        self.ops.query(run, finished=arrived, failed=failed, label="search", slow=True)

    def show_hits(self, hits: list[Hit], where: str) -> None:
        self._clear()
        if not hits:
            self.heading.setText(f"Nothing {where} matches “{self.query}”.")
            return
        count = f"{len(hits)} passage" + ("" if len(hits) == 1 else "s")
        self.heading.setText(f"{count} {where} for “{self.query}”, best first")
        for hit in hits:
            card = PassageCard(place_of(hit), hit.text, query=self.query)
            card.open_requested.connect(self.open_requested.emit)
            self.results_layout.insertWidget(self.results_layout.count() - 1, card)  # above the stretch
            self.cards.append(card)

    def _clear(self) -> None:
        for card in self.cards:
            card.setParent(None)
            card.deleteLater()
        self.cards = []
