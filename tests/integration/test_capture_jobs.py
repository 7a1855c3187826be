"""The persistent job queue: claiming, progress, cancel, retry, and recovery after a dead owner."""

from __future__ import annotations

import subprocess
import sys
import threading
import time

import pytest

from app.jobs import queue
from app.jobs import worker as jobs_worker
from app.jobs.kinds import KINDS
from app.jobs.queue import JobContext, JobEvent, JobKind
from app.library import Library
from memory.store import jobs as store_jobs
from memory.store.jobs import Job
from models.errors import CancelledError, InputError
from tests.support.cli import run
from tests.support.waiting import wait_until

SLOW = "test-slow"


def _slow_runner(library: Library, job: Job, context: JobContext) -> str:
    """A real runner: counts to `steps`, reporting progress, until done or cancelled."""
    steps = int(job.payload.get("steps", 20))
    for step in range(steps):
        if context.cancelled():
            raise CancelledError(f"stopped at step {step}")
        context.report((step + 1) / steps, eta_seconds=(steps - step - 1) * 0.05)
        time.sleep(0.05)  # kept: the simulated work of one step
    return f"counted to {steps}"


@pytest.fixture(autouse=True)
def _slow_kinds(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (SLOW, SLOW + "-2"):
        monkeypatch.setitem(KINDS, name, JobKind(_slow_runner))


def test_enqueue_is_idempotent_per_recording_and_runs_in_order(library: Library) -> None:
    first = queue.enqueue(library, SLOW, payload={"steps": 2})
    assert queue.enqueue(library, SLOW, payload={"steps": 2}) == first  # same kind, same (no) recording
    events: list[JobEvent] = []
    finished = jobs_worker.run_pending(library, on_event=events.append)
    assert [j.id for j in finished] == [first]
    job = queue.get_job(library, first)
    assert (job.status, job.progress, job.message, job.attempts) == ("done", 1.0, "counted to 2", 1)
    assert events[0].status == "running" and events[-1].status == "done"
    progress = [e.progress for e in events if e.status == "running"]
    assert progress == sorted(progress)


def test_unknown_kind_fails_with_a_message(library: Library) -> None:
    job_id = queue.enqueue(library, "no-such-kind")
    jobs_worker.run_pending(library)
    job = queue.get_job(library, job_id)
    assert job.status == "failed" and "no runner" in (job.message or "")


def test_cancel_a_queued_job_and_a_running_one(library: Library) -> None:
    queued = queue.enqueue(library, SLOW, recording_id=None, payload={"steps": 5})
    assert jobs_worker.cancel_job(library, queued).status == "cancelled"
    with pytest.raises(InputError):
        jobs_worker.cancel_job(library, queued)  # already finished

    running = store_jobs.enqueue(library.store, SLOW + "-2", payload={"steps": 200})
    worker = jobs_worker.JobWorker(library, poll_seconds=0.1).start()
    try:
        wait_until(lambda: queue.get_job(library, running).progress >= 0.05, "the job under way", timeout=10)
        # Another process cancels it, as `verbatim jobs cancel` does.
        assert run("jobs", "cancel", str(running)).code == 0
        wait_until(lambda: queue.get_job(library, running).status != "running", "the job to stop", timeout=10)
    finally:
        worker.stop()
    job = queue.get_job(library, running)
    assert job.status == "cancelled" and "stopped at step" in (job.message or "")
    assert 0.0 < job.progress < 1.0
    # A cancelled job can be retried; it runs again from the queue.
    assert jobs_worker.retry_job(library, running).status == "queued"


def test_stopping_the_worker_puts_the_running_job_back_in_the_queue(library: Library) -> None:
    job_id = queue.enqueue(library, SLOW, payload={"steps": 400})
    worker = jobs_worker.JobWorker(library, poll_seconds=0.1).start()
    wait_until(lambda: queue.get_job(library, job_id).status == "running", "the job to start", timeout=10)
    worker.stop()
    job = queue.get_job(library, job_id)
    assert job.status == "queued" and "closed" in (job.message or "")


@pytest.mark.slow
def test_a_job_left_running_by_a_dead_process_is_recovered(library: Library) -> None:
    job_id = queue.enqueue(library, SLOW, payload={"steps": 1})
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    owner = f"{queue.worker_id().rpartition(':')[0]}:{dead.stdout.strip()}"
    claimed = store_jobs.claim_next(library.store, worker=owner)
    assert claimed is not None and claimed.id == job_id
    alive = store_jobs.enqueue(library.store, SLOW + "-alive", payload={"steps": 1})
    assert store_jobs.claim_next(library.store, worker=queue.worker_id(), kinds=[SLOW + "-alive"]) is not None
    recovered = queue.recover_jobs(library)
    assert [j.id for j in recovered] == [job_id]  # this process's own running job is left alone
    assert queue.get_job(library, alive).status == "running"
    assert queue.get_job(library, job_id).status == "queued"
    jobs_worker.run_pending(library, kinds=[SLOW])
    assert queue.get_job(library, job_id).status == "done"


def test_jobs_cli_lists_and_runs(library: Library) -> None:
    job_id = queue.enqueue(library, SLOW, payload={"steps": 1})
    listed = run("jobs", "--json").json()["jobs"]
    assert [(j["id"], j["status"]) for j in listed] == [(job_id, "queued")]
    result = run("jobs", "run", "--json")
    assert result.code == 0, result.err
    assert [j["status"] for j in result.json()["jobs"]] == ["done"]
    assert run("jobs", "retry", "999").code == 1


def test_only_one_process_claims_a_job(library: Library) -> None:
    ids = [store_jobs.enqueue(library.store, f"{SLOW}-{n}") for n in range(30)]
    claimed: list[int] = []
    lock = threading.Lock()

    def claim(worker: str) -> None:
        from app.library import Library as Lib

        with Lib(library.data_dir) as other:  # its own connection, as another process has
            while (job := store_jobs.claim_next(other.store, worker=worker)) is not None:
                with lock:
                    claimed.append(job.id)

    threads = [threading.Thread(target=claim, args=(f"host:{n}",)) for n in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(claimed) == ids
