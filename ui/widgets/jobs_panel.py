"""Long work, visible and cancellable: background jobs (transcription, indexing, from the job
queue) and the window's own tasks (answering, importing, setting up models).

The job queue's worker runs on its own thread and reports each change through a callback; a relay
object living on the main thread turns those calls into queued signals.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass

from PySide6.QtCore import QObject, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QGridLayout,
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from app.jobs import queue as jobs_queue
from app.jobs import worker as jobs_worker
from app.jobs.queue import Job, JobEvent
from app.library import Library
from ui.operations import Change, Operations

KIND_WORDS = {"transcribe": "Transcribing", "index": "Indexing", "consolidate": "Consolidating"}
STAGE_WORDS = {  # app.consolidation.stages's stages, as the jobs line says them
    "corrections": "finding self-corrections",
    "stretches": "finding asides about other projects",
    "entities": "reading names, dates and amounts",
    "facts": "extracting facts",
    "model_facts": "extracting facts with the model",
    "validity": "checking what was superseded",
    "digest": "updating the digest",
    "connections": "looking for connections",
}
OPEN = ("queued", "running")


class JobEvents(QObject):
    """Created on the main thread; `relay` may be called from any thread."""

    arrived = Signal(object)  # JobEvent

    def relay(self, event: JobEvent) -> None:
        with contextlib.suppress(RuntimeError):  # the window is gone: nobody to tell
            self.arrived.emit(event)


@dataclass
class Line:
    """One row of the jobs list, whatever it comes from."""

    key: str
    label: str
    fraction: float | None
    detail: str
    cancel: object  # a zero-argument callable


def _eta(seconds: float | None) -> str:
    if seconds is None or seconds <= 0:
        return ""
    if seconds < 60:
        return "under a minute left"
    return f"about {round(seconds / 60)} min left"


class JobsPanel(QWidget):
    """In the status bar: the first job in words with its progress and Cancel, and "All jobs…"."""

    def __init__(self, ops: Operations, library: Library, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.jobs: dict[int, JobEvent] = {}
        self.titles: dict[int, str] = {}
        self.summary = QLabel()
        self.summary.setAccessibleName("Background work")
        self.bar = QProgressBar()
        self.bar.setMaximumWidth(140)
        self.bar.setMaximumHeight(14)
        self.bar.setAccessibleName("Progress")
        self.cancel_button = QPushButton("Cancel")
        self.cancel_button.setAccessibleName("Cancel this background work")
        self.cancel_button.clicked.connect(self.on_cancel_clicked)
        self.all_button = QPushButton("All jobs…")
        self.all_button.setAccessibleName("Show all background work")
        self.all_button.clicked.connect(self.show_all)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for widget in (self.summary, self.bar, self.cancel_button, self.all_button):
            layout.addWidget(widget)
        self.events = JobEvents(self)
        self.events.arrived.connect(self.on_job_event)
        ops.tasks_changed.connect(self.redraw)
        self.dialog: JobsDialog | None = None
        self.redraw()

    def load_open_jobs(self) -> None:
        self.ops.query(
            lambda: jobs_queue.list_jobs(self.library, include_finished=False),
            finished=self.on_open_jobs_listed,
            label="list jobs",
        )

    def on_open_jobs_listed(self, found: list[Job]) -> None:
        for job in found:
            self.jobs[job.id] = JobEvent(
                job.id, job.kind, job.recording_id, job.status, job.progress, job.eta_seconds, job.message
            )
        self.redraw()

    def on_job_event(self, event: JobEvent) -> None:
        if event.status in OPEN:
            self.jobs[event.job_id] = event
        else:
            self.jobs.pop(event.job_id, None)
        self.redraw()

    def lines(self) -> list[Line]:
        found = []
        for op in self.ops.running_tasks():
            found.append(Line(f"task:{id(op)}", op.label, op.fraction, op.message, op.cancel))
        for job_id, event in sorted(self.jobs.items()):
            word = KIND_WORDS.get(event.kind, event.kind.capitalize())
            what = f" note {event.recording_id}" if event.recording_id else ""
            label = f"{word}{what}" + (" (waiting)" if event.status == "queued" else "")
            detail = _eta(event.eta_seconds) or STAGE_WORDS.get(event.message or "", event.message or "")
            found.append(
                Line(
                    f"job:{job_id}",
                    label,
                    event.progress if event.status == "running" else None,
                    detail,
                    lambda j=job_id: self.cancel_job(j),
                )
            )
        return found

    def redraw(self) -> None:
        lines = self.lines()
        self.setVisible(bool(lines))
        if not lines:
            return
        first = lines[0]
        more = f" (+{len(lines) - 1} more)" if len(lines) > 1 else ""
        self.summary.setText(f"{first.label}{' · ' + first.detail if first.detail else ''}{more}")
        if first.fraction is None:
            self.bar.setRange(0, 0)  # busy
        else:
            self.bar.setRange(0, 100)
            self.bar.setValue(int(first.fraction * 100))
        if self.dialog is not None and self.dialog.isVisible():
            self.dialog.show_lines(lines)

    def on_cancel_clicked(self) -> None:
        lines = self.lines()
        if lines and callable(lines[0].cancel):
            lines[0].cancel()

    def cancel_job(self, job_id: int) -> None:
        self.ops.change(
            lambda: jobs_worker.cancel_job(self.library, job_id),
            changes={Change.RECORDINGS},
            label="cancel job",
        )

    def show_all(self) -> None:
        if self.dialog is None:
            self.dialog = JobsDialog(self.window())
        self.dialog.show_lines(self.lines())
        self.dialog.show()
        self.dialog.raise_()


class JobsDialog(QDialog):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Background work")
        self.resize(520, 260)
        self.grid_host = QWidget()
        self.grid = QGridLayout(self.grid_host)
        self.grid.setAlignment(Qt.AlignmentFlag.AlignTop)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.grid_host, 1)
        layout.addWidget(buttons)

    def show_lines(self, lines: list[Line]) -> None:
        while self.grid.count():
            item = self.grid.takeAt(0)
            widget = item.widget() if item is not None else None
            if widget is not None:
                widget.deleteLater()
        if not lines:
            self.grid.addWidget(QLabel("Nothing is running."), 0, 0)
        for row, line in enumerate(lines):
            self.grid.addWidget(
                QLabel(f"{line.label}" + (f"<br><small>{line.detail}</small>" if line.detail else "")), row, 0
            )
            bar = QProgressBar()
            bar.setAccessibleName(f"Progress of {line.label}")
            if line.fraction is None:
                bar.setRange(0, 0)
            else:
                bar.setValue(int(line.fraction * 100))
            self.grid.addWidget(bar, row, 1)
            cancel = QPushButton("Cancel")
            cancel.setAccessibleName(f"Cancel {line.label}")
            if callable(line.cancel):
                cancel.clicked.connect(line.cancel)
            self.grid.addWidget(cancel, row, 2)
