"""The search index: chunks (FTS5 via triggers), their vectors (sqlite-vec) and the embedding cache.

The vector table is created at run time because its width is the embedding model's: store_meta
records which model filled it, and a different model means a rebuild (vectors come back from the
embedding cache when that model was used before, else they are computed again). Project is the
vec0 partition key, so a per-project search only scans that project's vectors; spoken_at is a
metadata column so a date range filters during the KNN, not after it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from memory.search.chunking import ChunkSpec, chunk_text, content_hash, count_words
from memory.store.recordings import list_segments
from memory.store.store import Store

VECTOR_TABLE = "chunk_vectors"
_META_MODEL = "vectors.model"
_META_DIMS = "vectors.dims"
_META_LAYOUT = "vectors.layout"
# The table's columns: float vectors for exact search, and their binary quantisation (1 bit a
# dimension) for a fast first pass over a large library, rescored exactly from the embedding cache.
LAYOUT = "float+bit/1"


@dataclass(frozen=True)
class StoredChunk:
    id: int
    recording_id: int
    project_id: int
    first_idx: int
    last_idx: int
    start: float
    end: float
    spoken_at: str
    text: str
    content_sha256: str
    provisional: bool
    embedded: bool

    @property
    def key(self) -> tuple[int, int, str]:
        return (self.first_idx, self.last_idx, self.content_sha256)


@dataclass(frozen=True)
class LiveSegment:
    """A segment of the provisional live transcript (no speaker)."""

    idx: int
    start: float
    end: float
    text: str
    speaker: str | None = None


# --- vector table ----------------------------------------------------------------------------------
def library_size(store: Store) -> int:
    """About how many passages there are (the largest id: instant, where count(*) reads them all)."""
    return int(store.scalar("SELECT coalesce(max(id), 0) FROM chunks"))


def vector_state(store: Store) -> tuple[str, int] | None:
    """(model, dims) of the vector table, or None when there is none yet."""
    if not _table_exists(store, VECTOR_TABLE):
        return None
    meta = dict(store.rows("SELECT key, value FROM store_meta WHERE key LIKE 'vectors.%'"))
    if meta.get(_META_LAYOUT) != LAYOUT or _META_MODEL not in meta or _META_DIMS not in meta:
        return None  # an older layout is rebuilt (from the cache) like a change of model
    return str(meta[_META_MODEL]), int(meta[_META_DIMS])


def _table_exists(store: Store, name: str) -> bool:
    return store.scalar("SELECT 1 FROM sqlite_master WHERE name = ?", (name,)) is not None


def ensure_vector_table(store: Store, model: str, dims: int) -> bool:
    """Make the vector table hold `model`'s vectors. True when it was (re)built empty.

    A rebuild marks every chunk unembedded; the caller fills the table again in batches.
    """
    if vector_state(store) == (model, dims):
        return False
    if not 1 <= dims <= 8192:
        raise ValueError(f"unexpected embedding width {dims}")
    with store.transaction():
        # Read again under the write lock: two first callers (the indexing pass and an ask) both
        # saw no table; the second must not drop the vectors the first has written since.
        if vector_state(store) == (model, dims):
            return False
        store.execute(f"DROP TRIGGER IF EXISTS {VECTOR_TABLE}_delete")
        store.execute(f"DROP TABLE IF EXISTS {VECTOR_TABLE}")
        store.execute(
            f"CREATE VIRTUAL TABLE {VECTOR_TABLE} USING vec0(chunk_id INTEGER PRIMARY KEY,"
            f" project_id INTEGER PARTITION KEY, spoken_at TEXT,"
            f" embedding float[{int(dims)}] distance_metric=cosine, embedding_bit bit[{int(dims)}])"
        )
        # Chunks also disappear through ON DELETE CASCADE (a recording deleted): vectors follow.
        store.execute(
            f"CREATE TRIGGER {VECTOR_TABLE}_delete AFTER DELETE ON chunks BEGIN"
            f" DELETE FROM {VECTOR_TABLE} WHERE chunk_id = old.id; END"
        )
        store.executemany(
            "INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)",
            [(_META_MODEL, model), (_META_DIMS, str(int(dims))), (_META_LAYOUT, LAYOUT)],
        )
        store.execute("UPDATE chunks SET embedded = 0 WHERE embedded = 1")
        store.execute("DELETE FROM segment_vectors WHERE model != ?", (model,))
    return True


# --- embedding cache ---------------------------------------------------------------------------------
def cached_vectors(store: Store, hashes: Iterable[str], model: str) -> dict[str, np.ndarray]:
    wanted = sorted(set(hashes))
    found: dict[str, np.ndarray] = {}
    for start in range(0, len(wanted), 500):
        part = wanted[start : start + 500]
        marks = ",".join("?" * len(part))
        for sha, blob in store.rows(
            f"SELECT content_sha256, vector FROM embeddings WHERE model = ? AND content_sha256 IN ({marks})",
            [model, *part],
        ):
            found[sha] = np.frombuffer(blob, dtype="<f4").copy()
    return found


def cache_vectors(store: Store, model: str, vectors: dict[str, np.ndarray]) -> None:
    store.executemany(
        "INSERT OR IGNORE INTO embeddings (content_sha256, model, vector) VALUES (?, ?, ?)",
        [(sha, model, _blob(v)) for sha, v in vectors.items()],
    )


def _blob(vector: np.ndarray) -> bytes:
    return np.asarray(vector, dtype="<f4").tobytes()


# --- chunks --------------------------------------------------------------------------------------------
_CHUNK_COLUMNS = (
    "id, recording_id, project_id, first_idx, last_idx, start, end, spoken_at, text, content_sha256,"
    " provisional, embedded"
)


def _chunk(row: tuple) -> StoredChunk:
    values = list(row)
    values[10], values[11] = bool(values[10]), bool(values[11])
    return StoredChunk(*values)


def recording_chunks(store: Store, recording_id: int) -> list[StoredChunk]:
    rows = store.rows(
        f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE recording_id = ? ORDER BY provisional, first_idx",
        (recording_id,),
    )
    return [_chunk(r) for r in rows]


def get_chunks(store: Store, chunk_ids: Sequence[int]) -> list[StoredChunk]:
    found: list[StoredChunk] = []
    for start in range(0, len(chunk_ids), 500):
        part = list(chunk_ids[start : start + 500])
        marks = ",".join("?" * len(part))
        found += [
            _chunk(r) for r in store.rows(f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE id IN ({marks})", part)
        ]
    return found


def unembedded_chunks(store: Store, *, limit: int, after_id: int = 0) -> list[StoredChunk]:
    rows = store.rows(
        f"SELECT {_CHUNK_COLUMNS} FROM chunks WHERE embedded = 0 AND id > ? ORDER BY id LIMIT ?",
        (after_id, limit),
    )
    return [_chunk(r) for r in rows]


def count_unembedded(store: Store) -> int:
    return int(store.scalar("SELECT count(*) FROM chunks WHERE embedded = 0"))


def live_segments(store: Store, recording_id: int) -> list[LiveSegment]:
    rows = store.rows(
        "SELECT idx, start, end, text FROM live_segments WHERE recording_id = ? ORDER BY idx", (recording_id,)
    )
    return [LiveSegment(*r) for r in rows]


def _insert_vectors(store: Store, rows: Sequence[tuple[int, int, str, np.ndarray]]) -> None:
    """(chunk_id, project_id, spoken_at, vector): written and the chunk marked embedded."""
    if not rows:
        return
    # vec0 has no upsert: a chunk that had a vector (a rebuild in progress) loses it first.
    store.executemany(f"DELETE FROM {VECTOR_TABLE} WHERE chunk_id = ?", [(r[0],) for r in rows])
    store.executemany(
        f"INSERT INTO {VECTOR_TABLE} (chunk_id, project_id, spoken_at, embedding, embedding_bit)"
        " VALUES (?, ?, ?, ?, vec_quantize_binary(?))",
        [(cid, pid, at, _blob(v), _blob(v)) for cid, pid, at, v in rows],
    )
    store.executemany("UPDATE chunks SET embedded = 1 WHERE id = ?", [(r[0],) for r in rows])


def write_chunks(
    store: Store,
    *,
    recording_id: int,
    project_id: int,
    spoken_at: str,
    remove: Sequence[int],
    add: Sequence[ChunkSpec],
    vectors: dict[str, np.ndarray],
    provisional: bool = False,
) -> list[int]:
    """Remove and add chunks of one recording, with their vectors, in one transaction.

    A chunk whose text has no vector in `vectors` is stored unembedded (keyword search finds it at
    once; the vector follows when an embedder is available).
    """
    new_ids: list[int] = []
    with store.transaction():
        if remove:
            store.executemany("DELETE FROM chunks WHERE id = ?", [(cid,) for cid in remove])
        vector_rows = []
        for spec in add:
            chunk_id = store.execute(
                "INSERT INTO chunks (recording_id, project_id, first_idx, last_idx, start, end, spoken_at,"
                " text, content_sha256, provisional, embedded) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 0)",
                (
                    recording_id,
                    project_id,
                    spec.first_idx,
                    spec.last_idx,
                    spec.start,
                    spec.end,
                    spoken_at,
                    spec.text,
                    spec.content_sha256,
                    int(provisional),
                ),
            )
            new_ids.append(chunk_id)
            if spec.content_sha256 in vectors:
                vector_rows.append((chunk_id, project_id, spoken_at, vectors[spec.content_sha256]))
        _insert_vectors(store, vector_rows)
    return new_ids


def unfile_vectors(store: Store, recording_id: int) -> None:
    """A note moved to another project: its vectors leave the old project's partition (the chunks
    are marked unembedded, and indexing files them again from the embedding cache)."""
    with store.transaction():
        if _table_exists(store, VECTOR_TABLE):
            store.execute(
                f"DELETE FROM {VECTOR_TABLE} WHERE chunk_id IN"
                " (SELECT id FROM chunks WHERE recording_id = ?)",
                (recording_id,),
            )
        store.execute("UPDATE chunks SET embedded = 0 WHERE recording_id = ?", (recording_id,))


def forget_vectors(store: Store, hashes: Iterable[str]) -> int:
    """Drop cached vectors of texts no passage holds any more (a note deleted for good)."""
    gone = 0
    wanted = sorted(set(hashes))
    with store.transaction():
        for start in range(0, len(wanted), 500):
            part = wanted[start : start + 500]
            marks = ",".join("?" * len(part))
            unused = [
                sha
                for (sha,) in store.rows(
                    f"SELECT DISTINCT content_sha256 FROM embeddings WHERE content_sha256 IN ({marks})"
                    " AND content_sha256 NOT IN (SELECT content_sha256 FROM chunks)",
                    part,
                )
            ]
            store.executemany("DELETE FROM embeddings WHERE content_sha256 = ?", [(sha,) for sha in unused])
            gone += len(unused)
    return gone


def write_vectors(store: Store, chunks: Sequence[StoredChunk], vectors: dict[str, np.ndarray]) -> int:
    """Vectors for chunks already stored (a rebuild, or chunks stored while no embedder was there)."""
    rows = [
        (c.id, c.project_id, c.spoken_at, vectors[c.content_sha256])
        for c in chunks
        if c.content_sha256 in vectors
    ]
    with store.transaction():
        # The chunk may have gone meanwhile (re-chunked by an edit): only live ids get a vector.
        live = (
            {
                r[0]
                for r in store.rows(
                    f"SELECT id FROM chunks WHERE id IN ({','.join('?' * len(rows))})", [r[0] for r in rows]
                )
            }
            if rows
            else set()
        )
        _insert_vectors(store, [r for r in rows if r[0] in live])
    return len(live)


# --- segment vectors ---------------------------------------------------------------------------------
MIN_SEGMENT_WORDS = 4  # "Yeah." or "Check one." carries no meaning worth a vector


@dataclass(frozen=True)
class SegmentText:
    segment_id: int
    text: str  # what is embedded: "Speaker: words", edits applied
    content_sha256: str


def segments_to_embed(store: Store, recording_id: int, model: str, *, upto_idx: int) -> list[SegmentText]:
    """Segments (idx <= upto_idx) whose vector is missing, stale (edited) or from another model."""
    found = []
    for seg in list_segments(store, recording_id, last_idx=upto_idx):
        if count_words(seg.text) < MIN_SEGMENT_WORDS:
            continue
        text = chunk_text([seg])
        found.append(SegmentText(seg.id, text, content_hash(text)))
    if not found:
        return []
    current = {
        int(sid): (str(m), str(sha))
        for sid, m, sha in store.rows(
            "SELECT sv.segment_id, sv.model, sv.content_sha256 FROM segment_vectors sv"
            " JOIN segments s ON s.id = sv.segment_id WHERE s.recording_id = ?",
            (recording_id,),
        )
    }
    return [s for s in found if current.get(s.segment_id) != (model, s.content_sha256)]


def quantise_int8(vectors: np.ndarray) -> np.ndarray:
    """Each row scaled so its largest component is ±127 (cosine ranks are kept)."""
    peak = np.maximum(np.abs(vectors).max(axis=-1, keepdims=True), 1e-12)
    return np.round(vectors / peak * 127).astype(np.int8)


def write_segment_vectors(
    store: Store, model: str, items: Sequence[SegmentText], vectors: np.ndarray
) -> None:
    rows = [
        (item.segment_id, model, item.content_sha256, q.tobytes())
        for item, q in zip(items, quantise_int8(np.asarray(vectors)), strict=True)
    ]
    with store.transaction():
        store.executemany(
            "INSERT OR REPLACE INTO segment_vectors (segment_id, model, content_sha256, vector)"
            " VALUES (?, ?, ?, ?)",
            rows,
        )


def recordings_missing_segment_vectors(store: Store, model: str) -> list[int]:
    """Recordings with chunks whose segments have no vector from `model` (after a model change)."""
    rows = store.rows(
        "SELECT DISTINCT c.recording_id FROM chunks c JOIN segments s ON s.recording_id = c.recording_id"
        " AND s.idx BETWEEN c.first_idx AND c.last_idx"
        " LEFT JOIN segment_vectors sv ON sv.segment_id = s.id AND sv.model = ?"
        " WHERE c.provisional = 0 AND sv.segment_id IS NULL AND length(s.text) >= 12",
        (model,),
    )
    return [int(r[0]) for r in rows]


def index_stats(store: Store) -> dict[str, int]:
    row = store.one(
        "SELECT count(*) AS chunks, coalesce(sum(embedded), 0) AS embedded,"
        " coalesce(sum(provisional), 0) AS provisional FROM chunks"
    )
    assert row is not None
    return {k: int(v) for k, v in row.items()}


def external_segment_ids(store: Store) -> dict[int, str]:
    """Segment id → the id an imported corpus gave it (what evaluations cite)."""
    rows = store.rows("SELECT id, external_id FROM segments WHERE external_id IS NOT NULL")
    return {int(i): str(e) for i, e in rows}


def recordings_summary(store: Store) -> tuple[int, str | None]:
    """(number of recordings, when the newest was spoken)."""
    row = store.rows("SELECT count(*), max(spoken_at) FROM recordings WHERE trashed_at IS NULL")[0]
    return int(row[0]), row[1]
