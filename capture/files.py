"""The library's audio files: content-addressed (audio/<sha256[:2]>/<sha256>.<ext>), written whole.

A file is first written (or copied) under a temporary name in the audio folder, hashed on the
way, fsync'ed, then renamed into place: a crash leaves either the finished file or a temporary
one that `remove_stale_temporaries` clears, never half a file under a real name.
"""

from __future__ import annotations

import hashlib
import logging
import os
import time
import uuid
from pathlib import Path

from models.errors import InputError

log = logging.getLogger(__name__)

BLOCK = 1 << 20
TEMP_PREFIX = ".incoming-"


def temporary_path(audio_dir: Path, suffix: str) -> Path:
    audio_dir.mkdir(parents=True, exist_ok=True)
    return audio_dir / f"{TEMP_PREFIX}{uuid.uuid4().hex}{suffix.lower()}"


def copy_hashed(source: Path, audio_dir: Path) -> tuple[Path, str]:
    """Copy `source` to a temporary file in the audio folder; returns (temporary path, sha256)."""
    target = temporary_path(audio_dir, source.suffix)
    digest = hashlib.sha256()
    try:
        with source.open("rb") as src, target.open("wb") as dst:
            while block := src.read(BLOCK):
                digest.update(block)
                dst.write(block)
            dst.flush()
            os.fsync(dst.fileno())
    except FileNotFoundError as exc:
        target.unlink(missing_ok=True)
        raise InputError(f"{source.name} disappeared while it was being imported") from exc
    except OSError as exc:
        target.unlink(missing_ok=True)
        if exc.errno == 28:  # ENOSPC
            raise InputError("the disk is full: nothing was imported", fix="free some disk space") from exc
        raise InputError(f"cannot read {source.name}: {exc.strerror or exc}") from exc
    return target, digest.hexdigest()


def text_name(name: str) -> str:
    """A file name as text that can be stored and printed: bytes of a name that are not UTF-8 (a
    Latin-1 name from an old archive) reach Python as lone surrogates, written here as \\udce9."""
    return name.encode("utf-8", "backslashreplace").decode("utf-8")


def sha256_of(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        while block := handle.read(BLOCK):
            digest.update(block)
    return digest.hexdigest()


def place(temporary: Path, audio_dir: Path, sha256: str, suffix: str) -> str:
    """Move a finished temporary file to its content address; returns the path relative to the data folder."""
    folder = audio_dir / sha256[:2]
    folder.mkdir(parents=True, exist_ok=True)
    final = folder / f"{sha256}{suffix.lower()}"
    if final.exists():  # the same bytes are already there (an earlier, failed import)
        temporary.unlink(missing_ok=True)
    else:
        os.replace(temporary, final)
        _fsync_dir(folder)
    return str(final.relative_to(audio_dir.parent))


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # not possible on every platform; the rename itself is atomic
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def remove_stale_temporaries(audio_dir: Path, *, older_than: float = 3600.0) -> int:
    """Temporary files left by an interrupted import (never a finished recording)."""
    removed = 0
    cutoff = time.time() - older_than
    for path in audio_dir.glob(f"{TEMP_PREFIX}*"):
        try:
            if path.stat().st_mtime < cutoff:
                path.unlink()
                removed += 1
        except OSError as exc:
            log.warning("cannot remove %s: %s", path.name, exc)
    return removed


def check_readable(path: Path) -> None:
    """A clear message for the usual reasons a file cannot be imported."""
    if not path.exists():
        raise InputError(f"{path} does not exist")
    if path.is_dir():
        raise InputError(f"{path} is a folder")
    if path.stat().st_size == 0:
        raise InputError(f"{path.name} is empty (0 bytes)")
    if not os.access(path, os.R_OK):
        raise InputError(f"{path.name} cannot be read (permission denied)")
