"""Transcription of one audio file, in windows, as a stream of segments; and the worker process.

Long files are transcribed in windows of about five minutes decoded on the fly, so memory does not
grow with the length of the note. A window ends in a pause, so no word is cut and no audio is
transcribed twice; where there is no pause, the segment crossing the window's end is dropped and
the next window starts exactly at the end of the last kept segment. Resuming after a crash starts
at the end of the last committed segment. Either way no segment is produced twice.

`worker_main` runs in a child process (multiprocessing 'spawn'): a native crash in CTranslate2 or
FFmpeg kills the child, never the app. It takes WorkerRequests from one queue and sends
("kind", value) tuples over another.
"""

from __future__ import annotations

import logging
import os
import queue
import resource
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from capture.audio import SAMPLE_RATE, iter_audio_16k
from models.errors import CancelledError, VerbatimError
from models.whisper import TranscribedSegment, TranscriptionOptions, WhisperTranscriber

log = logging.getLogger(__name__)

WINDOW = 300.0  # seconds transcribed per pass: ~20 MB of audio, ~50 MB of features
MARGIN = 30.0  # audio past the cut, so the segment crossing it is complete when it is dropped


@dataclass(frozen=True)
class WorkerRequest:
    audio_path: str
    model_path: str
    start: float = 0.0
    language: str | None = None
    vocabulary: tuple[str, ...] = ()
    window: float = WINDOW
    beam_size: int = 5
    cpu_threads: int | None = None


def segment_json(seg: TranscribedSegment, offset: float) -> dict[str, Any]:
    return {
        "start": round(seg.start + offset, 3),
        "end": round(seg.end + offset, 3),
        "text": seg.text,
        "words": [
            [w.text, round(w.start + offset, 3), round(w.end + offset, 3), round(w.probability, 4)]
            for w in seg.words
        ],
        "confidence": seg.confidence,
    }


def _fill(buffer: np.ndarray, blocks: Iterator[np.ndarray], need: int) -> tuple[np.ndarray, bool]:
    """Top the buffer up to `need` samples; returns (buffer, whether the file is exhausted)."""
    parts = [buffer]
    size = buffer.shape[0]
    while size < need:
        try:
            block = next(blocks)
        except StopIteration:
            return np.concatenate(parts), True
        parts.append(block)
        size += block.shape[0]
    return np.concatenate(parts), False


def quiet_point(audio: np.ndarray, lo: float, hi: float) -> float | None:
    """The middle of the quietest 0.3 s between `lo` and `hi` seconds, if it is a real pause.

    A pause is at most a quarter of the stretch's median loudness (or near digital silence);
    continuous sound (music, a long unbroken sentence) has none, and then there is no safe cut.
    """
    frame = SAMPLE_RATE // 10
    first, last = int(lo * SAMPLE_RATE), min(int(hi * SAMPLE_RATE), audio.shape[0])
    frames = (last - first) // frame
    if frames < 5:
        return None
    chunk = audio[first : first + frames * frame].reshape(frames, frame)
    energy = np.sqrt(np.mean(chunk * chunk, axis=1))
    smooth = np.convolve(energy, np.ones(3) / 3, mode="valid")
    best = int(np.argmin(smooth))
    if smooth[best] > max(0.25 * float(np.median(energy)), 0.002):
        return None
    return (first + (best + 1.5) * frame) / SAMPLE_RATE


def _window_cut(buffer: np.ndarray, window: float, exhausted: bool) -> tuple[float, bool]:
    """Where this window ends, and whether that is a pause (so every segment before it is whole)."""
    length = buffer.shape[0] / SAMPLE_RATE
    if exhausted:
        return length, True
    pause = quiet_point(buffer, 0.8 * window, window + MARGIN - 1.0)
    return (pause, True) if pause is not None else (window, False)


def transcribe_windows(
    transcriber: WhisperTranscriber,
    audio_path: Path,
    options: TranscriptionOptions,
    *,
    start: float = 0.0,
    window: float = WINDOW,
    cancelled: Callable[[], bool] = lambda: False,
) -> Iterator[tuple[str, Any]]:
    """Yield ("info", {...}) once, ("segment", {...}) per segment, ("position", seconds) per window.

    A window ends in a pause near `window` seconds, and is transcribed whole: no audio is decoded
    twice. With no pause to cut at, it ends at `window` and the segment crossing that point is
    dropped, to be transcribed whole by the next window, which starts where the last kept one ends.
    """
    blocks = iter_audio_16k(audio_path, start=start, block_seconds=min(30.0, window))
    buffer = np.zeros(0, dtype=np.float32)
    offset, info_sent = start, False
    while True:
        buffer, exhausted = _fill(buffer, blocks, int((window + MARGIN) * SAMPLE_RATE))
        if buffer.shape[0] < SAMPLE_RATE // 10:  # nothing (or a blip) left
            break
        if cancelled():
            raise CancelledError("transcription cancelled")
        cut, at_pause = _window_cut(buffer, window, exhausted)
        segments, info = transcriber.transcribe(
            buffer[: int(cut * SAMPLE_RATE)] if at_pause else buffer, options
        )
        kept_end, first_start = 0.0, None
        for seg in segments:
            if not info_sent:
                yield "info", {"language": info["language"], "probability": info["language_probability"]}
                info_sent = True
            if first_start is None:
                first_start = seg.start
            if seg.end > cut and not at_pause:
                break  # cut off by the window: the next window transcribes it whole
            yield "segment", segment_json(seg, offset)
            kept_end = seg.end
            if cancelled():
                raise CancelledError("transcription cancelled")
        if options.language is None and info_sent:
            options = replace(options, language=info["language"])  # one language for the whole note
        if exhausted:
            break
        # At the pause; else after the last kept segment (with none kept: up to the long segment).
        advance = cut if at_pause else max(1.0, kept_end or (first_start if first_start else window))
        buffer = buffer[int(advance * SAMPLE_RATE) :]
        offset += advance
        yield "position", offset
    yield "position", offset + buffer.shape[0] / SAMPLE_RATE


def _cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_rss_mb() -> float:
    """This process's peak resident memory. Linux's VmHWM starts afresh at exec, unlike ru_maxrss,
    which a spawned child inherits from the parent it was forked from."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak / 1024 / (1024 if sys.platform == "darwin" else 1)


def die_with_parent(parent_pid: int) -> None:
    """A child must not outlive the app (kill -9 of the app would leave it transcribing for nobody).

    It watches its parent's pid rather than using PR_SET_PDEATHSIG, which fires when the *thread*
    that started the child ends: a short-lived worker thread of the UI would kill it mid-recording.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is the parent's to handle
    if parent_pid:

        def watch() -> None:
            while True:
                if os.getppid() != parent_pid:
                    os._exit(0)
                threading.Event().wait(1.0)

        threading.Thread(target=watch, daemon=True, name="parent-watch").start()


def _serve(request: WorkerRequest, loaded: dict[str, WhisperTranscriber], out: Any, cancel: Any) -> None:
    """Transcribe one request, reporting every outcome as a message (never raising)."""
    cpu_before = _cpu_seconds()
    try:
        transcriber = loaded.get(request.model_path)
        if transcriber is None:
            loaded.clear()  # one model in memory at a time
            transcriber = loaded[request.model_path] = WhisperTranscriber(
                Path(request.model_path), cpu_threads=request.cpu_threads
            )
        options = TranscriptionOptions(
            language=request.language, vocabulary=list(request.vocabulary), beam_size=request.beam_size
        )
        out.put(("started", {"model": transcriber.name, "pid": os.getpid()}))
        for event in transcribe_windows(
            transcriber,
            Path(request.audio_path),
            options,
            start=request.start,
            window=request.window,
            cancelled=cancel.is_set,
        ):
            out.put(event)
        out.put(("done", {"peak_rss_mb": peak_rss_mb(), "cpu_seconds": _cpu_seconds() - cpu_before}))
    except CancelledError:
        out.put(("cancelled", None))
    except VerbatimError as exc:
        out.put(("error", {"message": exc.message, "fix": exc.fix, "type": type(exc).__name__}))
    except Exception as exc:  # a bug or an unexpected library error: reported, never silent
        log.exception("transcription worker failed")
        out.put(("error", {"message": f"transcription failed: {exc}", "fix": None, "type": "ModelError"}))


def worker_main(requests: Any, out: Any, cancel: Any, parent_pid: int, idle_seconds: float) -> None:
    """Entry point of the transcription process: serve requests until told to stop or left idle.

    Staying alive between recordings saves starting Python and loading the model for each file of
    a batch import; after `idle_seconds` without work it exits and gives its memory back.
    """
    die_with_parent(parent_pid)
    loaded: dict[str, WhisperTranscriber] = {}
    try:
        while True:
            try:
                request = requests.get(timeout=idle_seconds)
            except queue.Empty:
                return
            if request is None:
                return
            _serve(request, loaded, out, cancel)
    finally:
        out.close()
        out.join_thread()
