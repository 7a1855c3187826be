"""The timeline list: one painted row per recording (no widget per row), headings for weeks and days."""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import (
    QAbstractItemModel,
    QModelIndex,
    QPersistentModelIndex,
    QRect,
    QSize,
    Qt,
    QTimer,
    Signal,
)
from PySide6.QtGui import QColor, QFont, QKeyEvent, QPainter
from PySide6.QtWidgets import (
    QAbstractItemView,
    QListView,
    QStyle,
    QStyledItemDelegate,
    QStyleOptionViewItem,
    QWidget,
)

from app.recording_service import Recording
from ui.format import recording_length, recording_status, recording_title
from ui.pages.timeline_model import KIND_ROLE, RECORDING_ROLE, TimelineModel, time_of_day
from ui.theme import colours

Index = QModelIndex | QPersistentModelIndex

STATUS_GLYPHS = {
    "recording": "●",
    "queued": "…",
    "transcribing": "◐",
    "indexed": "✓",
    "consolidated": "✓",
    "failed": "⚠",
}


def _status_colour(status: str) -> str:
    c = colours()
    return {
        "recording": c.record,
        "failed": c.error,
        "indexed": c.ok,
        "consolidated": c.ok,
    }.get(status, c.warn)


@dataclass(frozen=True)
class _Ink:
    """The pens of one row: selected rows use the selection's text colour throughout."""

    text: QColor
    muted: QColor
    status: QColor


class TimelineDelegate(QStyledItemDelegate):
    def sizeHint(self, option: QStyleOptionViewItem, index: Index) -> QSize:
        line = option.fontMetrics.height()
        kind = index.data(KIND_ROLE)
        if kind == "week":
            return QSize(200, int(line * 1.3) + 22)
        if kind == "day":
            return QSize(200, line + 12)
        return QSize(200, line * 2 + 20)

    def paint(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        kind = index.data(KIND_ROLE)
        painter.save()
        if kind == "recording":
            self._paint_recording(painter, option, index)
        else:
            self._paint_heading(painter, option, index, kind)
        painter.restore()

    def _paint_heading(
        self, painter: QPainter, option: QStyleOptionViewItem, index: Index, kind: str
    ) -> None:
        c = colours()
        font = QFont(option.font)
        font.setBold(True)
        if kind == "week":
            font.setPointSizeF(option.font.pointSizeF() * 1.2)
            painter.setPen(QColor(c.text))
            rect = option.rect.adjusted(12, 14, -12, -4)
        else:
            painter.setPen(QColor(c.muted))
            rect = option.rect.adjusted(12, 4, -12, -2)
        painter.setFont(font)
        painter.drawText(rect, Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter, index.data())
        if kind == "week":
            painter.setPen(QColor(c.border))
            painter.drawLine(
                option.rect.left() + 12, option.rect.bottom(), option.rect.right() - 12, option.rect.bottom()
            )

    def _paint_recording(self, painter: QPainter, option: QStyleOptionViewItem, index: Index) -> None:
        recording: Recording = index.data(RECORDING_ROLE)
        style = option.widget.style() if option.widget else None
        self.initStyleOption(option, index)
        option.text = ""
        if style is not None:
            style.drawControl(QStyle.ControlElement.CE_ItemViewItem, option, painter, option.widget)
        selected = bool(option.state & QStyle.StateFlag.State_Selected)
        c = colours()
        ink = _Ink(
            text=option.palette.highlightedText().color() if selected else QColor(c.text),
            muted=option.palette.highlightedText().color() if selected else QColor(c.muted),
            status=option.palette.highlightedText().color()
            if selected
            else QColor(_status_colour(recording.status)),
        )
        rect = option.rect.adjusted(12, 8, -12, -8)
        model = index.model()
        show_project = isinstance(model, TimelineModel) and model.project is None
        right_width = self._paint_status(painter, option, rect, recording, ink, show_project=show_project)
        self._paint_words(painter, option, rect, recording, ink, right_width)

    def _paint_status(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        recording: Recording,
        ink: _Ink,
        *,
        show_project: bool,
    ) -> int:
        """Right column: status (glyph and words) over duration (and the project, in "All projects")."""
        metrics, line = option.fontMetrics, option.fontMetrics.height()
        status = recording_status(recording)
        status_full = f"{STATUS_GLYPHS.get(recording.status, '')} {status}".strip()
        width = min(max(metrics.horizontalAdvance(status_full) + 8, 150), rect.width() // 3)
        right = QRect(rect.right() - width, rect.top(), width, line)
        painter.setFont(option.font)
        painter.setPen(ink.status)
        elide = Qt.TextElideMode.ElideRight
        painter.drawText(right, Qt.AlignmentFlag.AlignRight, metrics.elidedText(status_full, elide, width))
        parts = (recording.project if show_project else "", recording_length(recording))
        extra = " · ".join(x for x in parts if x)
        painter.setPen(ink.muted)
        painter.drawText(
            right.translated(0, line + 2),
            Qt.AlignmentFlag.AlignRight,
            metrics.elidedText(extra, elide, width),
        )
        if recording.status == "transcribing" and recording.progress > 0:
            c = colours()
            bar = QRect(right.left() + 8, rect.bottom() + 3, width - 8, 3)
            painter.fillRect(bar, QColor(c.border))
            done = QRect(bar.left(), bar.top(), int(bar.width() * recording.progress), 3)
            painter.fillRect(done, QColor(c.accent))
        return width

    def _paint_words(
        self,
        painter: QPainter,
        option: QStyleOptionViewItem,
        rect: QRect,
        recording: Recording,
        ink: _Ink,
        right_width: int,
    ) -> None:
        """Left: time of day; middle: the title, and the first line under it."""
        metrics, line = option.fontMetrics, option.fontMetrics.height()
        time_width = metrics.horizontalAdvance("00:00") + 16
        painter.setPen(ink.muted)
        painter.drawText(
            QRect(rect.left(), rect.top(), time_width, line),
            Qt.AlignmentFlag.AlignLeft,
            time_of_day(recording),
        )
        middle = QRect(
            rect.left() + time_width, rect.top(), rect.width() - time_width - right_width - 12, line
        )
        title_font = QFont(option.font)
        title_font.setBold(True)
        painter.setFont(title_font)
        painter.setPen(ink.text)
        elide = Qt.TextElideMode.ElideRight
        painter.drawText(
            middle,
            Qt.AlignmentFlag.AlignLeft,
            painter.fontMetrics().elidedText(recording_title(recording), elide, middle.width()),
        )
        second = recording.first_line if recording.title else ""
        if not second and recording.status in ("queued", "transcribing", "recording"):
            second = "Transcript on its way…"
        if second:
            painter.setFont(option.font)
            painter.setPen(ink.muted)
            painter.drawText(
                middle.translated(0, line + 2),
                Qt.AlignmentFlag.AlignLeft,
                metrics.elidedText(second, elide, middle.width()),
            )


class TimelineView(QListView):
    """Enter or double-click opens a recording; headings are skipped by the keyboard."""

    recording_activated = Signal(object)  # Recording

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setAccessibleName("Timeline")
        self.setAccessibleDescription("Notes, newest first, grouped by week and day. Enter opens a note.")
        self.setItemDelegate(TimelineDelegate(self))
        self.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.setVerticalScrollMode(QAbstractItemView.ScrollMode.ScrollPerPixel)
        self.setUniformItemSizes(False)
        self.setLayoutMode(QListView.LayoutMode.Batched)
        self.setBatchSize(200)
        self.setMouseTracking(True)
        self.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.setResizeMode(QListView.ResizeMode.Adjust)
        self.activated.connect(self.on_activated)

    def setModel(self, model: QAbstractItemModel | None) -> None:
        super().setModel(model)
        if model is not None:
            model.modelAboutToBeReset.connect(self.on_model_about_to_be_reset)
            model.modelReset.connect(self.on_model_reset)

    def on_model_about_to_be_reset(self) -> None:
        """A reload keeps the user's place: the same recording stays current and in view."""
        recording = self.currentIndex().data(RECORDING_ROLE)
        self._kept = (recording.id if recording is not None else None, self.verticalScrollBar().value())

    def on_model_reset(self) -> None:
        kept_id, scroll = getattr(self, "_kept", (None, 0))
        model = self.model()
        row = model.row_for(kept_id) if isinstance(model, TimelineModel) and kept_id is not None else None
        if row is not None:
            self.setCurrentIndex(model.index(row, 0))
            QTimer.singleShot(0, lambda: self.verticalScrollBar().setValue(scroll))  # after the layout

    def on_activated(self, index: QModelIndex) -> None:
        recording = index.data(RECORDING_ROLE)
        if recording is not None:
            self.recording_activated.emit(recording)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.currentIndex().isValid():
            self.on_activated(self.currentIndex())
            return
        before = self.currentIndex().row()
        super().keyPressEvent(event)
        self._skip_heading(down=self.currentIndex().row() >= before)

    def _skip_heading(self, *, down: bool) -> None:
        model = self.model()
        row = self.currentIndex().row()
        if model is None or row < 0:
            return
        step = 1 if down else -1
        while 0 <= row < model.rowCount() and model.index(row, 0).data(KIND_ROLE) != "recording":
            row += step
        if not 0 <= row < model.rowCount():  # ran off an end: look the other way
            row = self.currentIndex().row()
            while 0 <= row < model.rowCount() and model.index(row, 0).data(KIND_ROLE) != "recording":
                row -= step
        if 0 <= row < model.rowCount():
            self.setCurrentIndex(model.index(row, 0))

    def select_first_recording(self) -> None:
        model = self.model()
        if model is None:
            return
        for row in range(model.rowCount()):
            if model.index(row, 0).data(KIND_ROLE) == "recording":
                self.setCurrentIndex(model.index(row, 0))
                return
