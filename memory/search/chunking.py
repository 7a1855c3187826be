"""Group a recording's segments into retrieval chunks: whole consecutive segments, ~60–120 words.

A chunk never cuts a segment (a segment is a sentence or a speaker turn), so every passage that
reaches a reader or a model is made of complete raw words with their timestamps. Chunking is a pure
function of the segments and is stable while a recording grows: a chunk closes only when the next
segment would push it past the maximum, so chunks built from the first part of a transcript are
the same chunks once the rest arrives (only the open tail changes, and at the end a short tail may
join the chunk before it), so progressive indexing re-embeds at most one chunk per recording.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from models.errors import CancelledError

MIN_WORDS = 60
MAX_WORDS = 120
CANCEL_CHECK_EVERY = 2000  # segments between two looks at the cancel flag

_WORD = re.compile(r"\S+")


class SegmentLike(Protocol):
    @property
    def idx(self) -> int: ...
    @property
    def start(self) -> float: ...
    @property
    def end(self) -> float: ...
    @property
    def speaker(self) -> str | None: ...
    @property
    def text(self) -> str: ...


@dataclass(frozen=True)
class ChunkSpec:
    """A chunk about to be stored: segments[first_idx..last_idx] of one recording."""

    first_idx: int
    last_idx: int
    start: float
    end: float
    text: str
    content_sha256: str

    @property
    def words(self) -> int:
        return count_words(self.text)


def count_words(text: str) -> int:
    return len(_WORD.findall(text))


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _raw_words(segment: SegmentLike) -> int:
    """Boundaries follow the raw words, which never change: an edit re-chunks only its own chunk."""
    raw = getattr(segment, "raw_text", None)
    return count_words(raw if isinstance(raw, str) and raw.strip() else segment.text)


def chunk_text(segments: Sequence[SegmentLike]) -> str:
    """The indexed text: raw words, each speaker named where the speaker changes."""
    parts: list[str] = []
    previous: str | None = None
    for seg in segments:
        words = " ".join(seg.text.split())
        if not words:
            continue
        if seg.speaker and seg.speaker != previous:
            parts.append(("\n" if parts else "") + f"{seg.speaker}: {words}")
        else:
            parts.append((" " if parts else "") + words)
        previous = seg.speaker or previous
    return "".join(parts)


def _spec(group: Sequence[SegmentLike]) -> ChunkSpec:
    text = chunk_text(group)
    return ChunkSpec(
        first_idx=group[0].idx,
        last_idx=group[-1].idx,
        start=float(group[0].start),
        end=float(group[-1].end),
        text=text,
        content_sha256=content_hash(text),
    )


def chunk_segments(
    segments: Sequence[SegmentLike],
    *,
    final: bool = True,
    min_words: int = MIN_WORDS,
    max_words: int = MAX_WORDS,
    cancelled: Callable[[], bool] | None = None,
) -> list[ChunkSpec]:
    """Chunks of consecutive segments (ordered by idx). `final=False` leaves the open tail out.
    `cancelled()` is asked every few thousand segments (a note of tens of MB has 10^5 of them).

    A chunk closes when the next segment would take it past `max_words` (a single segment longer
    than that is a chunk of its own). A closing chunk shorter than `min_words` still closes: it is
    the words before a long segment, and merging it would cut nothing but would make the chunk
    depend on segments after it. At `final`, a short tail joins the previous chunk when the two fit
    in 1.5 × `max_words`, so a recording does not end in a three-word chunk.
    """
    ordered = sorted((s for s in segments if s.text.strip()), key=lambda s: s.idx)
    groups: list[list[SegmentLike]] = []
    current: list[SegmentLike] = []
    current_words = 0
    for number, seg in enumerate(ordered):
        if cancelled is not None and number % CANCEL_CHECK_EVERY == 0 and cancelled():
            raise CancelledError("indexing cancelled")
        words = _raw_words(seg)
        if current and current_words + words > max_words:
            groups.append(current)
            current, current_words = [], 0
        current.append(seg)
        current_words += words
    if not final:
        return [_spec(g) for g in groups]
    if current:
        tail_words = current_words
        previous_words = sum(_raw_words(s) for s in groups[-1]) if groups else 0
        if groups and tail_words < min_words // 2 and previous_words + tail_words <= max_words * 3 // 2:
            groups[-1] = groups[-1] + current
        else:
            groups.append(current)
    return [_spec(g) for g in groups]
