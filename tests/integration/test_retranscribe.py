"""Re-transcribing a note with the real shipped Whisper models on real speech (espeak-ng): another
model and the project's vocabulary now; the earlier transcript stays readable and restorable."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import note_operations
from app.edits import save_edit
from app.ingest import transcription
from app.library import Library
from memory.search import index
from memory.store import recordings
from tests.conftest import require_models
from tests.support.audio_helpers import speech_file
from tests.support.cli import Result, run

pytestmark = pytest.mark.slow  # Whisper tiny.en and base in worker processes

NOTE = "Yesterday I met Anna Becker from Kestrel. Becker wants the rollout in June."


def _imported(tmp_path: Path, text: str, name: str) -> int:
    """A spoken clip of `text` imported through the CLI into "Kestrel", transcribed with tiny.en."""
    require_models()
    clip = speech_file(tmp_path, text, name)
    ok("projects", "add", "Kestrel")
    ok("projects", "set", "Kestrel", "--model", "tiny.en")
    [item] = ok("import", str(clip), "--project", "Kestrel", "--json").json()["results"]
    return int(item["recording_id"])


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.code == 0, result.err
    return result


def test_retranscribe_keeps_the_earlier_transcript_and_makes_the_new_one_current(
    library: Library, tmp_path: Path
) -> None:
    rid = _imported(tmp_path, NOTE, "becker.flac")
    first = recordings.get_recording(library.store, rid)
    assert (first.status, first.model, first.transcript_version) == ("indexed", "whisper-tiny.en", 1)
    raw_before = [s.raw_text for s in recordings.list_segments(library.store, rid)]
    line = recordings.list_segments(library.store, rid)[0]
    edited = save_edit(library, line.id, "My own words for line one.")
    chunks_before = {c.text for c in index.recording_chunks(library.store, rid)}

    ok("projects", "set", "Kestrel", "--vocabulary", "Becker, Kestrel")  # the project's vocabulary now
    done = ok("recordings", "retranscribe", str(rid), "--model", "base", "--run", "--json").json()
    assert [j["kind"] for j in done["jobs"]] == ["transcribe", "consolidate"]
    assert {j["status"] for j in done["jobs"]} == {"done"}
    now = recordings.get_recording(library.store, rid)
    assert (now.transcript_version, now.model) == (2, "whisper-base")
    assert now.status in ("indexed", "consolidated")
    words = " ".join(s.raw_text for s in recordings.list_segments(library.store, rid))
    assert "Becker" in words and "June" in words, words
    assert not any(s.edited for s in recordings.list_segments(library.store, rid))
    assert {c.text for c in index.recording_chunks(library.store, rid)} != chunks_before  # indexed anew
    assert rid in {h["recording_id"] for h in ok("search", "rollout in June", "--json").json()["hits"]}

    [earlier] = ok("recordings", "versions", str(rid), "--json").json()["earlier"]
    assert (earlier["version"], earlier["model"]) == (1, "whisper-tiny.en")
    old = ok("transcript", str(rid), "--version", "1", "--raw", "--json").json()["segments"]
    assert [s["text"] for s in old] == raw_before  # the raw words of the first transcript, unchanged
    shown = ok("transcript", str(rid), "--version", "1").out
    assert "My own words for line one." in shown and "*" in shown  # with the user's edit

    ok("recordings", "restore-version", str(rid), "1")
    back = recordings.list_segments(library.store, rid)
    assert [s.raw_text for s in back] == raw_before and back[0].text == edited.text
    assert [v.version for v in note_operations.transcript_versions(library, rid)] == [2]
    assert run("recordings", "retranscribe", str(rid), "--model", "huge-v9").code == 1
    assert recordings.get_recording(library.store, rid).transcript_version == 1  # refused before any change


def _current(library: Library, rid: int) -> list[str]:
    return [s.raw_text for s in recordings.list_segments(library.store, rid)]


def test_a_cancelled_or_failed_retranscription_falls_back_to_the_earlier_transcript(
    library: Library, tmp_path: Path
) -> None:
    rid = _imported(tmp_path, NOTE, "becker.flac")
    raw_before = _current(library, rid)
    edited = save_edit(library, recordings.list_segments(library.store, rid)[0].id, "My own words.")

    # cancelled before it started: the earlier transcript is current again, edits and passages too
    job_id = ok("recordings", "retranscribe", str(rid), "--json").json()["job_id"]
    assert _current(library, rid) == []  # while it waits, the earlier one is kept aside
    ok("jobs", "cancel", str(job_id))
    rec = recordings.get_recording(library.store, rid)
    assert (rec.transcript_version, rec.status) == (1, "indexed")
    assert "transcript 1 is current again" in (rec.status_message or "")
    assert _current(library, rid) == raw_before
    assert recordings.list_segments(library.store, rid)[0].text == edited.text
    assert note_operations.transcript_versions(library, rid) == []  # no new lines: nothing more to keep
    assert rid in {h["recording_id"] for h in ok("search", "rollout in June", "--json").json()["hits"]}
    open_kinds = {(j["kind"], j["recording_id"]) for j in ok("jobs", "--open", "--json").json()["jobs"]}
    assert ("consolidate", rid) in open_kinds

    # failed while it ran (its audio went missing after it was queued): the same fallback
    ok("recordings", "retranscribe", str(rid), "--model", "base")
    audio = library.data_dir.root / str(rec.audio_path)
    aside = audio.rename(tmp_path / "aside.flac")
    failed = run("jobs", "run", "--json")
    assert failed.code == 1
    assert {j["status"] for j in failed.json()["jobs"] if j["kind"] == "transcribe"} == {"failed"}
    rec = recordings.get_recording(library.store, rid)
    assert rec.transcript_version == 1 and rec.status in ("indexed", "consolidated")
    assert _current(library, rid) == raw_before
    history = [h["action"] for h in note_operations.note_history(library, rid)]
    assert history == ["retranscribed", "transcript_restored"] * 2
    aside.rename(audio)


# Distinct sentences: Whisper makes one line of each (a sentence said again and again is one line).
LONG = (
    "The lantern budget is far too small this year. Call the glacier museum about the insurance. "
    "Priya will send the draft contract on Monday. We agreed to pilot the rollout in Leeds first. "
    "The warehouse in Bristol needs new shelving before the winter. Tom asked for a second quote. "
    "Our client prefers email over phone calls. The board meets again in the middle of March. "
    "Remember to book the train to Manchester. The printer on the third floor is broken again. "
    "Anna wants the slides by Thursday afternoon. The budget review moved to next week. "
)


def test_a_retranscription_cancelled_part_way_keeps_its_lines_and_resumes_when_retried(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.jobs import worker as jobs_worker
    from app.jobs.queue import JobEvent
    from memory.store import jobs as store_jobs

    rid = _imported(tmp_path, LONG, "long.flac")
    raw_before = _current(library, rid)
    assert len(raw_before) > 3

    # Every message of the worker is committed as it comes, so there is always a "part-way": with
    # the usual 2-second batches a fast machine transcribed the whole clip in one batch, and the
    # first lines (the cue to cancel) arrived with the last (the job ended done; flaky in CI).
    monkeypatch.setattr(transcription, "BATCH_SECONDS", 0.0)
    job_id = note_operations.retranscribe(library, rid, model="base")
    job = store_jobs.claim_next(library.store, worker=jobs_worker.worker_id(), kinds=["transcribe"])
    assert job is not None and job.id == job_id

    def cancel_once_lines_are_in(event: JobEvent) -> None:  # the user presses Cancel part-way
        running = store_jobs.get_job(library.store, job_id).status == "running"
        if running and _current(library, rid) and not store_jobs.cancel_requested(library.store, job_id):
            jobs_worker.cancel_job(library, job_id)

    ended = jobs_worker.run_job(library, job, on_event=cancel_once_lines_are_in)
    assert ended.status == "cancelled"
    rec = recordings.get_recording(library.store, rid)
    assert (rec.transcript_version, rec.status) == (1, "indexed")
    assert _current(library, rid) == raw_before
    [partial] = note_operations.transcript_versions(library, rid)  # the new lines, kept
    assert partial.version == 2 and "cancelled" in partial.reason
    made = [s.raw_text for s in note_operations.version_segments(library, rid, 2)]
    assert made

    jobs_worker.retry_job(library, job_id)  # the earlier transcript aside again; the new one resumes
    rec = recordings.get_recording(library.store, rid)
    assert (rec.transcript_version, rec.status) == (2, "queued")
    assert _current(library, rid) == made
    [done] = jobs_worker.run_pending(library, kinds=["transcribe"])
    assert done.status == "done"
    finished = recordings.list_segments(library.store, rid)
    assert [s.raw_text for s in finished[: len(made)]] == made  # resumed, not started again
    assert len(finished) > len(made) and {s.model for s in finished} == {"whisper-base"}
    assert recordings.get_recording(library.store, rid).status == "indexed"
    assert [v.version for v in note_operations.transcript_versions(library, rid)] == [1]
    assert [s.raw_text for s in note_operations.version_segments(library, rid, 1)] == raw_before


def test_a_retranscription_that_fails_under_run_says_what_failed_and_what_is_current_in_one_line(
    library: Library, tmp_path: Path
) -> None:
    rid = _imported(tmp_path, NOTE, "becker.flac")
    raw_before = _current(library, rid)

    not_a_model = tmp_path / "not-a-model"  # a folder that looks like a model and does not load
    not_a_model.mkdir()
    (not_a_model / "model.bin").write_bytes(b"not a CTranslate2 model")
    (not_a_model / "config.json").write_text("{}")
    failed = run("recordings", "retranscribe", str(rid), "--model", str(not_a_model), "--run")
    assert failed.code == 1 and failed.out == ""
    [line] = failed.err.splitlines()
    jobs = ok("jobs", "--json").json()["jobs"]
    [job] = [j for j in jobs if j["kind"] == "transcribe" and j["status"] == "failed"]
    assert line.startswith(
        f"error: re-transcribing recording {rid} failed: cannot load the transcription model"
    )
    assert "transcript 1 is still current, unchanged" in line
    assert f"'verbatim jobs retry {job['id']}'" in line and "--model base" in line
    assert _current(library, rid) == raw_before

    audio = library.data_dir.root / str(recordings.get_recording(library.store, rid).audio_path)
    whole = audio.read_bytes()
    audio.write_bytes(whole[:3000])  # the audio cut short: it cannot be read
    failed = run("recordings", "retranscribe", str(rid), "--run")
    assert failed.code == 1 and failed.out == ""
    [line] = failed.err.splitlines()
    assert f"error: re-transcribing recording {rid} failed: " in line
    assert "is not audio Verbatim can read, or it is damaged" in line
    assert "transcript 1 is still current, unchanged" in line
    assert _current(library, rid) == raw_before
    audio.write_bytes(whole)


def _open_jobs(rid: int) -> list[dict]:
    return [j for j in ok("jobs", "--open", "--json").json()["jobs"] if j["recording_id"] == rid]


def test_a_queued_retranscription_waits_while_its_note_is_in_the_trash_and_runs_once_restored(
    library: Library, tmp_path: Path
) -> None:
    rid = _imported(tmp_path, NOTE, "becker.flac")
    raw_before = _current(library, rid)
    job_id = ok("recordings", "retranscribe", str(rid), "--model", "base", "--json").json()["job_id"]

    deleted = ok("recordings", "delete", str(rid)).out
    assert f"its transcription (job {job_id}) waits there and runs once it is restored" in deleted
    [waiting] = _open_jobs(rid)  # kept, with the model asked for
    assert (waiting["id"], waiting["status"], waiting["payload"]["model"]) == (job_id, "queued", "base")
    assert waiting["message"] == "waits: the note is in the trash"
    assert [j for j in ok("jobs", "run", "--json").json()["jobs"] if j["recording_id"] == rid] == []
    assert [j["status"] for j in _open_jobs(rid)] == ["queued"]  # the queue did not run it

    restored = ok("trash", "restore", str(rid)).out
    assert f"its transcription (job {job_id}) runs from where it stopped" in restored
    [back] = _open_jobs(rid)
    assert (back["id"], back["message"]) == (job_id, None)
    ran = ok("jobs", "run", "--json").json()["jobs"]
    assert [(j["id"], j["status"]) for j in ran if j["kind"] == "transcribe"] == [(job_id, "done")]
    rec = recordings.get_recording(library.store, rid)
    assert (rec.transcript_version, rec.model) == (2, "whisper-base")
    assert [s.raw_text for s in note_operations.version_segments(library, rid, 1)] == raw_before
    assert rid in {h["recording_id"] for h in ok("search", "rollout in June", "--json").json()["hits"]}


def test_a_retranscription_cancelled_in_the_trash_falls_back_on_restore_and_emptying_takes_its_jobs(
    library: Library, tmp_path: Path
) -> None:
    rid = _imported(tmp_path, NOTE, "becker.flac")
    raw_before = _current(library, rid)
    job_id = ok("recordings", "retranscribe", str(rid), "--json").json()["job_id"]
    ok("recordings", "delete", str(rid))
    ok("jobs", "cancel", str(job_id))  # the user gives up on it while the note is in the trash
    ok("trash", "restore", str(rid))
    rec = recordings.get_recording(library.store, rid)
    assert (rec.transcript_version, rec.status) == (1, "indexed")
    assert _current(library, rid) == raw_before
    assert rid in {h["recording_id"] for h in ok("search", "rollout in June", "--json").json()["hits"]}

    job_id = ok("recordings", "retranscribe", str(rid), "--json").json()["job_id"]
    ok("recordings", "delete", str(rid))
    ok("trash", "empty", str(rid))  # deleted for good: its waiting job goes with it
    assert library.store.scalar("SELECT count(*) FROM jobs WHERE recording_id = ?", (rid,)) == 0
    assert run("jobs", "retry", str(job_id)).code != 0


def test_a_retranscription_under_way_when_its_note_is_trashed_pauses_and_resumes_once_restored(
    library: Library, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from app.jobs import worker as jobs_worker
    from app.jobs.queue import JobEvent
    from memory.store import jobs as store_jobs

    rid = _imported(tmp_path, LONG, "long.flac")
    raw_before = _current(library, rid)
    monkeypatch.setattr(transcription, "BATCH_SECONDS", 0.0)  # a "part-way" on any machine (above)
    job_id = note_operations.retranscribe(library, rid, model="base")
    job = store_jobs.claim_next(library.store, worker=jobs_worker.worker_id(), kinds=["transcribe"])
    assert job is not None and job.id == job_id

    def trash_once_lines_are_in(event: JobEvent) -> None:  # the user deletes the note part-way
        if _current(library, rid) and recordings.get_recording(library.store, rid).trashed_at is None:
            note_operations.delete_recording(library, rid)

    paused = jobs_worker.run_job(library, job, on_event=trash_once_lines_are_in)
    assert (paused.status, paused.message) == ("queued", "waits: the note is in the trash")
    made = _current(library, rid)
    assert made and recordings.get_recording(library.store, rid).transcript_version == 2
    assert jobs_worker.run_pending(library, kinds=["transcribe"]) == []  # it waits

    note_operations.restore_recording(library, rid)
    [done] = jobs_worker.run_pending(library, kinds=["transcribe"])
    assert (done.id, done.status) == (job_id, "done")
    finished = _current(library, rid)
    assert finished[: len(made)] == made and len(finished) > len(made)  # resumed, not started again
    assert {s.model for s in recordings.list_segments(library.store, rid)} == {"whisper-base"}
    assert [s.raw_text for s in note_operations.version_segments(library, rid, 1)] == raw_before
