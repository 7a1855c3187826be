"""Is a library whole? The database checks of memory.health plus the audio files on disk.

Run after every fault test and by `verbatim doctor`: a library is consistent when SQLite, the
full-text index, every recording's segments and chunks check out, and every recording's audio
file is there (deep: it decodes to the recorded duration and still has its recorded checksum).
"""

from __future__ import annotations

from app.library import Library
from capture.audio import inspect_audio
from capture.files import sha256_of
from memory.health import AudioRow, audio_rows, store_problems
from models.errors import VerbatimError

DURATION_TOLERANCE = 0.5  # seconds: codecs pad the last frame


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
    """Everything wrong with the library; empty when it is consistent. `deep` decodes every file."""
    problems = store_problems(library.store)
    for row in audio_rows(library.store):
        found = _audio_problem(library, row, deep)
        if found:
            problems.append(found)
    return problems
