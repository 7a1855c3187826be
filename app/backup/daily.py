"""Daily backups: `backups/daily-YYYY-MM-DD.verbatim-backup` in the data folder, the newest N kept.

A daily backup holds the database and settings, not the audio: audio files are never changed once
written, so seven copies of them on the same disk would cost seven times the library's size and
guard against nothing the originals do not. What a daily backup guards against is what can go
wrong in the database (a bad migration, a bug, a mistake); it restores (`verbatim restore FILE
--force`) into the library it was made from, after checking the audio it lists is still there.
For a copy to keep elsewhere, `verbatim backup --out FILE` includes everything.

At most one a day, made on the background job worker (a "backup" job, with progress and cancel in
the jobs panel) once its queue has been empty for 30 seconds, so it never delays start-up, an
import or a transcription.
The setting `daily_backups_keep` (default 7) is how many are kept; 0 turns them off. An
interrupted or failed daily backup leaves no file under the real name and is tried again at the
next start. `verbatim backup --daily` makes today's at once (for a scheduler).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from datetime import date
from pathlib import Path

from app.backup.create import create_backup
from app.backup.formats import EXTENSION, BackupReport
from app.jobs.queue import JobContext, enqueue
from app.library import Library
from memory.store import jobs as store_jobs
from memory.store import recordings as store_recordings
from memory.store.jobs import Job

log = logging.getLogger(__name__)

KIND = "backup"
PREFIX = "daily-"
STALE_PARTIAL_SECONDS = 24 * 3600
_DAILY = re.compile(rf"^{PREFIX}(\d{{4}}-\d{{2}}-\d{{2}}){re.escape(EXTENSION)}$")

IDLE_SECONDS = 30.0  # how long the job queue stays empty before the daily backup is queued

_attempted: dict[str, date] = {}  # data folder -> the day a daily backup was last queued here
_idle_since: dict[str, float] = {}  # data folder -> when its job queue was first seen empty
_state_lock = threading.Lock()


def daily_path(library: Library, day: date | None = None) -> Path:
    day = day or date.today()
    return library.data_dir.backups_dir / f"{PREFIX}{day.isoformat()}{EXTENSION}"


def daily_backups(library: Library) -> list[Path]:
    """The daily backups in the backups folder, oldest first."""
    folder = library.data_dir.backups_dir
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.iterdir() if _DAILY.match(p.name))


def rotate(library: Library, keep: int) -> list[Path]:
    """Remove all but the newest `keep` daily backups (and day-old partial files); returns the removed."""
    found = daily_backups(library)
    removed = found[: max(0, len(found) - max(keep, 1))]
    for path in removed:
        path.unlink(missing_ok=True)
        log.info("removed the old daily backup %s", path.name)
    folder = library.data_dir.backups_dir
    if folder.is_dir():
        for partial in folder.glob(".*.partial"):
            if time.time() - partial.stat().st_mtime > STALE_PARTIAL_SECONDS:
                partial.unlink(missing_ok=True)
    return removed


def due(library: Library, day: date | None = None) -> bool:
    """Daily backups are on, today's is not made yet, and there is something to back up."""
    if library.settings.daily_backups_keep <= 0 or daily_path(library, day).exists():
        return False
    return bool(store_recordings.list_recordings(library.store, limit=1))


def make_daily_backup(
    library: Library, *, day: date | None = None, job_context: JobContext | None = None
) -> BackupReport | None:
    """Today's daily backup (None when it exists already or daily backups are off), then rotation."""
    keep = library.settings.daily_backups_keep
    if keep <= 0 or daily_path(library, day).exists():
        return None
    context = job_context
    report = create_backup(
        library,
        daily_path(library, day),
        audio=False,
        progress=(lambda done, total: context.report(done / max(total, 1))) if context else None,
        cancelled=context.cancelled if context else None,
    )
    rotate(library, keep)
    return report


def enqueue_daily(library: Library) -> int | None:
    """The job worker's feeder: queue today's backup once, after the queue has been empty for
    IDLE_SECONDS (so it never comes between an import and its transcription)."""
    key, today, now = str(library.data_dir.root), date.today(), time.monotonic()
    with _state_lock:
        if _attempted.get(key) == today:
            return None
    if store_jobs.list_jobs(library.store, statuses=store_jobs.OPEN, limit=1):
        with _state_lock:
            _idle_since.pop(key, None)
        return None
    with _state_lock:
        idle_for = now - _idle_since.setdefault(key, now)
    if idle_for < IDLE_SECONDS or not due(library, today) or cancelled_on(library, today):
        return None
    with _state_lock:
        _attempted[key] = today
    return enqueue(library, KIND)


def cancelled_on(library: Library, day: date) -> bool:
    """The user cancelled a daily backup that day: it is not queued again by itself, not even after
    a restart (`verbatim jobs retry` or the Jobs list's Retry brings it back)."""
    cancelled = store_jobs.list_jobs(library.store, statuses=[store_jobs.JobStatus.CANCELLED], limit=50)
    return any(job.kind == KIND and job.created_at[:10] == day.isoformat() for job in cancelled)


def run_job(library: Library, job: Job, context: JobContext) -> str:
    report = make_daily_backup(library, job_context=context)
    if report is None:
        return "today's backup was already made"
    return f"{Path(report.path).name}: {report.bytes / 1e6:.1f} MB"
