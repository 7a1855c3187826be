"""The crash-safe on-disk form of a recording in progress.

A recording is two files in the data folder's recording/ folder:
- `<id>.json`, written once at the start (atomically): sample rate, channels, sample format,
  when it started, which device;
- `<id>.pcm`, raw little-endian 16-bit PCM appended block by block, flushed and fsync'ed at least
  every `sync_interval` seconds (0.5 s by default).

Raw PCM has no header to repair and no index to rebuild: after a kill -9 or a power cut, every
whole sample frame on disk is good audio, so at most the last unsynced half second is lost. The
writer holds an exclusive lock on the .pcm file; a file nobody holds is an interrupted recording
that `interrupted()` hands to recovery (the kernel drops the lock of a killed process).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from models.errors import AudioError

try:
    import fcntl
except ImportError:  # not POSIX: recovery then only runs for recordings not written by this process
    fcntl = None  # type: ignore[assignment]

log = logging.getLogger(__name__)

SAMPLE_WIDTH = 2  # bytes: int16
FORMAT_VERSION = 1


def _write_json_atomically(path: Path, value: dict[str, Any]) -> None:
    tmp = path.with_suffix(".json.tmp")
    with tmp.open("w", encoding="utf-8") as handle:
        json.dump(value, handle)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(tmp, path)
    try:
        fd = os.open(path.parent, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


class BlockWriter:
    """Appends PCM blocks to `<id>.pcm`, syncing to disk at least every `sync_interval` seconds."""

    def __init__(
        self,
        folder: Path,
        recording_id: int,
        *,
        sample_rate: int,
        channels: int = 1,
        started_at: str,
        device: str | None = None,
        project_id: int | None = None,
        sync_interval: float = 0.5,
    ) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.recording_id = recording_id
        self.sample_rate = sample_rate
        self.channels = channels
        self.sync_interval = sync_interval
        self.pcm_path = folder / f"{recording_id}.pcm"
        self.sidecar_path = folder / f"{recording_id}.json"
        self.frames = 0
        self._last_sync = time.monotonic()
        sidecar = {
            "version": FORMAT_VERSION,
            "recording_id": recording_id,
            "sample_rate": sample_rate,
            "channels": channels,
            "sample_format": "s16le",
            "started_at": started_at,
            "device": device,
            "project_id": project_id,
        }
        try:
            _write_json_atomically(self.sidecar_path, sidecar)
            self._file = self.pcm_path.open("ab")
        except OSError as exc:
            raise AudioError(f"cannot write the recording to {folder}: {exc.strerror or exc}") from exc
        if fcntl is not None:
            fcntl.flock(self._file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)

    @property
    def seconds(self) -> float:
        return self.frames / self.sample_rate

    def append(self, pcm: bytes) -> None:
        """Whole int16 frames; synced to disk when the last sync is `sync_interval` old."""
        try:
            self._file.write(pcm)
        except OSError as exc:
            raise AudioError(
                f"cannot write the recording: {exc.strerror or exc}", fix="free some disk space"
            ) from exc
        self.frames += len(pcm) // (SAMPLE_WIDTH * self.channels)
        self.sync_if_due()

    def sync_if_due(self) -> None:
        if time.monotonic() - self._last_sync >= self.sync_interval:
            self.sync()

    def sync(self) -> None:
        try:
            self._file.flush()
            os.fsync(self._file.fileno())
        except OSError as exc:
            raise AudioError(
                f"cannot write the recording: {exc.strerror or exc}", fix="free some disk space"
            ) from exc
        self._last_sync = time.monotonic()

    def close(self) -> None:
        if self._file.closed:
            return
        try:
            self.sync()
        except AudioError as exc:  # a full disk: what is already on disk stays good
            log.warning("recording %s: the last block was not saved: %s", self.recording_id, exc.message)
        finally:
            with contextlib.suppress(OSError):
                self._file.close()  # releases the lock (a failed flush still closes the file)


@dataclass(frozen=True)
class Leftover:
    """A recording's files on disk: interrupted, or finished and waiting to become FLAC."""

    recording_id: int
    sample_rate: int
    channels: int
    started_at: str | None
    device: str | None
    pcm_path: Path
    sidecar_path: Path
    project_id: int | None = None

    @property
    def frames(self) -> int:
        try:
            return self.pcm_path.stat().st_size // (SAMPLE_WIDTH * self.channels)
        except FileNotFoundError:
            return 0

    @property
    def seconds(self) -> float:
        return self.frames / self.sample_rate

    def blocks(self, seconds: float = 10.0) -> Iterator[np.ndarray]:
        """The whole frames on disk as int16 arrays (interleaved), a bounded block at a time."""
        frame_bytes = SAMPLE_WIDTH * self.channels
        block = max(1, int(seconds * self.sample_rate)) * frame_bytes
        remaining = self.frames * frame_bytes  # a torn last frame is dropped
        with self.pcm_path.open("rb") as handle:
            while remaining > 0:
                data = handle.read(min(block, remaining))
                if not data:
                    break
                remaining -= len(data)
                yield np.frombuffer(data, dtype="<i2")

    def remove(self) -> None:
        self.pcm_path.unlink(missing_ok=True)
        self.sidecar_path.unlink(missing_ok=True)
        self.sidecar_path.with_suffix(".json.tmp").unlink(missing_ok=True)


def read_leftover(folder: Path, recording_id: int) -> Leftover | None:
    sidecar = folder / f"{recording_id}.json"
    try:
        meta = json.loads(sidecar.read_text("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError) as exc:
        log.warning("recording %s: unreadable sidecar (%s); assuming 16 kHz mono", recording_id, exc)
        meta = {}
    return Leftover(
        recording_id=recording_id,
        sample_rate=int(meta.get("sample_rate") or 16_000),
        channels=int(meta.get("channels") or 1),
        started_at=meta.get("started_at"),
        device=meta.get("device"),
        pcm_path=folder / f"{recording_id}.pcm",
        sidecar_path=sidecar,
        project_id=meta.get("project_id"),
    )


def is_in_use(pcm_path: Path) -> bool:
    """Whether a live writer (in any process) holds this recording."""
    if fcntl is None or not pcm_path.exists():
        return False
    with pcm_path.open("rb") as handle:
        try:
            fcntl.flock(handle.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return True
        fcntl.flock(handle.fileno(), fcntl.LOCK_UN)
        return False


def interrupted(folder: Path) -> list[Leftover]:
    """Recordings left on disk that no running writer holds, oldest first."""
    found = []
    ids = {int(p.stem) for p in folder.glob("*.json") if p.stem.isdigit()}
    ids |= {int(p.stem) for p in folder.glob("*.pcm") if p.stem.isdigit()}
    for recording_id in sorted(ids):
        leftover = read_leftover(folder, recording_id)
        if leftover is None:  # audio without a sidecar: the defaults of every recording
            leftover = Leftover(
                recording_id,
                16_000,
                1,
                None,
                None,
                folder / f"{recording_id}.pcm",
                folder / f"{recording_id}.json",
            )
        if is_in_use(leftover.pcm_path):
            continue
        found.append(leftover)
    return found
