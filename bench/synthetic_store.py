"""Bulk-fill a store with synthetic recordings, segments, chunks and vectors (for `bench search`).

The text is real dictation and meeting text reshuffled: each synthetic passage is five segments
sampled from a pool of real segments, so term statistics (and BM25's work) look like a real
library's. Vectors are given by the caller. Everything is written through the same functions as
normal indexing (one transaction per recording), so the store is laid out as a real one.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta

import numpy as np

from memory.search.chunking import ChunkSpec, chunk_segments, content_hash
from memory.search.index import (
    VECTOR_TABLE,
    SegmentText,
    cache_vectors,
    ensure_vector_table,
    write_chunks,
    write_segment_vectors,
)
from memory.store.recordings import Segment, SegmentIn, append_segments, create_recording, list_segments
from memory.store.store import Store, now_iso

SEGMENTS_PER_CHUNK = 5
CHUNKS_PER_RECORDING = 20


def chunk_spec(segments: Sequence[Segment]) -> ChunkSpec:
    """Exactly these segments as one chunk (the synthetic store's fixed five-segment passages)."""
    specs = chunk_segments(segments, max_words=10**9)
    assert len(specs) == 1
    return specs[0]


def fill_synthetic(
    store: Store,
    *,
    n_chunks: int,
    pool: Sequence[tuple[str | None, str]],
    vectors: Callable[[int, int], np.ndarray],
    model: str,
    dims: int,
    projects: int = 12,
    years: float = 3.0,
    seed: int = 7,
    progress: Callable[[int], None] | None = None,
) -> None:
    """`n_chunks` chunks in recordings of 20 chunks, spread over `projects` and `years`.

    `pool` holds (speaker, text) segments to sample; `vectors(first, count)` returns unit vectors
    for chunks first..first+count-1.
    """
    rng = np.random.default_rng(seed)
    ensure_vector_table(store, model, dims)
    with store.transaction():
        project_ids = [
            store.execute(
                "INSERT INTO projects (name, slug, created_at) VALUES (?, ?, ?)",
                (f"Client {p:02d}", f"client-{p:02d}", now_iso()),
            )
            for p in range(projects)
        ]
    start_day = datetime(2023, 1, 2, 9, 0)
    made = 0
    while made < n_chunks:
        count = min(CHUNKS_PER_RECORDING, n_chunks - made)
        project_id = project_ids[int(rng.integers(len(project_ids)))]
        spoken = start_day + timedelta(days=float(rng.uniform(0, 365 * years)))
        spoken_at = spoken.replace(microsecond=0).isoformat()
        _one_recording(store, rng, pool, project_id, spoken_at, count, made, vectors(made, count), model)
        made += count
        if progress is not None and made % 10_000 < CHUNKS_PER_RECORDING:
            progress(made)


def _one_recording(
    store: Store,
    rng: np.random.Generator,
    pool: Sequence[tuple[str | None, str]],
    project_id: int,
    spoken_at: str,
    count: int,
    first: int,
    vectors: np.ndarray,
    model: str,
) -> None:
    """One recording written through the product's own write paths (segments, chunks, vectors)."""
    picks = rng.integers(len(pool), size=count * SEGMENTS_PER_CHUNK)
    segments_in = []
    t = 0.0
    for i in picks:
        speaker, text = pool[int(i)]
        length = max(1.0, len(text.split()) / 2.5)
        segments_in.append(SegmentIn(start=t, end=t + length, text=text, speaker=speaker))
        t += length + 0.5
    with store.transaction():
        rid = create_recording(
            store,
            project_id=project_id,
            spoken_at=spoken_at,
            source="transcript",
            status="indexed",
            title=f"synthetic {first // CHUNKS_PER_RECORDING}",
        )
        append_segments(store, rid, segments_in)
        segments = list_segments(store, rid)
        specs = [
            chunk_spec(segments[c * SEGMENTS_PER_CHUNK : (c + 1) * SEGMENTS_PER_CHUNK]) for c in range(count)
        ]
        by_hash = {spec.content_sha256: vectors[c] for c, spec in enumerate(specs)}
        cache_vectors(store, model, by_hash)
        write_chunks(
            store,
            recording_id=rid,
            project_id=project_id,
            spoken_at=spoken_at,
            remove=[],
            add=specs,
            vectors=by_hash,
        )
        # Segment vectors near their chunk's (a sentence is about what its passage is about).
        items = [SegmentText(seg.id, seg.text, content_hash(seg.text)) for seg in segments]
        noise = rng.normal(size=(len(items), vectors.shape[1])) / np.sqrt(vectors.shape[1])
        near = np.repeat(vectors, SEGMENTS_PER_CHUNK, axis=0)[: len(items)] + noise
        write_segment_vectors(store, model, items, near / np.linalg.norm(near, axis=1, keepdims=True))


def all_vectors(store: Store, dims: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(chunk ids, project ids, vectors) of the whole vector table: the numpy baseline's input."""
    rows = store.rows(f"SELECT chunk_id, project_id, embedding FROM {VECTOR_TABLE} ORDER BY chunk_id")
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    projects = np.fromiter((r[1] for r in rows), dtype=np.int64, count=len(rows))
    matrix = np.frombuffer(b"".join(r[2] for r in rows), dtype="<f4").reshape(len(rows), dims)
    return ids, projects, matrix


def project_ids(store: Store) -> list[int]:
    return [int(r[0]) for r in store.rows("SELECT id FROM projects ORDER BY id")]
