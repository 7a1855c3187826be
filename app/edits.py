"""User corrections of a transcript, saved as versions beside the raw words (which never change)."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from app.library import Library
from memory.store import recordings as store_recordings
from memory.store.recordings import Segment
from models.errors import NotFoundError, VerbatimError

log = logging.getLogger(__name__)

__all__ = ["SegmentVersion", "edit_history", "save_edit"]


@dataclass(frozen=True)
class SegmentVersion:
    version: int  # 0 is the raw transcript
    text: str
    speaker: str | None
    created_at: str | None  # None for the raw version: it was written with the recording

    @property
    def is_raw(self) -> bool:
        return self.version == 0


def _segment(library: Library, segment_id: int) -> Segment:
    found = store_recordings.get_segments(library.store, [segment_id])
    if not found:
        raise NotFoundError(f"no segment with id {segment_id}")
    return found[0]


def save_edit(library: Library, segment_id: int, text: str, *, speaker: str | None = None) -> Segment:
    """Store `text` as the newest version of a segment; returns the segment as now shown.

    Saving the text the segment already shows is not a new version. A finished recording is
    re-indexed so that search finds the corrected words; if that fails, start-up indexing retries.
    """
    current = _segment(library, segment_id)
    unchanged_speaker = speaker is None or speaker == current.speaker
    if text.strip() == current.text and unchanged_speaker:
        return current
    store_recordings.save_edit(library.store, segment_id, text, speaker=speaker)
    _reindex(library, current.recording_id)
    return _segment(library, segment_id)


def _reindex(library: Library, recording_id: int) -> None:
    from app.ingest.indexing import index_recording

    recording = store_recordings.get_recording(library.store, recording_id)
    if recording.status not in ("indexed", "consolidated"):
        return  # still being transcribed: the final indexing pass reads the edit then
    try:
        index_recording(library, recording_id, final=True)
    except VerbatimError as exc:
        log.warning("edit saved; recording %s not re-indexed yet: %s", recording_id, exc.message)


def edit_history(library: Library, segment_id: int) -> list[SegmentVersion]:
    """Every version of a segment, the raw words first."""
    raw = _segment(library, segment_id)
    versions = [SegmentVersion(0, raw.raw_text, None, None)]
    for row in store_recordings.edit_history(library.store, segment_id):
        versions.append(SegmentVersion(int(row["version"]), row["text"], row["speaker"], row["created_at"]))
    return versions
