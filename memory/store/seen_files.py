"""Files imports and watched folders have already read, keyed by path.

An unchanged file (same size and modification time) is recognised without hashing it again, and
a damaged file is not retried until it changes.
"""

from __future__ import annotations

from dataclasses import dataclass

from memory.store.store import Store, now_iso

OUTCOMES = ("imported", "duplicate", "failed")


@dataclass(frozen=True)
class SeenFile:
    path: str
    size: int
    mtime_ns: int
    content_sha256: str
    outcome: str
    message: str | None


def find_seen(store: Store, path: str, size: int, mtime_ns: int) -> SeenFile | None:
    """The record of this exact file version, if it was seen before."""
    row = store.one(
        "SELECT path, size, mtime_ns, content_sha256, outcome, message FROM seen_files"
        " WHERE path = ? AND size = ? AND mtime_ns = ?",
        (path, size, mtime_ns),
    )
    return SeenFile(**row) if row else None


def remember(
    store: Store, path: str, size: int, mtime_ns: int, sha256: str, outcome: str, message: str | None = None
) -> None:
    store.execute(
        "INSERT INTO seen_files (path, size, mtime_ns, content_sha256, outcome, message, seen_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(path) DO UPDATE SET size = excluded.size,"
        " mtime_ns = excluded.mtime_ns, content_sha256 = excluded.content_sha256,"
        " outcome = excluded.outcome, message = excluded.message, seen_at = excluded.seen_at",
        (path, size, mtime_ns, sha256, outcome, message, now_iso()),
    )
