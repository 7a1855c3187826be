"""The store side of note operations (memory/store/note_ops.py): the trash, moves, and earlier
transcripts kept word for word, on an in-memory library."""

from __future__ import annotations

import pytest

from memory.store import note_ops, projects, recordings
from memory.store.recordings import SegmentIn
from memory.store.store import Store, StoreError
from models.errors import InputError, NotFoundError

FIRST = [("Hart well wants the pilot in June.", None), ("The budget is forty thousand.", "Maria")]
SECOND = [("Hartwell wants the pilot in June.", None), ("The budget is 40,000.", "Maria"), ("Done.", None)]


def _note(store: Store, project: str = "Hartwell") -> int:
    pid = projects.add_project(store, project, exist_ok=True).id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-03-02T08:40:00", source="import", status="indexed"
    )
    recordings.update_recording(store, rid, model="whisper-tiny.en", language="en")
    _transcribe(store, rid, FIRST, "whisper-tiny.en")
    return rid


def _transcribe(store: Store, rid: int, lines: list[tuple[str, str | None]], model: str) -> None:
    recordings.append_segments(
        store,
        rid,
        [
            SegmentIn(i * 2.0, i * 2.0 + 1.5, text, speaker=who, model=model)
            for i, (text, who) in enumerate(lines)
        ],
    )


def _words(store: Store, rid: int) -> list[tuple[str, str, bool]]:
    return [(s.raw_text, s.text, s.edited) for s in recordings.list_segments(store, rid)]


def test_a_new_transcript_keeps_the_earlier_one_word_for_word_with_its_edits(store: Store) -> None:
    rid = _note(store)
    first = recordings.list_segments(store, rid)
    recordings.save_edit(store, first[0].id, "Hartwell wants the pilot in June.")
    recordings.save_edit(store, first[0].id, "Hartwell wants the pilot in early June.")
    before = _words(store, rid)

    assert note_ops.start_new_transcript(store, rid, model="base") == 2
    rec = recordings.get_recording(store, rid)
    assert (rec.transcript_version, rec.status, rec.model, rec.segments) == (2, "queued", None, 0)
    [kept] = note_ops.transcript_versions(store, rid)
    assert (kept.version, kept.model, kept.segments, kept.reason) == (
        1,
        "whisper-tiny.en",
        2,
        "re-transcribed with base",
    )
    lines = note_ops.version_segments(store, rid, 1)
    assert [(s.raw_text, s.text, s.edited) for s in lines] == before
    assert lines[1].speaker == "Maria"

    _transcribe(store, rid, SECOND, "whisper-base")  # what the transcription job writes
    recordings.update_recording(store, rid, model="whisper-base", status="indexed")
    note_ops.restore_version(store, rid, 1)
    assert _words(store, rid) == before  # raw words and both edits back, as they were
    edits = recordings.edit_history(store, recordings.list_segments(store, rid)[0].id)
    assert [e["version"] for e in edits] == [1, 2]
    rec = recordings.get_recording(store, rid)
    assert (rec.transcript_version, rec.model, rec.status) == (1, "whisper-tiny.en", "indexed")
    [kept] = note_ops.transcript_versions(store, rid)
    assert (kept.version, kept.model) == (2, "whisper-base")
    assert [s.raw_text for s in note_ops.version_segments(store, rid, 2)] == [t for t, _ in SECOND]
    assert [h["action"] for h in note_ops.history(store, rid)] == ["retranscribed", "transcript_restored"]


def test_an_earlier_transcript_cannot_be_changed(store: Store) -> None:
    rid = _note(store)
    note_ops.start_new_transcript(store, rid, model=None)
    with pytest.raises(StoreError, match="kept as it was"):
        store.execute("UPDATE transcript_version_segments SET text = 'changed'")
    with pytest.raises(NotFoundError, match="no earlier transcript 7"):
        note_ops.version_segments(store, rid, 7)


def test_the_trash_hides_a_note_from_lists_and_counts_and_purge_needs_it_trashed(store: Store) -> None:
    rid = _note(store)
    other = _note(store)
    with pytest.raises(InputError, match="not in the trash"):
        note_ops.purge(store, rid)
    note_ops.trash(store, rid)
    assert [r.id for r in recordings.list_recordings(store)] == [other]
    assert [r.id for r in note_ops.trashed(store)] == [rid]
    assert projects.get_project(store, "Hartwell").recordings == 1
    assert recordings.get_segments(store, [s.id for s in recordings.list_segments(store, rid)])  # words kept
    with pytest.raises(InputError, match="in the trash"):
        note_ops.move(store, rid, projects.add_project(store, "Scratch").id)
    note_ops.untrash(store, rid)
    assert projects.get_project(store, "Hartwell").recordings == 2
    note_ops.trash(store, rid)
    assert note_ops.purge(store, rid) is None  # no audio
    assert store.scalar("SELECT count(*) FROM recordings WHERE id = ?", (rid,)) == 0
    for table in ("segments", "recording_history", "transcript_versions"):
        assert store.scalar(f"SELECT count(*) FROM {table} WHERE recording_id = ?", (rid,)) == 0
    assert [r.id for r in recordings.list_recordings(store, trashed=None)] == [other]


def test_a_recording_in_progress_cannot_be_trashed(store: Store) -> None:
    pid = projects.add_project(store, "Live").id
    rid = recordings.create_recording(
        store, project_id=pid, spoken_at="2026-03-02T08:40:00", source="microphone", status="recording"
    )
    with pytest.raises(InputError, match="stop the recording first"):
        note_ops.trash(store, rid)
