"""Reading a backup (app.backup.create describes the format): the manifest, every member checked against
its sha256, member names that can only land inside a library, and unpacking one member."""

from __future__ import annotations

import hashlib
import json
import os
import zipfile
import zlib
from pathlib import Path, PurePosixPath
from typing import IO, Any

from app.backup.formats import (
    BLOCK,
    DATABASE,
    FILE_FOLDERS,
    FORMAT,
    FORMAT_VERSION,
    MANIFEST,
    SETTINGS,
    Member,
    Progress,
)
from memory.store import snapshots as store_backup
from memory.store.store import StoreError
from models.errors import InputError


def open_archive(path: Path) -> zipfile.ZipFile:
    if not path.is_file():
        raise InputError(f"no backup at {path}")
    try:
        return zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(
            f"{path.name} is not a readable Verbatim backup ({exc})",
            fix="the file may be cut short or damaged; use another backup",
        ) from exc


def read_manifest(archive: zipfile.ZipFile, label: str) -> dict[str, Any]:
    try:
        manifest = json.loads(archive.read(MANIFEST))
    except KeyError as exc:
        raise InputError(f"{label} is not a Verbatim backup: it has no {MANIFEST}") from exc
    except (ValueError, zipfile.BadZipFile, zlib.error) as exc:
        raise InputError(f"{label}: {MANIFEST} is damaged ({exc})", fix="use another backup") from exc
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise InputError(f"{label} is not a Verbatim backup (unknown manifest format)")
    if int(manifest.get("format_version", 0)) > FORMAT_VERSION:
        raise InputError(
            f"{label} was made by a newer Verbatim (backup format {manifest['format_version']})",
            fix="update Verbatim to restore it",
        )
    check_schema(manifest, label)
    return manifest


def check_schema(manifest: dict[str, Any], label: str) -> None:
    """Refuse a backup or export of a library from a newer Verbatim, before anything is touched."""
    newest = store_backup.newest_known_schema()
    if int(manifest.get("schema_version", 0)) > newest:
        raise StoreError(
            f"{label} holds a library written by a newer Verbatim (schema {manifest['schema_version']},"
            f" this version knows up to {newest})",
            fix="update Verbatim to restore it; nothing was changed",
        )


def safe_member_name(name: str) -> bool:
    """A relative POSIX path inside the library: no absolute path, drive, backslash or `..`."""
    path = PurePosixPath(name)
    return (
        bool(name)
        and "\\" not in name
        and ":" not in name
        and not path.is_absolute()
        and ".." not in path.parts
        and (name in (DATABASE, SETTINGS) or path.parts[0] in FILE_FOLDERS)
    )


def verify_backup(path: Path, *, progress: Progress | None = None) -> dict[str, Any]:
    """Check every member's sha256 against the manifest; returns the manifest, or raises naming the
    first bad member. Nothing is written."""
    label = path.name
    with open_archive(path) as archive:
        manifest = read_manifest(archive, label)
        members = [Member(**m) for m in manifest.get("members", [])]
        expected = {m.name for m in members}
        names = archive.namelist()
        if len(names) != len(set(names)) or len(expected) != len(members):
            raise InputError(f"{label} holds a member twice", fix="use another backup")
        extra = sorted(set(names) - expected - {MANIFEST})
        if extra:
            raise InputError(f"{label} holds a member the manifest does not list: {extra[0]}")
        if DATABASE not in expected:
            raise InputError(f"{label} has no database ({DATABASE})")
        total, done = sum(m.size for m in members), 0
        for member in members:
            if not safe_member_name(member.name):
                raise InputError(f"{label} holds an unsafe member name: {member.name!r}")
            with _open_member(archive, member, label) as handle:
                digest, size = _hash_stream(handle, member, label)
            if size != member.size or digest != member.sha256:
                raise InputError(
                    f"{label} is damaged: {member.name} does not match its checksum",
                    fix="nothing was restored; use another backup",
                )
            done += size
            if progress is not None:
                progress(done, total)
    return manifest


ANOTHER = "nothing was restored; use another backup"


def _open_member(archive: zipfile.ZipFile, member: Member, label: str) -> IO[bytes]:
    """The member's stream; its size in the archive must be the manifest's, which bounds what is
    read (a member that inflates beyond its size cannot fill the disk)."""
    try:
        if archive.getinfo(member.name).file_size != member.size:
            raise InputError(f"{label} is damaged: {member.name} has the wrong size", fix=ANOTHER)
        return archive.open(member.name)
    except KeyError as exc:
        raise InputError(f"{label} is damaged: {member.name} is missing", fix="use another backup") from exc
    except (zipfile.BadZipFile, OSError) as exc:
        raise InputError(f"{label} is damaged: {member.name} ({exc})", fix="use another backup") from exc


def _hash_stream(handle: IO[bytes], member: Member, label: str) -> tuple[str, int]:
    digest, size = hashlib.sha256(), 0
    try:
        while block := handle.read(BLOCK):
            digest.update(block)
            size += len(block)
    except (zipfile.BadZipFile, zlib.error, OSError, EOFError) as exc:
        raise InputError(
            f"{label} is damaged: {member.name} cannot be read ({exc})",
            fix="nothing was restored; use another backup",
        ) from exc
    return digest.hexdigest(), size


def extract_member(archive: zipfile.ZipFile, member: Member, target: Path, label: str) -> None:
    """One member to `target` (checked again on the way: the file may change after the check)."""
    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    digest = hashlib.sha256()
    with _open_member(archive, member, label) as source, target.open("wb") as out:
        try:
            while block := source.read(BLOCK):
                digest.update(block)
                out.write(block)
        except (zipfile.BadZipFile, zlib.error, EOFError) as exc:
            raise InputError(f"{label} is damaged: {member.name} cannot be read ({exc})") from exc
        out.flush()
        os.fsync(out.fileno())
    if digest.hexdigest() != member.sha256:
        raise InputError(f"{label} changed while it was restored: {member.name} does not match its checksum")
    os.chmod(target, 0o600)
