"""What retrieval returns: a passage of raw words with where and when it was said, and why it ranked."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass
class Hit:
    chunk_id: int
    recording_id: int
    project_id: int
    project: str
    title: str
    spoken_at: str  # store time format (memory.store.clock)
    start: float  # seconds into the recording
    end: float
    text: str  # the passage as indexed (raw words, speaker names included)
    segment_ids: list[int]  # the raw segments the passage covers, in order
    score: float  # final score after fusion and recency; higher is better
    components: dict[str, float] = field(default_factory=dict)  # e.g. bm25_rank, vector_rank, recency
    # Where in the passage the query matched best (its centre segment's start), when known: search
    # results open there rather than at the passage's first words.
    matched_at: float | None = None

    def to_json(self) -> dict[str, Any]:
        return asdict(self)
