"""Transcription in a worker process: batches, progress, crash resume, cancel, language, vocabulary."""

from __future__ import annotations

import itertools
import multiprocessing
import os
import re
import signal
from pathlib import Path

import numpy as np
import pytest

from app.ingest import transcription
from app.ingest.imports import import_files
from app.ingest.transcription import Progress, transcribe_recording
from app.jobs import queue
from app.jobs import worker as jobs_worker
from app.library import Library
from app.project_service import add_project, set_project_options
from app.search import search
from memory.search import index
from memory.store import recordings
from memory.store.jobs import list_jobs
from tests.conftest import require_models
from tests.support.audio_helpers import MARKED_SENTENCES, SELF_CORRECTION, encode, pcm16k, silence, speak
from tests.support.cli import run
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow  # Whisper in worker processes on espeak-ng speech

SENTENCES = MARKED_SENTENCES
VOCABULARY_NOTE = (
    "Yesterday I met Anna Becker and Li Chen from Atlas. Becker wants the Kestrel rollout in June."
)


@pytest.fixture(autouse=True)
def _models() -> None:
    require_models()  # (tests/integration/conftest.py stops the transcription workers after each test)


@pytest.fixture(scope="module")
def notes(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("notes")
    correction = pcm16k(speak(SELF_CORRECTION, folder / "correction.wav"))
    long = pcm16k(speak(" ".join(s for s, _ in SENTENCES), folder / "long.wav"))
    vocab = pcm16k(speak(VOCABULARY_NOTE, folder / "vocab.wav"))
    pad = silence(0.4)
    return {
        "correction": encode(np.concatenate([pad, correction, pad]), folder / "correction.m4a"),
        "correction-2": encode(np.concatenate([pad, correction, pad, pad]), folder / "correction-2.flac"),
        "long": encode(long, folder / "long.flac"),
        "vocab": encode(vocab, folder / "vocab.wav"),
        "vocab-2": encode(vocab, folder / "vocab.flac"),
    }


def _fast_project(library: Library, name: str, **options: object) -> None:
    add_project(library, name)
    set_project_options(library, name, transcription_model="tiny.en", **options)  # type: ignore[arg-type]


def _import(library: Library, path: Path, project: str) -> int:
    [result] = import_files(library, [path], project=project)
    assert result.status == "imported", result.message
    return result.recording_id or 0


def _text(library: Library, recording_id: int) -> str:
    return " ".join(s.raw_text for s in recordings.list_segments(library.store, recording_id))


def test_cli_import_transcribes_the_self_correction(library: Library, notes: dict[str, Path]) -> None:
    _fast_project(library, "Workshop")
    result = run("import", str(notes["correction"]), "--project", "Workshop", "--json")
    assert result.code == 0, result.err
    [job] = result.json()["transcriptions"]
    assert job["status"] == "done"
    rec = recordings.get_recording(library.store, job["recording_id"])
    assert (rec.status, rec.model, rec.language, rec.progress) == ("indexed", "whisper-tiny.en", "en", 1.0)
    segments = recordings.list_segments(library.store, rec.id)
    text = _text(library, rec.id).lower()
    assert "monday" in text and "tuesday" in text and "workshop" in text
    assert segments[0].words and all(w[1] <= w[2] for s in segments for w in s.words)
    assert 0.0 <= segments[0].start < segments[-1].end <= (rec.duration or 0) + 0.1
    # The raw words stay; an edit shows in the transcript, --raw shows what was heard.
    recordings.save_edit(library.store, segments[0].id, "The workshop is on Tuesday.")
    shown = run("transcript", str(rec.id))
    assert shown.code == 0 and "]* The workshop is on Tuesday." in shown.out
    raw = run("transcript", str(rec.id), "--raw", "--json").json()
    assert raw["segments"][0]["text"] == segments[0].raw_text
    listed = run("recordings", "--project", "Workshop", "--json").json()["recordings"]
    assert [r["id"] for r in listed] == [rec.id]


def test_worker_killed_mid_file_resumes_without_duplicates(
    library: Library, notes: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(transcription, "BATCH_SEGMENTS", 2)  # commit early, so the kill lands mid-file
    _fast_project(library, "Long")
    rid = _import(library, notes["long"], "Long")
    store = library.store
    killed: list[int] = []
    seen: list[Progress] = []
    searchable_early: list[bool] = []

    def on_progress(progress: Progress) -> None:
        seen.append(progress)
        if not killed and recordings.last_segment_end(store, rid) > 15:
            for child in multiprocessing.active_children():
                if child.name == "verbatim-transcriber" and child.pid:
                    os.kill(child.pid, signal.SIGKILL)  # a native crash, as far as the app can tell
                    killed.append(child.pid)
        if recordings.get_recording(store, rid).status == "transcribing" and index.recording_chunks(
            store, rid
        ):
            searchable_early.append(True)

    report = transcribe_recording(library, rid, on_progress=on_progress, window=40.0)
    assert killed and report.worker_restarts == 1
    segments = recordings.list_segments(store, rid)
    assert [s.idx for s in segments] == list(range(len(segments)))
    for before, after in itertools.pairwise(segments):
        assert after.start >= before.end - 0.05, (before, after)  # never a segment twice
    text = _text(library, rid).lower()
    counts = {word: len(re.findall(rf"\b{word}\b", text)) for _, word in SENTENCES}
    assert counts == dict.fromkeys(counts, 1), counts
    assert recordings.get_recording(store, rid).status == "indexed"
    assert searchable_early, "nothing was searchable while the note was being transcribed"
    assert any(h.recording_id == rid for h in search(library, "sandwiches coffee", mode="keyword"))
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[-1] == 1.0
    assert any(p.eta_seconds is not None and p.eta_seconds > 0 for p in seen)


def test_cancel_stops_the_worker_and_keeps_what_was_done(library: Library, notes: dict[str, Path]) -> None:
    _fast_project(library, "Long")
    rid = _import(library, notes["long"], "Long")
    [job] = list_jobs(library.store)
    worker = jobs_worker.JobWorker(library, poll_seconds=0.1).start()
    try:
        wait_until(
            lambda: queue.get_job(library, job.id).progress > 0.05, "the transcription under way", timeout=120
        )
        jobs_worker.cancel_job(library, job.id)
        wait_until(lambda: queue.get_job(library, job.id).status != "running", "the job to stop", timeout=120)
    finally:
        worker.stop()
    assert queue.get_job(library, job.id).status == "cancelled"
    rec = recordings.get_recording(library.store, rid)
    assert rec.status == "failed" and "cancelled" in (rec.status_message or "")
    assert not [c for c in multiprocessing.active_children() if c.name == "verbatim-transcriber"]
    done_before = recordings.last_segment_end(library.store, rid)
    assert done_before < (rec.duration or 0)
    # Retried, it resumes from the last committed segment and finishes.
    jobs_worker.retry_job(library, job.id)
    assert recordings.get_recording(library.store, rid).status == "queued"
    [finished] = jobs_worker.run_pending(library)
    assert finished.status == "done", finished.message
    text = _text(library, rid).lower()
    assert all(len(re.findall(rf"\b{word}\b", text)) == 1 for _, word in SENTENCES), text


def test_project_vocabulary_reaches_the_model(library: Library, notes: dict[str, Path]) -> None:
    _fast_project(library, "Plain")
    _fast_project(library, "Atlas", vocabulary=["Becker", "Chen", "Kestrel"])
    plain = _import(library, notes["vocab"], "Plain")
    named = _import(library, notes["vocab-2"], "Atlas")
    jobs_worker.run_pending(library)
    assert "Kestrel" not in _text(library, plain)  # the control: without the vocabulary it is misheard
    assert "Kestrel" in _text(library, named) and "Becker" in _text(library, named)


def test_language_is_detected_or_the_projects(library: Library, notes: dict[str, Path]) -> None:
    """The shipped base model (the default for transcription): detects English, or obeys the project."""
    add_project(library, "Detect")
    add_project(library, "Deutsch")
    set_project_options(library, "Deutsch", language="de")
    detected = _import(library, notes["correction"], "Detect")
    forced = _import(library, notes["correction-2"], "Deutsch")
    finished = jobs_worker.run_pending(library)
    assert [j.status for j in finished] == ["done", "done"], [j.message for j in finished]
    first, second = (recordings.get_recording(library.store, r) for r in (detected, forced))
    assert (first.language, first.model) == ("en", "whisper-base")
    assert (second.language, second.model) == ("de", "whisper-base")
    assert "tuesday" in _text(library, detected).lower()


def test_missing_audio_fails_the_recording_with_a_message(library: Library, notes: dict[str, Path]) -> None:
    _fast_project(library, "Gone")
    rid = _import(library, notes["vocab"], "Gone")
    rec = recordings.get_recording(library.store, rid)
    (library.data_dir.root / (rec.audio_path or "")).unlink()
    [job] = jobs_worker.run_pending(library)
    assert job.status == "failed" and "missing" in (job.message or "")
    rec = recordings.get_recording(library.store, rid)
    assert rec.status == "failed" and "missing" in (rec.status_message or "")
    assert recordings.list_segments(library.store, rid) == []


def test_windows_end_in_pauses_and_never_repeat_or_drop_words(
    library: Library, notes: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    from capture import transcriber as windows
    from models.catalogue import Role
    from models.whisper import TranscriptionOptions

    rate = 16_000
    tone = np.sin(np.arange(rate * 10) * 2 * np.pi * 220 / rate).astype(np.float32) * 0.3
    assert windows.quiet_point(tone, 1.0, 9.0) is None  # continuous sound: no safe cut
    gap = tone.copy()
    gap[int(6.2 * rate) : int(6.8 * rate)] = 0.0
    assert 6.2 <= (windows.quiet_point(gap, 1.0, 9.0) or 0) <= 6.8

    model = library.models.whisper(Role.TRANSCRIPTION_FAST)
    for pauses in (True, False):  # at pauses; and, with none found, cutting at the window's end
        if not pauses:
            monkeypatch.setattr(windows, "quiet_point", lambda audio, lo, hi: None)
        events = list(windows.transcribe_windows(model, notes["long"], TranscriptionOptions(), window=35.0))
        positions = [value for kind, value in events if kind == "position"]
        assert len(positions) >= 2 and positions == sorted(positions)  # cut at least once
        segments = [value for kind, value in events if kind == "segment"]
        for before, after in itertools.pairwise(segments):
            assert after["start"] >= before["end"] - 0.05
        text = " ".join(s["text"] for s in segments).lower()
        counts = {word: len(re.findall(rf"\b{word}\b", text)) for _, word in SENTENCES}
        assert counts == dict.fromkeys(counts, 1), (pauses, counts)
