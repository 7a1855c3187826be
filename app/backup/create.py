"""Backups: one file holding a whole library, and the check that reads it back.

A backup is a ZIP archive (`.verbatim-backup`). ZIP rather than tar because a member can be stored
as is or deflated one by one (audio is already compressed: stored; the database and JSON compress
several times over: deflated), because its central directory lets a reader check the manifest and
each member without unpacking anything, because a file cut short has no central directory and is
refused as a whole, and because every system opens one without Verbatim.

Members:
- `verbatim.db`: an online SQLite backup of the database (consistent while the app writes);
- `settings.json`, when the library has one;
- `audio/...` and `recording/...`: every audio file and every recording in progress, at the same
  paths relative to the data folder as in the library (the database refers to them that way);
- `manifest.json` (last): format and app version, schema version, when it was made, counts of
  projects, recordings and segments, and the size and sha256 of every other member. A backup made
  without audio (the daily ones) says `audio_included: false` and lists the audio files it relies
  on (`referenced_audio`: name and size); it restores only where those files still are.

Before writing, the free space is checked (the backup's size plus 200 MB to spare), so a backup
never fills the disk the library needs.

The archive is written under a hidden temporary name in the target folder, synced, then renamed:
a crash or a full disk never leaves a file under the real name that looks like a backup.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
import uuid
import zipfile
from collections.abc import Iterator
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from app import __version__
from app.backup.formats import (
    BLOCK,
    DATABASE,
    DEFLATE_LEVEL,
    EXTENSION,
    FILE_FOLDERS,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    SETTINGS,
    SPARE_BYTES,
    BackupReport,
    Cancelled,
    Member,
    Progress,
)
from app.library import Library
from memory.store import snapshots as store_backup
from memory.store.store import StoreError
from models.errors import CancelledError, InputError

log = logging.getLogger(__name__)


def create_backup(
    library: Library,
    out: Path,
    *,
    force: bool = False,
    audio: bool = True,
    progress: Progress | None = None,
    cancelled: Cancelled | None = None,
) -> BackupReport:
    """Write a backup of `library` to `out`; an existing file is replaced only with `force`.

    `audio=False` (the daily backups) leaves the finished audio files out and lists them instead:
    they are never changed once written, so seven daily copies of them beside the library would
    cost seven times its size and protect against nothing the library's own files do not.
    """
    started = time.monotonic()
    out = _check_target(library, Path(out).expanduser().absolute(), force=force)
    partial = out.with_name(f".{out.name}.{uuid.uuid4().hex[:8]}.partial")
    try:
        with tempfile.TemporaryDirectory(dir=out.parent, prefix=".verbatim-backup-") as scratch:
            database = Path(scratch) / DATABASE
            files = _members(library, database, audio)  # the database first, copied below
            # The copy is made beside the archive first, and the live one may have a WAL: twice.
            _check_space(out, files, extra=2 * _database_bytes(library))
            store_backup.copy_database(
                library.store, database, progress=lambda _done, _total: _check(cancelled)
            )
            manifest = _write_archive(library, database, files, partial, progress, cancelled)
        store_backup.fsync_file(partial)
        os.replace(partial, out)
        _fsync_folder(out.parent)
    except OSError as exc:
        raise StoreError(
            f"cannot write the backup {out}: {exc.strerror or exc}", fix=_space_fix(exc)
        ) from exc
    finally:
        partial.unlink(missing_ok=True)
    log.info("backup written: %s (%d bytes)", out.name, out.stat().st_size)
    return BackupReport(
        str(out),
        out.stat().st_size,
        round(time.monotonic() - started, 3),
        manifest["counts"],
        manifest["schema_version"],
        len(manifest["members"]),
        manifest["audio_included"],
        manifest["missing_audio"],
    )


def _check_target(library: Library, out: Path, *, force: bool) -> Path:
    root = library.data_dir.root.resolve()
    resolved = out.resolve()
    for folder in FILE_FOLDERS:
        if resolved.is_relative_to(root / folder):
            raise InputError(f"a backup cannot be written inside the library's {folder} folder: {out}")
    if resolved.is_dir():
        raise InputError(f"{out} is a folder", fix=f"name a file, e.g. {out / ('verbatim' + EXTENSION)}")
    if resolved.exists() and not force:
        raise InputError(f"{out} already exists", fix="choose another name, or add --force to replace it")
    out.parent.mkdir(parents=True, exist_ok=True)
    return out


def _space_fix(exc: OSError) -> str | None:
    return "free some disk space or choose another folder" if exc.errno == 28 else None


def library_files(library: Library) -> Iterator[tuple[str, Path]]:
    """(member name, path) of every audio file and recording in progress; temporaries left out."""
    root = library.data_dir.root
    for folder in FILE_FOLDERS:
        base = root / folder
        if not base.is_dir():
            continue
        for path in sorted(base.rglob("*")):
            relative = path.relative_to(root)
            if path.is_file() and not any(part.startswith(".") for part in relative.parts):
                yield relative.as_posix(), path


FileList = list[tuple[str, Path, int]]  # (member name, source path, ZIP compression)


def _members(library: Library, database: Path, audio: bool) -> FileList:
    files = [(DATABASE, database, zipfile.ZIP_DEFLATED)]
    if library.data_dir.settings_path.is_file():
        files.append((SETTINGS, library.data_dir.settings_path, zipfile.ZIP_DEFLATED))
    files += [
        (name, path, zipfile.ZIP_STORED)
        for name, path in library_files(library)
        if audio or not name.startswith("audio/")
    ]
    return files


def _database_bytes(library: Library) -> int:
    db = library.data_dir.db_path
    wal = db.with_name(db.name + "-wal")
    return sum(p.stat().st_size for p in (db, wal) if p.exists())


def _check_space(out: Path, files: FileList, *, extra: int) -> None:
    """Refuse before writing when the backup cannot fit (with room to spare for the library)."""
    needed = sum(path.stat().st_size for _, path, _ in files[1:]) + extra + SPARE_BYTES
    free = shutil.disk_usage(out.parent).free
    if free < needed:
        raise StoreError(
            f"not enough free space for the backup in {out.parent}: it needs about"
            f" {needed / 1e6:.0f} MB, {free / 1e6:.0f} MB are free",
            fix="free some disk space or choose another folder (an external disk is best)",
        )


def _write_archive(
    library: Library,
    database: Path,
    files: FileList,
    partial: Path,
    progress: Progress | None,
    cancelled: Cancelled | None,
) -> dict[str, Any]:
    total, done = sum(path.stat().st_size for _, path, _ in files), 0
    members = []
    with zipfile.ZipFile(partial, "w", allowZip64=True) as archive:
        for name, path, method in files:
            _check(cancelled)
            member = _add_file(archive, name, path, method, cancelled)
            members.append(member)
            done += member.size
            if progress is not None:
                progress(done, total)
        manifest = _manifest(library, database, members)
        archive.writestr(
            MANIFEST, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n", zipfile.ZIP_DEFLATED
        )
    return manifest


def _check(cancelled: Cancelled | None) -> None:
    if cancelled is not None and cancelled():
        raise CancelledError("the backup was cancelled; nothing was written")


def _add_file(
    archive: zipfile.ZipFile, name: str, path: Path, method: int, cancelled: Cancelled | None = None
) -> Member:
    info = zipfile.ZipInfo(name, date_time=_zip_time(path))
    info.compress_type = method
    # Level 1: a database of text and vectors shrinks about as much as at level 6, several times faster.
    info._compresslevel = DEFLATE_LEVEL  # type: ignore[attr-defined]
    info.external_attr = 0o600 << 16
    digest, size = hashlib.sha256(), 0
    with (
        path.open("rb") as source,
        archive.open(info, "w", force_zip64=path.stat().st_size > 1 << 30) as target,
    ):
        while block := source.read(BLOCK):
            _check(cancelled)  # a database or an audio file of gigabytes: Cancel within a block
            digest.update(block)
            target.write(block)
            size += len(block)
    return Member(name, size, digest.hexdigest())


def _zip_time(path: Path) -> tuple[int, int, int, int, int, int]:
    stamp = datetime.fromtimestamp(max(path.stat().st_mtime, 315_532_800))  # ZIP starts in 1980
    return (stamp.year, stamp.month, stamp.day, stamp.hour, stamp.minute, stamp.second)


def _manifest(library: Library, database: Path, members: list[Member]) -> dict[str, Any]:
    copied = store_backup.inspect_database(database)
    names = {m.name for m in members}
    # Audio left out (a daily backup) is listed, so that a restore can check it is still there.
    referenced = [
        {"name": name, "size": path.stat().st_size}
        for name, path in library_files(library)
        if name.startswith("audio/") and name not in names
    ]
    present = names | {r["name"] for r in referenced}
    missing = [
        r["id"] for r in _recordings_with_audio(library) if r["audio_path"] and r["audio_path"] not in present
    ]
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "app_version": __version__,
        "schema_version": copied["schema_version"],
        "created_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "counts": copied["counts"],
        "audio_included": not referenced,
        "missing_audio": missing,
        "members": [asdict(m) for m in members],
        "referenced_audio": referenced,
    }


def _recordings_with_audio(library: Library) -> list[dict[str, Any]]:
    from memory.store.recordings import list_recordings

    every = list_recordings(library.store, trashed=None)  # a note in the trash is backed up too
    return [{"id": r.id, "audio_path": r.audio_path} for r in every if r.audio_path]


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)
