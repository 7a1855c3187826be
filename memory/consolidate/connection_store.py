"""Connections in the store: written once per shared thing and pair of projects, read strongest
first, and judged by the user (accept / dismiss), which teaches the signal weights."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import date
from typing import Any

from memory.consolidate.connection_kinds import kind_of, shared_text
from memory.consolidate.connections import (
    KEEP,
    Candidate,
    dedupe_key,
    learn,
    load_weights,
    probability,
)
from memory.store.store import Store, now_iso


def store_connection(store: Store, c: Candidate, rationale: str, source: str) -> int | None:
    """Insert unless the same connection exists; returns the new id, or None."""
    with store.transaction():
        key = dedupe_key(c)
        if store.scalar("SELECT 1 FROM connections WHERE dedupe_key = ?", (key,)):
            return None
        return store.execute(
            "INSERT INTO connections (a_recording_id, a_project_id, a_segment_ids, a_quote, a_start, a_end,"
            " b_recording_id, b_project_id, b_segment_ids, b_quote, b_start, b_end, kind, shared, dedupe_key,"
            " features, score, rationale, rationale_source, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                c.a.recording_id, c.a.project_id, json.dumps([c.a.segment_id]), c.a.text, c.a.start, c.a.end,
                c.b.recording_id, c.b.project_id, json.dumps([c.b.segment_id]), c.b.text, c.b.start, c.b.end,
                kind_of(c), shared_text(c), key, json.dumps(c.features), round(c.score, 4), rationale, source,
                now_iso(),
            ),
        )  # fmt: skip


def forget_recording(store: Store, recording_id: int) -> None:
    """Connections found from this recording are found again after a change (verdicts kept)."""
    store.execute(
        "DELETE FROM connections WHERE (a_recording_id = ? OR b_recording_id = ?) AND verdict IS NULL",
        (recording_id, recording_id),
    )


# --- reading and verdicts -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Side:
    project_id: int
    project: str
    recording_id: int
    title: str
    spoken_at: str
    segment_ids: list[int]
    quote: str
    start: float
    end: float

    def to_json(self) -> dict[str, Any]:
        return dict(self.__dict__)


@dataclass(frozen=True)
class Connection:
    id: int
    a: Side
    b: Side
    kind: str
    shared: str
    score: float
    features: dict[str, float]
    rationale: str
    rationale_source: str
    verdict: str | None
    created_at: str
    days: tuple[date, ...] = ()  # the days both sides name (a calendar clash's day), as resolved

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "kind": self.kind,
            "shared": self.shared,
            "score": self.score,
            "a": self.a.to_json(),
            "b": self.b.to_json(),
            "rationale": {"text": self.rationale, "kind": "inferred", "source": self.rationale_source},
            "verdict": self.verdict,
            "features": self.features,
            "created_at": self.created_at,
        }


_SELECT = """
SELECT c.*, pa.name AS a_project, pb.name AS b_project, ra.title AS a_title, rb.title AS b_title,
       ra.spoken_at AS a_spoken_at, rb.spoken_at AS b_spoken_at
FROM connections c
JOIN projects pa ON pa.id = c.a_project_id JOIN projects pb ON pb.id = c.b_project_id
JOIN recordings ra ON ra.id = c.a_recording_id JOIN recordings rb ON rb.id = c.b_recording_id
"""


def _side(row: dict[str, Any], p: str) -> Side:
    return Side(
        row[f"{p}_project_id"], row[f"{p}_project"], row[f"{p}_recording_id"], row[f"{p}_title"],
        row[f"{p}_spoken_at"], json.loads(row[f"{p}_segment_ids"]), row[f"{p}_quote"], row[f"{p}_start"],
        row[f"{p}_end"],
    )  # fmt: skip


def _connection(row: dict[str, Any]) -> Connection:
    a, b = _side(row, "a"), _side(row, "b")
    if b.spoken_at < a.spoken_at:
        a, b = b, a  # the earlier passage first
    return Connection(
        row["id"], a, b, row["kind"], row["shared"], row["score"], json.loads(row["features"]),
        row["rationale"], row["rationale_source"], row["verdict"], row["created_at"],
        _days(str(row["dedupe_key"])),
    )  # fmt: skip


def _days(key: str) -> tuple[date, ...]:
    """The days a connection shares, from its key ("2-3|date:2027-03-23")."""
    days = []
    for thing in key.split("|")[1:]:
        kind, _, value = thing.partition(":")
        if kind == "date":
            try:
                days.append(date.fromisoformat(value))
            except ValueError:
                continue  # not a single day
    return tuple(days)


def list_connections(
    store: Store,
    *,
    project_id: int | None = None,
    recording_id: int | None = None,
    include_dismissed: bool = False,
    include_weak: bool = False,
) -> list[Connection]:
    """Strongest first (accepted ones before the rest)."""
    where, params = ["ra.trashed_at IS NULL AND rb.trashed_at IS NULL"], list[object]()  # not in the trash
    if project_id is not None:
        where.append("(c.a_project_id = ? OR c.b_project_id = ?)")
        params += [project_id, project_id]
    if recording_id is not None:
        where.append("(c.a_recording_id = ? OR c.b_recording_id = ?)")
        params += [recording_id, recording_id]
    if not include_dismissed:
        where.append("coalesce(c.verdict, '') != 'dismissed'")
    if not include_weak:
        where.append("(c.score >= ? OR c.verdict = 'accepted')")
        params.append(KEEP)
    sql = _SELECT + (" WHERE " + " AND ".join(where) if where else "")
    sql += " ORDER BY c.verdict = 'accepted' DESC, c.score DESC, c.id"
    return [_connection(r) for r in store.all(sql, params)]


def get_connection(store: Store, connection_id: int) -> Connection | None:
    row = store.one(_SELECT + " WHERE c.id = ?", (connection_id,))
    return _connection(row) if row else None


def set_verdict(store: Store, connection_id: int, accepted: bool) -> dict[str, float]:
    """Store the verdict, learn from it, and rescore the undecided connections with the new weights."""
    row = store.one("SELECT features FROM connections WHERE id = ?", (connection_id,))
    if row is None:
        return load_weights(store)
    with store.transaction():
        store.execute(
            "UPDATE connections SET verdict = ?, verdict_at = ? WHERE id = ?",
            ("accepted" if accepted else "dismissed", now_iso(), connection_id),
        )
    weights = learn(store, json.loads(row["features"]), accepted)
    rescored = [
        (round(probability(json.loads(f), weights), 4), cid)
        for cid, f in store.rows("SELECT id, features FROM connections WHERE verdict IS NULL")
    ]
    with store.transaction():
        store.executemany("UPDATE connections SET score = ? WHERE id = ?", rescored)
    return weights
