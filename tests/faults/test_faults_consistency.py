"""The consistency check every fault test ends with must itself catch damage: a repeated or
overlapping segment, a chunk pointing past the segments, an FTS index out of step, a vector
without a chunk, a missing, emptied or altered audio file. `verbatim doctor` reports it, and the
audio files a crash left behind that no note points at (`verbatim doctor --clean-audio`)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from app import note_operations
from app.consistency import ORPHAN_GRACE_SECONDS, library_problems, orphan_audio
from app.ingest.imports import import_files
from app.library import Library
from memory.store import note_ops
from tests.support.audio_helpers import encode, silence
from tests.support.cli import run

pytestmark = pytest.mark.slow  # each test imports a note (embedding model) and audio

NOTE = "The lantern budget is far too small.\nCall the glacier museum about insurance.\n"


def _library_with_notes(library: Library, tmp_path: Path) -> tuple[int, int]:
    (tmp_path / "note.txt").write_text(NOTE, encoding="utf-8")
    tone = np.sin(np.arange(16_000 * 2) / 16_000 * 2 * np.pi * 440).astype(np.float32) * 0.2
    audio = encode(np.concatenate([tone, silence(0.5)]), tmp_path / "tone.flac")
    [text] = import_files(library, [tmp_path / "note.txt"], project="P")
    [sound] = import_files(library, [audio], project="P")
    assert library_problems(library, deep=True) == []
    return text.recording_id or 0, sound.recording_id or 0


def test_damaged_segments_and_index_are_reported(library: Library, tmp_path: Path) -> None:
    text_id, sound_id = _library_with_notes(library, tmp_path)
    store = library.store
    store.execute(  # the last segment written twice
        "INSERT INTO segments (recording_id, idx, start, end, text) SELECT recording_id, idx + 1, start,"
        " end, text FROM segments WHERE recording_id = ? ORDER BY idx DESC LIMIT 1",
        (text_id,),
    )
    store.execute(
        "INSERT INTO segments (recording_id, idx, start, end, text) VALUES (?, 0, 1.0, 2.0, 'one'),"
        " (?, 1, 1.5, 2.5, 'two'), (?, 3, 3.0, 4.0, 'three')",
        (sound_id, sound_id, sound_id),
    )
    chunk = store.one("SELECT id, text FROM chunks WHERE recording_id = ?", (text_id,))
    assert chunk is not None
    store.execute("UPDATE chunks SET last_idx = last_idx + 5 WHERE id = ?", (chunk["id"],))
    store.execute(  # the full-text index loses a row behind the table's back
        "INSERT INTO chunks_fts (chunks_fts, rowid, text) VALUES ('delete', ?, ?)",
        (chunk["id"], chunk["text"]),
    )
    [(project_id, spoken_at, vector)] = store.rows(
        "SELECT project_id, spoken_at, embedding FROM chunk_vectors"
    )
    store.execute(  # a vector whose chunk is gone
        "INSERT INTO chunk_vectors (chunk_id, project_id, spoken_at, embedding, embedding_bit)"
        " VALUES (9999, ?, ?, ?, vec_quantize_binary(?))",
        (project_id, spoken_at, vector, vector),
    )
    problems = "\n".join(library_problems(library))
    assert f"recording {text_id}: segment 1 duplicates segment 0" in problems, problems
    assert f"recording {sound_id}: segment 1 overlaps segment 0" in problems
    assert f"recording {sound_id}: segment index jumps from 1 to 3" in problems
    assert "do not all exist" in problems and "full-text index" in problems
    assert "vector(s) belong to no chunk" in problems


def test_missing_emptied_or_altered_audio_is_reported(library: Library, tmp_path: Path) -> None:
    _, sound_id = _library_with_notes(library, tmp_path)
    audio = library.data_dir.root / str(
        library.store.scalar("SELECT audio_path FROM recordings WHERE id = ?", (sound_id,))
    )
    original = audio.read_bytes()
    audio.write_bytes(original[: len(original) // 2])
    assert any("changed since it was stored" in p for p in library_problems(library, deep=True))
    assert library_problems(library) == []  # the quick check (doctor's) only looks at presence and size
    audio.write_bytes(b"")
    assert library_problems(library) == [
        f"recording {sound_id}: its audio {audio.relative_to(library.data_dir.root)} is empty"
    ]
    audio.unlink()
    [missing] = library_problems(library)
    assert "is missing" in missing
    doctor = run("doctor", "--json")
    checks = {c["name"]: c for c in doctor.json()["checks"]}
    assert checks["consistency"]["ok"] is False and "is missing" in checks["consistency"]["detail"]


def _age(path: Path) -> None:
    """As a file written before the grace period (the file system's clock, set back)."""
    old = time.time() - 2 * ORPHAN_GRACE_SECONDS
    os.utime(path, (old, old))


def test_audio_a_crash_left_while_a_note_was_deleted_for_good_is_found_and_moved_away(
    library: Library, tmp_path: Path
) -> None:
    _, sound_id = _library_with_notes(library, tmp_path)
    root = library.data_dir.root
    low_tone = np.sin(np.arange(16_000) / 16_000 * 2 * np.pi * 220).astype(np.float32) * 0.2
    other = encode(low_tone, tmp_path / "other.flac")
    [trashed] = import_files(library, [other], project="P")
    assert trashed.recording_id is not None
    note_operations.delete_recording(library, trashed.recording_id)  # in the trash: its audio stays
    note_operations.delete_recording(library, sound_id)
    gone = note_ops.purge(library.store, sound_id)  # deleted for good; the process dies before the file
    assert gone is not None
    left = root / gone
    assert left.is_file()
    for row in library.store.rows("SELECT audio_path FROM recordings WHERE audio_path IS NOT NULL"):
        _age(root / row[0])  # old files a note points at are never orphans
    assert orphan_audio(library) == []  # a file this young may be an import on its way in
    _age(left)
    assert [o.path for o in orphan_audio(library)] == [gone]
    assert library_problems(library, deep=True) == []  # nothing of any note is missing

    checks = {c["name"]: c for c in run("doctor", "--json").json()["checks"]}
    found = checks["audio files"]
    assert found["ok"] is False and found["severity"] == "warning"
    assert gone in found["detail"] and "1 audio file(s)" in found["detail"]
    assert "--clean-audio" in found["fix"]

    cleaned = run("doctor", "--clean-audio", "--json").json()
    assert [o["path"] for o in cleaned["cleaned_audio"]] == [gone]
    assert not left.exists() and (root / "trash" / gone).read_bytes()  # moved, not deleted
    assert {c["name"]: c for c in cleaned["checks"]}["audio files"]["ok"] is True
    assert library_problems(library, deep=True) == []  # every note's audio is where it was

    stray = library.data_dir.audio_dir / "ff" / "stray.flac"  # deleted only when asked to
    stray.parent.mkdir(parents=True, exist_ok=True)
    stray.write_bytes(b"fLaC")
    _age(stray)
    assert run("doctor", "--delete").code != 0  # --delete alone is refused
    assert stray.exists()
    deleted = run("doctor", "--clean-audio", "--delete")
    assert "audio files no note points at: 1 deleted" in deleted.out and "audio/ff/stray.flac" in deleted.out
    assert not stray.exists() and not (root / "trash" / "audio" / "ff").exists()
    assert library_problems(library, deep=True) == []
