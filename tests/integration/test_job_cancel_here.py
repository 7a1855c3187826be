"""A cancel asked for in the process that runs the job reaches its runner at the next check.

The runner polls the store for a cancel at most every REPORT_INTERVAL, and a progress report has
just read it; a cancel made right after a report (the app's Cancel, or anything reacting to the
report) went unseen by a job that finished within the interval, which then ended "done". Real
SQLite store, real queue; no clock waited on."""

from __future__ import annotations

import threading

from app.jobs import worker as jobs_worker
from app.jobs.queue import JobContext, enqueue
from app.library import Library
from memory.store import jobs as store_jobs


def test_a_cancel_in_this_process_is_seen_at_once_after_a_progress_report(library: Library) -> None:
    job_id = enqueue(library, "backup")
    job = store_jobs.claim_next(library.store, worker=jobs_worker.worker_id(), kinds=["backup"])
    assert job is not None and job.id == job_id
    with JobContext(library, job, threading.Event(), None) as context:
        context.report(0.1)  # reads the store's cancel flag: none yet
        assert not context.cancelled()
        jobs_worker.cancel_job(library, job_id)
        assert context.cancelled() and context.user_cancelled
