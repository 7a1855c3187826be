"""Closing the app during a transcription pauses it: the note stays queued and resumes from its last
committed segment at the next start. Only a user's cancel marks it cancelled (tests/
test_capture_transcription.py covers that one). Real worker process, real tiny.en model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.ingest import transcription
from app.ingest.imports import import_files
from app.jobs import queue
from app.jobs import worker as jobs_worker
from app.library import Library
from app.project_service import add_project, set_project_options
from memory.store import recordings
from memory.store.jobs import list_jobs
from tests.conftest import require_models
from tests.support.audio_helpers import MARKED_SENTENCES, encode, pcm16k, speak
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow  # Whisper in a worker process on espeak-ng speech

# each sentence has a word heard once, and only there: a resumed pass must neither drop nor repeat it
SENTENCES = MARKED_SENTENCES[:8] + [m for m in MARKED_SENTENCES if m[1] in ("sandwiches", "garden")]


@pytest.fixture(autouse=True)
def _models() -> None:
    require_models()  # (tests/faults/conftest.py stops the transcription workers after each test)


def _text(library: Library, recording_id: int) -> str:
    return " ".join(s.raw_text for s in recordings.list_segments(library.store, recording_id)).lower()


def test_closing_the_app_leaves_the_note_queued_and_it_resumes(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transcription, "BATCH_SEGMENTS", 1)  # commit each segment: the stop lands mid-file
    audio = encode(pcm16k(speak(" ".join(s for s, _ in SENTENCES), tmp_path / "n.wav")), tmp_path / "n.flac")
    add_project(library, "Long")
    set_project_options(library, "Long", transcription_model="tiny.en")
    [imported] = import_files(library, [audio], project="Long")
    rid = imported.recording_id or 0
    [job] = list_jobs(library.store)
    worker = jobs_worker.JobWorker(library, poll_seconds=0.1).start()  # the desktop app's worker
    try:
        wait_until(
            lambda: recordings.last_segment_end(library.store, rid) > 0,
            "a first committed segment",
            timeout=120,
        )
    finally:
        worker.stop()  # what closing the window does (ui/background.py)
    done_before = recordings.last_segment_end(library.store, rid)
    rec = recordings.get_recording(library.store, rid)
    assert 0 < done_before < (rec.duration or 0), "the stop must land mid-file for this test to mean much"
    assert queue.get_job(library, job.id).status == "queued"
    assert rec.status == "queued" and "resumes" in (rec.status_message or ""), rec.status_message
    # the next start: the worker takes the job up again and finishes from the last committed segment
    [finished] = jobs_worker.run_pending(library)
    assert finished.id == job.id and finished.status == "done", finished.message
    assert recordings.get_recording(library.store, rid).status == "indexed"
    assert recordings.list_segments(library.store, rid)[0].end <= done_before + 0.05  # kept, not redone
    text = _text(library, rid)
    counts = {word: len(re.findall(rf"\b{word}\b", text)) for _, word in SENTENCES}
    assert counts == dict.fromkeys(counts, 1), counts
