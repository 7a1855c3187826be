"""Watched folders: only settled files, never temporary or hidden ones, never the same content twice."""

from __future__ import annotations

import hashlib
import shutil
import threading
import time
from pathlib import Path

import numpy as np
import pytest

from app.ingest.imports import ImportResult
from app.ingest.watched_folders import FolderWatcher
from app.library import Library
from app.settings import WatchedFolder
from capture.watch import SettleTracker, is_candidate
from memory.store import recordings
from tests.support.audio_helpers import SELF_CORRECTION, encode, pcm16k, speak
from tests.support.cli import run
from tests.support.waiting import wait_until


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("clips")
    speech = pcm16k(speak(SELF_CORRECTION, folder / "speech.wav"))
    return {
        "a": encode(speech, folder / "a.flac"),
        "b": encode(np.concatenate([speech, speech]), folder / "b.wav"),
        "c": encode(speech[: len(speech) // 2], folder / "c.m4a"),
    }


def test_settle_tracker_waits_for_a_stable_size(tmp_path: Path) -> None:
    growing, empty = tmp_path / "note.m4a", tmp_path / "empty.m4a"
    growing.write_bytes(b"x" * 10)
    empty.write_bytes(b"")
    tracker = SettleTracker(settle=2.0)
    tracker.note(growing, now=0.0)
    tracker.note(empty, now=0.0)
    assert tracker.ready(now=0.5) == []
    with growing.open("ab") as handle:
        handle.write(b"y" * 10)
    assert tracker.ready(now=2.1) == []  # it changed: the clock restarts
    assert tracker.ready(now=3.0) == []
    assert tracker.ready(now=4.2) == [growing]
    assert tracker.ready(now=9.0) == []  # handed on once
    assert tracker.pending == [empty]  # an empty file is never ready
    empty.unlink()
    assert tracker.ready(now=10.0) == [] and tracker.pending == []


def test_temporary_and_hidden_files_are_not_candidates(tmp_path: Path) -> None:
    assert is_candidate(tmp_path / "Voice 001.m4a", root=tmp_path)
    for name in ("Voice 001.m4a.part", "rec.tmp", ".hidden.m4a", "x.crdownload", "~$note.txt", "a.wav~"):
        assert not is_candidate(tmp_path / name, root=tmp_path), name
    assert not is_candidate(tmp_path / ".sync" / "note.m4a", root=tmp_path)


def _write_slowly(source: Path, target: Path, pieces: int = 5, pause: float = 0.4) -> None:
    data = source.read_bytes()
    step = len(data) // pieces + 1
    with target.open("wb") as handle:
        for start in range(0, len(data), step):
            handle.write(data[start : start + step])
            handle.flush()
            time.sleep(pause)  # kept: a file still growing (pauses shorter than the settle time) is tested


def _wait_for(results: list[ImportResult], count: int, what: str) -> None:
    wait_until(lambda: len(results) >= count, what, timeout=30, detail=lambda: list(results))


@pytest.mark.slow
def test_watched_folder_imports_settled_files_once(
    library: Library, tmp_path: Path, clips: dict[str, Path]
) -> None:
    folder = tmp_path / "Phone sync"
    folder.mkdir()
    shutil.copy(clips["a"], folder / "before start.flac")  # already there when watching starts
    results: list[ImportResult] = []
    lock = threading.Lock()

    def collect(result: ImportResult) -> None:
        with lock:
            results.append(result)

    watcher = FolderWatcher(
        library, [WatchedFolder(str(folder), "Phone")], on_result=collect, settle=1.0
    ).start()
    try:
        _wait_for(results, 1, "the file there before the start")
        _write_slowly(clips["b"], folder / "slow.wav")  # a sync writing over two seconds
        partial = folder / "Voice 7.m4a.part"
        shutil.copy(clips["c"], partial)
        (folder / ".hidden.flac").write_bytes(clips["a"].read_bytes())
        (folder / "scratch.tmp").write_bytes(b"ignored")
        (folder / "notes.mp3").write_text("not audio, just text\n" * 20)
        # notes.mp3, written last, settled: the watcher had the .part, hidden and .tmp files in view
        # for a whole settle time too
        _wait_for(results, 3, "slow.wav and notes.mp3")
        partial.rename(folder / "Voice 7.m4a")  # the browser's rename at the end of a download
        _wait_for(results, 4, "the renamed download")
        time.sleep(1.5)  # kept: nothing more should come, and there is no event for nothing
    finally:
        watcher.stop()
    by_name = {Path(r.path).name: r for r in results}
    assert sorted(by_name) == ["Voice 7.m4a", "before start.flac", "notes.mp3", "slow.wav"], results
    assert len(results) == 4
    assert by_name["notes.mp3"].status == "failed" and "not audio" in by_name["notes.mp3"].message
    slow = by_name["slow.wav"]
    assert slow.status == "imported" and slow.sha256 == hashlib.sha256(clips["b"].read_bytes()).hexdigest()
    for name in ("before start.flac", "Voice 7.m4a"):
        rec = recordings.get_recording(library.store, by_name[name].recording_id or 0)
        assert rec.source == "watch" and rec.project == "Phone" and rec.status == "queued"

    # A restart sees the same files: nothing is imported again, the damaged file is not retried;
    # a copy of known content under a new name is a duplicate.
    shutil.copy(clips["a"], folder / "copy of before start.flac")
    again: list[ImportResult] = []
    watcher = FolderWatcher(
        library, [WatchedFolder(str(folder), "Phone")], on_result=again.append, settle=1.0
    ).start()
    try:
        _wait_for(again, 1, "the copy under a new name")
        time.sleep(2.0)  # kept: nothing more should come (no file imported twice), no event for that
    finally:
        watcher.stop()
    assert [(Path(r.path).name, r.status) for r in again] == [("copy of before start.flac", "duplicate")]
    assert len(recordings.list_recordings(library.store)) == 3


@pytest.mark.slow
def test_watch_cli_once_and_saved_folders(library: Library, tmp_path: Path, clips: dict[str, Path]) -> None:
    folder = tmp_path / "Recorder card"
    folder.mkdir()
    shutil.copy(clips["a"], folder / "REC001.flac")
    assert run("watch", str(folder), "--project", "Nope", "--once").code == 1  # unknown project: refused
    run("projects", "add", "Field")
    result = run(
        "watch", str(folder), "--project", "Field", "--once", "--settle", "0", "--no-transcribe", "--json"
    )
    assert result.code == 0, result.err
    assert '"status": "imported"' in result.out
    again = run(
        "watch", str(folder), "--project", "Field", "--once", "--settle", "0", "--no-transcribe", "--json"
    )
    assert again.code == 0 and again.out.strip() == ""  # seen before: nothing to do
    assert run("watch", str(folder), "--project", "Field", "--save", "--once", "--no-transcribe").code == 0
    assert str(folder) in run("watch", "--list").out
    assert Library(library.data_dir).settings.watched_folders == [
        WatchedFolder(str(folder.resolve()), "Field")
    ]
    assert run("watch", "--remove", str(folder)).code == 0
    assert run("watch", "--list").out.strip() == ""
    missing = run("watch", str(tmp_path / "not there"), "--project", "Field", "--once")
    assert missing.code == 1 and "not a folder" in missing.err
