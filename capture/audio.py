"""Audio files: check them, read their metadata, decode them as a stream, write recordings as FLAC.

PyAV (FFmpeg, already used by faster-whisper) reads every format a phone or a recorder writes.
Nothing here holds a whole file in memory: decoding yields blocks, so a two-hour note costs the
same RAM as a two-minute one.
"""

from __future__ import annotations

import logging
import struct
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any, BinaryIO

import av
import numpy as np

from memory.store.clock import to_store_time
from models.errors import AudioError

log = logging.getLogger(__name__)

SAMPLE_RATE = 16_000  # what Whisper takes
AUDIO_EXTENSIONS = (".wav", ".flac", ".mp3", ".m4a", ".mp4", ".aac", ".ogg", ".oga", ".opus", ".webm")
# Formats whose timestamps address samples exactly, so decoding may start with a seek.
_EXACT_SEEK = {"wav", "flac"}
_AV_ERRORS = (av.error.FFmpegError, OSError, ValueError, EOFError, IndexError)
_METADATA_TIME_KEYS = ("com.apple.quicktime.creationdate", "creation_time", "date")


@dataclass(frozen=True)
class AudioInfo:
    duration: float  # seconds actually decodable
    sample_rate: int
    channels: int
    codec: str
    container: str
    creation_time: str | None  # store time from the file's own metadata, when it has one


def _describe(exc: BaseException) -> str:
    text = getattr(exc, "strerror", None) or str(exc)
    return text.split(":")[0] if "Invalid data" in text else text


def _open(path: Path, name: str | None = None) -> Any:
    name = name or path.name
    try:
        container = av.open(str(path), metadata_errors="replace")
    except FileNotFoundError as exc:
        raise AudioError(f"{name} no longer exists") from exc
    except _AV_ERRORS as exc:
        raise AudioError(
            f"{name} is not audio Verbatim can read, or it is damaged ({_describe(exc)})",
            fix="check that the file plays in a media player",
        ) from exc
    if not container.streams.audio:
        container.close()
        raise AudioError(f"{name} has no audio track")
    return container


def _declared_duration(container: Any, stream: Any) -> float | None:
    if stream.duration and stream.time_base:
        return float(stream.duration * stream.time_base)
    if container.duration:
        return float(container.duration / av.time_base)
    return None


def metadata_time(container: Any, stream: Any | None = None) -> str | None:
    """When the file says it was recorded, as store time; None when it does not say or is implausible."""
    tags = {**(dict(stream.metadata) if stream is not None else {}), **dict(container.metadata)}
    lowered = {k.lower(): v for k, v in tags.items()}
    for key in _METADATA_TIME_KEYS:
        value = lowered.get(key)
        if not value or len(value) < 16:  # a bare year or date is not a time of speaking
            continue
        try:
            parsed = datetime.fromisoformat(value.strip().replace("Z", "+00:00").replace(" UTC", "+00:00"))
        except ValueError:
            continue
        # Unset MP4 times read as 1904 or 1970; a time in the future is a wrong clock.
        if not 1990 <= parsed.year <= datetime.now().year + 1:
            continue  # (a year 1 or 9999 with an offset would not even convert to local time)
        local = to_store_time(parsed)
        if datetime.fromisoformat(local) <= datetime.now() + timedelta(days=1):
            return local
    return None


def inspect_audio(path: Path, *, name: str | None = None) -> AudioInfo:
    """Decode the whole file once (block by block) to prove it is complete and readable.

    `name` is how messages call the file (an import checks its copy but names the original).
    """
    name = name or path.name
    must_reach = _check_structure(path, name)
    container = _open(path, name)
    try:
        stream = container.streams.audio[0]
        declared = _declared_duration(container, stream)
        samples, rate, reached = _decode_all(container, stream, name)
        duration = samples / rate if rate else 0.0
        only_audio = len(container.streams) == 1  # (other streams' pages may come last)
        if must_reach is not None and only_audio and reached < must_reach and samples:
            # FFmpeg's Ogg reader stops quietly at a page that fails its checksum.
            raise AudioError(
                f"{name} is damaged after {duration:.1f} s (the rest cannot be read)",
                fix="export or copy the recording again",
            )
        if samples == 0:
            raise AudioError(f"{name} contains no audio")
        if declared is not None and duration < declared - max(1.0, 0.02 * declared):
            raise AudioError(
                f"{name} is incomplete: it should last {declared:.1f} s but only {duration:.1f} s"
                " can be read",
                fix="the copy was probably cut short; copy or export it again",
            )
        return AudioInfo(
            duration=duration,
            sample_rate=int(rate),
            channels=int(stream.channels or 1),
            codec=str(stream.codec_context.name),
            container=str(container.format.name),
            creation_time=metadata_time(container, stream),
        )
    finally:
        container.close()


def _decode_all(container: Any, stream: Any, name: str) -> tuple[int, int, int]:
    """(samples, sample rate, the furthest byte position a packet was read from)."""
    samples, rate, reached = 0, stream.rate or 0, -1
    try:
        for packet in container.demux(stream):
            reached = max(reached, packet.pos if packet.pos is not None else -1)
            for frame in packet.decode():
                samples += frame.samples
                rate = frame.sample_rate or rate
    except _AV_ERRORS as exc:
        heard = samples / rate if rate else 0.0
        raise AudioError(
            f"{name} is damaged after {heard:.1f} s ({_describe(exc)})",
            fix="export or copy the recording again",
        ) from exc
    return samples, rate, reached


def _check_structure(path: Path, name: str) -> int | None:
    """Truncations FFmpeg reads without complaint: a WAV shorter than its header, an Ogg with no end.

    For Ogg, the byte position a complete read must reach (the start of its last pages).
    """
    try:
        with path.open("rb") as handle:
            head = handle.read(12)
            if head[:4] == b"RIFF" and head[8:12] == b"WAVE":
                _check_wav(path, handle, name)
            elif head[:4] == b"OggS":
                return _check_ogg_end(path, handle, name)
    except FileNotFoundError as exc:
        raise AudioError(f"{name} no longer exists") from exc
    except OSError as exc:
        raise AudioError(f"cannot read {name}: {exc.strerror}") from exc
    return None


def _check_wav(path: Path, handle: BinaryIO, name: str) -> None:
    size = path.stat().st_size
    handle.seek(12)
    while chunk := handle.read(8):
        if len(chunk) < 8:
            break
        chunk_id, length = chunk[:4], struct.unpack("<I", chunk[4:])[0]
        if chunk_id == b"data":
            # 0 and 0xFFFFFFFF mean "unknown" (written while streaming): nothing to compare.
            if 0 < length < 0xFFFFFFFF and handle.tell() + length > size + 1:
                missing = handle.tell() + length - size
                raise AudioError(
                    f"{name} is incomplete: {missing:,} bytes of audio are missing at the end",
                    fix="the copy was probably cut short; copy or export it again",
                )
            return
        handle.seek(length + (length & 1), 1)


def _check_ogg_end(path: Path, handle: BinaryIO, name: str) -> int:
    """A finished Ogg stream ends with a complete page flagged end-of-stream.

    Returns where the page before the last one starts: a packet from there or later must be read
    (not the last page itself: its first packet may have begun on the page before).
    """
    size = path.stat().st_size
    tail_start = max(0, size - 70_000)  # an Ogg page is at most 65,307 bytes
    handle.seek(tail_start)
    tail = handle.read()
    last = tail.rfind(b"OggS")
    complete = False
    if last >= 0 and len(tail) - last >= 27:
        header = tail[last : last + 27]
        segments = header[26]
        table = tail[last + 27 : last + 27 + segments]
        body = sum(table)
        complete = len(table) == segments and last + 27 + segments + body == len(tail) and bool(header[5] & 4)
    if not complete:
        raise AudioError(
            f"{name} is incomplete: the audio stops without its proper end",
            fix="the copy was probably cut short; copy or export it again",
        )
    previous = tail.rfind(b"OggS", 0, last)
    return tail_start + previous if previous >= 0 else 0


def iter_audio_16k(path: Path, *, start: float = 0.0, block_seconds: float = 30.0) -> Iterator[np.ndarray]:
    """16 kHz mono float32 from `start` seconds on, in blocks of about `block_seconds`."""
    container = _open(path)
    try:
        stream = container.streams.audio[0]
        skip: int | None = round(start * SAMPLE_RATE)
        if start > 0 and container.format.name.split(",")[0] in _EXACT_SEEK:
            container.seek(int(start * av.time_base), backward=True, any_frame=False)
            skip = None  # known from the first decoded frame
        resampler = av.AudioResampler(format="flt", layout="mono", rate=SAMPLE_RATE)
        pending: list[np.ndarray] = []
        pending_len, wanted = 0, int(block_seconds * SAMPLE_RATE)
        try:
            for frame in container.decode(stream):
                if skip is None:
                    skip = max(0, round((start - float(frame.time or 0.0)) * SAMPLE_RATE))
                for out in resampler.resample(frame):
                    data = out.to_ndarray().reshape(-1)
                    if skip:
                        dropped = min(skip, data.shape[0])
                        data, skip = data[dropped:], skip - dropped
                    if data.shape[0]:
                        pending.append(data)
                        pending_len += data.shape[0]
                if pending_len >= wanted:
                    yield np.concatenate(pending)
                    pending, pending_len = [], 0
            for out in resampler.resample(None):
                pending.append(out.to_ndarray().reshape(-1)[skip or 0 :])
                skip = 0
        except _AV_ERRORS as exc:
            raise AudioError(f"{path.name} is damaged ({_describe(exc)})") from exc
        if pending:
            yield np.concatenate(pending).astype(np.float32, copy=False)
    finally:
        container.close()


def read_audio_16k(path: Path) -> np.ndarray:
    """A whole (short) file as 16 kHz mono float32: for clips, evaluations and tests."""
    blocks = list(iter_audio_16k(path))
    return np.concatenate(blocks) if blocks else np.zeros(0, dtype=np.float32)


class FlacWriter:
    """Encode 16-bit PCM to a FLAC file block by block (lossless, about half the size of WAV)."""

    def __init__(self, path: Path, sample_rate: int, channels: int = 1) -> None:
        self.path = path
        self.sample_rate = sample_rate
        self.channels = channels
        self.samples = 0
        layout = "mono" if channels == 1 else "stereo"
        self._container = av.open(str(path), "w", format="flac")
        self._stream = self._container.add_stream("flac", rate=sample_rate, layout=layout)
        self._stream.format = "s16"

    def write(self, pcm: np.ndarray) -> None:
        """int16 samples, interleaved when there are several channels."""
        if pcm.size == 0:
            return
        layout = "mono" if self.channels == 1 else "stereo"
        frame = av.AudioFrame.from_ndarray(
            np.ascontiguousarray(pcm, dtype=np.int16).reshape(1, -1), format="s16", layout=layout
        )
        frame.sample_rate = self.sample_rate
        frame.pts = self.samples
        self.samples += pcm.size // self.channels
        for packet in self._stream.encode(frame):
            self._container.mux(packet)

    def close(self) -> None:
        for packet in self._stream.encode(None):
            self._container.mux(packet)
        self._container.close()

    def __enter__(self) -> FlacWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
