"""A recording's transcript as a table: time, speaker, words. Edits become versions, raw stays.

The text column shows the latest edit, or the raw words when "Show raw words" is on. The segment
being played is marked with ▶ and bold as well as a background, so it never depends on colour.
"""

from __future__ import annotations

import bisect
from typing import Any

from PySide6.QtCore import QAbstractTableModel, QModelIndex, QPersistentModelIndex, Qt, Signal
from PySide6.QtGui import QColor, QFont

from app.recording_service import Segment
from ui.format import clock
from ui.theme import colours

TIME, SPEAKER, TEXT = range(3)
HEADERS = ("Time", "Speaker", "Transcript")
SEGMENT_ROLE = Qt.ItemDataRole.UserRole
Index = QModelIndex | QPersistentModelIndex


class TranscriptModel(QAbstractTableModel):
    edit_requested = Signal(int, str)  # segment id, new text

    def __init__(self, parent: Any = None) -> None:
        super().__init__(parent)
        self.segments: list[Segment] = []
        self._starts: list[float] = []
        self.show_raw = False
        self.current_row: int | None = None

    def set_segments(self, segments: list[Segment]) -> None:
        self.beginResetModel()
        self.segments = list(segments)
        self._starts = [s.start for s in self.segments]
        self.current_row = None
        self.endResetModel()

    def replace_segment(self, segment: Segment) -> None:
        for row, old in enumerate(self.segments):
            if old.id == segment.id:
                self.segments[row] = segment
                self.dataChanged.emit(self.index(row, 0), self.index(row, TEXT))
                return

    def set_show_raw(self, show: bool) -> None:
        self.show_raw = show
        if self.segments:
            self.dataChanged.emit(self.index(0, 0), self.index(len(self.segments) - 1, TEXT))

    def row_at(self, seconds: float) -> int | None:
        """The segment being spoken at `seconds` (the last one starting at or before it)."""
        if not self.segments:
            return None
        row = bisect.bisect_right(self._starts, seconds + 0.05) - 1
        return max(0, row)

    def set_current(self, row: int | None) -> bool:
        """Mark the segment being played; True when it changed."""
        if row == self.current_row:
            return False
        old, self.current_row = self.current_row, row
        for changed in (old, row):
            if changed is not None and 0 <= changed < len(self.segments):
                self.dataChanged.emit(self.index(changed, 0), self.index(changed, TEXT))
        return True

    # --- Qt model API ----------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.segments)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(HEADERS)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation == Qt.Orientation.Horizontal and role == Qt.ItemDataRole.DisplayRole:
            return HEADERS[section]
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        base = Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        if index.column() == TEXT and not self.show_raw:
            base |= Qt.ItemFlag.ItemIsEditable
        return base

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        segment = self.segments[index.row()]
        column, current = index.column(), index.row() == self.current_row
        if role == SEGMENT_ROLE:
            return segment
        if role == Qt.ItemDataRole.DisplayRole:
            return self._display(segment, column, current)
        if role == Qt.ItemDataRole.EditRole:
            return segment.text if column == TEXT else self._display(segment, column, current)
        if role == Qt.ItemDataRole.AccessibleTextRole:
            return self._spoken(segment, current)
        if role == Qt.ItemDataRole.ToolTipRole and column == TEXT and segment.edited:
            return f"Edited. The raw words were: {segment.raw_text}"
        if role == Qt.ItemDataRole.BackgroundRole and current:
            return QColor(colours().highlight_row)
        if role == Qt.ItemDataRole.ForegroundRole and current:
            return QColor(colours().text)
        if role == Qt.ItemDataRole.FontRole and current:
            font = QFont()
            font.setBold(True)
            return font
        if role == Qt.ItemDataRole.TextAlignmentRole and column == TIME:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignTop)
        if role == Qt.ItemDataRole.TextAlignmentRole:
            return int(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        return None

    def _display(self, segment: Segment, column: int, current: bool) -> str:
        if column == TIME:
            return ("▶ " if current else "") + clock(segment.start)
        if column == SPEAKER:
            return segment.speaker or ""
        if self.show_raw or not segment.edited:
            return segment.raw_text
        return f"{segment.text}  ✎"

    def _spoken(self, segment: Segment, current: bool) -> str:
        parts = [f"at {clock(segment.start)}"]
        if segment.speaker:
            parts.append(segment.speaker)
        parts.append(segment.raw_text if self.show_raw else segment.text)
        if segment.edited and not self.show_raw:
            parts.append("(edited)")
        if current:
            parts.append("(playing)")
        return ", ".join(parts)

    def setData(self, index: Index, value: Any, role: int = Qt.ItemDataRole.EditRole) -> bool:
        if role != Qt.ItemDataRole.EditRole or index.column() != TEXT or self.show_raw:
            return False
        text = str(value).strip()
        segment = self.segments[index.row()]
        if not text or text == segment.text:
            return False
        self.edit_requested.emit(segment.id, text)
        return True
