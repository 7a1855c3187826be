"""Playing and stopping a recording in quick succession never freezes the window.

With a sound output attached and no device to play to (a machine without a sound card, a remote
desktop), Qt's FFmpeg renderer deletes and makes its audio sink again and again on its own thread,
and each deletion waits for Python's GIL while holding a lock that the main thread's stop() waits
for, with the GIL: the window froze for good (about one cycle in twenty here, and once when a test
closed the window after clicking a citation). The player runs in a child process, so that a freeze
fails this test instead of hanging the run.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support.audio_helpers import speak

pytestmark = pytest.mark.slow  # a child process with Qt and FFmpeg, ~150 open-play-stop cycles (~15 s)

CHILD = """
import os, sys
from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication
from pathlib import Path
from ui.widgets.player import PlayerBar

app = QApplication([])

def spin(ms):
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()

for i in range(150):  # open a recording, play from a moment, stop, close it: as fast as a user can
    bar = PlayerBar()
    bar.load(Path(sys.argv[1]))
    spin(60)
    bar.play_from(1.0 + (i % 5) * 0.5)
    spin(i % 13)
    bar.stop()
    bar.deleteLater()
    spin(10)
print("cycles done", flush=True)
os._exit(0)  # what is measured is done; PySide's own teardown at exit is not this test's subject
"""


def _cycles(tmp_path: Path, env: dict[str, str]) -> None:
    clip = speak(
        "The workshop is on Tuesday at the Leeds office, with the whole platform team.", tmp_path / "c.wav"
    )
    env["QT_QPA_PLATFORM"] = "offscreen"
    root = Path(__file__).resolve().parents[2]
    try:
        done = subprocess.run(
            [sys.executable, "-c", CHILD, str(clip)],
            cwd=root,
            env=env | {"PYTHONPATH": str(root)},
            capture_output=True,
            text=True,
            timeout=90,
        )
    except subprocess.TimeoutExpired:
        pytest.fail("the player froze: play and stop did not return within 90 s")
    assert done.returncode == 0 and "cycles done" in done.stdout, done.stderr[-2000:]


def test_quick_plays_and_stops_never_freeze(tmp_path: Path) -> None:
    # no sound server, so no device: not PULSE_SERVER, and not the server a PulseAudio client finds
    # by itself under XDG_RUNTIME_DIR (the session's virtual microphone sets both)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PULSE", "XDG_RUNTIME_DIR"))}
    _cycles(tmp_path, env)


@pytest.mark.audio
def test_quick_plays_and_stops_never_freeze_with_a_sound_device(virtual_microphone, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    """With a device (the virtual microphone's null sink, as on CI once a recording test has run) the
    same lock order froze about one run in four, until the player's slots were queued."""
    _cycles(tmp_path, dict(os.environ))
