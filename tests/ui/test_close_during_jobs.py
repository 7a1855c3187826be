"""Closing the window while work runs: the app exits cleanly (status 0, no fatal error) and the
library it leaves opens consistent, with the cancelled import gone and nothing to resume.

Seen in use: a huge .txt import ignored Cancel; closing the window then printed
`Fatal Python error: bool_dealloc` (the import's thread was still writing when the library closed),
and every restart went on "Making notes searchable" on the note the user had given up on. The app is
started as a user starts it (the installed `verbatim-app` under the offscreen platform); a
small driver drops the files on the window, as Ctrl+I would, and SIGTERM closes it as the window
manager does, once the import is indexing and a transcription is running.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import apsw
import pytest

from app.consistency import library_problems
from app.ingest.indexing import index_pending
from app.library import Library
from memory.store import jobs as store_jobs
from memory.store import recordings
from tests.support.audio_helpers import speech_file
from tests.support.long_text import big_text
from tests.support.waiting import wait_until

pytestmark = pytest.mark.slow  # a whole app, a transcription and tens of megabytes of text

START_S = 240.0  # a cold Qt start, the embedding model and the first whisper load on 2 busy cores

DRIVER = """
import sys
from pathlib import Path

from PySide6.QtCore import QTimer

import ui.window

files = [Path(p) for p in sys.argv[2:]]
shown = ui.window.MainWindow.show


def show(self):
    shown(self)
    QTimer.singleShot(0, lambda: self.importer.import_paths(files, "Scratch"))


ui.window.MainWindow.show = show
from ui.launch import main

sys.exit(main(["--data-dir", sys.argv[1]]))
"""


def _count(db: Path, sql: str) -> int:
    if not db.exists():
        return 0
    try:
        conn = apsw.Connection(str(db), flags=apsw.SQLITE_OPEN_READONLY)
        try:
            return int(next(iter(conn.execute(sql)))[0])
        finally:
            conn.close()
    except apsw.Error:  # not created yet, or busy: look again
        return 0


def test_closing_the_window_during_an_import_and_a_transcription_is_clean(tmp_path: Path) -> None:
    audio = speech_file(tmp_path, "The lantern budget is small. Call the glacier museum. " * 20, "talk.flac")
    text = big_text(tmp_path / "huge.txt", 12)
    data = tmp_path / "library"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", XDG_CONFIG_HOME=str(tmp_path / "config"))
    app = subprocess.Popen(
        [sys.executable, "-c", DRIVER, str(data), str(audio), str(text)],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    db = data / "verbatim.db"
    try:
        wait_until(
            lambda: (
                _count(
                    db,
                    "SELECT count(*) FROM chunks c JOIN recordings r ON r.id = c.recording_id"
                    " WHERE r.source_name = 'huge.txt'",
                )
                > 0
                and _count(db, "SELECT count(*) FROM jobs WHERE kind = 'transcribe' AND status = 'running'")
                > 0
            ),
            "the big import indexing while the audio is transcribed",
            timeout=START_S,
            process=app,
        )
    finally:
        app.send_signal(signal.SIGTERM)  # the window closes as a user or a logout closes it
        _, err = app.communicate(timeout=120)
    stderr = err.decode(errors="replace")
    assert app.returncode == 0, stderr[-3000:]
    assert "Fatal Python error" not in stderr and "Traceback" not in stderr, stderr[-3000:]

    library = Library.open(data)
    try:
        assert library_problems(library, deep=True) == []
        kept = recordings.list_recordings(library.store)
        assert [r.source_name for r in kept] == ["talk.flac"]  # the cancelled import is gone whole
        talk = kept[0]
        assert talk.status == "queued"  # paused by the close, not cancelled: it resumes at the next start
        jobs = store_jobs.list_jobs(library.store, statuses=store_jobs.OPEN)
        assert [(j.kind, j.status) for j in jobs] == [("transcribe", "queued")]
        assert all(r.recording_id == talk.id for r in index_pending(library))  # nothing of huge.txt resumes
    finally:
        library.close()
