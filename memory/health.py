"""Checks of the SQLite engine itself, and of a library's database after a crash, for `verbatim doctor`
and the fault tests."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import apsw
import sqlite_vec

from memory.search.index import VECTOR_TABLE
from memory.store.store import Store, StoreError


def sqlite_features() -> dict[str, object]:
    """SQLite version, whether sqlite-vec loads, whether FTS5 works, in a throwaway database."""
    result: dict[str, object] = {"sqlite": apsw.sqlite_lib_version(), "apsw": apsw.apsw_version()}
    conn = apsw.Connection(":memory:")
    try:
        try:
            conn.enable_load_extension(True)
            conn.load_extension(sqlite_vec.loadable_path())
            result["sqlite_vec"] = next(iter(conn.execute("SELECT vec_version()")))[0]
        except apsw.Error as exc:
            result["sqlite_vec_error"] = str(exc)
        try:
            conn.execute("CREATE VIRTUAL TABLE t USING fts5(x); INSERT INTO t VALUES ('ok')")
            result["fts5"] = next(iter(conn.execute("SELECT count(*) FROM t WHERE t MATCH 'ok'")))[0] == 1
        except apsw.Error as exc:
            result["fts5"] = False
            result["fts5_error"] = str(exc)
    finally:
        conn.close()
    return result


# --- consistency of a library's database, after any crash or fault ----------------------------------
OVERLAP_TOLERANCE = 0.05  # seconds: whisper's segment bounds may touch, never repeat
AUDIO_SOURCES = ("microphone", "import", "watch")


@dataclass(frozen=True)
class AudioRow:
    """A recording whose audio the store knows, for the file checks above this layer."""

    recording_id: int
    audio_path: str
    duration: float | None
    content_sha256: str | None


def _fts_problems(store: Store) -> list[str]:
    """FTS5's own check of the index against the chunks table (rank 1: content too)."""
    if store.read_only:
        return []  # the check is written as an INSERT; integrity_check still covers the pages
    try:
        with store.transaction():
            store.execute("INSERT INTO chunks_fts(chunks_fts, rank) VALUES ('integrity-check', 1)")
    except StoreError as exc:
        if "read-only" in exc.message:  # read-only media opened through an existing WAL index
            return []
        return [f"full-text index: {exc.message}"]
    return []


def _segment_problems(store: Store) -> list[str]:
    problems = []
    rows = store.rows(
        "SELECT s.recording_id, s.idx, s.start, s.end, s.text, r.source FROM segments s"
        " JOIN recordings r ON r.id = s.recording_id ORDER BY s.recording_id, s.idx"
    )
    previous: tuple[Any, ...] | None = None
    for row in rows:
        rid, idx, start, end, text, source = row
        if end < start:
            problems.append(f"recording {rid}: segment {idx} ends before it starts")
        if previous is None or previous[0] != rid:
            if idx != 0:
                problems.append(f"recording {rid}: segments start at index {idx}, not 0")
        else:
            _, p_idx, p_start, p_end, p_text, _ = previous
            if idx != p_idx + 1:
                problems.append(f"recording {rid}: segment index jumps from {p_idx} to {idx}")
            if start < p_start:
                problems.append(f"recording {rid}: segment {idx} starts before segment {p_idx}")
            if (start, end, text) == (p_start, p_end, p_text):
                problems.append(f"recording {rid}: segment {idx} duplicates segment {p_idx}")
            elif source in AUDIO_SOURCES and start < p_end - OVERLAP_TOLERANCE:
                problems.append(f"recording {rid}: segment {idx} overlaps segment {p_idx}")
        previous = row
    return problems


def _chunk_problems(store: Store) -> list[str]:
    problems = [
        f"chunk {cid} of recording {rid}: segments {first}..{last} do not all exist"
        for cid, rid, first, last in store.rows(
            "SELECT c.id, c.recording_id, c.first_idx, c.last_idx FROM chunks c WHERE c.provisional = 0"
            " AND (c.first_idx > c.last_idx OR (SELECT count(*) FROM segments s WHERE s.recording_id ="
            " c.recording_id AND s.idx BETWEEN c.first_idx AND c.last_idx) != c.last_idx - c.first_idx + 1)"
        )
    ]
    if store.scalar("SELECT 1 FROM sqlite_master WHERE name = ?", (VECTOR_TABLE,)):
        missing = store.scalar(
            "SELECT count(*) FROM chunks WHERE embedded = 1"
            f" AND id NOT IN (SELECT chunk_id FROM {VECTOR_TABLE})"
        )
        orphans = store.scalar(
            f"SELECT count(*) FROM {VECTOR_TABLE} WHERE chunk_id NOT IN (SELECT id FROM chunks)"
        )
        if missing:
            problems.append(f"{missing} chunk(s) marked embedded have no vector")
        if orphans:
            problems.append(f"{orphans} vector(s) belong to no chunk")
    return problems


def store_problems(store: Store) -> list[str]:
    """Everything wrong with the database itself; an empty list when it is consistent.

    SQLite's page-level check, foreign keys, the FTS index against its content, every recording's
    segments (numbered from 0 without gaps, in time order, no repeats, no overlap in transcribed
    audio), chunks that point at existing segments, vectors that match their chunks.
    """
    result = store.integrity_check()
    problems = [] if result == "ok" else [f"integrity_check: {result}"]
    problems += [
        f"foreign key: {table} row {rowid} points at a missing {parent}"
        for table, rowid, parent, _ in store.rows("PRAGMA foreign_key_check")
    ]
    problems += _fts_problems(store)
    problems += _segment_problems(store)
    problems += _chunk_problems(store)
    problems += [
        f"recording {rid}: {status} but it has no audio"
        for rid, status in store.rows(
            "SELECT id, status FROM recordings WHERE source IN ('microphone', 'import', 'watch')"
            " AND status NOT IN ('recording', 'failed') AND audio_path IS NULL"
        )
    ]
    return problems


def audio_rows(store: Store) -> list[AudioRow]:
    return [
        AudioRow(*row)
        for row in store.rows(
            "SELECT id, audio_path, duration, content_sha256 FROM recordings"
            " WHERE audio_path IS NOT NULL ORDER BY id"
        )
    ]
