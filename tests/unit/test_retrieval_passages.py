"""Passages: re-centred on the matching segment, ranked by segment vectors, never overlapping."""

from __future__ import annotations

import numpy as np
import pytest

from memory.search import index
from memory.search.chunking import chunk_segments, chunk_text
from memory.search.ranking import RankingOptions
from memory.search.retrieval import Query, Scope, retrieve, vector_candidates
from memory.store import projects, recordings
from memory.store.recordings import SegmentIn
from memory.store.store import Store
from memory.text.stems import stem

DIMS = 8
FILLER = "the weather was grey and the coffee in the office kitchen tasted of nothing much today again"


def unit(v: np.ndarray) -> np.ndarray:
    return (v / np.linalg.norm(v)).astype(np.float32)


def axis(i: int) -> np.ndarray:
    v = np.full(DIMS, 0.05, dtype=np.float32)
    v[i] = 1.0
    return unit(v)


def note(
    store: Store, texts: list[str], *, project: str = "P", spoken_at: str = "2026-01-05T10:00:00"
) -> int:
    pid = projects.add_project(store, project, exist_ok=True).id
    rid = recordings.create_recording(store, project_id=pid, spoken_at=spoken_at, source="transcript")
    recordings.append_segments(
        store, rid, [SegmentIn(i * 10.0, i * 10.0 + 8, t, "Ann") for i, t in enumerate(texts)]
    )
    return rid


def index_note(
    store: Store, rid: int, chunk_vectors: list[np.ndarray] | None = None
) -> list[index.StoredChunk]:
    index.ensure_vector_table(store, "m", DIMS)
    rec = recordings.get_recording(store, rid)
    specs = chunk_segments(recordings.list_segments(store, rid))
    vectors = {}
    if chunk_vectors is not None:
        vectors = {s.content_sha256: v for s, v in zip(specs, chunk_vectors, strict=True)}
        with store.transaction():
            index.cache_vectors(store, "m", vectors)
    index.write_chunks(
        store,
        recording_id=rid,
        project_id=rec.project_id,
        spoken_at=rec.spoken_at,
        remove=[],
        add=specs,
        vectors=vectors,
    )
    return index.recording_chunks(store, rid)


def search(
    store: Store, text: str, *, mode: str = "keyword", vector: np.ndarray | None = None, **options: object
) -> list:  # type: ignore[type-arg]
    opts = RankingOptions(recency_lambda=0.0).with_(**options)
    return retrieve(
        store, Query(text, vector, "m" if vector is not None else None, None, 5, mode, opts), Scope()
    )


def test_stemming_matches_simple_inflections_only() -> None:
    assert [stem(w) for w in ("painted", "kids", "painting", "is", "gas")] == [
        "paint",
        "kid",
        "paint",
        "is",
        "gas",
    ]
    assert stem("studies") == stem("study") and stem("companies") == stem("company")
    assert stem("angebote", "de") == stem("angebot", "de") and stem("hallen", "de") == stem("halle", "de")


def test_a_number_said_in_the_plural_is_the_number() -> None:
    """ "What's the deadline for the Corvane 360s?" asks about "the 360 feedback window"."""
    assert stem("360s") == stem("360") == "360" and stem("747s") == "747"
    assert stem("s") == "s" and stem("30th") == "30th" and stem("4s4") == "4s4"


def test_a_match_at_a_chunks_edge_gets_its_context_from_the_next_chunk(store: Store) -> None:
    texts = [f"{FILLER} number {i}" for i in range(12)]  # 19 words each: six segments a chunk
    texts[5] = (
        "Did the harbour master in the end sign the pontoon permit that we need for the works in March?"
    )
    texts[6] = "Yes, he signed it on Friday after lunch, so we can start in March as planned with the crew."
    rid = note(store, texts)
    chunks = index_note(store, rid)
    assert (chunks[0].first_idx, chunks[0].last_idx) == (0, 5)  # the question ends chunk one
    top = search(store, "pontoon permit")[0]
    segs = {s.id: s for s in recordings.list_segments(store, rid)}
    idx = [segs[s].idx for s in top.segment_ids]
    assert 5 in idx and 6 in idx and idx == list(range(idx[0], idx[-1] + 1))
    assert top.text == chunk_text([segs[s] for s in top.segment_ids])
    assert top.start == segs[top.segment_ids[0]].start and top.end == segs[top.segment_ids[-1]].end
    assert 60 <= len(top.text.split()) <= 240
    whole_chunk = search(store, "pontoon permit", passage_words=0)[0]
    assert whole_chunk.segment_ids == [s.id for s in segs.values() if s.idx <= 5]  # the answer is cut off


def test_passages_never_share_a_segment_and_whole_chunks_remain_an_option(store: Store) -> None:
    texts = [f"{FILLER} number {i}" for i in range(15)]
    for i in (4, 5, 9):
        texts[i] = f"The beacon budget came up again in point {i}."
    rid = note(store, texts)
    chunks = index_note(store, rid)
    hits = search(store, "beacon budget")
    ids = [s for h in hits for s in h.segment_ids]
    assert len(ids) == len(set(ids))
    whole = search(store, "beacon budget", passage_words=0)
    assert {h.chunk_id for h in whole} <= {c.id for c in chunks}
    assert all(h.text == next(c.text for c in chunks if c.id == h.chunk_id) for h in whole)


def test_a_passage_with_one_closely_matching_sentence_rises_by_its_segment_vector(store: Store) -> None:
    # Two recordings whose chunk vectors say "A is closer", while one sentence of B is the match.
    a = note(store, [f"{FILLER} {i}" for i in range(5)])
    b = note(store, [f"{FILLER} {i}" for i in range(5)], spoken_at="2026-01-06T10:00:00")
    index_note(store, a, [unit(axis(0) + 0.6 * axis(1))])
    index_note(store, b, [unit(axis(0) + 0.9 * axis(2))])
    items = []
    vectors = []
    for rid, best in ((a, axis(3)), (b, axis(0))):
        for n, seg in enumerate(recordings.list_segments(store, rid)):
            items.append(index.SegmentText(seg.id, seg.text, f"{rid}-{n}"))
            vectors.append(best if n == 2 else axis(4))
    index.write_segment_vectors(store, "m", items, np.stack(vectors))
    query = axis(0)
    chunk_level = search(store, "x", mode="vector", vector=query, segment_weight=0.0)
    assert chunk_level[0].recording_id == a
    ranked = search(store, "x", mode="vector", vector=query)
    assert ranked[0].recording_id == b and ranked[0].components["segment_cosine"] > 0.99


def test_the_binary_first_pass_finds_what_the_exact_search_finds(store: Store) -> None:
    rng = np.random.default_rng(4)
    centres = unit(rng.normal(size=(20, DIMS)))
    for r in range(10):
        rid = note(store, [f"{FILLER} {r} {i}" for i in range(30)], project=f"P{r % 3}")
        n = len(chunk_segments(recordings.list_segments(store, rid)))
        index_note(
            store, rid, [unit(centres[rng.integers(20)] + 0.3 * rng.normal(size=DIMS)) for _ in range(n)]
        )
    query = unit(centres[3] + 0.1 * rng.normal(size=DIMS))
    exact = vector_candidates(store, query, Scope(), 5, exact=True)
    binary = vector_candidates(store, query, Scope(), 5, exact=False)
    assert len({c for c, _ in exact} & {c for c, _ in binary}) >= 4
    assert binary[0][1] == pytest.approx(max(s for _, s in exact), abs=1e-5) or binary[0][0] != exact[0][0]
    scoped = vector_candidates(store, query, Scope((1,)), 5, exact=False)
    in_project = {c.id for c in index.get_chunks(store, [c for c, _ in scoped]) if c.project_id == 1}
    assert scoped and len(in_project) == len(scoped)


def test_the_in_memory_binary_pass_follows_new_and_deleted_vectors(store: Store) -> None:
    from memory.search import binary_index

    rng = np.random.default_rng(5)
    centres = unit(rng.normal(size=(20, DIMS)))

    def add(r: int, centre: int) -> int:
        rid = note(store, [f"{FILLER} {r} {i}" for i in range(30)], project=f"P{r % 3}")
        n = len(chunk_segments(recordings.list_segments(store, rid)))
        index_note(store, rid, [unit(centres[centre] + 0.05 * rng.normal(size=DIMS)) for _ in range(n)])
        return rid

    for r in range(6):
        add(r, r)
    query = unit(centres[3] + 0.01 * rng.normal(size=DIMS))
    assert binary_index.candidates(store, query, "m", 5) is None  # the first search: sqlite-vec's
    exact = {c for c, _ in vector_candidates(store, query, Scope(), 5, exact=True)}
    assert set(binary_index.candidates(store, query, "m", 40) or []) >= exact

    new = add(6, 9)  # a note indexed after the copy was made is found at once
    query = unit(centres[9] + 0.01 * rng.normal(size=DIMS))
    new_chunks = {c.id for c in index.recording_chunks(store, new)}
    assert new_chunks & set(binary_index.candidates(store, query, "m", 5) or [])

    store.execute("DELETE FROM chunks WHERE recording_id = ?", (new,))  # the copy is read again
    found = binary_index.candidates(store, query, "m", 200) or []
    assert found and not new_chunks & set(found)


def test_a_preloaded_copy_answers_the_first_search(store: Store) -> None:
    from memory.search import binary_index

    rid = note(store, [f"{FILLER} preload {i}" for i in range(30)])
    n = len(chunk_segments(recordings.list_segments(store, rid)))
    index_note(store, rid, [axis(i % DIMS) for i in range(n)])
    binary_index.preload(store, "m")
    found = binary_index.candidates(store, axis(0), "m", 3)  # without preload: None (sqlite-vec's turn)
    assert found is not None and len(found) == 3


def test_neighbourhoods_are_read_in_one_go_with_or_without_word_times(store: Store) -> None:
    pid = projects.add_project(store, "Words", exist_ok=True).id
    rids = []
    for n in range(2):
        rid = recordings.create_recording(
            store, project_id=pid, spoken_at="2026-01-06T10:00:00", source="import"
        )
        words = [("Hello", 0.0, 0.4, 0.9), ("there", 0.5, 0.9, 0.8)]
        recordings.append_segments(
            store,
            rid,
            [SegmentIn(i * 2.0, i * 2.0 + 1, f"Hello there {n} {i}", words=words) for i in range(6)],
        )
        rids.append(rid)
    spans = [(rids[0], 1, 2), (rids[1], 0, 0), (rids[1], 4, 9)]
    found = recordings.segments_in_spans(store, spans)
    assert [(s.recording_id, s.idx) for s in found] == [
        (rids[0], 1),
        (rids[0], 2),
        (rids[1], 0),
        (rids[1], 4),
        (rids[1], 5),
    ]
    one_by_one = [
        s for rid, lo, hi in spans for s in recordings.list_segments(store, rid, first_idx=lo, last_idx=hi)
    ]
    assert found == one_by_one and all(s.words for s in found)
    light = recordings.segments_in_spans(store, spans, with_words=False)
    assert [s.words for s in light] == [[]] * len(found)
    assert [(s.id, s.text, s.start, s.end) for s in light] == [(s.id, s.text, s.start, s.end) for s in found]
