"""The database side of backups and exports: an online copy, counts, row dumps and fingerprints.

`copy_database` uses SQLite's online backup API through the store's own connection, so the copy is
one consistent state of the library even while the app keeps writing (a write through the same
connection is carried into the copy; SQLite restarts the copy if another process writes).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import apsw

from memory.store.store import Store, StoreError, migration_files
from models.errors import InputError

PAGES_PER_STEP = 256  # ~1 MB at 4 KiB pages: progress moves, writers are not starved
MAX_RESTARTS = 3

# What a JSON export holds, in an order that inserts parents first: what was said (earlier
# transcripts of a re-transcribed note too; a note in the trash with its trashed_at), what the user
# decided and what consolidation found (with its state, so it is not redone after a restore), not
# what indexing rebuilds (chunks, embeddings, vectors, the FTS index) nor logs (jobs, llm_calls,
# seen_files).
EXPORT_TABLES = (
    "projects",
    "recordings",
    "segments",
    "segment_edits",
    "transcript_versions",
    "transcript_version_segments",
    "recording_history",
    "consolidation_state",
    "corrections",
    "stretches",
    "entities",
    "facts",
    "connections",
    "connection_weights",
    "digest_items",
    "commitments",
    "migrations",
)


def newest_known_schema() -> int:
    """The highest migration number this code can open."""
    known = migration_files()
    return known[-1][0] if known else 0


def schema_version(store: Store) -> int:
    return int(store.scalar("SELECT coalesce(max(id), 0) FROM migrations") or 0)


def library_counts(store: Store) -> dict[str, int]:
    return {
        "projects": int(store.scalar("SELECT count(*) FROM projects")),
        "recordings": int(store.scalar("SELECT count(*) FROM recordings")),
        "segments": int(store.scalar("SELECT count(*) FROM segments")),
    }


def copy_database(store: Store, target: Path, *, progress: Callable[[int, int], None] | None = None) -> None:
    """An online, consistent copy of the store's database into `target` (a new file).

    `progress(done_pages, total_pages)` is called after every step.
    """
    if store.path == ":memory:":
        raise InputError("an in-memory store has no file to back up")
    destination = apsw.Connection(str(target))
    try:
        # Every call that touches the store's connection holds the store's lock: apsw refuses a
        # connection busy in another thread, and a step never reads a half-done transaction.
        with store._lock:
            backup = destination.backup("main", store.conn, "main")
        try:
            done, restarts, before = False, 0, None
            while not done:
                # Another process writing starts the copy over; after a few restarts, copy the rest
                # in one step (one read transaction: in WAL mode writers go on meanwhile).
                pages = -1 if restarts >= MAX_RESTARTS else PAGES_PER_STEP
                with store._lock:
                    backup.step(pages)
                    done, total, remaining = backup.done, backup.page_count, backup.remaining
                restarts += before is not None and remaining >= before  # no progress: it started over
                before = remaining
                if progress is not None:
                    progress(total - remaining, total)
        finally:
            with store._lock:
                backup.close()
        # A single self-contained file: no WAL beside it that a copy or an archive could miss.
        destination.execute("PRAGMA journal_mode=DELETE")
    except apsw.FullError as exc:
        raise StoreError(
            f"the disk is full: cannot copy the library database to {target.parent}",
            fix="free some disk space or choose another folder",
        ) from exc
    except apsw.Error as exc:
        raise StoreError(f"cannot copy the library database: {exc}") from exc
    finally:
        destination.close()


def inspect_database(path: Path) -> dict[str, Any]:
    """Integrity, schema version and counts of a database file, opened read-only."""
    try:
        conn = apsw.Connection(str(path), flags=apsw.SQLITE_OPEN_READONLY)
    except apsw.Error as exc:
        raise StoreError(f"cannot open {path.name}: {exc}") from exc
    try:
        integrity = str(next(iter(conn.execute("PRAGMA integrity_check")))[0])
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        if not {"migrations", "projects", "recordings", "segments"} <= tables:
            return {"integrity": integrity, "schema_version": 0, "counts": {}, "library": False}
        schema = int(next(iter(conn.execute("SELECT coalesce(max(id), 0) FROM migrations")))[0])
        counts = {
            table: int(next(iter(conn.execute(f"SELECT count(*) FROM {table}")))[0])
            for table in ("projects", "recordings", "segments")
        }
    except apsw.Error as exc:
        raise StoreError(f"{path.name} is not a readable database: {exc}") from exc
    finally:
        conn.close()
    return {"integrity": integrity, "schema_version": schema, "counts": counts, "library": True}


def table_columns(store: Store, table: str) -> list[str]:
    if table not in EXPORT_TABLES:
        raise InputError(f"{table!r} is not an exported table")
    return [row["name"] for row in store.all(f"PRAGMA table_info({table})")]


def table_rows(store: Store, table: str, *, project_id: int | None = None) -> Iterator[dict[str, Any]]:
    """Every row of an exported table in id order; with `project_id`, only that project's rows."""
    columns = table_columns(store, table)
    sql = f"SELECT * FROM {table}"
    params: tuple[Any, ...] = ()
    if project_id is not None:
        where = _project_filter(table, columns)
        if where is None:
            return
        sql += f" WHERE {where}"
        params = (project_id,) * where.count("?")
    order = "id" if "id" in columns else ("recording_id, idx" if "idx" in columns else "rowid")
    if table == "transcript_version_segments":
        order = "version_id, idx"
    yield from store.all(f"{sql} ORDER BY {order}", params)


def insert_rows(store: Store, table: str, rows: Iterator[dict[str, Any]]) -> int:
    """Rows of a JSON export into an empty table, ids kept; columns this schema lacks are refused.

    Run inside a transaction with foreign keys deferred (a fact may name a later fact)."""
    known = set(table_columns(store, table))
    count = 0
    for row in rows:
        unknown = set(row) - known
        if unknown:
            raise InputError(f"{table} has no column {sorted(unknown)[0]!r} in this version")
        names = list(row)
        store.execute(
            f"INSERT INTO {table} ({', '.join(names)}) VALUES ({', '.join('?' * len(names))})",
            [row[n] for n in names],
        )
        count += 1
    return count


def defer_foreign_keys(store: Store) -> None:
    """Check foreign keys at COMMIT, not per row (call inside the transaction)."""
    store.execute("PRAGMA defer_foreign_keys = ON")


def _project_filter(table: str, columns: list[str]) -> str | None:
    by_recording = "recording_id IN (SELECT id FROM recordings WHERE project_id = ?)"
    if table == "projects":
        return "id = ?"
    if table == "recordings":
        return "project_id = ?"
    if table == "segment_edits":
        return f"segment_id IN (SELECT id FROM segments WHERE {by_recording})"
    if table == "transcript_version_segments":
        return f"version_id IN (SELECT id FROM transcript_versions WHERE {by_recording})"
    if table == "connections":
        return "a_project_id = ? OR b_project_id = ?"
    if table == "migrations":
        return "1 = 1"
    if table == "connection_weights":
        return None  # learnt from verdicts across all projects
    if "recording_id" in columns:
        return by_recording
    return None


def table_fingerprints(store: Store) -> dict[str, str]:
    """sha256 of every table's rows (in rowid order): two libraries with equal fingerprints hold the
    same data. Virtual tables are left out; their shadow tables (the FTS index itself) are in."""
    names = [
        row[0]
        for row in store.rows(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
            " AND sql NOT LIKE 'CREATE VIRTUAL TABLE%' ORDER BY name"
        )
    ]
    found = {}
    for name in names:
        digest = hashlib.sha256()
        for row in store.rows(f'SELECT * FROM "{name}"'):
            digest.update(json.dumps([_plain(v) for v in row]).encode())
        found[name] = digest.hexdigest()
    return found


def _plain(value: Any) -> Any:
    return value.hex() if isinstance(value, bytes) else value


def fsync_file(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
