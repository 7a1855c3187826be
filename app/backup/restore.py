"""Restore a backup (or a JSON export: app.backup.export_json) into a data folder.

Order, so that a bad backup or a crash never costs the library that is there:
1. every member's checksum is verified against the manifest (a damaged backup is refused naming
   the bad member, and nothing is touched); a backup of a newer schema is refused;
2. a library that holds anything (projects, recordings or audio) is only replaced with `force`;
3. the members are unpacked into a hidden folder beside the library and the database is checked;
4. under the library's instance lock (a running app or recorder makes the restore refuse),
   the current library's files (database with its WAL, settings, audio, recordings in progress)
   move aside into `backups/replaced-YYYY-MM-DD-HHMMSS/` (moved, never deleted), and the restored
   files move into place; models and logs stay where they are.

A backup without audio (a daily one) restores only into a library that still has every audio file
it lists (same name and size, and same sha256 where the name is one); the audio stays in place.
"""

from __future__ import annotations

import functools
import logging
import os
import re
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from app.backup.export_json import build_from_json, is_json_export, verify_json_export
from app.backup.formats import DATABASE, FILE_FOLDERS, SETTINGS, SPARE_BYTES, Member, Progress
from app.backup.read import extract_member, open_archive, safe_member_name, verify_backup
from app.instance_lock import InstanceLock
from app.library import Library
from app.paths import DataDir
from capture.files import sha256_of
from memory.store import snapshots as store_backup
from memory.store.store import StoreError
from models.errors import InputError, VerbatimError

log = logging.getLogger(__name__)

_CONTENT_ADDRESS = re.compile(r"[0-9a-f]{64}")

# What makes a library, besides models and logs (which a restore leaves alone).
LIBRARY_ITEMS = (
    DATABASE,
    f"{DATABASE}-wal",
    f"{DATABASE}-shm",
    f"{DATABASE}-journal",
    SETTINGS,
    *FILE_FOLDERS,
)


@dataclass
class RestoreReport:
    backup: str
    target: str
    counts: dict[str, int]
    schema_version: int
    members: int
    set_aside: str | None
    migrated_to: int | None  # the schema the restore brought an older backup up to
    seconds: float

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def holds_data(root: Path) -> bool:
    """True when the folder has a library with anything in it (projects, recordings, audio)."""
    for folder in FILE_FOLDERS:
        base = root / folder
        if base.is_dir() and any(p.is_file() and not p.name.startswith(".") for p in base.rglob("*")):
            return True
    database = root / DATABASE
    if not database.exists():
        return False
    try:
        found = store_backup.inspect_database(database)
    except VerbatimError:
        return True  # unreadable is not empty: it may be all someone has
    return not found["library"] or any(found["counts"].values())


@dataclass
class _Source:
    """What a restore needs from a backup or a JSON export, once it is verified."""

    manifest: dict[str, Any]
    counts: dict[str, int]
    members: int
    with_audio: bool
    build: Callable[[Path], None]  # fills the staging folder
    bytes: int  # about what the restored files take


def _verified_source(path: Path, progress: Progress | None) -> _Source:
    if is_json_export(path):
        manifest = verify_json_export(path, progress=progress)
        if not manifest.get("audio_included", True):
            raise InputError(
                f"{path.name} was exported without audio", fix="export it again without --no-audio"
            )
        tables = manifest["tables"]
        counts = {name: int(tables[name]["rows"]) for name in ("projects", "recordings", "segments")}
        build = functools.partial(build_from_json, path, manifest)
        size = sum(int(f["size"]) for f in manifest["files"])
        return _Source(manifest, counts, len(manifest["files"]), True, build, size)
    manifest = verify_backup(path, progress=progress)
    members = [Member(**m) for m in manifest["members"]]
    build = functools.partial(_unpack, path, members)
    with_audio = bool(manifest.get("audio_included", True))
    size = sum(m.size for m in members)
    return _Source(manifest, manifest["counts"], len(members), with_audio, build, size)


def restore_backup(
    path: Path, target: Path, *, force: bool = False, progress: Progress | None = None
) -> RestoreReport:
    """Restore a backup file (or a JSON export folder) into the library folder `target`."""
    started = time.monotonic()
    path = Path(path).expanduser().absolute()
    source = _verified_source(path, progress)
    root = Path(target).expanduser().absolute()
    if root.exists() and not root.is_dir():
        raise InputError(f"{root} is a file, not a library folder")
    if not source.with_audio:
        _check_referenced_audio(path, root, source.manifest.get("referenced_audio", []))
    if holds_data(root) and not force:
        raise InputError(
            f"{root} already holds a library",
            fix="restore into an empty folder with --into DIR, or add --force"
            " (the current library is kept aside in its backups folder)",
        )
    _check_room(root, source.bytes)
    root.mkdir(parents=True, exist_ok=True, mode=0o700)
    stamp = datetime.now().strftime("%Y-%m-%d-%H%M%S")
    staging = root / f".restoring-{stamp}"
    # The app (or `verbatim record`) must not be writing the library that is being replaced.
    with InstanceLock(root, "verbatim restore"):
        _remove_stale_staging(root)
        try:
            source.build(staging)
            aside = _set_aside(root, stamp, keep=() if source.with_audio else ("audio",))
            _move_in(staging, root)
        except OSError as exc:
            raise StoreError(
                f"cannot restore into {root}: {exc.strerror or exc}",
                fix="free some disk space, or restore into another folder with --into",
            ) from exc
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        schema, counts = _open_restored(root)
    from_schema = int(source.manifest["schema_version"])
    if counts != source.counts:
        raise StoreError(f"the restored library holds {counts}, the manifest says {source.counts}")
    return RestoreReport(
        str(path),
        str(root),
        counts,
        from_schema,
        source.members,
        str(aside) if aside else None,
        schema if schema != from_schema else None,
        round(time.monotonic() - started, 3),
    )


def _remove_stale_staging(root: Path) -> None:
    """A restore killed while unpacking leaves its half-filled staging folder behind; it never held
    the live library (that is moved aside whole before anything is moved in), so it goes."""
    for stale in root.glob(".restoring-*"):
        if stale.is_dir():
            shutil.rmtree(stale, ignore_errors=True)


def _check_room(root: Path, needed: int) -> None:
    existing = root
    while not existing.exists():
        existing = existing.parent
    free = shutil.disk_usage(existing).free
    if free < needed + SPARE_BYTES:
        raise StoreError(
            f"not enough free space in {root} to restore: it needs about"
            f" {(needed + SPARE_BYTES) / 1e6:.0f} MB, {free / 1e6:.0f} MB are free",
            fix="free some disk space, or restore into another folder with --into",
        )


def _unpack(path: Path, members: list[Member], staging: Path) -> None:
    staging.mkdir(mode=0o700)
    with open_archive(path) as archive:
        for member in members:
            extract_member(archive, member, staging / member.name, path.name)
    found = store_backup.inspect_database(staging / DATABASE)
    if found["integrity"] != "ok" or not found["library"]:
        raise InputError(f"{path.name}: the database in the backup fails its integrity check")


def _check_referenced_audio(path: Path, root: Path, referenced: list[dict[str, Any]]) -> None:
    bad = [str(i["name"]) for i in referenced if not _still_there(root, str(i["name"]), i["size"])]
    if bad:
        raise InputError(
            f"{path.name} holds the database without audio, and {len(bad)} of the audio files it"
            f" needs are not in {root} (e.g. {bad[0]})",
            fix="restore it into the library it was made from, or restore a full backup",
        )


def _still_there(root: Path, name: str, size: object) -> bool:
    file = root / name
    if not safe_member_name(name) or not file.is_file() or file.stat().st_size != size:
        return False
    stem = Path(name).stem  # content-addressed audio is named by its sha256: check the bytes too
    return not _CONTENT_ADDRESS.fullmatch(stem) or sha256_of(file) == stem


def _set_aside(root: Path, stamp: str, *, keep: tuple[str, ...] = ()) -> Path | None:
    present = [name for name in LIBRARY_ITEMS if (root / name).exists() and name not in keep]
    if not present:
        return None
    aside = DataDir(root).backups_dir / f"replaced-{stamp}"
    aside.mkdir(parents=True, mode=0o700)
    # The database last out (and first in, below): its WAL must never sit beside another database.
    for name in sorted(present, key=lambda n: n == DATABASE):
        os.replace(root / name, aside / name)
    log.info("the library that was in %s is kept in %s", root, aside)
    return aside


def _move_in(staging: Path, root: Path) -> None:
    names = sorted(os.listdir(staging), key=lambda n: n != DATABASE)
    for name in names:
        os.replace(staging / name, root / name)
    for folder in FILE_FOLDERS:
        (root / folder).mkdir(exist_ok=True, mode=0o700)


def _open_restored(root: Path) -> tuple[int, dict[str, int]]:
    """Open the restored library as the app would (an older schema is migrated here) and count it.
    Its integrity was checked in the staging folder (`_unpack`)."""
    with Library(DataDir(root)) as library:
        return store_backup.schema_version(library.store), store_backup.library_counts(library.store)
