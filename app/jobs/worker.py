"""What runs the job queue: `run_pending` in the calling thread (the queued jobs only), `run_until_idle`
in the calling thread as the app runs it (`verbatim jobs run`: the feeders queue the work that follows,
e.g. consolidation after a note is indexed, until none is left), `JobWorker` on a background thread
(the desktop app), each change reported through a callback. The runner of each kind comes from the
table in app/jobs/kinds.py.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence

from app.jobs.kinds import KINDS
from app.jobs.queue import EventCallback, JobContext, JobEvent, cancel_here, worker_id
from app.library import Library
from memory.store import jobs as store_jobs
from memory.store.jobs import Job, JobStatus
from models.errors import CancelledError, InputError, VerbatimError

log = logging.getLogger(__name__)

HEARTBEAT_SECONDS = 15.0

__all__ = ["JobWorker", "cancel_job", "retry_job", "run_job", "run_pending", "run_until_idle"]


def _feed(library: Library, kinds: Sequence[str] | None) -> None:
    for name, kind in list(KINDS.items()):
        if kind.feeder is not None and (kinds is None or name in kinds):
            kind.feeder(library)


def cancel_job(library: Library, job_id: int) -> Job:
    """Cancel a queued job at once, or ask the process running it to stop."""
    job = store_jobs.request_cancel(library.store, job_id)
    if job.status == JobStatus.RUNNING:
        cancel_here(job_id)  # running in this process: its runner stops at its next check
    kind = KINDS.get(job.kind)
    if job.status == JobStatus.CANCELLED and kind is not None and kind.on_cancel is not None:
        kind.on_cancel(library, job)
    return job


def retry_job(library: Library, job_id: int) -> Job:
    job = store_jobs.requeue(library.store, job_id)
    kind = KINDS.get(job.kind)
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
    kind = KINDS.get(job.kind)
    context = JobContext(library, job, stop, on_event)
    done = threading.Event()
    threading.Thread(
        target=_heartbeat, args=(library, job.id, done), daemon=True, name=f"job-{job.id}-heartbeat"
    ).start()
    try:
        if kind is None:
            raise InputError(f"no runner for jobs of kind {job.kind!r}")
        with context:
            message = kind.runner(library, job, context)
        store_jobs.finish(library.store, job.id, JobStatus.DONE, message)
    except CancelledError as exc:
        if context.user_cancelled:
            store_jobs.finish(library.store, job.id, JobStatus.CANCELLED, exc.message)
        elif stop.is_set():  # the app is closing: the job resumes at the next start
            store_jobs.release(library.store, job.id, "paused while Verbatim was closed")
        else:  # the runner paused itself (its note went to the trash): the job waits in the queue
            store_jobs.release(library.store, job.id, exc.message)
    except VerbatimError as exc:
        store_jobs.finish(library.store, job.id, JobStatus.FAILED, str(exc))
    except Exception as exc:  # a bug: the job fails with a message, the worker carries on
        log.exception("job %s (%s) failed", job.id, job.kind)
        store_jobs.finish(library.store, job.id, JobStatus.FAILED, f"unexpected error: {exc}")
    except KeyboardInterrupt:  # Ctrl+C in the terminal: the job resumes at the next run
        store_jobs.release(library.store, job.id, "interrupted; resumes with 'verbatim jobs run'")
        raise
    finally:
        done.set()
    final = store_jobs.get_job(library.store, job.id)
    if final.status in (JobStatus.FAILED, JobStatus.CANCELLED) and kind is not None and kind.on_stopped:
        try:
            kind.on_stopped(library, final)
        except VerbatimError as exc:  # the job's end is recorded; what follows it is logged
            log.warning("job %s (%s): after it stopped: %s", job.id, job.kind, exc.message)
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
            on_event(JobEvent(job.id, job.kind, job.recording_id, JobStatus.RUNNING, job.progress))
        finished.append(run_job(library, job, stop=stop, on_event=on_event))
    return finished


def run_until_idle(
    library: Library,
    *,
    kinds: Sequence[str] | None = None,
    stop: threading.Event | None = None,
    on_event: EventCallback | None = None,
) -> list[Job]:
    """Run the queue as the app's worker does, in this thread: the feeders queue what is due (a
    note's consolidation once it is indexed...), the queued jobs run, and again, until a round runs
    nothing. Returns the jobs run, finished. A feeder never queues again what failed or was
    cancelled on the same version of a note, so the rounds end."""
    stop = stop or threading.Event()
    finished: list[Job] = []
    while not stop.is_set():
        _feed(library, kinds)
        done_before = {(j.kind, j.recording_id) for j in finished if j.status == JobStatus.DONE}
        ran = run_pending(library, kinds=kinds, stop=stop, on_event=on_event)
        finished += ran
        if not ran or all((j.kind, j.recording_id) in done_before for j in ran):
            break  # nothing left, or a feeder queued again what just ran: the app's next round has it
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
