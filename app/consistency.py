"""Is a library whole? The database checks of memory.health plus the audio files on disk.

Run after every fault test and by `verbatim doctor`: a library is consistent when SQLite, the
full-text index, every recording's segments and chunks check out, and every recording's audio
file is there (deep: it decodes to the recorded duration and still has its recorded checksum).

The other way round, audio files no recording points at (`orphan_audio`) are left-overs, not
damage: deleting a note for good removes its audio after the rows are committed, so a crash in
between leaves its file behind. Nothing of any note is in them; doctor reports them as a warning
and `clean_orphan_audio` moves them to the data folder's trash/audio (or deletes them when asked).
A file a recording points at, in the trash or not, is never touched.
"""

from __future__ import annotations

import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path, PurePath

from app.library import Library
from capture.audio import inspect_audio
from capture.files import sha256_of
from memory.health import AudioRow, audio_rows, store_problems
from models.errors import VerbatimError

DURATION_TOLERANCE = 0.5  # seconds: codecs pad the last frame
# An import or a finished recording puts its file in place a moment before its recording row is
# committed: a file younger than this is one on its way in, never an orphan.
ORPHAN_GRACE_SECONDS = 3600.0
ORPHAN_FOLDER = ("trash", "audio")  # under the data folder, beside nothing a backup or note reads


def _audio_problem(library: Library, row: AudioRow, deep: bool) -> str | None:
    path = library.data_dir.root / row.audio_path
    where = f"recording {row.recording_id}"
    try:
        size = path.stat().st_size
    except OSError:
        return f"{where}: its audio {row.audio_path} is missing"
    if size == 0:
        return f"{where}: its audio {row.audio_path} is empty"
    if not deep:
        return None
    if row.content_sha256 and sha256_of(path) != row.content_sha256:
        return f"{where}: its audio {row.audio_path} changed since it was stored"
    try:
        heard = inspect_audio(path).duration
    except VerbatimError as exc:
        return f"{where}: {exc.message}"
    if row.duration is not None and abs(heard - row.duration) > DURATION_TOLERANCE:
        return f"{where}: its audio lasts {heard:.1f} s, the library says {row.duration:.1f} s"
    return None


def library_problems(library: Library, *, deep: bool = False) -> list[str]:
    """Everything wrong with the library; empty when it is consistent. `deep` decodes every file.
    Audio files no recording points at are not damage: see `orphan_audio`."""
    problems = store_problems(library.store)
    for row in audio_rows(library.store):
        found = _audio_problem(library, row, deep)
        if found:
            problems.append(found)
    return problems


# --- audio files no recording points at --------------------------------------------------------------
@dataclass(frozen=True)
class OrphanAudio:
    """An audio file in the library's audio folder that no recording points at."""

    path: str  # relative to the data folder, with "/" between parts
    bytes: int

    def to_json(self) -> dict[str, object]:
        return asdict(self)


def _key(relative: str) -> str:
    return PurePath(os.path.normpath(relative)).as_posix()


def orphan_audio(library: Library, *, grace_seconds: float = ORPHAN_GRACE_SECONDS) -> list[OrphanAudio]:
    """Files under audio/ that no recording (in the trash or not) points at, older than
    `grace_seconds`. Hidden files are not audio (an import's temporaries are capture.files' own)."""
    root, audio_dir = library.data_dir.root, library.data_dir.audio_dir
    referenced = {_key(row.audio_path) for row in audio_rows(library.store)}
    cutoff = time.time() - grace_seconds
    found = []
    for path in sorted(audio_dir.rglob("*")) if audio_dir.is_dir() else []:
        if path.name.startswith(".") or path.is_symlink() or not path.is_file():
            continue
        relative = path.relative_to(root).as_posix()
        try:
            stat = path.stat()
        except OSError:  # gone meanwhile
            continue
        if relative not in referenced and stat.st_mtime < cutoff:
            found.append(OrphanAudio(relative, stat.st_size))
    return found


def orphan_folder(library: Library) -> Path:
    return library.data_dir.root.joinpath(*ORPHAN_FOLDER)


def clean_orphan_audio(
    library: Library, *, delete: bool = False, grace_seconds: float = ORPHAN_GRACE_SECONDS
) -> list[OrphanAudio]:
    """Move the orphan audio files to trash/audio under the data folder (their path kept), or
    delete them with `delete`. Each is checked again against the recordings inside a write
    transaction, so no recording can be stored meanwhile that points at a file moved away.
    Returns the files moved or deleted."""
    store = library.store
    done = []
    with store.transaction():
        referenced = {_key(row.audio_path) for row in audio_rows(store)}
        for orphan in orphan_audio(library, grace_seconds=grace_seconds):
            if orphan.path in referenced:
                continue
            source = library.data_dir.root / orphan.path
            try:
                if delete:
                    source.unlink()
                else:
                    target = orphan_folder(library) / PurePath(orphan.path).relative_to("audio")
                    target.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
                    os.replace(source, target)
            except FileNotFoundError:
                continue
            done.append(orphan)
    return done
