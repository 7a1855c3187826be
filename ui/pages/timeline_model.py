"""A project's timeline as a Qt item model: recordings newest first, under week and day headings.

It scales to tens of thousands of recordings because it never loads them all: pages arrive as
the view scrolls near the end (canFetchMore/fetchMore), read by the operations helper off the main
thread. Headings are computed as pages arrive, which works because recordings come sorted by when
they were spoken. Status changes (transcribing 42% → ready) are merged in place by id.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from PySide6.QtCore import QAbstractListModel, QModelIndex, QPersistentModelIndex, Qt, Signal

from app import recording_service
from app.library import Library
from app.recording_service import ACTIVE_STATUSES, Recording, RecordingId
from ui.format import (
    clock,
    day_label,
    parse_store_time,
    recording_length,
    recording_status,
    recording_title,
    week_label,
    week_start,
)
from ui.operations import Operations

PAGE_SIZE = 200

KIND_ROLE = Qt.ItemDataRole.UserRole  # "week" | "day" | "recording"
RECORDING_ROLE = Qt.ItemDataRole.UserRole + 1  # the Recording of a recording row
Index = QModelIndex | QPersistentModelIndex


@dataclass
class TimelineRow:
    kind: str  # "week" | "day" | "recording"
    label: str = ""
    recording: Recording | None = None


class TimelineModel(QAbstractListModel):
    loaded = Signal()  # a page arrived (or the first page of a new project)

    def __init__(self, ops: Operations, library: Library, parent: Any = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.project: str | None = None
        self.rows: list[TimelineRow] = []
        self.row_of_id: dict[int, int] = {}
        self.loaded_count = 0
        self.exhausted = False
        self.fetching = False
        self.today = date.today()
        self._generation = 0  # results of a superseded project's queries are dropped
        self._last_week: date | None = None
        self._last_day: date | None = None

    # --- loading ---------------------------------------------------------------------------------
    def show_project(self, project: str | None) -> None:
        """Start over for `project` (None: all projects)."""
        self._generation += 1
        self.beginResetModel()
        self.project = project
        self.rows, self.row_of_id = [], {}
        self.loaded_count, self.exhausted, self.fetching = 0, False, False
        self._last_week = self._last_day = None
        self.today = date.today()
        self.endResetModel()
        self._fetch_page(PAGE_SIZE)

    def reload(self) -> None:
        """New or removed recordings: reload as many as were shown, in one page."""
        keep = max(self.loaded_count, PAGE_SIZE)
        self._generation += 1
        self.fetching = False
        self._fetch_page(keep, replace=True)

    def canFetchMore(self, parent: Index = QModelIndex()) -> bool:  # noqa: B008
        return not parent.isValid() and not self.exhausted and not self.fetching

    def fetchMore(self, parent: Index = QModelIndex()) -> None:  # noqa: B008
        if self.canFetchMore(parent):
            self._fetch_page(PAGE_SIZE)

    def _fetch_page(self, size: int, *, replace: bool = False) -> None:
        self.fetching = True
        generation, project = self._generation, self.project
        offset = 0 if replace else self.loaded_count

        def read() -> list[Recording]:
            return recording_service.list_recordings(self.library, project=project, limit=size, offset=offset)

        def arrived(page: list[Recording]) -> None:
            if generation != self._generation:
                return
            self.fetching = False
            if replace:
                self._replace_all(page, size)
            else:
                self._append(page, size)
            self.loaded.emit()

        def failed(exc: BaseException) -> None:
            if generation == self._generation:
                self.fetching = False
                self.exhausted = True
                self.ops.report_error(exc)

        self.ops.query(read, finished=arrived, failed=failed, label="timeline page")

    def _append(self, page: list[Recording], size: int) -> None:
        if len(page) < size:
            self.exhausted = True
        new_rows = self._rows_for(page)
        if not new_rows:
            return
        first = len(self.rows)
        self.beginInsertRows(QModelIndex(), first, first + len(new_rows) - 1)
        for offset, row in enumerate(new_rows):
            if row.recording is not None:
                self.row_of_id[row.recording.id] = first + offset
        self.rows.extend(new_rows)
        self.loaded_count += len(page)
        self.endInsertRows()

    def _replace_all(self, page: list[Recording], size: int) -> None:
        self.beginResetModel()
        self.rows, self.row_of_id, self.loaded_count = [], {}, 0
        self._last_week = self._last_day = None
        self.today = date.today()
        self.exhausted = len(page) < size
        self.rows = self._rows_for(page)
        self.row_of_id = {r.recording.id: i for i, r in enumerate(self.rows) if r.recording is not None}
        self.loaded_count = len(page)
        self.endResetModel()

    def _rows_for(self, page: list[Recording]) -> list[TimelineRow]:
        rows = []
        for recording in page:
            when = parse_store_time(recording.spoken_at)
            day = when.date() if when else self.today
            week = week_start(day)
            if week != self._last_week:
                rows.append(TimelineRow("week", week_label(day, self.today)))
                self._last_week, self._last_day = week, None
            if day != self._last_day:
                rows.append(TimelineRow("day", day_label(day, self.today)))
                self._last_day = day
            rows.append(TimelineRow("recording", recording=recording))
        return rows

    # --- live status ---------------------------------------------------------------------------------
    def active_ids(self) -> list[RecordingId]:
        return [
            r.recording.id
            for r in self.rows
            if r.recording is not None and r.recording.status in ACTIVE_STATUSES
        ]

    def update_recordings(self, fresh: list[Recording]) -> None:
        """Merge re-read recordings (status, progress, duration, first line) into their rows."""
        for recording in fresh:
            row = self.row_of_id.get(recording.id)
            if row is None:
                continue
            self.rows[row].recording = recording
            index = self.index(row)
            self.dataChanged.emit(index, index)

    # --- Qt model API ---------------------------------------------------------------------------------
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.rows)

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        if self.rows[index.row()].kind == "recording":
            return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable
        return Qt.ItemFlag.ItemIsEnabled

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or index.row() >= len(self.rows):
            return None
        row = self.rows[index.row()]
        if role == KIND_ROLE:
            return row.kind
        if role == RECORDING_ROLE:
            return row.recording
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.AccessibleTextRole):
            if row.recording is None:
                return row.label
            return (
                self.describe(row.recording)
                if role == Qt.ItemDataRole.AccessibleTextRole
                else (self.title(row.recording))
            )
        if role == Qt.ItemDataRole.ToolTipRole and row.recording is not None:
            return self.describe(row.recording)
        return None

    def title(self, recording: Recording) -> str:
        return recording_title(recording)

    def describe(self, recording: Recording) -> str:
        """The whole row in words: what a screen reader says and the tooltip shows."""
        when = parse_store_time(recording.spoken_at)
        parts = [self.title(recording)]
        if self.project is None:
            parts.append(recording.project)
        if when:
            parts.append(f"{when:%A} {when.day} {when:%B} at {when:%H:%M}")
        if recording_length(recording):
            parts.append(recording_length(recording))
        parts.append(recording_status(recording))
        if recording.first_line and recording.title:
            parts.append(recording.first_line)
        return ", ".join(parts)

    def recording_at(self, row: int) -> Recording | None:
        return self.rows[row].recording if 0 <= row < len(self.rows) else None

    def row_for(self, recording_id: int) -> int | None:
        return self.row_of_id.get(recording_id)


def time_of_day(recording: Recording) -> str:
    when = parse_store_time(recording.spoken_at)
    return f"{when:%H:%M}" if when else ""


__all__ = ["TimelineModel", "TimelineRow", "clock", "time_of_day"]
