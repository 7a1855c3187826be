"""The persistent job queue: background work that survives a crash and resumes at the next start.

A job is claimed by one process at a time (BEGIN IMMEDIATE makes the claim atomic across
processes); the owner refreshes its heartbeat while it works, and a job whose owner is gone goes
back to the queue. Cancelling a running job only raises a flag: the owner stops at its next check.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from memory.store.ids import JobId, RecordingId
from memory.store.store import Store, now_iso
from models.errors import InputError, NotFoundError


class JobStatus(StrEnum):
    """Where a job is: queued, running, or finished as done, failed or cancelled."""

    QUEUED = "queued"
    RUNNING = "running"
    DONE = "done"
    FAILED = "failed"
    CANCELLED = "cancelled"


OPEN = (JobStatus.QUEUED, JobStatus.RUNNING)
FINISHED = (JobStatus.DONE, JobStatus.FAILED, JobStatus.CANCELLED)


@dataclass(frozen=True)
class Job:
    id: JobId
    kind: str
    recording_id: RecordingId | None
    payload: dict[str, Any]
    status: JobStatus
    progress: float
    message: str | None
    attempts: int
    created_at: str
    started_at: str | None
    finished_at: str | None
    worker: str | None
    heartbeat_at: str | None
    cancel_requested: bool
    eta_seconds: float | None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


_SELECT = """
SELECT id, kind, recording_id, payload, status, progress, message, attempts, created_at, started_at,
       finished_at, worker, heartbeat_at, cancel_requested, eta_seconds
FROM jobs
"""


def _job(row: dict[str, Any]) -> Job:
    return Job(
        **{
            **row,
            "payload": json.loads(row["payload"] or "{}"),
            "status": JobStatus(row["status"]),
            "cancel_requested": bool(row["cancel_requested"]),
        }
    )


def get_job(store: Store, job_id: int) -> Job:
    row = store.one(f"{_SELECT} WHERE id = ?", (job_id,))
    if row is None:
        raise NotFoundError(f"no job with id {job_id}", fix="see 'verbatim jobs'")
    return _job(row)


def open_job(store: Store, kind: str, recording_id: int | None) -> Job | None:
    """The queued or running job of this kind for this recording, if there is one."""
    row = store.one(
        f"{_SELECT} WHERE kind = ? AND recording_id IS ? AND status IN ('queued', 'running')"
        " ORDER BY id LIMIT 1",
        (kind, recording_id),
    )
    return _job(row) if row else None


def enqueue(
    store: Store, kind: str, *, recording_id: int | None = None, payload: dict[str, Any] | None = None
) -> int:
    """Queue a job; if the same kind is already open for the recording, that job's id instead."""
    if not kind:
        raise InputError("a job needs a kind")
    with store.transaction():
        existing = open_job(store, kind, recording_id)
        if existing is not None:
            return existing.id
        return store.execute(
            "INSERT INTO jobs (kind, recording_id, payload, status, created_at)"
            " VALUES (?, ?, ?, 'queued', ?)",
            (kind, recording_id, json.dumps(payload or {}), now_iso()),
        )


def claim_next(
    store: Store,
    *,
    worker: str,
    kinds: Sequence[str] | None = None,
    recording_ids: Sequence[int] | None = None,
) -> Job | None:
    """Take the oldest queued job (of these kinds / for these recordings) and mark it running. The
    jobs of a note in the trash wait there until it is restored."""
    where = [
        "status = 'queued'",
        "(recording_id IS NULL OR recording_id NOT IN"
        " (SELECT id FROM recordings WHERE trashed_at IS NOT NULL))",
    ]
    params = list[object]()
    for column, values in (("kind", kinds), ("recording_id", recording_ids)):
        if values is not None:
            if not values:
                return None
            where.append(f"{column} IN ({','.join('?' * len(values))})")
            params.extend(values)
    with store.transaction():
        job_id = store.scalar(f"SELECT id FROM jobs WHERE {' AND '.join(where)} ORDER BY id LIMIT 1", params)
        if job_id is None:
            return None
        now = now_iso()
        store.execute(
            "UPDATE jobs SET status = 'running', attempts = attempts + 1, started_at = ?, worker = ?,"
            " heartbeat_at = ?, message = NULL, eta_seconds = NULL WHERE id = ?",
            (now, worker, now, job_id),
        )
        return get_job(store, job_id)


def report_progress(
    store: Store,
    job_id: int,
    progress: float,
    *,
    eta_seconds: float | None = None,
    message: str | None = None,
) -> bool:
    """Record progress (0..1) and refresh the heartbeat. Returns whether a cancel was requested."""
    store.execute(
        "UPDATE jobs SET progress = ?, eta_seconds = ?, message = coalesce(?, message), heartbeat_at = ?"
        " WHERE id = ? AND status = 'running'",
        (max(0.0, min(1.0, progress)), eta_seconds, message, now_iso(), job_id),
    )
    return bool(store.scalar("SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,)))


def heartbeat(store: Store, job_id: int) -> None:
    store.execute("UPDATE jobs SET heartbeat_at = ? WHERE id = ? AND status = 'running'", (now_iso(), job_id))


def cancel_requested(store: Store, job_id: int) -> bool:
    return bool(store.scalar("SELECT cancel_requested FROM jobs WHERE id = ?", (job_id,)))


def finish(store: Store, job_id: int, status: JobStatus, message: str | None = None) -> None:
    """End a job: done, failed or cancelled."""
    if status not in FINISHED:
        raise InputError(f"a job cannot finish as {status!r}")
    store.execute(
        "UPDATE jobs SET status = ?, message = ?, finished_at = ?, eta_seconds = NULL,"
        " progress = CASE WHEN ? = 'done' THEN 1 ELSE progress END WHERE id = ?",
        (status, message, now_iso(), status, job_id),
    )


def release(store: Store, job_id: int, message: str | None = None) -> None:
    """Put a running job back in the queue (its owner stops without finishing it)."""
    store.execute(
        "UPDATE jobs SET status = 'queued', worker = NULL, message = ? WHERE id = ? AND status = 'running'",
        (message, job_id),
    )


def request_cancel(store: Store, job_id: int) -> Job:
    """A queued job is cancelled at once; a running one is flagged for its owner to stop."""
    with store.transaction():
        job = get_job(store, job_id)
        if job.status == JobStatus.QUEUED:
            finish(store, job_id, JobStatus.CANCELLED, "cancelled before it started")
        elif job.status == JobStatus.RUNNING:
            store.execute("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (job_id,))
        else:
            raise InputError(f"job {job_id} has already finished ({job.status})")
        return get_job(store, job_id)


def requeue(store: Store, job_id: int) -> Job:
    """Run a failed or cancelled job again (it resumes where it stopped)."""
    with store.transaction():
        job = get_job(store, job_id)
        if job.status not in (JobStatus.FAILED, JobStatus.CANCELLED):
            raise InputError(f"job {job_id} is {job.status}; only failed or cancelled jobs can be retried")
        store.execute(
            "UPDATE jobs SET status = 'queued', cancel_requested = 0, message = NULL, finished_at = NULL,"
            " attempts = 0, worker = NULL WHERE id = ?",
            (job_id,),
        )
        return get_job(store, job_id)


def requeue_abandoned(store: Store, *, is_abandoned: Callable[[Job], bool]) -> list[Job]:
    """Running jobs whose owner is gone go back to the queue. Returns them."""
    with store.transaction():
        running = [_job(r) for r in store.all(f"{_SELECT} WHERE status = 'running' ORDER BY id")]
        abandoned = [job for job in running if is_abandoned(job)]
        for job in abandoned:
            store.execute(
                "UPDATE jobs SET status = 'queued', worker = NULL, message = ? WHERE id = ?",
                ("interrupted; resumed at the next start", job.id),
            )
    return abandoned


def list_jobs(
    store: Store,
    *,
    statuses: Sequence[str] | None = None,
    recording_id: int | None = None,
    limit: int | None = 100,
) -> list[Job]:
    """Open jobs first (oldest first), then finished ones (newest first)."""
    where, params = list[str](), list[object]()
    if statuses:
        where.append(f"status IN ({','.join('?' * len(statuses))})")
        params.extend(statuses)
    if recording_id is not None:
        where.append("recording_id = ?")
        params.append(recording_id)
    sql = _SELECT + (" WHERE " + " AND ".join(where) if where else "")
    sql += " ORDER BY status NOT IN ('queued', 'running'), CASE WHEN status IN ('queued', 'running')"
    sql += " THEN id ELSE -id END LIMIT ?"
    params.append(limit if limit is not None else -1)
    return [_job(r) for r in store.all(sql, params)]
