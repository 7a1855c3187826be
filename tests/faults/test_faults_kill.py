"""kill -9 at the worst moments, then a restart: nothing is lost, nothing is doubled.

Each test runs the real CLI (or a few lines driving the real services) in a child process, waits
until the work is visibly half done in the database, sends SIGKILL, restarts, and ends with the
whole-library consistency check (SQLite, FTS, segments, chunks, vectors, audio decoded).
"""

from __future__ import annotations

import itertools
import json
import re
import shutil
import stat
import time
from pathlib import Path

import apsw
import numpy as np
import pytest

from app.ingest.imports import import_files
from app.ingest.recording_session import recover_at_start
from app.instance_lock import InstanceLock
from app.library import Library
from app.project_service import add_project, set_project_options
from capture.transcripts import read_transcript
from memory.store import recordings
from memory.store.store import Store, migration_files
from models.catalogue import SHIPPED, Role
from tests.conftest import require_models
from tests.support.audio_helpers import (
    VirtualMicrophone,
    encode,
    pcm16k,
    silence,
    speak,
)
from tests.support.consolidation_corpus import write_corpus
from tests.support.fault_helpers import (
    assert_consistent,
    count,
    kill_9,
    run_cli,
    start_cli,
    start_driver,
)
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow  # child processes killed -9 mid-way, real models and audio

# Each sentence has one word that is said only there: a duplicated segment shows as a count of 2.
SENTENCES = [
    ("First, the harbour survey is due on Monday, so please book the boat early.", "monday"),
    ("Second, Maria thinks the lantern budget is far too small for the festival.", "lantern"),
    ("Third, somebody must call the glacier museum about insurance.", "glacier"),
    ("Fourth, the orchard photos look wonderful, but the captions need checking.", "orchard"),
    ("Fifth, Tom will bring a compass and maps for the walking tour.", "compass"),
    ("Finally, the garden project is waiting for the city council.", "garden"),
]


@pytest.fixture(scope="module")
def long_note(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("long")
    speech = pcm16k(speak(" ".join(s for s, _ in SENTENCES), folder / "long.wav", speed=170))
    return encode(np.concatenate([silence(0.3), speech, silence(0.3)]), folder / "long.flac")


def _fast_project(library: Library, name: str) -> None:
    add_project(library, name)
    set_project_options(library, name, transcription_model="tiny.en")


def _words_once(text: str) -> dict[str, int]:
    lowered = text.lower()
    return {word: len(re.findall(rf"\b{word}\b", lowered)) for _, word in SENTENCES}


# --- recording ---------------------------------------------------------------------------------------
@pytest.mark.audio
def test_kill_9_of_verbatim_record_loses_at_most_two_seconds(
    library: Library, virtual_microphone: VirtualMicrophone, tmp_path: Path
) -> None:
    """The real `verbatim record` on the virtual microphone, killed mid-sentence; the next start
    recovers the audio (all but the last unsynced half second) and transcribes it."""
    require_models()
    _fast_project(library, "Crash")
    data = library.data_dir.root
    recorder = start_cli(data, "record", "--project", "Crash", "--no-live", "--no-transcribe")
    assert recorder.stdout is not None
    assert "recording into Crash" in recorder.stdout.readline()
    # The clock starts with the first audio on disk (plus what that first block already holds).
    pcm = data / "recording" / "1.pcm"
    wait_until(lambda: pcm.exists() and pcm.stat().st_size > 0, "the first audio on disk", process=recorder)
    started = time.monotonic()
    rate = json.loads((data / "recording" / "1.json").read_text())["sample_rate"]
    already = pcm.stat().st_size / (2 * rate)
    player = virtual_microphone.play(
        speak("The workshop is on Monday, oh wait, I actually meant Tuesday.", tmp_path / "s.wav"), wait=False
    )
    player.wait(30)
    # Half a second more audio on disk than when the sentence ended: the recorder syncs every 0.5 s,
    # so by then the sentence's end is on disk too.
    target = pcm.stat().st_size + 2 * int(0.5 * rate)  # half a second more of 16-bit mono
    wait_until(lambda: pcm.stat().st_size >= target, "the sentence's end on disk", process=recorder)
    recorded_for = already + time.monotonic() - started
    kill_9(recorder)
    [rec] = recordings.list_recordings(library.store)
    assert rec.status == "recording" and rec.audio_path is None

    InstanceLock(data, "test").acquire().release()  # the kernel dropped the dead recorder's lock
    restarted = Library.open(data)  # what the app and every recording command do first
    recovered, _ = recover_at_start(restarted)
    assert recovered == [rec.id]
    rec = recordings.get_recording(restarted.store, rec.id)
    assert rec.recovered and rec.status == "queued" and rec.audio_path
    assert recorded_for - 2.0 <= (rec.duration or 0) <= recorded_for + 0.5, (recorded_for, rec.duration)
    audio = pcm16k(data / rec.audio_path)
    assert np.sqrt(np.mean(audio[-int(3.5 * 16_000) :] ** 2)) > 0.01, "the sentence is not in the audio"
    restarted.close()
    assert_consistent(data).close()


# --- import ------------------------------------------------------------------------------------------
_IMPORT_STOPS_AFTER_PLACING_THE_AUDIO = """
import sys, time
from app.ingest import imports
place = imports.place
def place_then_wait(*args, **kwargs):
    placed = place(*args, **kwargs)
    print("placed", flush=True)  # the audio is in the library, the database does not know it yet
    time.sleep(120)  # parked here until the test kills it
imports.place = place_then_wait
from app.cli import main
sys.exit(main(["import", sys.argv[1], "--project", "Kept", "--no-transcribe"]))
"""


def test_kill_9_during_import_then_the_same_import_works(library: Library, long_note: Path) -> None:
    data = library.data_dir.root
    library.close()
    importer = start_driver(data, _IMPORT_STOPS_AFTER_PLACING_THE_AUDIO, args=[str(long_note)])
    assert importer.stdout is not None and importer.stdout.readline() == "placed\n"
    kill_9(importer)
    assert count(data, "SELECT count(*) FROM recordings") == 0
    again = run_cli(data, "import", str(long_note), "--project", "Kept", "--no-transcribe", "--json")
    assert again.returncode == 0, again.stderr
    [result] = json.loads(again.stdout)["results"]
    assert result["status"] == "imported", result
    audio = [p for p in (data / "audio").rglob("*") if p.is_file()]
    assert [p.suffix for p in audio] == [".flac"], audio  # the placed file was reused, no temporary left
    assert_consistent(data).close()


# --- transcription -----------------------------------------------------------------------------------
# The kill must land between two committed batches, whatever the machine's speed: the driver
# commits every segment and, after the second commit, stops to be killed (the worker runs on).
_TRANSCRIBE_THEN_STOP_TO_BE_KILLED = """
import sys, time
from app.ingest import transcription
transcription.BATCH_SEGMENTS = 1
commit = transcription._Session.commit
def commit_then_wait(self):
    commit(self)
    if self.segments >= 2:
        print("committed", flush=True)
        time.sleep(120)  # parked here until the test kills it
transcription._Session.commit = commit_then_wait
from app.cli import main
sys.exit(main(["jobs", "run"]))
"""


def test_kill_9_during_transcription_resumes_without_duplicates(library: Library, long_note: Path) -> None:
    require_models()
    _fast_project(library, "Long")
    [imported] = import_files(library, [long_note], project="Long")
    rid = imported.recording_id
    data = library.data_dir.root
    worker = start_driver(data, _TRANSCRIBE_THEN_STOP_TO_BE_KILLED)
    assert worker.stdout is not None and worker.stdout.readline() == "committed\n"
    kill_9(worker)
    half = recordings.list_segments(library.store, rid)
    rec = recordings.get_recording(library.store, rid)
    assert rec.status == "transcribing" and len(half) >= 2 and half[-1].end < (rec.duration or 0) - 1

    restart = run_cli(data, "jobs", "run", "--json")
    assert restart.returncode == 0, restart.stderr
    jobs = json.loads(restart.stdout)["jobs"]  # the transcription, then the consolidation it makes due
    [job] = [j for j in jobs if j["kind"] == "transcribe"]
    assert job["status"] == "done", job
    segments = recordings.list_segments(library.store, rid)
    assert [(s.start, s.raw_text) for s in segments[: len(half)]] == [(s.start, s.raw_text) for s in half]
    for before, after in itertools.pairwise(segments):
        assert after.start >= before.end - 0.05, (before, after)
    counts = _words_once(" ".join(s.raw_text for s in segments))
    assert counts == dict.fromkeys(counts, 1), counts
    assert recordings.get_recording(library.store, rid).status in ("indexed", "consolidated")
    assert_consistent(data).close()


# --- embedding and indexing --------------------------------------------------------------------------
_IMPORT_THEN_STOP_TO_BE_KILLED = """
import sys, time
from app.ingest import indexing
from memory.search import index
indexing.BATCH = 4
write_chunks = index.write_chunks
def write_then_wait(*args, **kwargs):
    write_chunks(*args, **kwargs)
    print("chunks written", flush=True)
    time.sleep(120)  # parked here until the test kills it
index.write_chunks = write_then_wait
from app.cli import main
sys.exit(main(["import", sys.argv[1], "--project", "Notes"]))
"""


def test_kill_9_during_embedding_then_index_completes(library: Library, tmp_path: Path) -> None:
    require_models()
    lines = [
        f"Line {i}: the {w} plan for site {i} needs a review before the board meets."
        for i, w in zip(range(60), itertools.cycle(["harbour", "lantern", "glacier", "orchard", "compass"]))
    ]
    notes = tmp_path / "notes.txt"
    notes.write_text("\n".join(lines), encoding="utf-8")
    data = library.data_dir.root
    library.close()
    importer = start_driver(data, _IMPORT_THEN_STOP_TO_BE_KILLED, args=[str(notes)])
    assert importer.stdout is not None and importer.stdout.readline() == "chunks written\n"
    kill_9(importer)
    embedded = "SELECT count(*) FROM chunks WHERE embedded = 1"
    assert 0 < count(data, embedded) == count(data, "SELECT count(*) FROM chunks") <= 4
    assert count(data, "SELECT count(*) FROM segment_vectors") == 0
    # The words were safe before any vector was computed.
    assert count(data, "SELECT count(*) FROM segments") == len(read_transcript(notes))

    restart = run_cli(data, "index", "--json")
    assert restart.returncode == 0, restart.stderr
    assert json.loads(restart.stdout)["index"]["embedded"] == json.loads(restart.stdout)["index"]["chunks"]
    assert count(data, embedded) == count(data, "SELECT count(*) FROM chunks") > 0
    assert count(data, "SELECT count(*) FROM segment_vectors") > 0
    found = run_cli(data, "search", "glacier plan for site 42", "--json")
    assert found.returncode == 0 and "site 42" in found.stdout, found.stderr
    assert_consistent(data).close()


# --- consolidation -----------------------------------------------------------------------------------
def _facts(data: Path) -> list[tuple[str, ...]]:
    with Store(data / "verbatim.db") as store:
        return sorted(
            tuple(str(v) for v in row)
            for row in store.rows(
                "SELECT r.external_id, f.subject, f.attribute, f.value, f.superseded_by IS NOT NULL"
                " FROM facts f JOIN recordings r ON r.id = f.recording_id WHERE f.source = 'rules'"
            )
        )


def _maps_the_chat_model(pid: int) -> bool:
    """The process has mapped the chat model's file: it is loading or running the model (llama.cpp
    maps the weights), so it is in the model stage."""
    try:
        return SHIPPED[Role.CHAT].target in Path(f"/proc/{pid}/maps").read_text()
    except OSError:
        return False


def test_kill_9_during_consolidation_resumes_to_the_same_facts(tmp_path: Path) -> None:
    """Killed while the chat model reads the first note; the restart (rules only, fast) finishes
    every stage, and the rule-based facts equal those of an uninterrupted run."""
    require_models()
    corpus = write_corpus(tmp_path / "notes.jsonl")
    killed, reference = tmp_path / "killed", tmp_path / "reference"
    assert run_cli(killed, "import", str(corpus)).returncode == 0
    shutil.copytree(killed, reference)
    consolidating = start_cli(killed, "consolidate", "--model-seconds", "30")
    done = "SELECT count(*) FROM consolidation_state WHERE stages LIKE '%\"facts\"%'"
    wait_until(lambda: count(killed, done) > 0, "the first note's rule facts", process=consolidating)
    wait_until(lambda: _maps_the_chat_model(consolidating.pid), "the model stage", process=consolidating)
    kill_9(consolidating)
    assert count(killed, "SELECT count(*) FROM consolidation_state WHERE finished_at IS NOT NULL") < 5

    assert run_cli(killed, "consolidate", "--no-llm").returncode == 0
    assert run_cli(reference, "consolidate", "--no-llm").returncode == 0
    unfinished = "SELECT count(*) FROM consolidation_state WHERE finished_at IS NULL"
    assert count(killed, unfinished) == 0 and count(killed, "SELECT count(*) FROM consolidation_state") == 5
    assert _facts(killed) == _facts(reference) != []
    assert_consistent(killed).close()


# --- migration ---------------------------------------------------------------------------------------
_SLOW_MIGRATION = """
import memory.store.store as s
from app.library import Library
shipped = s.migration_files()
number = shipped[-1][0] + 1
slow = (number, f"{number:04d}_slow_test", "CREATE TABLE slow_test AS WITH RECURSIVE c(x) AS"
        " (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < 400000000) SELECT sum(x) AS total FROM c;")
s.migration_files = lambda: [*shipped, slow]
Library.open().store
"""


def _pre_migration_copies(data: Path) -> list[Path]:
    return [p for p in data.rglob("*before-*") if p.suffix == ".db"]


def _write_locked(database: Path) -> bool:
    """Another connection holds the database's write lock (its write transaction is open)."""
    conn = apsw.Connection(str(database))  # no busy timeout: a held lock answers at once
    try:
        conn.execute("BEGIN IMMEDIATE")
    except apsw.BusyError:
        return True
    else:
        conn.execute("ROLLBACK")
        return False
    finally:
        conn.close()


def test_kill_9_during_a_migration_leaves_the_old_schema_and_a_copy_that_restores(
    library: Library, long_note: Path
) -> None:
    _fast_project(library, "Kept")
    [imported] = import_files(library, [long_note], project="Kept")
    data = library.data_dir.root
    library.close()
    newest = migration_files()[-1][0]
    migrating = start_driver(data, _SLOW_MIGRATION)
    wait_until(lambda: _pre_migration_copies(data), "the pre-migration copy", process=migrating)
    database = data / "verbatim.db"
    wait_until(lambda: _write_locked(database), "the slow migration's transaction", process=migrating)
    assert migrating.poll() is None, "the migration finished before it could be interrupted"
    kill_9(migrating)

    # The interrupted migration left nothing: the next start sees the old schema and the data.
    with Store(data / "verbatim.db", migrate=False) as store:
        assert store.applied_migrations()[-1] == newest
        assert store.scalar("SELECT 1 FROM sqlite_master WHERE name = 'slow_test'") is None
        assert store.integrity_check() == "ok"
    # And the copy taken before it restores the library as it was.
    [copy] = _pre_migration_copies(data)
    assert stat.S_IMODE(copy.stat().st_mode) & 0o077 == 0, oct(copy.stat().st_mode)  # private, too
    for leftover in ("verbatim.db-wal", "verbatim.db-shm"):
        (data / leftover).unlink(missing_ok=True)
    shutil.copyfile(copy, data / "verbatim.db")
    restored = assert_consistent(data)
    rec = recordings.get_recording(restored.store, imported.recording_id or 0)
    assert rec.status == "queued" and rec.audio_path and restored.store.applied_migrations()[-1] == newest
    restored.close()
