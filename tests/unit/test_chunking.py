"""Chunks are whole consecutive segments of ~60–120 words, stable as a transcript grows."""

from __future__ import annotations

from dataclasses import dataclass

from hypothesis import given
from hypothesis import strategies as st

from memory.search.chunking import MAX_WORDS, chunk_segments, chunk_text, count_words


@dataclass(frozen=True)
class Seg:
    idx: int
    start: float
    end: float
    text: str
    speaker: str | None = None


def segs(word_counts: list[int], speakers: list[str | None] | None = None) -> list[Seg]:
    out = []
    t = 0.0
    for i, n in enumerate(word_counts):
        text = " ".join(f"w{i}x{j}" for j in range(n))
        out.append(Seg(i, t, t + n / 2.5, text, speakers[i] if speakers else None))
        t += n / 2.5 + 0.5
    return out


def covered(chunks: list) -> list[int]:  # type: ignore[type-arg]
    return [i for c in chunks for i in range(c.first_idx, c.last_idx + 1)]


def test_chunks_cover_every_segment_once_in_order_within_the_word_limits() -> None:
    segments = segs([20] * 30)
    chunks = chunk_segments(segments)
    assert covered(chunks) == list(range(30))
    assert all(60 <= c.words <= MAX_WORDS for c in chunks)
    assert chunks[0].start == segments[0].start and chunks[0].end == segments[5].end


def test_a_segment_longer_than_the_maximum_is_a_chunk_of_its_own_and_never_cut() -> None:
    chunks = chunk_segments(segs([30, 300, 30, 30]))
    assert [(c.first_idx, c.last_idx) for c in chunks] == [(0, 0), (1, 1), (2, 3)]
    assert chunks[1].words == 300


def test_speaker_names_are_part_of_the_indexed_text_where_the_speaker_changes() -> None:
    segments = [
        Seg(0, 0, 1, "Hey Mel!", "Caroline"),
        Seg(1, 1, 2, "How are you?", "Caroline"),
        Seg(2, 2, 3, "Good,  thanks.", "Melanie"),
        Seg(3, 3, 4, "Unknown voice.", None),
    ]
    assert chunk_text(segments) == "Caroline: Hey Mel! How are you?\nMelanie: Good, thanks. Unknown voice."


def test_progressive_chunks_are_the_final_chunks_minus_the_open_tail() -> None:
    segments = segs([13, 7, 25, 40, 9, 18, 33, 21, 5, 60, 12, 8, 30, 14, 22])
    final = chunk_segments(segments, final=True)
    for n in range(1, len(segments) + 1):
        partial = chunk_segments(segments[:n], final=False)
        for j, chunk in enumerate(partial):
            # Stable: only the very last chunk may change at the end (it can absorb a short tail).
            if j < len(final) - 1:
                assert chunk == final[j]
            else:
                assert chunk.first_idx == final[-1].first_idx
        if partial:
            assert covered(partial) == list(range(partial[-1].last_idx + 1))


def test_a_short_tail_joins_the_chunk_before_it_at_the_end() -> None:
    chunks = chunk_segments(segs([50, 50, 50, 5]))
    assert [(c.first_idx, c.last_idx) for c in chunks] == [(0, 1), (2, 3)]
    assert chunk_segments(segs([50, 50, 50, 5]), final=False)[-1].last_idx == 1


def test_empty_segments_make_no_chunk_and_unchanged_text_keeps_its_hash() -> None:
    assert chunk_segments([]) == []
    assert chunk_segments([Seg(0, 0, 1, "   ")]) == []
    a = chunk_segments(segs([20] * 10))
    b = chunk_segments(segs([20] * 10))
    assert [c.content_sha256 for c in a] == [c.content_sha256 for c in b]


@given(st.lists(st.integers(min_value=0, max_value=200), min_size=1, max_size=60))
def test_any_transcript_is_covered_without_cutting_or_overlap(word_counts: list[int]) -> None:
    segments = segs(word_counts)
    chunks = chunk_segments(segments)
    non_empty = [s.idx for s in segments if s.text.strip()]
    assert [i for i in covered(chunks) if i in set(non_empty)] == non_empty
    assert len(covered(chunks)) == len(set(covered(chunks)))
    for c in chunks:
        if c.first_idx != c.last_idx:
            assert c.words <= MAX_WORDS * 3 // 2
    assert sum(c.words for c in chunks) == sum(count_words(s.text) for s in segments)
