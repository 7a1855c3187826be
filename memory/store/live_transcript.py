"""The provisional live transcript written while a recording runs (the fast model's pass).

It makes a note searchable the moment recording stops; the final transcription replaces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from memory.store.store import Store


@dataclass(frozen=True)
class LiveSegmentIn:
    start: float
    end: float
    text: str


def append_live_segments(store: Store, recording_id: int, segments: Sequence[LiveSegmentIn]) -> int:
    """Store segments after those already stored, in one transaction. Returns how many."""
    kept = [s for s in segments if s.text.strip()]
    if not kept:
        return 0
    with store.transaction():
        next_idx = store.scalar(
            "SELECT coalesce(max(idx) + 1, 0) FROM live_segments WHERE recording_id = ?", (recording_id,)
        )
        store.executemany(
            "INSERT INTO live_segments (recording_id, idx, start, end, text) VALUES (?, ?, ?, ?, ?)",
            [
                (recording_id, next_idx + n, float(s.start), float(max(s.end, s.start)), s.text.strip())
                for n, s in enumerate(kept)
            ],
        )
    return len(kept)


def live_text(store: Store, recording_id: int) -> str:
    rows = store.rows("SELECT text FROM live_segments WHERE recording_id = ? ORDER BY idx", (recording_id,))
    return " ".join(r[0] for r in rows)


def count_live_segments(store: Store, recording_id: int) -> int:
    return int(store.scalar("SELECT count(*) FROM live_segments WHERE recording_id = ?", (recording_id,)))


def clear_live_segments(store: Store, recording_id: int) -> None:
    """Drop the provisional transcript once the final one is stored and indexed."""
    store.execute("DELETE FROM live_segments WHERE recording_id = ?", (recording_id,))
