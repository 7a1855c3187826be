"""The consistency check every fault test ends with must itself catch damage: a repeated or
overlapping segment, a chunk pointing past the segments, an FTS index out of step, a vector
without a chunk, a missing, emptied or altered audio file. `verbatim doctor` reports it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.consistency import library_problems
from app.ingest.imports import import_files
from app.library import Library
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
