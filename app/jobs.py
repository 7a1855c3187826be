"""Background work that survives crashes: a persistent queue (the `jobs` table) and its workers.

Each kind of job has a runner (`register_runner`): "transcribe" is registered by
app.transcription; indexing and consolidation register their own. A runner reports progress and
checks for cancellation through its JobContext. A job owned by a process that died goes back to
the queue at the next start (`recover_jobs`) and its runner resumes where the work stopped.

`run_pending` works in the calling thread (the CLI); `JobWorker` runs jobs on a background thread
(the desktop app) and reports each change through a callback.
"""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from datetime import datetime, timedelta

from app.library import Library
from memory import jobs as store_jobs
from memory.jobs import Job
from models.errors import CancelledError, InputError, VerbatimError

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0
STALE_AFTER = timedelta(seconds=120)  # a heartbeat this old means the owner is gone
REPORT_INTERVAL = 0.5  # seconds between progress writes

__all__ = ["Job", "JobContext", "JobEvent", "JobWorker", "enqueue", "list_jobs", "run_pending"]


@dataclass(frozen=True)
class JobEvent:
    """A change a UI shows: a job started, moved on, or finished."""

    job_id: int
    kind: str
    recording_id: int | None
    status: str
    progress: float
    eta_seconds: float | None = None
    message: str | None = None

    def to_json(self) -> dict[str, object]:
        return asdict(self)


EventCallback = Callable[[JobEvent], None]


class JobContext:
    """What a runner gets: progress reporting and the cancel check."""

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

    def report(self, progress: float, eta_seconds: float | None = None, message: str | None = None) -> None:
        now = time.monotonic()
        if now - self._last_write >= REPORT_INTERVAL or progress >= 1.0:
            self._last_write = self._last_check = now
            self._cancel_requested = store_jobs.report_progress(
                self.library.store, self.job.id, progress, eta_seconds=eta_seconds, message=message
            )
        if self.on_event is not None:
            job = self.job
            self.on_event(
                JobEvent(job.id, job.kind, job.recording_id, "running", progress, eta_seconds, message)
            )

    def cancelled(self) -> bool:
        """The user cancelled this job (from any process), or the worker is shutting down."""
        now = time.monotonic()
        if not self._cancel_requested and now - self._last_check >= REPORT_INTERVAL:
            self._last_check = now
            self._cancel_requested = store_jobs.cancel_requested(self.library.store, self.job.id)
        return self._cancel_requested or self.stop.is_set()

    @property
    def user_cancelled(self) -> bool:
        return self._cancel_requested or store_jobs.cancel_requested(self.library.store, self.job.id)


Runner = Callable[[Library, Job, JobContext], "str | None"]
Hook = Callable[[Library, Job], None]


@dataclass(frozen=True)
class _Kind:
    runner: Runner
    on_cancel: Hook | None = None  # a queued job was cancelled before it ran
    on_requeue: Hook | None = None  # a failed or cancelled job goes back to the queue


_KINDS: dict[str, _Kind] = {}


def register_runner(
    kind: str, runner: Runner, *, on_cancel: Hook | None = None, on_requeue: Hook | None = None
) -> None:
    _KINDS[kind] = _Kind(runner, on_cancel, on_requeue)


def _kind(name: str) -> _Kind | None:
    if name not in _KINDS:
        _load_runners()
    return _KINDS.get(name)


def _load_runners() -> None:
    import app.backup_daily
    import app.consolidation
    import app.transcription  # noqa: F401  (registers "transcribe")


Feeder = Callable[[Library], object]
_FEEDERS: dict[str, Feeder] = {}


def register_feeder(kind: str, feeder: Feeder) -> None:
    """Background work that queues itself: the job worker calls `feeder(library)` before each round."""
    _FEEDERS[kind] = feeder


def _feed(library: Library, kinds: Sequence[str] | None) -> None:
    _load_runners()
    for kind, feeder in list(_FEEDERS.items()):
        if kinds is None or kind in kinds:
            feeder(library)


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


def cancel_job(library: Library, job_id: int) -> Job:
    """Cancel a queued job at once, or ask the process running it to stop."""
    job = store_jobs.request_cancel(library.store, job_id)
    kind = _kind(job.kind)
    if job.status == "cancelled" and kind is not None and kind.on_cancel is not None:
        kind.on_cancel(library, job)
    return job


def retry_job(library: Library, job_id: int) -> Job:
    job = store_jobs.requeue(library.store, job_id)
    kind = _kind(job.kind)
    if kind is not None and kind.on_requeue is not None:
        kind.on_requeue(library, job)
    return job


def _heartbeat(library: Library, job_id: int, done: threading.Event) -> None:
    while not done.wait(HEARTBEAT_SECONDS):
        try:
            store_jobs.heartbeat(library.store, job_id)
        except VerbatimError as exc:
            log.warning("job %s heartbeat failed: %s", job_id, exc.message)


def run_job(
    library: Library, job: Job, *, stop: threading.Event | None = None, on_event: EventCallback | None = None
) -> Job:
    """Run one claimed job to its end (done, failed, cancelled, or released when stopping)."""
    stop = stop or threading.Event()
    kind = _kind(job.kind)
    context = JobContext(library, job, stop, on_event)
    done = threading.Event()
    threading.Thread(
        target=_heartbeat, args=(library, job.id, done), daemon=True, name=f"job-{job.id}-heartbeat"
    ).start()
    try:
        if kind is None:
            raise InputError(f"no runner for jobs of kind {job.kind!r}")
        message = kind.runner(library, job, context)
        store_jobs.finish(library.store, job.id, "done", message)
    except CancelledError as exc:
        if context.user_cancelled:
            store_jobs.finish(library.store, job.id, "cancelled", exc.message)
        else:  # the app is closing: the job resumes at the next start
            store_jobs.release(library.store, job.id, "paused while Verbatim was closed")
    except VerbatimError as exc:
        store_jobs.finish(library.store, job.id, "failed", str(exc))
    except Exception as exc:  # a bug: the job fails with a message, the worker carries on
        log.exception("job %s (%s) failed", job.id, job.kind)
        store_jobs.finish(library.store, job.id, "failed", f"unexpected error: {exc}")
    except KeyboardInterrupt:  # Ctrl+C in the terminal: the job resumes at the next run
        store_jobs.release(library.store, job.id, "interrupted; resumes with 'verbatim jobs run'")
        raise
    finally:
        done.set()
    final = store_jobs.get_job(library.store, job.id)
    if on_event is not None:
        on_event(
            JobEvent(
                final.id, final.kind, final.recording_id, final.status, final.progress, None, final.message
            )
        )
    return final


def run_pending(
    library: Library,
    *,
    kinds: Sequence[str] | None = None,
    recording_ids: Sequence[int] | None = None,
    stop: threading.Event | None = None,
    on_event: EventCallback | None = None,
) -> list[Job]:
    """Run queued jobs in this thread until none is left (or `stop` is set). Returns them, finished."""
    stop = stop or threading.Event()
    finished = []
    while not stop.is_set():
        job = store_jobs.claim_next(
            library.store, worker=worker_id(), kinds=kinds, recording_ids=recording_ids
        )
        if job is None:
            break
        if on_event is not None:
            on_event(JobEvent(job.id, job.kind, job.recording_id, "running", job.progress))
        finished.append(run_job(library, job, stop=stop, on_event=on_event))
    return finished


class JobWorker:
    """Runs queued jobs on a background thread until stopped; `wake()` after enqueueing."""

    def __init__(
        self,
        library: Library,
        *,
        kinds: Sequence[str] | None = None,
        on_event: EventCallback | None = None,
        poll_seconds: float = 2.0,
    ) -> None:
        self.library = library
        self.kinds = kinds
        self.on_event = on_event
        self.poll_seconds = poll_seconds
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> JobWorker:
        if self._thread is None:
            self._thread = threading.Thread(target=self._loop, daemon=True, name="verbatim-jobs")
            self._thread.start()
        return self

    def wake(self) -> None:
        self._wake.set()

    def _loop(self) -> None:
        while not self._stop.is_set():
            try:
                _feed(self.library, self.kinds)
                run_pending(self.library, kinds=self.kinds, stop=self._stop, on_event=self.on_event)
            except VerbatimError as exc:  # e.g. the store is busy: try again at the next poll
                log.warning("job worker: %s", exc.message)
            self._wake.wait(self.poll_seconds)
            self._wake.clear()

    def stop(self, timeout: float = 10.0) -> None:
        """Stop after the running job is interrupted; it goes back to the queue and resumes later."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout)
            self._thread = None

    @property
    def running(self) -> bool:
        return self._thread is not None and self._thread.is_alive()
