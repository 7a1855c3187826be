"""What runs behind the window: start-up recovery, the job queue's worker, watched folders.

At start (after the window is up): jobs a crash left running go back to the queue, interrupted
recordings are recovered (and announced), and anything not yet searchable is indexed. Then the
job worker runs transcriptions, and each watched folder imports what lands in it. All of it off the
main thread; each result reaches the window as a signal.
"""

from __future__ import annotations

import contextlib
import logging
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from app.library import Library
from app.recording_service import Recording, get_recordings
from ui.operations import Change, Operations, Progress

if TYPE_CHECKING:  # imported when first used: they pull in audio codecs and numpy, not needed to draw
    from app.ingest.imports import ImportResult
    from app.ingest.watched_folders import FolderWatcher
    from app.jobs.worker import JobWorker

log = logging.getLogger(__name__)

INDEX_DELAY_MS = 4000


@dataclass
class StartupReport:
    resumed_jobs: int = 0
    recovered: list[Recording] = field(default_factory=list)


class _Relay(QObject):
    imported = Signal(object)  # ImportResult from a watched folder

    def relay(self, result: ImportResult) -> None:
        with contextlib.suppress(RuntimeError):
            self.imported.emit(result)


class Background(QObject):
    recovered = Signal(list)  # list[Recording]: interrupted recordings brought back
    imported = Signal(object)  # ImportResult from a watched folder
    started_up = Signal()

    def __init__(self, ops: Operations, library: Library, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.ops = ops
        self.library = library
        self.worker: JobWorker | None = None
        self.watcher: FolderWatcher | None = None
        self._index_timer = QTimer(self)
        self._index_timer.setSingleShot(True)
        self._index_timer.setInterval(INDEX_DELAY_MS)
        self._index_timer.timeout.connect(self.index_pending)
        self._relay = _Relay(self)
        self._relay.imported.connect(self.imported.emit)

    def start(self, on_job_event: object) -> None:
        """Recover, then start the job worker and the watchers; indexing catches up meanwhile."""

        def recover() -> StartupReport:
            from app.ingest.recording_session import recover_interrupted
            from app.jobs.queue import recover_jobs

            report = StartupReport(resumed_jobs=len(recover_jobs(self.library)))
            report.recovered = get_recordings(self.library, recover_interrupted(self.library))
            return report

        def recovered(report: StartupReport) -> None:
            from app.jobs.worker import JobWorker

            if report.recovered:
                self.recovered.emit(report.recovered)
            self.worker = JobWorker(self.library, on_event=on_job_event).start()  # type: ignore[arg-type]
            self.start_watching()
            # a few seconds later: the first timeline page and the user's first clicks come first
            self._index_timer.start()
            self.started_up.emit()
            self.warm_up()

        self.ops.change(recover, changes={Change.RECORDINGS}, finished=recovered, label="recover")

    def index_pending(self) -> None:
        def run(progress: Progress) -> object:
            from app.ingest.indexing import index_pending

            return index_pending(self.library, cancelled=progress.cancelled, progress=lambda f: progress(f))

        self.ops.task(run, label="Making notes searchable", changes={Change.RECORDINGS})

    def warm_up(self) -> None:
        """Models loaded and the answer rules read now, so the first question is answered as fast
        as the next ones (app.ask.warm_up)."""

        def run(progress: Progress) -> object:
            from app.ask import warm_up

            return warm_up(self.library)

        self.ops.task(run, label="Getting answers ready")

    def wake_jobs(self) -> None:
        if self.worker is not None:
            self.worker.wake()

    def start_watching(self) -> None:
        if self.watcher is not None:
            self.watcher.stop(timeout=2.0)
            self.watcher = None
        folders = list(self.library.settings.watched_folders)
        if folders:
            from app.ingest.watched_folders import FolderWatcher

            self.watcher = FolderWatcher(self.library, folders, on_result=self._relay.relay).start()

    def stop(self) -> None:
        self._index_timer.stop()
        if self.watcher is not None:
            self.watcher.stop(timeout=2.0)
        if self.worker is not None:
            # the running job stops at its next cancel check (about a second, docs/benchmarks.md);
            # the library must not close under it, so this waits well past that
            self.worker.stop(timeout=30.0)
