"""Where the library lives and who else uses it: a read-only data folder, a folder with spaces and
non-ASCII letters, a second app on the same folder (refused by the lock), two writers at once
(both succeed: SQLite WAL plus the busy timeout)."""

from __future__ import annotations

import io
import json
import subprocess
from contextlib import redirect_stderr
from pathlib import Path

import pytest

from app.ingest import transcription
from app.ingest.recording_session import recover_at_start
from app.instance_lock import InstanceLock, LibraryInUseError
from app.library import Library
from app.project_service import set_project_options
from capture.transcripts import read_transcript
from memory.store import recordings
from tests.conftest import require_models
from tests.support.audio_helpers import speech_file
from tests.support.cli import run
from tests.support.fault_helpers import (
    assert_consistent,
    kill_9,
    read_only_mount,
    run_cli,
    start_cli,
    start_driver,
)
from ui.launch import main as launch

pytestmark = pytest.mark.slow  # the CLI and drivers in child processes, espeak-ng speech

NOTE = "The lantern budget is far too small.\nCall the glacier museum about insurance.\n"


def cli(data: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI in this process (no start-up cost) on `data`: for steps that need no restart."""
    done = run("--data-dir", str(data), *args)
    return subprocess.CompletedProcess(["verbatim", *args], done.code, done.out, done.err)


def _no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stdout + done.stderr, done.stderr


def test_read_only_data_folder_reads_and_refuses_writes_with_a_message(tmp_path: Path) -> None:
    require_models()
    (tmp_path / "note.txt").write_text(NOTE, encoding="utf-8")
    (tmp_path / "other.txt").write_text("A second note about the orchard.\n", encoding="utf-8")
    media = tmp_path / "media"
    data = media / "library"
    assert cli(data, "import", str(tmp_path / "note.txt"), "--project", "Kept").returncode == 0
    before = (data / "verbatim.db").read_bytes()
    for empty in ("recording", "audio"):  # a copied library may lack its empty folders
        (data / empty).rmdir()
    with read_only_mount(media):
        nowhere = cli(media / "new library", "recordings")
        assert nowhere.returncode == 1 and "cannot create the data folder" in nowhere.stderr, nowhere.stderr
        listed = cli(data, "recordings", "--json")
        assert listed.returncode == 0, listed.stderr
        assert [r["source_name"] for r in json.loads(listed.stdout)["recordings"]] == ["note.txt"]
        found = cli(data, "search", "glacier", "--mode", "keyword", "--json")
        assert found.returncode == 0 and "glacier museum" in found.stdout, found.stderr
        for write in (
            ["projects", "add", "New"],
            ["import", str(tmp_path / "other.txt"), "--project", "Kept"],
            ["consolidate", "--no-llm"],
        ):
            refused = cli(data, *write)
            _no_traceback(refused)
            said = refused.stdout + refused.stderr
            assert refused.returncode == 1 and "is read-only" in said, (write, said)
    assert (data / "verbatim.db").read_bytes() == before
    # A writer killed -9 leaves its last changes in the WAL (and its index, -shm): read-only media
    # still show them, and refuse to write.
    writer = start_driver(data, _ADD_A_PROJECT_AND_WAIT)
    assert writer.stdout is not None and writer.stdout.readline() == "added\n"
    kill_9(writer)
    assert (data / "verbatim.db-wal").stat().st_size > 0
    with read_only_mount(media):
        listed = cli(data, "projects", "list")
        assert listed.returncode == 0 and "Late" in listed.stdout, listed.stdout + listed.stderr
        refused = cli(data, "projects", "add", "Later")
        assert refused.returncode == 1 and "is read-only" in refused.stderr, refused.stderr
    (data / "verbatim.db-shm").unlink()  # a copy without the WAL index: SQLite cannot read the WAL
    with read_only_mount(media):
        refused = cli(data, "recordings")
        assert refused.returncode == 1 and "latest changes are still in verbatim.db-wal" in refused.stderr
    assert_consistent(data).close()


_ADD_A_PROJECT_AND_WAIT = """
import time
from app.library import Library
from app.project_service import add_project
library = Library.open()  # held open: the kill finds the change still in the WAL
add_project(library, "Late")
print("added", flush=True)
time.sleep(120)  # parked here until the test kills it
"""


def test_data_folder_with_spaces_and_non_ascii_letters(tmp_path: Path) -> None:
    require_models()
    data = tmp_path / "My Notes" / "Réunions — 日本語 ß"
    source = tmp_path / "Dictées du lundi"
    audio = speech_file(source, "The glacier museum needs insurance.", "Réunion n°1 (copie).wav")
    library = Library.open(data)
    assert cli(data, "projects", "add", "Café Ölberg").returncode == 0
    set_project_options(library, "Café Ölberg", transcription_model="tiny.en")
    done = cli(data, "import", str(audio), "--project", "Café Ölberg", "--json")
    _no_traceback(done)
    assert done.returncode == 0, done.stderr
    [rec] = recordings.list_recordings(library.store)
    assert rec.status == "indexed" and rec.source_name == audio.name and rec.project == "Café Ölberg"
    assert "glacier" in " ".join(s.raw_text for s in recordings.list_segments(library.store, rec.id)).lower()
    found = cli(data, "search", "glacier", "--project", "Café Ölberg", "--json")
    assert found.returncode == 0 and json.loads(found.stdout)["hits"], found.stdout + found.stderr
    library.close()
    transcription.shutdown_workers()
    assert_consistent(data).close()


_HOLD_THE_LOCK_LIKE_THE_APP = """
import sys, time
from app.ingest import transcription
from app.instance_lock import InstanceLock
lock = InstanceLock(__import__("pathlib").Path(sys.argv[1]), "the Verbatim app").acquire()
print("locked", flush=True)
time.sleep(120)  # parked here, holding the lock, until the test kills it
"""


def test_a_second_app_or_recorder_is_refused_while_readers_work(tmp_path: Path) -> None:
    data = tmp_path / "library"
    (tmp_path / "note.txt").write_text(NOTE, encoding="utf-8")
    assert cli(data, "import", str(tmp_path / "note.txt"), "--project", "Kept").returncode == 0
    app = start_driver(data, _HOLD_THE_LOCK_LIKE_THE_APP, args=[str(data)])
    assert app.stdout is not None and app.stdout.readline() == "locked\n"
    holder = f"already open in the Verbatim app (process {app.pid}"

    record = run_cli(data, "record", "--project", "Kept", "--duration", "1")
    _no_traceback(record)
    assert record.returncode == 1 and holder in record.stderr, record.stderr
    err = io.StringIO()
    with redirect_stderr(err):
        assert launch(["--data-dir", str(data)]) == 1  # before Qt is even imported
    assert holder in err.getvalue() and "fix: close the other Verbatim" in err.getvalue()
    with pytest.raises(LibraryInUseError, match=str(app.pid)):
        InstanceLock(data, "test").acquire()
    # Readers (and one-off writers) go on beside the app.
    assert cli(data, "recordings").returncode == 0
    assert cli(data, "search", "lantern", "--mode", "keyword").returncode == 0
    assert cli(data, "projects", "add", "Beside").returncode == 0

    kill_9(app)  # a crashed app leaves no stale lock behind
    InstanceLock(data, "test").acquire().release()
    assert_consistent(data).close()


_WRITER = """
import sys
from pathlib import Path
from app.ingest.imports import import_files
from app.library import Library
from app.project_service import add_project
library = Library.open()
prefix, note = sys.argv[1], Path(sys.argv[2])
print("ready", flush=True)
sys.stdin.readline()  # both start writing at the same moment
[result] = import_files(library, [note], project=f"{prefix} notes")
assert result.status == "imported", result.message
for number in range(60):
    add_project(library, f"{prefix} {number}")
print("done", flush=True)
"""


def test_two_writers_at_once_both_succeed(tmp_path: Path) -> None:
    """Two processes write the same library at the same moment (an import from a terminal while
    the app works): WAL and the busy timeout serialise them; nothing fails, nothing is lost."""
    require_models()
    data = tmp_path / "library"
    assert cli(data, "projects", "add", "Start").returncode == 0
    writers = []
    for prefix in ("North", "South"):
        note = tmp_path / f"{prefix}.txt"
        note.write_text("\n".join(f"{prefix} line {i} about the harbour plan." for i in range(40)), "utf-8")
        writer = start_driver(data, _WRITER, args=[prefix, str(note)], stdin=subprocess.PIPE)
        assert writer.stdout is not None and writer.stdout.readline() == "ready\n"
        writers.append(writer)
    for writer in writers:
        assert writer.stdin is not None
        writer.stdin.write("go\n")
        writer.stdin.flush()
    reader = start_cli(data, "search", "harbour plan", "--mode", "keyword", "--json")
    for writer in writers:
        out, err = writer.communicate(timeout=120)
        assert writer.returncode == 0 and out == "done\n", err
    assert reader.wait(60) == 0, reader.stderr.read() if reader.stderr else ""
    library = assert_consistent(data)
    names = {row["name"] for row in library.store.all("SELECT name FROM projects")}
    assert names == {"Start", "North notes", "South notes"} | {
        f"{p} {n}" for p in ("North", "South") for n in range(60)
    }
    for rec in recordings.list_recordings(library.store):
        prefix = rec.project.split()[0]
        expected = len(read_transcript(tmp_path / f"{prefix}.txt"))
        assert rec.status == "indexed" and rec.segments == expected, rec
    assert recover_at_start(library) == ([], [])
    library.close()
