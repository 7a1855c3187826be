"""New connections across projects (Ctrl+3, or "Connections" in the sidebar), newest first.

Each card shows both quotes with their project and date, the rationale labelled "inferred", and
Accept / Dismiss. A verdict is stored (and re-weights later ranking); the card then leaves this
list, which holds only connections nobody has decided on yet. `count_changed` feeds the sidebar's
badge.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import QLabel, QPushButton, QScrollArea, QVBoxLayout, QWidget

from app.consolidation import views
from app.consolidation.views import Connection
from app.library import Library
from ui.operations import Operations
from ui.theme import heading_font
from ui.widgets.consolidation_widgets import ConnectionCard, clear_layout, muted_label, send_verdict


class ConnectionsPage(QWidget):
    open_requested = Signal(int, float)
    back_requested = Signal()
    count_changed = Signal(int)  # how many connections are new (undecided)
    message = Signal(str)

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.connections: list[Connection] = []
        self.cards: list[ConnectionCard] = []
        self._generation = 0
        self.back_button = QPushButton("← Timeline")
        self.back_button.setAccessibleName("Back to the timeline")
        self.back_button.clicked.connect(self.back_requested.emit)
        self.heading = QLabel("New connections")
        self.heading.setFont(heading_font(self.font(), scale=1.35))
        self.heading.setAccessibleName("New connections across projects")
        self.explain = muted_label(
            "Passages in different projects that share a person, an organisation, a technology, an "
            "amount or a date, or say something close. The quotes are your words; the reason under "
            "them is inferred. Accept what is useful, dismiss noise: later ones are ranked by it."
        )
        self.body = QWidget()
        self.body_layout = QVBoxLayout(self.body)
        # Cards stack at the top above a closing stretch, not by aligning the layout to the top: an
        # aligned layout is only as tall as its size hint, and a narrow page cut quotes' last lines off.
        self.body_layout.addStretch(1)
        self.area = QScrollArea()
        self.area.setWidgetResizable(True)
        self.area.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.area.setWidget(self.body)
        self.area.setAccessibleName("New connections, newest first")
        layout = QVBoxLayout(self)
        layout.addWidget(self.back_button, 0, Qt.AlignmentFlag.AlignLeft)
        layout.addWidget(self.heading)
        layout.addWidget(self.explain)
        layout.addWidget(self.area, 1)

    def reload(self) -> None:
        """Read the new connections (also when the page is hidden: the sidebar shows their count)."""
        self._generation += 1
        generation = self._generation

        def arrived(found: list[Connection]) -> None:
            if generation == self._generation:
                self.show_connections(found)

        self.ops.query(lambda: views.new_connections(self.library), finished=arrived, label="connections")

    def show_connections(self, found: list[Connection]) -> None:
        self.connections = found
        keep = self.area.verticalScrollBar().value()  # a verdict redraws the list: stay in place
        self._clear()
        n = len(found)
        self.heading.setText(f"New connections ({n})" if n else "New connections")
        for connection in found:
            card = ConnectionCard(connection)
            card.open_requested.connect(self.open_requested.emit)
            card.verdict_requested.connect(self.give_verdict)
            self.cards.append(card)
            self._add(card)
        if not found:
            self._add(
                muted_label(
                    "No new connections. They appear here when a note shares something with "
                    "another project, after it is consolidated in the background."
                )
            )
        QTimer.singleShot(0, self, lambda: self.area.verticalScrollBar().setValue(keep))
        self.count_changed.emit(n)

    def give_verdict(self, connection_id: int, verdict: str) -> None:
        send_verdict(self.ops, self.library, self.cards, connection_id, verdict, self.message.emit)

    def _add(self, widget: QWidget) -> None:
        self.body_layout.insertWidget(self.body_layout.count() - 1, widget)  # above the closing stretch

    def _clear(self) -> None:
        self.cards = []
        clear_layout(self.body_layout)  # the closing stretch stays
