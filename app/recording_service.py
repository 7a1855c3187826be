"""Recording services for the CLI and the desktop window (the SQL lives in memory.store.recordings).

Reads for timelines and transcripts: pages of recordings newest first, one recording, its
segments (raw text and the latest edit side by side), and where its audio file is.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from app.library import Library
from memory.store import projects as store_projects
from memory.store import recordings as store_recordings
from memory.store.ids import RecordingId
from memory.store.recordings import Recording, Segment
from models.errors import NotFoundError

__all__ = [
    "ACTIVE_STATUSES",
    "Recording",
    "RecordingId",
    "Segment",
    "audio_file",
    "get_recording",
    "get_recordings",
    "list_recordings",
    "list_segments",
]

# Statuses that change by themselves: a view showing one of these polls for progress.
ACTIVE_STATUSES = ("recording", "queued", "transcribing")


def _project_id(library: Library, project: str | None) -> int | None:
    if project is None:
        return None
    return store_projects.get_project(library.store, project).id


def list_recordings(
    library: Library,
    *,
    project: str | None = None,
    status: str | None = None,
    limit: int | None = None,
    offset: int = 0,
) -> list[Recording]:
    """Newest first (by when they were spoken); `project` is a name or slug, None for all."""
    return store_recordings.list_recordings(
        library.store, project_id=_project_id(library, project), status=status, limit=limit, offset=offset
    )


def get_recording(library: Library, recording_id: RecordingId) -> Recording:
    return store_recordings.get_recording(library.store, recording_id)


def get_recordings(library: Library, recording_ids: Sequence[RecordingId]) -> list[Recording]:
    """The recordings that still exist among `recording_ids`, in the order given."""
    found = []
    for recording_id in recording_ids:
        try:
            found.append(store_recordings.get_recording(library.store, recording_id))
        except NotFoundError:
            continue
    return found


def list_segments(library: Library, recording_id: RecordingId) -> list[Segment]:
    """Every raw segment in order, each with the latest edit beside its raw text."""
    return store_recordings.list_segments(library.store, recording_id)


def audio_file(library: Library, recording: Recording) -> Path | None:
    """The recording's audio on disk, or None when it has none (a transcript) or it is missing."""
    if not recording.audio_path:
        return None
    path = Path(recording.audio_path)
    if not path.is_absolute():
        path = library.data_dir.root / path
    return path if path.is_file() else None
