"""Taking back an import the user cancelled, whole: the recording, its segments, chunks, full-text
rows and vectors, as if the file had never been imported.

An import is atomic per recording: a file whose import was cancelled half-way (its segments stored,
part of its chunks indexed) must not stay behind as a note that start-up would go on indexing. Only a
recording no one has seen finished yet is taken back: no audio, never indexed to the end, nothing
edited, never consolidated, so nothing but its chunks and their vectors points at its segments.

Speed is the point (Cancel answers within a second or two): with foreign keys on, deleting each of
a 60 MB text's 370,000 segments scans every table that may point at a segment, several without an
index on that column (seconds on an empty library, far more on a full one). Nothing can point at
these segments (checked first), so they are deleted with the checks off, inside one transaction.
"""

from __future__ import annotations

from memory.store.store import Store

__all__ = ["withdraw_unfinished_import"]


def _removable(store: Store, recording_id: int) -> bool:
    row = store.one(
        "SELECT status, audio_path,"
        " EXISTS (SELECT 1 FROM segment_edits e JOIN segments s ON s.id = e.segment_id"
        "  WHERE s.recording_id = r.id) AS edited,"
        " EXISTS (SELECT 1 FROM consolidation_state c WHERE c.recording_id = r.id) AS consolidated"
        " FROM recordings r WHERE id = ?",
        (recording_id,),
    )
    return not (
        row is None
        or row["audio_path"]
        or row["edited"]
        or row["consolidated"]
        or row["status"] in ("indexed", "consolidated")
    )


def withdraw_unfinished_import(store: Store, recording_id: int) -> bool:
    """Remove a text import that never became "indexed"; False when there was nothing to remove
    (or the recording is one to keep: it has audio, edits, layers, or its indexing finished)."""
    with store._lock:  # one connection: nothing else runs on it while its checks are off
        if not _removable(store, recording_id):
            return False
        store.conn.execute("PRAGMA foreign_keys=OFF")  # a no-op inside a transaction: set before it
        try:
            with store.transaction():
                # Chunks through their triggers: the full-text rows and the vectors go with them.
                store.execute("DELETE FROM chunks WHERE recording_id = ?", (recording_id,))
                store.execute(
                    "DELETE FROM segment_vectors WHERE segment_id IN"
                    " (SELECT id FROM segments WHERE recording_id = ?)",
                    (recording_id,),
                )
                store.execute("DELETE FROM segments WHERE recording_id = ?", (recording_id,))
        finally:
            store.conn.execute("PRAGMA foreign_keys=ON")
        # The recording itself with the checks on: whatever else points at it goes by its cascade.
        # (Stopped in between, an empty text note is left: nothing to index, consistent.)
        with store.transaction():
            store.execute("DELETE FROM recordings WHERE id = ?", (recording_id,))
    return True
