"""Taking back an import the user cancelled, whole: the recording, its segments, chunks, full-text
rows and vectors, as if the file had never been imported.

An import is atomic per recording: a file whose import was cancelled half-way (its segments stored,
part of its chunks indexed) must not stay behind as a note that start-up would go on indexing. Only a
recording no one has seen finished yet is taken back: nothing edited, nothing consolidated, no audio.
"""

from __future__ import annotations

from memory.store.store import Store

__all__ = ["withdraw_unfinished_import"]


def withdraw_unfinished_import(store: Store, recording_id: int) -> bool:
    """Remove a text import that never became "indexed"; False when there was nothing to remove
    (or the recording is one to keep: it has audio, edits, or its indexing finished)."""
    with store.transaction():
        row = store.one(
            "SELECT status, audio_path,"
            " (SELECT count(*) FROM segment_edits e JOIN segments s ON s.id = e.segment_id"
            "  WHERE s.recording_id = r.id) AS edits"
            " FROM recordings r WHERE id = ?",
            (recording_id,),
        )
        if row is None or row["audio_path"] or row["edits"] or row["status"] in ("indexed", "consolidated"):
            return False
        # Chunks first, one by one through their triggers: the full-text rows and vectors go with them.
        store.execute("DELETE FROM chunks WHERE recording_id = ?", (recording_id,))
        store.execute("DELETE FROM jobs WHERE recording_id = ?", (recording_id,))
        store.execute("DELETE FROM recordings WHERE id = ?", (recording_id,))  # segments: ON DELETE CASCADE
    return True
