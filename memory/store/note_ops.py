"""Changes to a whole note: to the trash and back, gone for good, into another project, and its
transcript replaced by a new one while the earlier one is kept word for word.

What is derived from a note (chunks with their FTS rows and vectors, segment vectors, entities,
self-corrections, facts, digest items, commitments, stretches, connections) is removed here when
the note leaves the trash's other side, moves or is re-transcribed; the layers above rebuild it
(indexing, consolidation). The raw segments, edits and audio of a note that still exists are never
lost: a trashed note keeps them, and a replaced transcript moves whole into transcript_versions.
Every change is recorded in recording_history.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from memory.store import jobs as store_jobs
from memory.store import llm_log
from memory.store.recordings import Recording, get_recording, list_recordings
from memory.store.store import Store, now_iso
from models.errors import InputError, NotFoundError

TRASH_DAYS = 30

# Rows built from a note's words by consolidation (rebuilt when it runs again).
_LAYERS = (
    "entities",
    "corrections",
    "facts",
    "digest_items",
    "commitments",
    "stretches",
    "consolidation_state",
)
_SEGMENT_COLUMNS = ("idx", "external_id", "start", "end", "speaker", "text", "words", "model", "confidence")
ACTIONS = ("trashed", "restored", "moved", "retranscribed", "transcript_restored")


@dataclass(frozen=True)
class TranscriptVersion:
    """An earlier transcript of a note (the current one is the note's segments)."""

    recording_id: int
    version: int
    model: str | None
    language: str | None
    segments: int
    replaced_at: str
    reason: str

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True)
class VersionSegment:
    """A line of an earlier transcript: its raw words and the user's latest edit of them."""

    idx: int
    start: float
    end: float
    speaker: str | None
    raw_text: str
    text: str
    edited: bool

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def _note(store: Store, recording_id: int) -> Recording:
    return get_recording(store, recording_id)


def record(store: Store, recording_id: int, action: str, **details: Any) -> None:
    if action not in ACTIONS:
        raise InputError(f"unknown note action {action!r}")
    store.execute(
        "INSERT INTO recording_history (recording_id, action, details, created_at) VALUES (?, ?, ?, ?)",
        (recording_id, action, json.dumps(details, ensure_ascii=False), now_iso()),
    )


def history(store: Store, recording_id: int) -> list[dict[str, Any]]:
    rows = store.all(
        "SELECT action, details, created_at FROM recording_history WHERE recording_id = ? ORDER BY id",
        (recording_id,),
    )
    return [{**r, "details": json.loads(r["details"])} for r in rows]


def clear_derived(
    store: Store, recording_id: int, *, keep_chunks: bool = False, keep_decisions: bool = False
) -> None:
    """Remove what indexing and consolidation built from the note (not its words or edits).

    Chunks take their FTS rows and vectors with them (triggers). Facts of other notes that this
    note's facts superseded lose that link here (ON DELETE SET NULL); their validity is computed
    again by the caller. `keep_decisions` (the trash) keeps the connections the user accepted or
    dismissed and the asides they assigned or dismissed: lists leave them out while the note is in
    the trash, and consolidation finds them again, decided, when it is restored.
    """
    with store.transaction():
        if not keep_chunks:
            store.execute("DELETE FROM chunks WHERE recording_id = ?", (recording_id,))
        store.execute(
            "DELETE FROM segment_vectors WHERE segment_id IN"
            " (SELECT id FROM segments WHERE recording_id = ?)",
            (recording_id,),
        )
        for table in _LAYERS:
            decided = " AND status = 'suggested'" if keep_decisions and table == "stretches" else ""
            store.execute(f"DELETE FROM {table} WHERE recording_id = ?{decided}", (recording_id,))
        store.execute(
            "DELETE FROM connections WHERE (a_recording_id = ? OR b_recording_id = ?)"
            + (" AND verdict IS NULL" if keep_decisions else ""),
            (recording_id, recording_id),
        )
        store.execute(
            "UPDATE recordings SET status = 'indexed' WHERE id = ? AND status = 'consolidated'",
            (recording_id,),
        )


WAITS_IN_TRASH = "waits: the note is in the trash"


def _stop_jobs(store: Store, recording_id: int, waiting: Sequence[str]) -> None:
    """Queued jobs of the note go (they never started) and running ones are asked to stop, but for
    the kinds in `waiting`: those stay, waiting (the queue does not run a trashed note's jobs; a
    running one pauses itself) until the note is restored or deleted for good."""
    kinds = tuple(waiting)
    others = f" AND kind NOT IN ({', '.join('?' * len(kinds))})" if kinds else ""
    store.execute(
        f"DELETE FROM jobs WHERE recording_id = ? AND status = 'queued'{others}", (recording_id, *kinds)
    )
    if kinds:
        store.execute(
            f"UPDATE jobs SET message = ? WHERE recording_id = ? AND status = 'queued'"
            f" AND kind IN ({', '.join('?' * len(kinds))})",
            (WAITS_IN_TRASH, recording_id, *kinds),
        )
    for (job_id,) in store.rows(
        f"SELECT id FROM jobs WHERE recording_id = ? AND status = 'running'{others}", (recording_id, *kinds)
    ):
        store_jobs.request_cancel(store, int(job_id))


# --- the trash ------------------------------------------------------------------------------------------
def trash(store: Store, recording_id: int, *, waiting: Sequence[str] = ()) -> Recording:
    """Put a note in the trash: out of every list, search and answer at once; restorable. Its jobs
    of the kinds in `waiting` wait for its restore; its other jobs stop."""
    with store.transaction():
        rec = _note(store, recording_id)
        if rec.trashed_at is not None:
            return rec
        if rec.status == "recording":
            raise InputError(
                f"recording {recording_id} is still being recorded", fix="stop the recording first"
            )
        store.execute("UPDATE recordings SET trashed_at = ? WHERE id = ?", (now_iso(), recording_id))
        clear_derived(store, recording_id, keep_decisions=True)
        _stop_jobs(store, recording_id, waiting)
        record(store, recording_id, "trashed", project_id=rec.project_id)
    return _note(store, recording_id)


def untrash(store: Store, recording_id: int) -> Recording:
    with store.transaction():
        rec = _note(store, recording_id)
        if rec.trashed_at is None:
            raise InputError(f"recording {recording_id} is not in the trash")
        store.execute("UPDATE recordings SET trashed_at = NULL WHERE id = ?", (recording_id,))
        store.execute(
            "UPDATE jobs SET message = NULL WHERE recording_id = ? AND status = 'queued' AND message = ?",
            (recording_id, WAITS_IN_TRASH),
        )
        record(store, recording_id, "restored", trashed_at=rec.trashed_at)
    return _note(store, recording_id)


def is_trashed(store: Store, recording_id: int) -> bool:
    return store.scalar("SELECT trashed_at IS NOT NULL FROM recordings WHERE id = ?", (recording_id,)) == 1


def trashed(store: Store) -> list[Recording]:
    """Notes in the trash, the most recently trashed first."""
    found = list_recordings(store, trashed=True)
    return sorted(found, key=lambda r: (r.trashed_at or "", r.id), reverse=True)


def trashed_before(store: Store, moment: str) -> list[int]:
    rows = store.rows(
        "SELECT id FROM recordings WHERE trashed_at IS NOT NULL AND trashed_at < ? ORDER BY trashed_at",
        (moment,),
    )
    return [int(r[0]) for r in rows]


def purge(store: Store, recording_id: int, *, quoted: Sequence[str] = ()) -> str | None:
    """Delete a trashed note for good, with every row that points at it; the model calls that
    quoted it lose their prompt and response (memory.store.llm_log.redact_calls; `quoted`: its
    sentences, to find calls logged before calls were linked to notes). Returns its audio path
    when no other note uses that file (the caller removes the file)."""
    with store.transaction():
        rec = _note(store, recording_id)
        if rec.trashed_at is None:
            raise InputError(
                f"recording {recording_id} is not in the trash", fix="delete it first (it goes to the trash)"
            )
        llm_log.redact_calls(store, recording_id, quoted)
        store.execute("DELETE FROM recordings WHERE id = ?", (recording_id,))  # the rest cascades
        if (
            rec.audio_path
            and store.scalar("SELECT 1 FROM recordings WHERE audio_path = ?", (rec.audio_path,)) is None
        ):
            return rec.audio_path
    return None


# --- moving -------------------------------------------------------------------------------------------
def move(store: Store, recording_id: int, project_id: int) -> int:
    """File a note under another project; returns the project it left. Its chunks keep their
    words (the caller re-files their vectors); consolidation's layers go, to be rebuilt there."""
    with store.transaction():
        rec = _note(store, recording_id)
        if rec.trashed_at is not None:
            raise InputError(f"recording {recording_id} is in the trash", fix="restore it first")
        if store.scalar("SELECT 1 FROM projects WHERE id = ?", (project_id,)) is None:
            raise NotFoundError(f"no project with id {project_id}")
        if rec.project_id == project_id:
            return rec.project_id
        store.execute("UPDATE recordings SET project_id = ? WHERE id = ?", (project_id, recording_id))
        store.execute("UPDATE chunks SET project_id = ? WHERE recording_id = ?", (project_id, recording_id))
        clear_derived(store, recording_id, keep_chunks=True)
        record(store, recording_id, "moved", from_project=rec.project_id, to_project=project_id)
    return rec.project_id


# --- transcript versions --------------------------------------------------------------------------------
def _archive_current(store: Store, rec: Recording, reason: str) -> int | None:
    """Keep the note's current segments (with their edits) as an earlier version and take them out
    of the segments table. Returns the version kept, or None when there were no segments."""
    count = int(store.scalar("SELECT count(*) FROM segments WHERE recording_id = ?", (rec.id,)))
    if count == 0:
        return None
    version_id = store.execute(
        "INSERT INTO transcript_versions (recording_id, version, model, language, segments, replaced_at,"
        " reason) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (rec.id, rec.transcript_version, rec.model, rec.language, count, now_iso(), reason),
    )
    store.execute(
        "INSERT INTO transcript_version_segments (version_id, idx, external_id, start, end, speaker, text,"
        " words, model, confidence, edits)"
        " SELECT ?, s.idx, s.external_id, s.start, s.end, s.speaker, s.text, s.words, s.model, s.confidence,"
        " (SELECT coalesce(json_group_array(json_object('version', e.version, 'text', e.text, 'speaker',"
        "  e.speaker, 'created_at', e.created_at)), '[]')"
        "  FROM (SELECT * FROM segment_edits WHERE segment_id = s.id ORDER BY version) e)"
        " FROM segments s WHERE s.recording_id = ? ORDER BY s.idx",
        (version_id, rec.id),
    )
    clear_derived(store, rec.id)
    store.execute("DELETE FROM segments WHERE recording_id = ?", (rec.id,))  # edits go with them
    return rec.transcript_version


def _next_version(store: Store, rec: Recording) -> int:
    kept = store.scalar(
        "SELECT coalesce(max(version), 0) FROM transcript_versions WHERE recording_id = ?", (rec.id,)
    )
    return max(int(kept), rec.transcript_version) + 1


def start_new_transcript(store: Store, recording_id: int, *, model: str | None) -> int:
    """Keep the current transcript as an earlier version and leave the note waiting for a new one
    (queued). Returns the new transcript's version number."""
    with store.transaction():
        rec = _note(store, recording_id)
        if rec.trashed_at is not None:
            raise InputError(f"recording {recording_id} is in the trash", fix="restore it first")
        kept = _archive_current(store, rec, f"re-transcribed with {model}" if model else "re-transcribed")
        new = _next_version(store, rec) if kept is not None else rec.transcript_version
        store.execute("DELETE FROM live_segments WHERE recording_id = ?", (recording_id,))
        store.execute(
            "UPDATE recordings SET transcript_version = ?, status = 'queued', progress = 0,"
            " status_message = ?, model = NULL WHERE id = ?",
            (new, "waiting to be transcribed again; the earlier transcript is kept", recording_id),
        )
        record(store, recording_id, "retranscribed", kept_version=kept, version=new, model=model)
    return new


def transcript_versions(store: Store, recording_id: int) -> list[TranscriptVersion]:
    """The note's earlier transcripts, oldest first."""
    rows = store.all(
        "SELECT recording_id, version, model, language, segments, replaced_at, reason"
        " FROM transcript_versions WHERE recording_id = ? ORDER BY version",
        (recording_id,),
    )
    return [TranscriptVersion(**r) for r in rows]


def has_version(store: Store, recording_id: int, version: int) -> bool:
    """Whether the note keeps an earlier transcript with this number."""
    found = store.scalar(
        "SELECT 1 FROM transcript_versions WHERE recording_id = ? AND version = ?", (recording_id, version)
    )
    return found is not None


def _version_id(store: Store, recording_id: int, version: int) -> int:
    found = store.scalar(
        "SELECT id FROM transcript_versions WHERE recording_id = ? AND version = ?", (recording_id, version)
    )
    if found is None:
        raise NotFoundError(
            f"recording {recording_id} has no earlier transcript {version}",
            fix=f"see 'verbatim recordings versions {recording_id}'",
        )
    return int(found)


def version_segments(store: Store, recording_id: int, version: int) -> list[VersionSegment]:
    rows = store.all(
        "SELECT idx, start, end, speaker, text, edits FROM transcript_version_segments WHERE version_id = ?"
        " ORDER BY idx",
        (_version_id(store, recording_id, version),),
    )
    found = []
    for r in rows:
        edits = json.loads(r["edits"])
        latest = edits[-1] if edits else None
        found.append(
            VersionSegment(
                r["idx"],
                r["start"],
                r["end"],
                (latest or {}).get("speaker") or r["speaker"],
                r["text"],
                latest["text"] if latest else r["text"],
                latest is not None,
            )
        )
    return found


def restore_version(
    store: Store, recording_id: int, version: int, *, reason: str | None = None
) -> int | None:
    """Make an earlier transcript current again; the current one (if it has words) is kept as an
    earlier version in its place, with `reason` (default: which version replaced it). Returns the
    version kept, or None."""
    with store.transaction():
        rec = _note(store, recording_id)
        if rec.trashed_at is not None:
            raise InputError(f"recording {recording_id} is in the trash", fix="restore it first")
        version_id = _version_id(store, recording_id, version)
        chosen = store.one("SELECT model, language FROM transcript_versions WHERE id = ?", (version_id,))
        assert chosen is not None
        kept = _archive_current(store, rec, reason or f"version {version} made current again")
        for row in store.all(
            "SELECT idx, external_id, start, end, speaker, text, words, model, confidence, edits"
            " FROM transcript_version_segments WHERE version_id = ? ORDER BY idx",
            (version_id,),
        ):
            segment_id = store.execute(
                f"INSERT INTO segments (recording_id, {', '.join(_SEGMENT_COLUMNS)})"
                f" VALUES (?{', ?' * len(_SEGMENT_COLUMNS)})",
                (recording_id, *(row[c] for c in _SEGMENT_COLUMNS)),
            )
            edits = json.loads(row["edits"])
            store.executemany(
                "INSERT INTO segment_edits (segment_id, version, text, speaker, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                [(segment_id, e["version"], e["text"], e["speaker"], e["created_at"]) for e in edits],
            )
        store.execute("DELETE FROM transcript_versions WHERE id = ?", (version_id,))
        store.execute(
            "UPDATE recordings SET transcript_version = ?, model = ?, language = coalesce(?, language),"
            " status = 'indexed', status_message = NULL, progress = 1 WHERE id = ?",
            (version, chosen["model"], chosen["language"], recording_id),
        )
        because = {"reason": reason} if reason else {}
        record(store, recording_id, "transcript_restored", version=version, kept_version=kept, **because)
    return kept
