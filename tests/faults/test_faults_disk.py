"""A full disk while recording and while importing: a clear message, and everything up to that
point kept. The data folder lives on a small tmpfs (root and mount needed; CI runs as root),
filled up to a few hundred kilobytes with a filler file."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from app.ingest.recording_session import recover_at_start
from app.library import Library
from memory.store import recordings
from tests.support.audio_helpers import (
    VirtualMicrophone,
    encode,
    silence,
    speech_file,
)
from tests.support.fault_helpers import assert_consistent, fill_disk, run_cli, small_disk

pytestmark = pytest.mark.slow  # the CLI in child processes, real audio


@pytest.mark.audio
def test_disk_full_while_recording_keeps_the_audio_and_says_so(
    virtual_microphone: VirtualMicrophone, tmp_path: Path
) -> None:
    with small_disk(tmp_path / "disk", 16 * 1024) as disk:
        data = disk / "library"
        assert run_cli(data, "projects", "add", "Full").returncode == 0
        # ~120 kB: the disk fills up after at most 3.5 s of 16 kHz mono (sooner at 44.1 or 48 kHz).
        filler = fill_disk(disk, leave_bytes=120_000)
        done = run_cli(data, "record", "--project", "Full", "--duration", "6", "--no-live", "--no-transcribe")
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr and "disk is full" in done.stderr, done.stderr
        assert "the recording is kept" in done.stderr, done.stderr
        [rec] = recordings.list_recordings(Library.open(data).store)
        kept = (data / "recording" / f"{rec.id}.pcm").stat().st_size
        assert kept > 30_000, "the audio recorded before the disk filled up was not kept"

        filler.unlink()  # the user frees some space; the next start saves the recording
        library = Library.open(data)
        assert recover_at_start(library)[0] == [rec.id]
        rec = recordings.get_recording(library.store, rec.id)
        assert rec.status == "queued" and rec.recovered and (rec.duration or 0) >= kept / 2 / 48_000
        library.close()
        assert_consistent(data).close()


def test_disk_full_during_import_keeps_what_was_imported(tmp_path: Path) -> None:
    small = speech_file(tmp_path, "The lantern budget is far too small.", "small.wav")
    large = encode(np.tile(silence(1.0), 30) + np.float32(0.001), tmp_path / "large.wav")  # ~1 MB
    with small_disk(tmp_path / "disk", 16 * 1024) as disk:
        data = disk / "library"
        assert run_cli(data, "projects", "add", "Full").returncode == 0
        filler = fill_disk(disk, leave_bytes=600_000)
        done = run_cli(data, "import", str(small), str(large), "--project", "Full", "--no-transcribe")
        assert done.returncode == 1, (done.stdout, done.stderr)
        assert "Traceback" not in done.stderr + done.stdout
        assert "imported   small.wav" in done.stdout, done.stdout
        assert "failed     large.wav: the disk is full" in done.stdout, done.stdout
        library = assert_consistent(data)
        assert [r.source_name for r in recordings.list_recordings(library.store)] == ["small.wav"]
        assert not [p for p in (data / "audio").iterdir() if p.name.startswith(".incoming-")]
        library.close()

        filler.unlink()
        again = run_cli(data, "import", str(large), "--project", "Full", "--no-transcribe")
        assert again.returncode == 0, again.stdout + again.stderr
        assert_consistent(data).close()


def test_disk_full_for_the_database_is_a_message(tmp_path: Path) -> None:
    """Even the first write of a new project fails cleanly when not one page is left."""
    with small_disk(tmp_path / "disk", 4 * 1024) as disk:
        data = disk / "library"
        assert run_cli(data, "projects", "add", "First").returncode == 0
        filler = fill_disk(disk, leave_bytes=0)
        done = run_cli(data, "projects", "add", "Second")
        assert done.returncode == 1 and "Traceback" not in done.stderr, done.stderr
        assert "disk is full" in done.stderr, done.stderr
        filler.unlink()
        library = assert_consistent(data)
        assert [p["name"] for p in library.store.all("SELECT name FROM projects")] == ["First"]
        library.close()
