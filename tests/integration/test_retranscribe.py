"""Re-transcribing a note with the real shipped Whisper models on real speech (espeak-ng): another
model and the project's vocabulary now; the earlier transcript stays readable and restorable."""

from __future__ import annotations

from pathlib import Path

import pytest

from app import note_operations
from app.edits import save_edit
from app.library import Library
from memory.search import index
from memory.store import recordings
from tests.conftest import require_models
from tests.support.audio_helpers import speech_file
from tests.support.cli import Result, run

pytestmark = pytest.mark.slow  # Whisper tiny.en and base in worker processes

NOTE = "Yesterday I met Anna Becker from Kestrel. Becker wants the rollout in June."


def ok(*args: str) -> Result:
    result = run(*args)
    assert result.code == 0, result.err
    return result


def test_retranscribe_keeps_the_earlier_transcript_and_makes_the_new_one_current(
    library: Library, tmp_path: Path
) -> None:
    require_models()
    clip = speech_file(tmp_path, NOTE, "becker.flac")
    ok("projects", "add", "Kestrel")
    ok("projects", "set", "Kestrel", "--model", "tiny.en")
    [item] = ok("import", str(clip), "--project", "Kestrel", "--json").json()["results"]
    rid = item["recording_id"]
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
