"""Where each recording's consolidation stands: which stages are done for which version of it.

The fingerprint is of the recording's final chunks: an edit or a new transcription changes it,
and the layers are then rebuilt from the first stage; an interrupted job resumes at the first
stage not yet done for the current fingerprint.
"""

from __future__ import annotations

import hashlib
import json

from memory.store.store import Store, now_iso

LAYER_TABLES = ("entities", "corrections", "facts", "digest_items")


def fingerprint(store: Store, recording_id: int) -> str:
    rows = store.rows(
        "SELECT first_idx, last_idx, content_sha256 FROM chunks WHERE recording_id = ? AND provisional = 0"
        " ORDER BY first_idx",
        (recording_id,),
    )
    return hashlib.sha256(json.dumps(rows).encode()).hexdigest()[:32]


def done_stages(store: Store, recording_id: int, current: str) -> list[str]:
    row = store.one(
        "SELECT fingerprint, stages FROM consolidation_state WHERE recording_id = ?", (recording_id,)
    )
    if row is None or row["fingerprint"] != current:
        return []
    return list(json.loads(row["stages"]))


def start(store: Store, recording_id: int, current: str, model: str | None) -> list[str]:
    """The stages already done; a new fingerprint clears the recording's layers first."""
    done = done_stages(store, recording_id, current)
    with store.transaction():
        if not done:
            for table in LAYER_TABLES:
                store.execute(f"DELETE FROM {table} WHERE recording_id = ?", (recording_id,))
            store.execute(
                "INSERT INTO consolidation_state (recording_id, fingerprint, stages, model, started_at)"
                " VALUES (?, ?, '[]', ?, ?) ON CONFLICT(recording_id) DO UPDATE SET fingerprint ="
                " excluded.fingerprint,"
                " stages = '[]', model = excluded.model, started_at = excluded.started_at,"
                " finished_at = NULL",
                (recording_id, current, model, now_iso()),
            )
    return done


def mark_done(store: Store, recording_id: int, stage: str) -> None:
    with store.transaction():
        row = store.one("SELECT stages FROM consolidation_state WHERE recording_id = ?", (recording_id,))
        stages = list(json.loads(row["stages"])) if row else []
        if stage not in stages:
            stages.append(stage)
        store.execute(
            "UPDATE consolidation_state SET stages = ? WHERE recording_id = ?",
            (json.dumps(stages), recording_id),
        )


def finish(store: Store, recording_id: int) -> None:
    with store.transaction():
        store.execute(
            "UPDATE consolidation_state SET finished_at = ? WHERE recording_id = ?", (now_iso(), recording_id)
        )
        store.execute(
            "UPDATE recordings SET status = 'consolidated' WHERE id = ? AND status = 'indexed'",
            (recording_id,),
        )


def pending_recordings(store: Store) -> list[int]:
    """Indexed recordings whose consolidation is missing, unfinished or out of date, oldest first."""
    rows = store.rows(
        "SELECT r.id FROM recordings r LEFT JOIN consolidation_state c ON c.recording_id = r.id"
        " WHERE r.status IN ('indexed', 'consolidated') AND r.trashed_at IS NULL"
        " AND (c.recording_id IS NULL OR c.finished_at IS NULL"
        " OR r.status = 'indexed')"
        " AND EXISTS (SELECT 1 FROM chunks k WHERE k.recording_id = r.id AND k.provisional = 0)"
        " ORDER BY r.spoken_at, r.id"
    )
    return [int(r[0]) for r in rows]


def reset(store: Store, recording_id: int) -> None:
    """Consolidate the recording again from the first stage (e.g. a stretch was assigned)."""
    with store.transaction():
        store.execute("DELETE FROM consolidation_state WHERE recording_id = ?", (recording_id,))
        store.execute(
            "UPDATE recordings SET status = 'indexed' WHERE id = ? AND status = 'consolidated'",
            (recording_id,),
        )


def failed_on(store: Store, kind: str, recording_id: int, current: str) -> bool:
    """Whether a job of `kind` already failed, or was cancelled by the user, on this version of
    the recording (a cancel on closing the app re-queues instead, so it is not counted here)."""
    rows = store.rows(
        "SELECT payload FROM jobs WHERE kind = ? AND recording_id = ? AND status IN ('failed', 'cancelled')",
        (kind, recording_id),
    )
    return any(current in str(payload) for (payload,) in rows)


def project_names(store: Store) -> dict[int, str]:
    return {int(i): str(n) for i, n in store.rows("SELECT id, name FROM projects")}


def fact_projects(store: Store, recording_id: int) -> set[int]:
    """The projects the recording's facts are about (its own, and its stretches')."""
    return {
        int(r[0])
        for r in store.rows("SELECT DISTINCT project_id FROM facts WHERE recording_id = ?", (recording_id,))
    }
