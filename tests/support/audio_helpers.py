"""Real audio for the capture tests: espeak-ng speech, every import format, a virtual microphone.

The virtual microphone is a private PulseAudio server with a null sink: what `paplay` plays into
the sink comes out of its monitor source, which is the default input that sounddevice (PortAudio
through ALSA's pulse plugin) records from. It runs as root too (CI), in its own runtime folder, so
it never touches a desktop's sound server.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import av
import numpy as np
import pytest

from tests.conftest import require_tool
from tests.support.waiting import wait_until

SELF_CORRECTION = "The workshop is on Monday, oh wait, I actually meant Tuesday."

# (container format, codec, sample rate, sample format, layout) per file extension.
FORMATS = {
    "wav": ("wav", "pcm_s16le", 16000, "s16", "mono"),
    "flac": ("flac", "flac", 16000, "s16", "mono"),
    "mp3": ("mp3", "libmp3lame", 16000, "s16p", "mono"),
    "m4a": ("ipod", "aac", 16000, "fltp", "mono"),
    "ogg": ("ogg", "vorbis", 16000, "fltp", "stereo"),  # FFmpeg's own Vorbis encoder is stereo only
    "opus": ("ogg", "libopus", 48000, "s16", "mono"),
    "webm": ("webm", "libopus", 48000, "s16", "mono"),
}


def speak(text: str, path: Path, *, speed: int = 140, voice: str = "en-us") -> Path:
    """Synthesised speech as a WAV file (espeak-ng, 22.05 kHz mono)."""
    espeak = require_tool("espeak-ng")
    path.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        [espeak, "-v", voice, "-s", str(speed), "-w", str(path), text], check=True, capture_output=True
    )
    return path


def pcm16k(path: Path) -> np.ndarray:
    from capture.audio import read_audio_16k

    return read_audio_16k(path)


def encode(samples: np.ndarray, path: Path, *, metadata: dict[str, str] | None = None) -> Path:
    """16 kHz mono float32 samples written in the format of `path`'s extension, with PyAV."""
    fmt, codec, rate, sample_format, layout = FORMATS[path.suffix.lstrip(".")]
    pcm = (np.clip(samples, -1, 1) * 32767).astype(np.int16)
    options = {"strict": "experimental"} if codec == "vorbis" else {}
    with av.open(str(path), "w", format=fmt) as out:
        out.metadata.update(metadata or {})
        stream = out.add_stream(codec, rate=rate, options=options)
        stream.layout = layout
        resampler = av.AudioResampler(format=sample_format, layout=layout, rate=rate)
        frame = av.AudioFrame.from_ndarray(pcm.reshape(1, -1), format="s16", layout="mono")
        frame.sample_rate = 16000
        for resampled in [*resampler.resample(frame), *resampler.resample(None)]:
            for packet in stream.encode(resampled):
                out.mux(packet)
        for packet in stream.encode(None):
            out.mux(packet)
    return path


def silence(seconds: float) -> np.ndarray:
    return np.zeros(int(seconds * 16000), dtype=np.float32)


def speech_file(folder: Path, text: str, name: str) -> Path:
    """`text` spoken into `folder/name` (any extension of FORMATS), with a short pause around it."""
    wav = speak(text, folder / f".{name}.speech.wav")
    samples = np.concatenate([silence(0.3), pcm16k(wav), silence(0.5)])
    return encode(samples, folder / name)


def truncate(path: Path, keep: float = 0.6) -> Path:
    data = path.read_bytes()
    cut = path.with_name(f"cut-{path.name}")
    cut.write_bytes(data[: int(len(data) * keep)])
    return cut


@dataclass
class VirtualMicrophone:
    env: dict[str, str]

    def play(self, wav: Path, *, wait: bool = True) -> subprocess.Popen[bytes]:
        """Play a file into the null sink: the default input hears it."""
        player = subprocess.Popen(["paplay", "--device=vmic", str(wav)], env={**os.environ, **self.env})
        if wait:
            player.wait(timeout=120)
        return player


def _pulse_ready(env: dict[str, str]) -> bool:
    done = subprocess.run(["pactl", "info"], env={**os.environ, **env}, capture_output=True, check=False)
    return done.returncode == 0


@contextlib.contextmanager
def virtual_microphone_server(runtime: Path) -> Iterator[VirtualMicrophone]:
    """A private PulseAudio server (its files in `runtime`) whose default source is the monitor of
    a null sink; this process records from it until the block ends. The `virtual_microphone`
    fixture (tests/conftest.py) starts one per session."""
    for tool in ("pulseaudio", "pactl", "paplay"):
        require_tool(tool)
    env = {
        "XDG_RUNTIME_DIR": str(runtime),
        "PULSE_RUNTIME_PATH": str(runtime / "pulse"),
        "PULSE_SERVER": f"unix:{runtime / 'pulse' / 'native'}",
        "PULSE_STATE_PATH": str(runtime / "state"),
    }
    server = subprocess.Popen(
        [
            shutil.which("pulseaudio") or "pulseaudio",
            "-n",
            "--daemonize=no",
            "--exit-idle-time=-1",
            "--use-pid-file=no",
            "--load=module-native-protocol-unix auth-anonymous=1",
            "--load=module-null-sink sink_name=vmic",
            "--load=module-always-sink",
        ],
        env={**os.environ, **env},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    try:
        wait_until(lambda: _pulse_ready(env), "PulseAudio to answer", timeout=15, process=server)
    except pytest.fail.Exception:
        server.kill()
        raise
    subprocess.run(["pactl", "set-default-source", "vmic.monitor"], env={**os.environ, **env}, check=True)
    saved = {key: os.environ.get(key) for key in env}
    os.environ.update(env)
    from capture.recorder import refresh_devices

    refresh_devices()  # PortAudio reads devices once: show it the new server
    try:
        yield VirtualMicrophone(env)
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()
        refresh_devices()


# Sentences espeak-ng says and whisper tiny.en hears; each has a word heard once, and only there.
MARKED_SENTENCES = [
    ("First, the harbour survey is due on Monday, so please book the boat early.", "monday"),
    ("Second, Maria thinks the lantern budget is far too small for the autumn festival.", "lantern"),
    ("Third, we agreed that the violin workshop moves to the library hall.", "library"),
    ("Fourth, the pepper supplier sent a new price list with higher prices on everything.", "prices"),
    ("Fifth, somebody must call the glacier museum about insurance before Thursday.", "glacier"),
    ("Sixth, the orchard photos look wonderful, but the captions still need checking.", "orchard"),
    ("Seventh, Tom will bring a compass and maps for the walking tour.", "compass"),
    ("Eighth, the meadow concert is cancelled because of the weather forecast.", "weather"),
    ("After lunch, the printer in the office broke down again and nobody could fix it.", "printer"),
    ("The new website needs a simpler menu, according to the customers we interviewed.", "website"),
    ("Remember to send the invoice to the accounting team before the end of the month.", "invoice"),
    ("The train to the conference leaves at seven, so we should meet at the station.", "conference"),
    ("Our designer wants brighter colours for the poster, mostly orange and yellow.", "poster"),
    ("The volunteers asked for sandwiches and coffee during the long evening shift.", "sandwiches"),
    ("Finally, the garden project is waiting for permission from the city council.", "garden"),
    ("That is everything for today, and I will record another note tomorrow.", "tomorrow"),
]
