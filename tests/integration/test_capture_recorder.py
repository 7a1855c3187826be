"""Recording: the crash-safe block file, the real microphone path, live text, pause, kill -9, no device."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from app.ingest.recording_session import RecorderService, recover_interrupted
from app.jobs import worker as jobs_worker
from app.library import Library
from app.project_service import add_project, set_project_options
from app.search import search
from capture.blockfile import BlockWriter, interrupted, read_leftover
from capture.live_transcriber import LiveBuffer
from memory.store import live_transcript, recordings
from memory.store.jobs import list_jobs
from tests.conftest import REPO, require_models
from tests.support.audio_helpers import VirtualMicrophone, speak
from tests.support.cli import run
from tests.support.fault_helpers import pid_alive
from tests.support.waiting import wait_until

pytestmark = pytest.mark.audio


@pytest.fixture(scope="module")
def speech(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("speech")
    return {
        "correction": speak(
            "The workshop is on Monday, oh wait, I actually meant Tuesday.", folder / "c.wav"
        ),
        "lantern": speak("The lantern budget is far too small.", folder / "a.wav"),
        "glacier": speak("Call the glacier museum about insurance.", folder / "b.wav"),
        "orchard": speak("The orchard photos look wonderful.", folder / "d.wav"),
    }


def _fast_project(library: Library, name: str) -> None:
    add_project(library, name)
    set_project_options(library, name, transcription_model="tiny.en")


def test_block_file_is_flushed_within_the_sync_interval(tmp_path: Path) -> None:
    writer = BlockWriter(tmp_path, 7, sample_rate=16_000, started_at="2026-03-02T08:40:00", sync_interval=0.3)
    block = np.arange(800, dtype=np.int16).tobytes()  # 50 ms, smaller than Python's write buffer
    writer.append(block)
    assert writer.pcm_path.stat().st_size in (0, len(block))
    time.sleep(0.35)  # kept: the sync interval passing is what is tested (the next append syncs)
    writer.append(block)
    assert writer.pcm_path.stat().st_size == 2 * len(block)  # on disk without close
    assert interrupted(tmp_path) == []  # a live writer holds it: never "recovered" under its feet
    writer.close()
    with writer.pcm_path.open("ab") as handle:
        handle.write(b"\x01")  # a torn last sample, as a kill mid-write leaves
    [leftover] = interrupted(tmp_path)
    assert (leftover.recording_id, leftover.sample_rate, leftover.started_at) == (
        7,
        16_000,
        "2026-03-02T08:40:00",
    )
    assert leftover.frames == 1600
    assert np.array_equal(
        np.concatenate(list(leftover.blocks(0.01))), np.tile(np.arange(800, dtype=np.int16), 2)
    )


def test_live_buffer_stays_bounded_while_confirming() -> None:
    buffer = LiveBuffer()
    buffer.add(0.0, np.zeros(16_000 * 10, dtype=np.float32))
    assert buffer.offset == 0.0 and buffer.audio.size == 160_000
    buffer.add(30.0, np.zeros(16_000, dtype=np.float32))  # a skip ahead restarts the tail
    assert buffer.offset == 30.0 and buffer.audio.size == 16_000


@pytest.mark.slow
def test_record_from_the_microphone_with_live_text(
    library: Library, virtual_microphone: VirtualMicrophone, speech: dict[str, Path]
) -> None:
    require_models()
    _fast_project(library, "Workshop")
    updates: list[str] = []
    session = RecorderService(library).start(
        "Workshop", on_live=lambda segs, tentative: updates.append(tentative)
    )
    assert (
        library.store.scalar("SELECT status FROM recordings WHERE id = ?", (session.recording_id,))
        == "recording"
    )
    levels = []

    def played() -> bool:  # the meter, sampled while the speech plays
        levels.append(session.level)
        return player.poll() is not None

    player = virtual_microphone.play(speech["correction"], wait=False)
    wait_until(played, "the speech to be played", timeout=120)
    wait_until(  # the live pass: a few seconds behind the speaker
        lambda: "tuesday" in session.live_text().lower(),
        "the live text to hear 'tuesday'",
        timeout=30,
        detail=lambda: (session.live_text(), session.live_error),
    )
    assert "tuesday" in session.live_text().lower(), (session.live_text(), session.live_error)
    assert max(levels) > 0.01 and session.problem is None
    elapsed = session.elapsed
    rid = session.stop()
    assert rid == session.recording_id
    rec = recordings.get_recording(library.store, rid)
    assert rec.status == "queued" and rec.source == "microphone" and not rec.recovered
    assert rec.duration == pytest.approx(elapsed, abs=0.5)
    assert (library.data_dir.root / (rec.audio_path or "")).is_file()
    assert list(library.data_dir.recordings_dir.iterdir()) == []
    # Searchable the moment recording stops, through the provisional live transcript.
    heard = re.findall(r"[a-z]{4,}", live_transcript.live_text(library.store, rid).lower())
    assert heard, "no live segments were stored"
    word = max(heard, key=len)
    assert any(h.recording_id == rid for h in search(library, word, mode="keyword")), word
    [job] = jobs_worker.run_pending(library)
    assert job.status == "done", job.message
    rec = recordings.get_recording(library.store, rid)
    assert rec.status == "indexed" and "tuesday" in rec.first_line.lower() + " ".join(
        s.raw_text.lower() for s in recordings.list_segments(library.store, rid)
    )
    assert live_transcript.count_live_segments(library.store, rid) == 0  # the final transcript replaced it


@pytest.mark.slow
def test_pause_leaves_out_what_is_said_meanwhile(
    library: Library, virtual_microphone: VirtualMicrophone, speech: dict[str, Path]
) -> None:
    require_models()
    _fast_project(library, "Pause")
    session = RecorderService(library).start("Pause", live_transcript=False)
    virtual_microphone.play(speech["lantern"])
    session.pause()
    at_pause = session.elapsed
    virtual_microphone.play(speech["glacier"])
    assert session.paused and session.elapsed == pytest.approx(at_pause, abs=0.1)
    session.resume()
    virtual_microphone.play(speech["orchard"])
    played_to = session.elapsed  # seconds written so far; the last words may still be on their way
    wait_until(lambda: session.elapsed >= played_to + 0.3, "0.3 s more audio after the speech", timeout=10)
    rid = session.stop()
    jobs_worker.run_pending(library)
    text = " ".join(s.raw_text for s in recordings.list_segments(library.store, rid)).lower()
    assert "lantern" in text and "orchard" in text and "glacier" not in text, text


_RECORDER = """
import json, sys, time
from app.library import Library
from app.ingest.recording_session import RecorderService
session = RecorderService(Library.open()).start("Crash", live_transcript=True)
live_pid = session._live._process.pid if session._live else None
print(json.dumps({"recording": session.recording_id, "live_pid": live_pid}), flush=True)
while True:
    print(json.dumps({"elapsed": session.elapsed}), flush=True)
    time.sleep(0.1)  # the child reports ten times a second until it is killed
"""


@pytest.mark.slow
def test_kill_9_loses_at_most_two_seconds_and_is_recovered(
    library: Library, virtual_microphone: VirtualMicrophone, speech: dict[str, Path]
) -> None:
    require_models()
    _fast_project(library, "Crash")
    recorder = subprocess.Popen(
        [sys.executable, "-c", _RECORDER],
        cwd=REPO,
        env={**os.environ, "VERBATIM_DATA_DIR": str(library.data_dir.root)},
        stdout=subprocess.PIPE,
        text=True,
    )
    assert recorder.stdout is not None
    started = json.loads(recorder.stdout.readline())
    elapsed, player = 0.0, None
    while elapsed < 6.0:
        elapsed = json.loads(recorder.stdout.readline())["elapsed"]
        if player is None and elapsed > 0.5:
            player = virtual_microphone.play(speech["correction"], wait=False)
    assert player is not None
    player.wait(30)
    elapsed = json.loads(recorder.stdout.readline())["elapsed"]
    os.kill(recorder.pid, signal.SIGKILL)
    recorder.wait(10)
    rid = started["recording"]
    assert recordings.get_recording(library.store, rid).status == "recording"
    wait_until(
        lambda: not (started["live_pid"] and pid_alive(started["live_pid"])),
        "the live process to end with the app",
        timeout=5,
    )
    assert not (started["live_pid"] and pid_alive(started["live_pid"])), "the live process outlived the app"

    assert recover_interrupted(library) == [rid]
    rec = recordings.get_recording(library.store, rid)
    assert rec.recovered and rec.status == "queued" and "recovered" in (rec.status_message or "")
    assert elapsed - 2.0 <= (rec.duration or 0) <= elapsed + 1.0, (elapsed, rec.duration)
    assert [(j.kind, j.recording_id) for j in list_jobs(library.store)] == [("transcribe", rid)]
    assert recover_interrupted(library) == []  # recovered once, not twice
    jobs_worker.run_pending(library)
    text = " ".join(s.raw_text for s in recordings.list_segments(library.store, rid)).lower()
    assert "tuesday" in text, text
    listed = run("recordings", "--json").json()["recordings"]
    assert listed[0]["recovered"] is True


@pytest.mark.slow
def test_no_input_device_is_a_clear_error(tmp_path: Path) -> None:
    """With no sound server (and, on CI, no sound card) there is no microphone: a message, no crash."""
    env = {
        **os.environ,
        "PULSE_SERVER": f"unix:{tmp_path / 'nothing'}",
        "VERBATIM_DATA_DIR": str(tmp_path / "lib"),
    }

    def cli(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "app.cli", *args],
            env=env,
            cwd=REPO,
            capture_output=True,
            text=True,
            check=False,
        )

    assert cli("projects", "add", "P").returncode == 0
    devices = json.loads(cli("record", "--list-devices", "--json").stdout)["devices"]
    if devices:  # a machine with its own sound card: a device that is not there is the same kind of error
        done, expected = (
            cli("record", "--project", "P", "--device", "99", "--duration", "1"),
            "no input device",
        )
    else:
        done, expected = cli("record", "--project", "P", "--duration", "1"), "no microphone found"
    assert done.returncode == 1, done.stderr
    assert f"error: {expected}" in done.stderr and "Traceback" not in done.stderr
    assert json.loads(cli("recordings", "--json").stdout)["recordings"] == []


@pytest.mark.slow
def test_cli_record_for_a_duration(library: Library, virtual_microphone: VirtualMicrophone) -> None:
    add_project(library, "Quick")
    result = run(
        "record", "--project", "Quick", "--duration", "1.5", "--no-live", "--no-transcribe", "--json"
    )
    assert result.code == 0, result.err
    rec = result.json()["recording"]
    assert rec["status"] == "queued" and rec["duration"] == pytest.approx(1.5, abs=0.3)
    leftover = read_leftover(library.data_dir.recordings_dir, rec["id"])
    assert leftover is None
    devices = run("record", "--list-devices", "--json").json()["devices"]
    assert devices and any(d["is_default"] for d in devices)
