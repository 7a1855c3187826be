"""The live transcript while recording: the fast model, a few seconds behind the speaker.

A child process (so a native crash cannot stop the recording) follows the recording's .pcm file
as it grows and re-transcribes the unconfirmed tail every couple of seconds. A segment is
confirmed (sent as final for the live pass) once another segment follows it, or once the speaker
has been quiet for a while; the rest is shown as tentative text. The buffer never holds more than
about half a minute, so a two-hour recording costs what a two-minute one does. The live text is
provisional: the transcript of record comes from the final pass with the project's model.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from capture.audio import SAMPLE_RATE
from capture.transcriber import die_with_parent
from models.errors import VerbatimError
from models.whisper import TranscriptionOptions, WhisperTranscriber

log = logging.getLogger(__name__)

STEP_SECONDS = 2.0  # new audio needed before the next pass
HOLD_SECONDS = 1.5  # a last segment followed by this much quiet is complete
MAX_BUFFER = 24.0  # unconfirmed audio kept at most (Whisper sees 30 s at a time)

LiveSegment = tuple[float, float, str]


@dataclass(frozen=True)
class LiveRequest:
    pcm_path: str
    sample_rate: int
    model_path: str
    parent_pid: int = 0
    cpu_threads: int = 1  # the other core stays with the recorder and the app


class LiveBuffer:
    """The unconfirmed tail of the recording and the confirm-or-wait rule."""

    def __init__(self) -> None:
        self.audio = np.zeros(0, dtype=np.float32)
        self.offset = 0.0  # recording time of audio[0]
        self.fresh = 0  # samples added since the last pass

    def add(self, start: float, samples: np.ndarray) -> None:
        """Samples that begin `start` seconds into the recording (after a skip, the tail restarts)."""
        if not samples.size:
            return
        if abs(start - (self.offset + self.audio.size / SAMPLE_RATE)) > 0.01:
            self.audio, self.offset = np.zeros(0, dtype=np.float32), start
        self.audio = np.concatenate([self.audio, samples])
        self.fresh += samples.size

    def step(
        self, transcriber: WhisperTranscriber, options: TranscriptionOptions, *, final: bool
    ) -> tuple[list[LiveSegment], str]:
        """Transcribe the tail; returns (newly confirmed segments, tentative text)."""
        self.fresh = 0
        if self.audio.size < SAMPLE_RATE // 4:
            return [], ""
        length = self.audio.size / SAMPLE_RATE
        segments = list(transcriber.transcribe(self.audio, options)[0])
        confirm = segments if final else segments[:-1]
        if segments and not final and (segments[-1].end < length - HOLD_SECONDS or length > MAX_BUFFER):
            confirm = segments
        cut = confirm[-1].end if confirm else (length - 1.0 if length > 8.0 else 0.0)
        done = [(self.offset + s.start, self.offset + s.end, s.text) for s in confirm if s.text.strip()]
        tentative = " ".join(s.text for s in segments[len(confirm) :])
        if cut > 0:
            self.audio = self.audio[int(cut * SAMPLE_RATE) :]
            self.offset += cut
        return done, tentative


class PcmTail:
    """Reads the samples appended to a growing 16-bit mono PCM file, as 16 kHz float32.

    When the live pass falls far behind (a busy machine), it skips ahead to the last stretch: the
    live text is a convenience, and the final pass transcribes everything.
    """

    def __init__(self, path: Path, sample_rate: int) -> None:
        self.path = path
        self.sample_rate = sample_rate
        self._handle: Any = None

    def read(self, max_seconds: float = MAX_BUFFER) -> tuple[float, np.ndarray]:
        """(recording time of the first sample, samples) of at most `max_seconds` of new audio."""
        if self._handle is None:
            try:
                self._handle = self.path.open("rb")
            except FileNotFoundError:
                return 0.0, np.zeros(0, dtype=np.float32)
        limit = int(max_seconds * self.sample_rate) * 2
        position = self._handle.tell()
        backlog = os.fstat(self._handle.fileno()).st_size - position
        if backlog > 3 * limit:
            position = position + backlog - limit
            position -= position % 2
            self._handle.seek(position)
        data = self._handle.read(limit)
        data = data[: len(data) - len(data) % 2]
        self._handle.seek(position + len(data))
        start = position / 2 / self.sample_rate
        samples = np.frombuffer(data, dtype="<i2").astype(np.float32) / 32768.0
        if self.sample_rate != SAMPLE_RATE and samples.size:
            count = int(samples.size * SAMPLE_RATE / self.sample_rate)
            samples = np.interp(np.linspace(0, samples.size - 1, count), np.arange(samples.size), samples)
        return start, samples.astype(np.float32, copy=False)

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()


def live_main(request: LiveRequest, out: Any, stop: Any) -> None:
    """Entry point of the live transcription process."""
    die_with_parent(request.parent_pid)
    try:
        transcriber = WhisperTranscriber(Path(request.model_path), cpu_threads=request.cpu_threads)
        options = TranscriptionOptions(
            language=None if transcriber.multilingual else "en", beam_size=1, word_timestamps=False
        )
        tail, buffer = PcmTail(Path(request.pcm_path), request.sample_rate), LiveBuffer()
        out.put(("ready", None))
        while True:
            stopping = stop.is_set()
            start, samples = tail.read()
            buffer.add(start, samples)
            if stopping:
                out.put(("live", buffer.step(transcriber, options, final=True)))
                if samples.size:
                    continue  # more was written before the stop: transcribe that too
                break
            if buffer.fresh < STEP_SECONDS * SAMPLE_RATE:
                time.sleep(0.2)
                continue
            out.put(("live", buffer.step(transcriber, options, final=False)))
        out.put(("done", None))
    except VerbatimError as exc:
        out.put(("error", exc.message))
    except Exception as exc:  # the live pass is a convenience: report, never take the recording down
        log.exception("live transcription failed")
        out.put(("error", f"live transcription failed: {exc}"))
    finally:
        out.close()
        out.join_thread()


OnLive = Callable[[list[LiveSegment], str], None]


class LiveTranscriber:
    """The parent's handle on the live process: start it, receive its segments, finish it."""

    def __init__(self, request: LiveRequest, on_update: OnLive) -> None:
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        self.on_update = on_update
        self.tentative = ""
        self.error: str | None = None
        self.ready = threading.Event()
        self._done = threading.Event()
        self._queue: Any = context.Queue()
        self._stop = context.Event()
        self._process = context.Process(
            target=live_main, args=(request, self._queue, self._stop), daemon=True, name="verbatim-live"
        )
        self._reader = threading.Thread(target=self._read, daemon=True, name="live-reader")

    def start(self) -> LiveTranscriber:
        self._process.start()
        self._reader.start()
        return self

    def _read(self) -> None:
        while not self._done.is_set():
            try:
                kind, value = self._queue.get(timeout=0.5)
            except queue.Empty:
                if not self._process.is_alive():
                    self.error = self.error or "the live transcription stopped"
                    break
                continue
            if kind == "ready":
                self.ready.set()
            elif kind == "live":
                segments, self.tentative = value
                try:
                    self.on_update(segments, self.tentative)
                except Exception:  # a failing listener must not stop the live pass
                    log.exception("live transcript listener failed")
            elif kind == "error":
                self.error = value
            elif kind == "done":
                break
        self._done.set()

    def finish(self, timeout: float = 20.0) -> None:
        """Transcribe what is left, deliver it, and end the process (killed after `timeout`)."""
        self._stop.set()
        self._done.wait(timeout)
        self._done.set()
        self._process.join(2.0)
        if self._process.is_alive():
            self._process.kill()
            self._process.join(2.0)
        self._reader.join(2.0)
        self._queue.close()
        self._queue.cancel_join_thread()
