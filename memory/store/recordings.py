"""Recordings and their raw segments: written once, read many times, never changed.

Segments are appended in batches, each batch one transaction, so a long file becomes searchable
while it is still being transcribed and a crash loses at most the batch in flight. User
corrections are versioned edits beside the raw segment.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from memory.store.ids import ProjectId, RecordingId
from memory.store.store import Store, now_iso
from models.errors import InputError, NotFoundError

STATUSES = ("recording", "queued", "transcribing", "indexed", "consolidated", "failed")
SOURCES = ("microphone", "import", "watch", "transcript")


@dataclass(frozen=True)
class Recording:
    id: RecordingId
    project_id: ProjectId
    project: str
    external_id: str | None
    title: str
    spoken_at: str
    duration: float | None
    source: str
    source_name: str | None
    audio_path: str | None
    content_sha256: str | None
    status: str
    status_message: str | None
    progress: float
    recovered: bool
    language: str | None
    model: str | None
    created_at: str
    segments: int = 0
    first_line: str = ""
    trashed_at: str | None = None  # in the trash since then (restorable for TRASH_DAYS)
    transcript_version: int = 1  # which transcript the segments are (earlier ones are kept)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class SegmentIn:
    """A segment about to be stored."""

    start: float
    end: float
    text: str
    speaker: str | None = None
    external_id: str | None = None
    words: Sequence[Sequence[Any]] | None = None  # [(word, start, end, probability), ...]
    model: str | None = None
    confidence: float | None = None


@dataclass(frozen=True)
class Segment:
    id: int
    recording_id: RecordingId
    idx: int
    external_id: str | None
    start: float
    end: float
    speaker: str | None
    raw_text: str  # exactly as transcribed or imported
    text: str  # the latest user edit, else the raw text
    edited: bool
    words: list[list[Any]] = field(default_factory=list)
    model: str | None = None
    confidence: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


_RECORDING_SELECT = """
SELECT r.id, r.project_id, p.name AS project, r.external_id, r.title, r.spoken_at, r.duration,
       r.source, r.source_name, r.audio_path, r.content_sha256, r.status, r.status_message,
       r.progress, r.recovered, r.language, r.model, r.created_at, r.trashed_at, r.transcript_version,
       (SELECT count(*) FROM segments s WHERE s.recording_id = r.id) AS segments,
       coalesce((SELECT s.text FROM segments s WHERE s.recording_id = r.id ORDER BY s.idx LIMIT 1), '')
           AS first_line
FROM recordings r JOIN projects p ON p.id = r.project_id
"""


def _recording(row: dict[str, Any]) -> Recording:
    return Recording(**{**row, "recovered": bool(row["recovered"])})


def create_recording(
    store: Store,
    *,
    project_id: int,
    spoken_at: str,
    source: str,
    status: str = "queued",
    title: str = "",
    external_id: str | None = None,
    source_name: str | None = None,
    audio_path: str | None = None,
    content_sha256: str | None = None,
    duration: float | None = None,
    recovered: bool = False,
    language: str | None = None,
) -> int:
    if source not in SOURCES:
        raise InputError(f"unknown recording source {source!r}")
    if status not in STATUSES:
        raise InputError(f"unknown recording status {status!r}")
    return store.execute(
        "INSERT INTO recordings (project_id, external_id, title, spoken_at, duration, source, source_name,"
        " audio_path, content_sha256, status, recovered, language, created_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (
            project_id,
            external_id,
            title,
            spoken_at,
            duration,
            source,
            source_name,
            audio_path,
            content_sha256,
            status,
            int(recovered),
            language,
            now_iso(),
        ),
    )


def get_recording(store: Store, recording_id: int) -> Recording:
    row = store.one(f"{_RECORDING_SELECT} WHERE r.id = ?", (recording_id,))
    if row is None:
        raise NotFoundError(f"no recording with id {recording_id}", fix="see 'verbatim recordings'")
    return _recording(row)


def find_recording_by_sha256(store: Store, sha256: str) -> Recording | None:
    row = store.one(f"{_RECORDING_SELECT} WHERE r.content_sha256 = ?", (sha256,))
    return _recording(row) if row else None


def external_ids(store: Store) -> dict[int, str | None]:
    """Every recording's id → its id in the corpus it was imported from (None if typed or recorded)."""
    return {int(rid): ext for rid, ext in store.rows("SELECT id, external_id FROM recordings")}


def find_recording_by_external_id(store: Store, external_id: str) -> Recording | None:
    row = store.one(f"{_RECORDING_SELECT} WHERE r.external_id = ?", (external_id,))
    return _recording(row) if row else None


def list_recordings(
    store: Store,
    *,
    project_id: int | None = None,
    status: str | None = None,
    limit: int | None = None,
    offset: int = 0,
    trashed: bool | None = False,
) -> list[Recording]:
    """Newest first. Notes in the trash are left out (`trashed=True`: only them; None: all)."""
    where: list[str] = []
    params: list[object] = []
    if trashed is not None:
        where.append("r.trashed_at IS NOT NULL" if trashed else "r.trashed_at IS NULL")
    if project_id is not None:
        where.append("r.project_id = ?")
        params.append(project_id)
    if status is not None:
        where.append("r.status = ?")
        params.append(status)
    sql = _RECORDING_SELECT + (" WHERE " + " AND ".join(where) if where else "")
    sql += " ORDER BY r.spoken_at DESC, r.id DESC LIMIT ? OFFSET ?"
    params += [limit if limit is not None else -1, offset]
    return [_recording(r) for r in store.all(sql, params)]


def update_recording(store: Store, recording_id: int, **values: Any) -> None:
    """Change recording metadata (never its segments). Keys are column names."""
    allowed = {
        "title",
        "spoken_at",
        "duration",
        "audio_path",
        "content_sha256",
        "status",
        "status_message",
        "progress",
        "language",
        "model",
        "project_id",
        "recovered",
    }
    unknown = set(values) - allowed
    if unknown:
        raise InputError(f"cannot change {sorted(unknown)} of a recording")
    if "status" in values and values["status"] not in STATUSES:
        raise InputError(f"unknown recording status {values['status']!r}")
    if not values:
        return
    assignments = ", ".join(f"{key} = ?" for key in values)
    store.execute(f"UPDATE recordings SET {assignments} WHERE id = ?", (*values.values(), recording_id))


def set_status(
    store: Store, recording_id: int, status: str, *, message: str | None = None, progress: float | None = None
) -> None:
    values: dict[str, Any] = {"status": status, "status_message": message}
    if progress is not None:
        values["progress"] = progress
    update_recording(store, recording_id, **values)


def append_segments(store: Store, recording_id: int, segments: Sequence[SegmentIn]) -> list[int]:
    """Store a batch of raw segments after those already stored, in one transaction."""
    ids = []
    with store.transaction():
        next_idx = store.scalar(
            "SELECT coalesce(max(idx) + 1, 0) FROM segments WHERE recording_id = ?", (recording_id,)
        )
        for offset, seg in enumerate(segments):
            text = seg.text.strip()
            if seg.end < seg.start:
                raise InputError(f"segment ends ({seg.end}) before it starts ({seg.start})")
            ids.append(
                store.execute(
                    "INSERT INTO segments (recording_id, idx, external_id, start, end, speaker, text, words,"
                    " model, confidence) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        recording_id,
                        next_idx + offset,
                        seg.external_id,
                        float(seg.start),
                        float(seg.end),
                        seg.speaker,
                        text,
                        json.dumps([list(w) for w in seg.words]) if seg.words else None,
                        seg.model,
                        seg.confidence,
                    ),
                )
            )
    return ids


def last_segment_end(store: Store, recording_id: int) -> float:
    """Where a resumed transcription picks up: the end of the last committed segment."""
    return float(
        store.scalar("SELECT coalesce(max(end), 0) FROM segments WHERE recording_id = ?", (recording_id,))
    )


_SEGMENT_SELECT = """
SELECT s.id, s.recording_id, s.idx, s.external_id, s.start, s.end,
       coalesce(e.speaker, s.speaker) AS speaker, s.text AS raw_text,
       coalesce(e.text, s.text) AS text, e.id IS NOT NULL AS edited, s.words, s.model, s.confidence
FROM segments s
LEFT JOIN segment_edits e ON e.id = (
    SELECT id FROM segment_edits WHERE segment_id = s.id ORDER BY version DESC LIMIT 1)
"""


def _segment(row: dict[str, Any]) -> Segment:
    words = json.loads(row["words"]) if row["words"] else []
    return Segment(**{**row, "edited": bool(row["edited"]), "words": words})


def list_segments(
    store: Store, recording_id: int, *, first_idx: int = 0, last_idx: int | None = None
) -> list[Segment]:
    rows = store.all(
        f"{_SEGMENT_SELECT} WHERE s.recording_id = ? AND s.idx >= ? AND s.idx <= ? ORDER BY s.idx",
        (recording_id, first_idx, last_idx if last_idx is not None else 2**62),
    )
    return [_segment(r) for r in rows]


def segments_in_spans(
    store: Store, spans: Sequence[tuple[int, int, int]], *, with_words: bool = True
) -> list[Segment]:
    """The segments of several stretches (recording id, first idx, last idx) in one read, by
    recording and order: a search reads the neighbourhoods of its 40 best chunks at once.
    `with_words=False` leaves out the word timings (parsing them would be most of the cost of a
    search's ~600 segments of transcribed speech)."""
    if not spans:
        return []
    values = ",".join("(?,?,?)" for _ in spans)
    select = _SEGMENT_SELECT if with_words else _SEGMENT_SELECT.replace("s.words,", "NULL AS words,")
    rows = store.all(
        f"WITH wanted(rid, lo, hi) AS (VALUES {values}) {select}"
        " WHERE s.id IN (SELECT x.id FROM wanted JOIN segments x ON x.recording_id = wanted.rid"
        " AND x.idx BETWEEN wanted.lo AND wanted.hi) ORDER BY s.recording_id, s.idx",
        [v for span in spans for v in span],
    )
    return [_segment(r) for r in rows]


def get_segments(store: Store, segment_ids: Sequence[int]) -> list[Segment]:
    if not segment_ids:
        return []
    marks = ",".join("?" * len(segment_ids))
    rows = store.all(
        f"{_SEGMENT_SELECT} WHERE s.id IN ({marks}) ORDER BY s.recording_id, s.idx", list(segment_ids)
    )
    return [_segment(r) for r in rows]


def save_edit(store: Store, segment_id: int, text: str, *, speaker: str | None = None) -> int:
    """A user's correction of one segment, as a new version. Returns the version number."""
    text = text.strip()
    if not text:
        raise InputError("an edit cannot be empty; the raw words stay as they are")
    with store.transaction():
        if store.scalar("SELECT 1 FROM segments WHERE id = ?", (segment_id,)) is None:
            raise NotFoundError(f"no segment with id {segment_id}")
        version = store.scalar(
            "SELECT coalesce(max(version), 0) + 1 FROM segment_edits WHERE segment_id = ?", (segment_id,)
        )
        store.execute(
            "INSERT INTO segment_edits (segment_id, version, text, speaker, created_at)"
            " VALUES (?, ?, ?, ?, ?)",
            (segment_id, version, text, speaker, now_iso()),
        )
    return int(version)


def edit_history(store: Store, segment_id: int) -> list[dict[str, Any]]:
    return store.all(
        "SELECT version, text, speaker, created_at FROM segment_edits WHERE segment_id = ? ORDER BY version",
        (segment_id,),
    )


def discard_empty_recording(store: Store, recording_id: int) -> bool:
    """Remove a microphone recording that captured nothing (no audio, no segments). Returns whether it did."""
    with store.transaction():
        row = store.one(
            "SELECT audio_path, (SELECT count(*) FROM segments WHERE recording_id = r.id) AS segments"
            " FROM recordings r WHERE id = ?",
            (recording_id,),
        )
        if row is None or row["audio_path"] or row["segments"]:
            return False
        store.execute("DELETE FROM live_segments WHERE recording_id = ?", (recording_id,))
        store.execute("DELETE FROM jobs WHERE recording_id = ?", (recording_id,))
        store.execute("DELETE FROM recordings WHERE id = ?", (recording_id,))
    return True
