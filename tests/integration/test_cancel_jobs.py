"""Cancel stops every kind of background work part-way, leaves the library consistent
(app.consistency, what `verbatim doctor` checks), and stays cancelled at the next start.

A user imported a 60 MB .txt, pressed Cancel, and nothing happened for minutes (the import only
looked at Cancel between files); every restart then went on "Making notes searchable" on the note
they had cancelled. Cancel latency per kind is measured by `python -m bench.cancel_latency` and
written in docs/benchmarks.md; here the tests wait on what can be seen (the work returning, rows),
never on a clock.
"""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from app.backup.create import create_backup
from app.backup.daily import cancelled_on, enqueue_daily
from app.consistency import library_problems
from app.ingest.imports import import_files
from app.ingest.indexing import index_pending
from app.jobs import worker as jobs_worker
from app.jobs.queue import enqueue, get_job
from app.library import Library
from memory.search import index
from memory.store import jobs as store_jobs
from memory.store import recordings
from memory.store.jobs import JobStatus
from models.errors import CancelledError
from tests.support.audio_helpers import encode, speech_file
from tests.support.long_text import big_text
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow  # tens of megabytes of text, the embedding model, real audio


class CancelWhen:
    """A cancel flag that turns on once `condition()` holds, as a user pressing Cancel part-way."""

    def __init__(self, condition: object) -> None:
        self.condition = condition
        self.asked = 0
        self.fired = False

    def __call__(self) -> bool:
        self.asked += 1
        if not self.fired and self.condition():  # type: ignore[operator]
            self.fired = True
        return self.fired


def test_a_huge_text_import_cancelled_while_it_is_read_leaves_nothing(
    library: Library, tmp_path: Path
) -> None:
    path = big_text(tmp_path / "huge.txt", 12)
    cancel = CancelWhen(lambda: cancel.asked >= 3)  # a few thousand sentences into the file
    with pytest.raises(CancelledError):
        import_files(library, [path], project="Scratch", cancelled=cancel)
    assert recordings.list_recordings(library.store) == []
    assert library_problems(library) == []


def test_a_huge_text_import_cancelled_while_it_is_indexed_is_taken_back_whole(
    library: Library, tmp_path: Path
) -> None:
    (tmp_path / "small.txt").write_text("The Hartwell budget is 40,000 pounds.\n", encoding="utf-8")
    path = big_text(tmp_path / "huge.txt", 12)
    store = library.store

    def indexing_under_way() -> bool:
        found = [r for r in recordings.list_recordings(store) if r.source_name == "huge.txt"]
        return bool(found) and bool(index.recording_chunks(store, found[0].id))

    cancel = CancelWhen(indexing_under_way)
    seen: list[str] = []
    with pytest.raises(CancelledError):
        import_files(
            library,
            [tmp_path / "small.txt", path],
            project="Scratch",
            cancelled=cancel,
            on_result=lambda r: seen.append(r.status),
        )
    assert cancel.fired and seen == ["imported"]  # the file before it stays
    kept = recordings.list_recordings(store)
    assert [r.source_name for r in kept] == ["small.txt"]
    assert library_problems(library) == []
    # the next start has nothing of it to resume: the cancelled file stays cancelled
    assert [r.recording_id for r in index_pending(library)] == []
    # importing it again is how it is retried (a small file stands for it: the big one takes hours)
    [again] = import_files(library, [tmp_path / "small.txt"], project="Scratch")
    assert again.status == "duplicate"


def test_a_text_import_cancelled_from_another_thread_returns_with_the_library_consistent(
    library: Library, tmp_path: Path
) -> None:
    path = big_text(tmp_path / "huge.txt", 30)
    stop = threading.Event()
    outcome: list[BaseException | None] = []

    def run() -> None:
        try:
            import_files(library, [path], project="Scratch", cancelled=stop.is_set)
            outcome.append(None)
        except BaseException as exc:  # the test reads what ended it
            outcome.append(exc)

    worker = threading.Thread(target=run)
    worker.start()
    wait_until(lambda: bool(recordings.list_recordings(library.store)), "the import to store the note")
    stop.set()
    worker.join(120)  # a fail-safe only: today's main ran for hours (its indexing never looked at Cancel)
    assert not worker.is_alive(), "the import did not stop when cancelled"
    assert len(outcome) == 1 and isinstance(outcome[0], CancelledError)
    assert recordings.list_recordings(library.store) == []
    assert library_problems(library) == []


def test_a_cancelled_transcription_stays_failed_after_the_start_up_indexing(
    library: Library, tmp_path: Path
) -> None:
    audio = speech_file(
        tmp_path, "The lantern budget is small. Call the glacier museum. " * 20, "long-note.flac"
    )
    [result] = import_files(library, [audio], project="P")
    rid = result.recording_id
    assert rid is not None
    job = store_jobs.claim_next(library.store, worker=jobs_worker.worker_id(), kinds=["transcribe"])
    assert job is not None

    def some_words_in() -> bool:
        return bool(recordings.list_segments(library.store, rid))

    runner = threading.Thread(target=lambda: jobs_worker.run_job(library, job))
    runner.start()
    wait_until(some_words_in, "the first transcribed words", timeout=240)
    jobs_worker.cancel_job(library, job.id)
    runner.join(120)
    assert not runner.is_alive()
    assert get_job(library, job.id).status == JobStatus.CANCELLED
    assert recordings.get_recording(library.store, rid).status == "failed"
    index_pending(library)  # the next start's catch-up: what was transcribed is searchable...
    assert recordings.get_recording(library.store, rid).status == "failed"  # ...and it stays cancelled
    assert library_problems(library) == []
    jobs_worker.retry_job(library, job.id)  # until retried
    assert recordings.get_recording(library.store, rid).status == "queued"


def test_a_cancelled_backup_leaves_no_file_and_the_daily_one_is_not_queued_again(
    library: Library, tmp_path: Path
) -> None:
    (tmp_path / "note.txt").write_text("The lantern budget is far too small.\n", encoding="utf-8")
    import_files(library, [tmp_path / "note.txt"], project="P")
    blob = library.data_dir.audio_dir / "big.bin"  # a large audio file: Cancel within it, not after
    blob.parent.mkdir(parents=True, exist_ok=True)
    blob.write_bytes(np.random.default_rng(1).bytes(64 << 20))
    cancel = CancelWhen(lambda: cancel.asked >= 5)
    out = tmp_path / "out.verbatim-backup"
    with pytest.raises(CancelledError):
        create_backup(library, out, cancelled=cancel)
    assert cancel.asked < 20, "the backup was not cancelled inside the large file"
    assert not out.exists() and not list(tmp_path.glob(".out*"))
    blob.unlink()

    job_id = enqueue(library, "backup")
    jobs_worker.cancel_job(library, job_id)
    assert get_job(library, job_id).status == JobStatus.CANCELLED
    from datetime import date

    assert cancelled_on(library, date.today())
    assert enqueue_daily(library) is None
    assert library_problems(library) == []


def test_consolidation_cancelled_between_stages_resumes_only_when_retried(
    library: Library, tmp_path: Path
) -> None:
    from app.consolidation import service as consolidation

    (tmp_path / "note.txt").write_text(
        "Priya Raman will send the Hartwell budget by Friday. We decided to pilot in Leeds.\n",
        encoding="utf-8",
    )
    [note] = import_files(library, [tmp_path / "note.txt"], project="Hartwell Logistics")
    assert note.recording_id is not None
    [job_id] = consolidation.enqueue_pending(library)
    job = store_jobs.claim_next(library.store, worker=jobs_worker.worker_id(), kinds=["consolidate"])
    assert job is not None and job.id == job_id
    jobs_worker.cancel_job(library, job_id)  # asked while it runs: it stops at its next stage
    finished = jobs_worker.run_job(library, job)
    assert finished.status == JobStatus.CANCELLED
    assert consolidation.enqueue_pending(library) == []  # not queued again by itself (a restart)
    assert library_problems(library) == []
    jobs_worker.retry_job(library, job_id)
    assert get_job(library, job_id).status == JobStatus.QUEUED


def test_audio_import_of_a_file_cancelled_before_its_recording_is_made_leaves_no_audio(
    library: Library, tmp_path: Path
) -> None:
    audio = encode(np.zeros(16_000 * 3, dtype=np.float32), tmp_path / "quiet.flac")
    cancel = CancelWhen(lambda: cancel.asked >= 2)  # past the file's start, before its recording
    with pytest.raises(CancelledError):
        import_files(library, [audio], project="P", cancelled=cancel)
    assert recordings.list_recordings(library.store) == []
    assert not any(p.is_file() for p in library.data_dir.audio_dir.rglob("*"))
    assert library_problems(library) == []


def test_a_watched_folder_stops_a_huge_import_when_the_app_closes(library: Library, tmp_path: Path) -> None:
    from app.ingest.watched_folders import FolderWatcher
    from app.settings import WatchedFolder

    inbox = tmp_path / "inbox"
    inbox.mkdir()
    big_text(inbox / "huge.txt", 12)
    watcher = FolderWatcher(library, [WatchedFolder(str(inbox), "Inbox")], settle=0.2).start()
    wait_until(lambda: bool(recordings.list_recordings(library.store)), "the watcher to store the note")
    watcher.stop(timeout=60)  # a fail-safe: the old watcher imported the whole file first
    assert not watcher.running, "the watcher was still importing after it was stopped"
    assert recordings.list_recordings(library.store) == []
    assert library_problems(library) == []
