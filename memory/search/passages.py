"""From retrieved chunks to passages: re-centred on what matched, ranked by their best sentence.

Chunk boundaries are fixed when a recording is indexed, so the words a question is about often
sit at a chunk's edge, with half of their context in the next chunk; and a chunk's one vector
blurs the one sentence that matters with four that do not. For each retrieved chunk this:
- finds its segment that best matches the query: by the query's words (IDF-weighted over the
  retrieved neighbourhood, lightly stemmed), else by the segment's own vector;
- returns a window of whole segments around it, about a chunk's size, crossing the chunk's
  boundary where needed (the answer to a question often follows in the next turn);
- blends the chunk's relevance with the best segment cosine inside the window, so a passage
  holding one sentence that closely matches the question rises.
Passages that overlap a better one give up the shared segments: a context budget is never spent
twice on the same words.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

import numpy as np

from memory.search.chunking import chunk_text, count_words
from memory.search.fts import words
from memory.search.hits import Hit
from memory.store.recordings import Segment, segments_in_spans
from memory.store.store import Store
from memory.text.stems import stem, text_language
from memory.text.stopwords import STOPWORDS


@lru_cache(maxsize=1 << 14)
def _stems(text: str) -> frozenset[str]:
    # Cached: the segments around the best chunks are often the same from one question to the next.
    language = text_language(text)
    return frozenset(stem(w, language) for w in words(text) if w not in STOPWORDS)


@dataclass
class _Around:
    """A retrieved chunk and the recording's segments around it."""

    hit: Hit
    first_idx: int
    last_idx: int
    segments: list[Segment]
    cosines: dict[int, float]  # segment id -> cosine with the query (segments with a vector)


def build_passages(
    store: Store,
    hits: Sequence[Hit],
    query: str,
    *,
    vector: np.ndarray | None,
    model: str | None,
    passage_words: int,
    segment_weight: float,
    centres: dict[int, int] | None = None,
) -> tuple[list[Hit], dict[int, Segment]]:
    """Passages for `hits` (chunks with their relevance in .score), and the segments they come from.

    `centres` (chunk id -> segment id) fixes a passage's centre instead of finding its best
    segment (a connection's quoted segment). Passages may overlap: rank them, then keep each
    segment once with `without_overlap`.
    """
    if passage_words <= 0:
        return list(hits), {}
    margin = max(3, passage_words // 20)  # segments beyond the chunk a window may grow into
    ranges = _chunk_ranges(store, [h.chunk_id for h in hits if h.segment_ids])
    segments, cosines = _neighbourhoods(store, hits, ranges, margin, vector, model)
    pool = {s.id: s for segs in segments.values() for s in segs}
    stems = {sid: _stems(seg.text) for sid, seg in pool.items()}
    weights = _term_weights(_stems(query), stems)
    passages = []
    for hit in hits:
        if hit.chunk_id not in ranges:  # provisional: the live transcript has no segment ids
            passages.append(hit)
            continue
        first, last = ranges[hit.chunk_id]
        near = [s for s in segments[hit.recording_id] if first - margin <= s.idx <= last + margin]
        around = _Around(hit, first, last, near, cosines)
        fixed = (centres or {}).get(hit.chunk_id)
        passages.append(_passage(around, weights, stems, passage_words, segment_weight, fixed))
    return passages, pool


def _chunk_ranges(store: Store, chunk_ids: Sequence[int]) -> dict[int, tuple[int, int]]:
    if not chunk_ids:
        return {}
    marks = ",".join("?" * len(chunk_ids))
    rows = store.rows(f"SELECT id, first_idx, last_idx FROM chunks WHERE id IN ({marks})", list(chunk_ids))
    return {int(i): (int(a), int(b)) for i, a, b in rows}


def _neighbourhoods(
    store: Store,
    hits: Sequence[Hit],
    ranges: dict[int, tuple[int, int]],
    margin: int,
    vector: np.ndarray | None,
    model: str | None,
) -> tuple[dict[int, list[Segment]], dict[int, float]]:
    """Per recording, its segments around the hits; and their cosines to the query.

    Each stretch of a recording is read once: the ranges around its hits, merged where they touch
    (not everything between two hits an hour apart).
    """
    wanted: dict[int, list[tuple[int, int]]] = {}
    for hit in hits:
        if hit.chunk_id in ranges:
            first, last = ranges[hit.chunk_id]
            wanted.setdefault(hit.recording_id, []).append((max(0, first - margin), last + margin))
    spans = [(rid, first, last) for rid, ranges_ in wanted.items() for first, last in _merged(ranges_)]
    segments: dict[int, list[Segment]] = {rid: [] for rid in wanted}
    for segment in segments_in_spans(store, spans, with_words=False):  # passages need no word times
        segments[segment.recording_id].append(segment)
    cosines: dict[int, float] = {}
    if vector is not None and model is not None:
        cosines = segment_cosines(store, [s.id for segs in segments.values() for s in segs], vector, model)
    return segments, cosines


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for first, last in sorted(spans):
        if out and first <= out[-1][1] + 1:
            out[-1] = (out[-1][0], max(out[-1][1], last))
        else:
            out.append((first, last))
    return out


def segment_cosines(
    store: Store, segment_ids: Sequence[int], vector: np.ndarray, model: str
) -> dict[int, float]:
    if not segment_ids:
        return {}
    marks = ",".join("?" * len(segment_ids))
    found = store.rows(
        f"SELECT segment_id, vector FROM segment_vectors WHERE segment_id IN ({marks}) AND model = ?",
        [*segment_ids, model],
    )
    if not found:
        return {}
    matrix = (
        np.frombuffer(b"".join(r[1] for r in found), dtype=np.int8).reshape(len(found), -1).astype(np.float32)
    )
    sims = (matrix @ vector) / np.maximum(np.linalg.norm(matrix, axis=1), 1e-9)
    return {int(r[0]): float(c) for r, c in zip(found, sims, strict=True)}


def _term_weights(terms: frozenset[str], stems: dict[int, frozenset[str]]) -> dict[str, float]:
    """IDF of each query word among the segments around the retrieved chunks."""
    df: Counter[str] = Counter()
    for seg_stems in stems.values():
        df.update(terms & seg_stems)
    n = max(len(stems), 1)
    return {t: math.log(1 + (n - df[t] + 0.5) / (df[t] + 0.5)) for t in terms if df[t]}


def _centre(a: _Around, weights: dict[str, float], stems: dict[int, frozenset[str]]) -> int | None:
    """Position (in a.segments) of the chunk's best segment: by words, else by meaning."""
    inside = [(p, s) for p, s in enumerate(a.segments) if a.first_idx <= s.idx <= a.last_idx]
    by_words = [(sum(weights.get(t, 0.0) for t in stems[s.id]), p) for p, s in inside]
    best = max(by_words, default=(0.0, None), key=lambda x: x[0])
    if best[0] > 0:
        return best[1]
    by_meaning = [(a.cosines[s.id], p) for p, s in inside if s.id in a.cosines]
    return max(by_meaning, key=lambda x: x[0])[1] if by_meaning else None


def _window(segments: Sequence[Segment], centre: int, target_words: int) -> tuple[int, int]:
    """Whole segments around the centre, after and before in turn, until about `target_words`."""
    lo = hi = centre
    used = count_words(segments[centre].text)
    after = True
    while used < target_words:
        grown = False
        for nxt in (hi + 1, lo - 1) if after else (lo - 1, hi + 1):
            if 0 <= nxt < len(segments):
                size = count_words(segments[nxt].text)
                # One segment may pass the target (a whole answer beats a cut one), not double it.
                if used + size <= 2 * target_words:
                    lo, hi, used, grown = min(lo, nxt), max(hi, nxt), used + size, True
                    break
        if not grown:
            break
        after = not after
    return lo, hi


def _passage(
    a: _Around,
    weights: dict[str, float],
    stems: dict[int, frozenset[str]],
    target_words: int,
    segment_weight: float,
    fixed: int | None = None,
) -> Hit:
    at = [p for p, s in enumerate(a.segments) if s.id == fixed]
    centre = at[0] if at else _centre(a, weights, stems) if a.segments else None
    if centre is None:
        return a.hit
    lo, hi = _window(a.segments, centre, target_words)
    chosen = a.segments[lo : hi + 1]
    cosines = [a.cosines[s.id] for s in chosen if s.id in a.cosines]
    components = dict(a.hit.components)
    relevance = a.hit.score
    if cosines:
        best = max(cosines)
        components["segment_cosine"] = round(best, 4)
        relevance = (1 - segment_weight) * relevance + segment_weight * max(best, 0.0)
    components["chunk_relevance"] = a.hit.score
    components["relevance"] = relevance
    matched_at = a.segments[centre].start
    return _with_segments(
        replace(a.hit, score=relevance, components=components, matched_at=matched_at), chosen
    )


def _with_segments(hit: Hit, segments: Sequence[Segment]) -> Hit:
    return replace(
        hit,
        start=segments[0].start,
        end=segments[-1].end,
        text=chunk_text(segments),
        segment_ids=[s.id for s in segments],
    )


def without_overlap(hits: Sequence[Hit], segments: dict[int, Segment]) -> list[Hit]:
    """Each segment in one passage only: the better passage keeps it, a later one its longest rest."""
    taken: set[int] = set()
    out = []
    for hit in hits:
        if not hit.segment_ids:
            out.append(hit)
            continue
        runs: list[list[int]] = [[]]
        for sid in hit.segment_ids:
            if sid in taken:
                runs.append([])
            else:
                runs[-1].append(sid)
        keep = max(runs, key=len)
        if not keep:
            continue
        if len(keep) < len(hit.segment_ids):
            if any(s not in segments for s in keep):
                continue
            hit = _with_segments(hit, [segments[s] for s in keep])
        taken.update(keep)
        out.append(hit)
    return out
