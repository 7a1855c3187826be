"""Microphone capture: a sounddevice input stream written to a BlockWriter as it arrives.

The PortAudio callback only copies each block and measures its level; a writer thread appends the
blocks to disk (synced every half second), so a slow disk never stalls the audio thread, and the
recording never sits in memory. `latency='low'`: with the default latency, PortAudio through
PulseAudio's ALSA plugin lost a third of the samples in a probe here. If the device stops
delivering audio (unplugged, suspended), `problem` says so instead of recording silence quietly.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from capture.blockfile import BlockWriter
from models.errors import AudioError

log = logging.getLogger(__name__)

PREFERRED_RATE = 16_000  # what Whisper wants; devices that cannot are recorded at their own rate
STALL_SECONDS = 3.0
_open_streams = 0
_streams_lock = threading.Lock()


@dataclass(frozen=True)
class InputChoice:
    index: int
    name: str
    sample_rate: int
    channels: int  # opened with this many; mixed down to mono


def _sd() -> Any:
    try:
        import sounddevice
    except OSError as exc:
        raise AudioError(
            f"audio input is unavailable: {exc}",
            fix="install PortAudio (Debian/Ubuntu: sudo apt install libportaudio2)",
        ) from exc
    return sounddevice


def refresh_devices() -> None:
    """Re-read the device list (PortAudio reads it once): a microphone plugged in later shows up."""
    sd = _sd()
    with _streams_lock:
        if _open_streams == 0:
            sd._terminate()
            sd._initialize()


def _resolve_index(sd: Any, device: int | str | None) -> int:
    devices = sd.query_devices()
    inputs = [i for i, d in enumerate(devices) if d["max_input_channels"] > 0]
    if not inputs:
        raise AudioError(
            "no microphone found: recording is unavailable (importing files still works)",
            fix="connect a microphone, or check the system's sound settings",
        )
    if device is None or device == "":
        default = sd.default.device[0]
        return default if default in inputs else inputs[0]
    if isinstance(device, int) or str(device).isdigit():
        index = int(device)
        if index not in inputs:
            raise AudioError(
                f"there is no input device number {index}", fix="see 'verbatim record --list-devices'"
            )
        return index
    wanted = str(device).casefold()
    matches = [i for i in inputs if wanted in str(devices[i]["name"]).casefold()]
    if not matches:
        raise AudioError(f"no input device is called {device!r}", fix="see 'verbatim record --list-devices'")
    return next((i for i in matches if str(devices[i]["name"]).casefold() == wanted), matches[0])


def choose_input(device: int | str | None = None) -> InputChoice:
    """The device to record from and the rate and channels it accepts; AudioError if there is none."""
    refresh_devices()
    sd = _sd()
    try:
        index = _resolve_index(sd, device)
        info = sd.query_devices(index)
    except sd.PortAudioError as exc:
        raise AudioError(f"cannot list audio devices: {exc}") from exc
    for rate in (PREFERRED_RATE, int(info["default_samplerate"])):
        for channels in (1, min(2, int(info["max_input_channels"]))):
            try:
                sd.check_input_settings(device=index, samplerate=rate, channels=channels, dtype="int16")
            except (sd.PortAudioError, ValueError):
                continue
            return InputChoice(index, str(info["name"]), rate, channels)
    raise AudioError(
        f"the input device {info['name']!r} accepts no usable format", fix="choose another device"
    )


class Capture:
    """One open input stream feeding one BlockWriter."""

    def __init__(
        self, choice: InputChoice, writer: BlockWriter, *, stall_seconds: float = STALL_SECONDS
    ) -> None:
        self.choice = choice
        self.writer = writer
        self.stall_seconds = stall_seconds
        self.level = 0.0  # RMS of the last block, 0..1
        self.peak = 0.0
        self.paused = False
        self.overflows = 0
        self.problem: str | None = None
        self.failed = False  # the audio can no longer be written (a full disk): the recording is over
        self._blocks: queue.SimpleQueue[bytes | None] = queue.SimpleQueue()
        self._last_block = time.monotonic()
        self._thread = threading.Thread(target=self._write_loop, daemon=True, name="recorder-writer")
        self._stream: Any = None

    @property
    def elapsed(self) -> float:
        """Seconds recorded (pauses excluded)."""
        return self.writer.seconds

    def _callback(self, indata: np.ndarray, frames: int, when: Any, status: Any) -> None:
        if status and status.input_overflow:
            self.overflows += 1
        mono = indata[:, 0] if indata.shape[1] == 1 else indata.mean(axis=1).astype(np.int16)
        samples = mono.astype(np.float32) / 32768.0
        self.level = float(np.sqrt(np.mean(samples * samples))) if samples.size else 0.0
        self.peak = float(np.max(np.abs(samples))) if samples.size else 0.0
        self._last_block = time.monotonic()
        if not self.paused:
            self._blocks.put(mono.tobytes())

    def start(self) -> None:
        global _open_streams
        sd = _sd()
        try:
            self._stream = sd.InputStream(
                device=self.choice.index,
                samplerate=self.choice.sample_rate,
                channels=self.choice.channels,
                dtype="int16",
                latency="low",
                blocksize=self.choice.sample_rate // 20,  # 50 ms: a lively meter, cheap callbacks
                callback=self._callback,
            )
            self._stream.start()
        except (sd.PortAudioError, ValueError) as exc:
            raise AudioError(
                f"cannot record from {self.choice.name!r}: {exc}",
                fix="check that no other program holds the microphone",
            ) from exc
        with _streams_lock:
            _open_streams += 1
        self._thread.start()

    def _write_loop(self) -> None:
        while True:
            try:
                block = self._blocks.get(timeout=0.1)
            except queue.Empty:
                block = b""
            if block is None:
                return
            try:
                if block and not self.failed:  # a stall warning must not drop the block that ends it
                    self.writer.append(block)
                elif not self.failed:
                    self.writer.sync_if_due()
            except AudioError as exc:  # disk full: say so; what is on disk stays
                self.problem = exc.message
                self.failed = True
            self._check_stall()

    def _check_stall(self) -> None:
        silent_for = time.monotonic() - self._last_block
        if silent_for > self.stall_seconds and self.problem is None:
            self.problem = f"the microphone stopped sending audio {silent_for:.0f} s ago"
            log.warning("recording %s: %s", self.writer.recording_id, self.problem)
        elif silent_for <= self.stall_seconds and self.problem and "stopped sending" in self.problem:
            self.problem = None

    def stop(self) -> None:
        """Stop the stream, write what is queued, and close the file (synced)."""
        global _open_streams
        if self._stream is not None:
            try:
                self._stream.stop()
                self._stream.close()
            except Exception as exc:  # the device may already be gone; the audio is on disk
                log.warning("closing the input stream: %s", exc)
            self._stream = None
            with _streams_lock:
                _open_streams -= 1
        self._blocks.put(None)
        if self._thread.is_alive():
            self._thread.join()
        self.writer.close()
