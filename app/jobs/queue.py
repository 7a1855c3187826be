"""The persistent job queue as runners and callers see it: queue a job, read jobs, report progress.

A runner (one per kind of job, listed in app/jobs/kinds.py) reports progress and checks for
cancellation through its JobContext. A job owned by a process that died goes back to the queue at
the next start (`recover_jobs`) and its runner resumes where the work stopped. What runs the queue
is app/jobs/worker.py; this module imports no runner.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from app.library import Library
from memory.store import jobs as store_jobs
from memory.store.ids import JobId, RecordingId
from memory.store.jobs import Job, JobStatus

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
STALE_AFTER = timedelta(seconds=120)  # a heartbeat this old means the owner is gone
REPORT_INTERVAL = 0.5  # seconds between progress writes

__all__ = [
    "Job",
    "JobContext",
    "JobEvent",
    "JobKind",
    "JobStatus",
    "enqueue",
    "get_job",
    "list_jobs",
    "recover_jobs",
]


@dataclass(frozen=True)
class JobEvent:
    """A change a UI shows: a job started, moved on, or finished."""

    job_id: JobId
    kind: str
    recording_id: RecordingId | None
    status: JobStatus
    progress: float
    eta_seconds: float | None = None
    message: str | None = None

    def to_json(self) -> dict[str, object]:
        return asdict(self)


EventCallback = Callable[[JobEvent], None]


# The contexts of the jobs this process is running, by job id: a cancel asked for in this process
# (the app's Cancel, a test) reaches the runner at its next check, not after the store is polled
# again (at most every REPORT_INTERVAL; a progress write has just read it). Without it a cancel
# made right after a progress report went unseen by a job that finished within the interval.
_running: dict[int, JobContext] = {}
_running_lock = threading.Lock()


def cancel_here(job_id: int) -> bool:
    """Tell the runner of `job_id`, when this process runs it, that the user cancelled it."""
    with _running_lock:
        context = _running.get(job_id)
    if context is None:
        return False
    context.cancel()
    return True


class JobContext:
    """What a runner gets: progress reporting and the cancel check. Used as a context manager
    while the job runs, so that a cancel asked for in this process reaches it at once."""

    def __init__(
        self, library: Library, job: Job, stop: threading.Event, on_event: EventCallback | None
    ) -> None:
        self.library = library
        self.job = job
        self.stop = stop
        self.on_event = on_event
        self._cancel_requested = False
        self._last_write = 0.0
        self._last_check = 0.0

    def __enter__(self) -> JobContext:
        with _running_lock:
            _running[self.job.id] = self
        return self

    def __exit__(self, *exc: object) -> None:
        with _running_lock:
            if _running.get(self.job.id) is self:
                del _running[self.job.id]

    def cancel(self) -> None:
        """The user cancelled the job: the runner stops at its next check."""
        self._cancel_requested = True

    def report(self, progress: float, eta_seconds: float | None = None, message: str | None = None) -> None:
        now = time.monotonic()
        if now - self._last_write >= REPORT_INTERVAL or progress >= 1.0:
            self._last_write = self._last_check = now
            asked = store_jobs.report_progress(
                self.library.store, self.job.id, progress, eta_seconds=eta_seconds, message=message
            )
            self._cancel_requested = self._cancel_requested or asked
        if self.on_event is not None:
            job = self.job
            self.on_event(
                JobEvent(
                    job.id, job.kind, job.recording_id, JobStatus.RUNNING, progress, eta_seconds, message
                )
            )

    def cancelled(self) -> bool:
        """The user cancelled this job (from any process), or the worker is shutting down."""
        now = time.monotonic()
        if not self._cancel_requested and now - self._last_check >= REPORT_INTERVAL:
            self._last_check = now
            self._cancel_requested = self._cancel_requested or store_jobs.cancel_requested(
                self.library.store, self.job.id
            )
        return self._cancel_requested or self.stop.is_set()

    @property
    def user_cancelled(self) -> bool:
        return self._cancel_requested or store_jobs.cancel_requested(self.library.store, self.job.id)


Runner = Callable[[Library, Job, JobContext], "str | None"]
Hook = Callable[[Library, Job], None]
Feeder = Callable[[Library], object]


@dataclass(frozen=True)
class JobKind:
    """How one kind of job is run: its runner, and what it does when cancelled or re-queued."""

    runner: Runner
    on_cancel: Hook | None = None  # a queued job was cancelled before it ran
    on_requeue: Hook | None = None  # a failed or cancelled job goes back to the queue
    on_stopped: Hook | None = None  # a job that ran ended failed or cancelled (not paused: it resumes)
    feeder: Feeder | None = None  # work that queues itself: the worker calls it before each round


def worker_id() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _abandoned(job: Job) -> bool:
    host, _, pid = (job.worker or ":").rpartition(":")
    if host == socket.gethostname() and pid.isdigit():
        return int(pid) != os.getpid() and not _pid_alive(int(pid))
    if job.heartbeat_at is None:
        return True
    return datetime.fromisoformat(job.heartbeat_at) < datetime.now() - STALE_AFTER


def recover_jobs(library: Library) -> list[Job]:
    """At start-up: jobs left running by a process that is gone go back to the queue."""
    recovered = store_jobs.requeue_abandoned(library.store, is_abandoned=_abandoned)
    for job in recovered:
        log.info("job %s (%s) was interrupted; it will resume", job.id, job.kind)
    return recovered


def enqueue(
    library: Library, kind: str, *, recording_id: int | None = None, payload: dict | None = None
) -> int:
    return store_jobs.enqueue(library.store, kind, recording_id=recording_id, payload=payload)


def list_jobs(library: Library, *, include_finished: bool = True, limit: int | None = 100) -> list[Job]:
    statuses = None if include_finished else store_jobs.OPEN
    return store_jobs.list_jobs(library.store, statuses=statuses, limit=limit)


def get_job(library: Library, job_id: int) -> Job:
    return store_jobs.get_job(library.store, job_id)
