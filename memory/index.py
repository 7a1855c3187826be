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

from memory.chunking import ChunkSpec
from memory.store import Store

VECTOR_TABLE = "chunk_vectors"
_META_MODEL = "vectors.model"
_META_DIMS = "vectors.dims"


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
def vector_state(store: Store) -> tuple[str, int] | None:
    """(model, dims) of the vector table, or None when there is none yet."""
    if not _table_exists(store, VECTOR_TABLE):
        return None
    model = store.scalar("SELECT value FROM store_meta WHERE key = ?", (_META_MODEL,))
    dims = store.scalar("SELECT value FROM store_meta WHERE key = ?", (_META_DIMS,))
    if model is None or dims is None:
        return None
    return str(model), int(dims)


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
        store.execute(f"DROP TRIGGER IF EXISTS {VECTOR_TABLE}_delete")
        store.execute(f"DROP TABLE IF EXISTS {VECTOR_TABLE}")
        store.execute(
            f"CREATE VIRTUAL TABLE {VECTOR_TABLE} USING vec0(chunk_id INTEGER PRIMARY KEY,"
            f" project_id INTEGER PARTITION KEY, spoken_at TEXT,"
            f" embedding float[{int(dims)}] distance_metric=cosine)"
        )
        # Chunks also disappear through ON DELETE CASCADE (a recording deleted): vectors follow.
        store.execute(
            f"CREATE TRIGGER {VECTOR_TABLE}_delete AFTER DELETE ON chunks BEGIN"
            f" DELETE FROM {VECTOR_TABLE} WHERE chunk_id = old.id; END"
        )
        store.executemany(
            "INSERT OR REPLACE INTO store_meta (key, value) VALUES (?, ?)",
            [(_META_MODEL, model), (_META_DIMS, str(int(dims)))],
        )
        store.execute("UPDATE chunks SET embedded = 0 WHERE embedded = 1")
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
        f"INSERT INTO {VECTOR_TABLE} (chunk_id, project_id, spoken_at, embedding) VALUES (?, ?, ?, ?)",
        [(cid, pid, at, _blob(v)) for cid, pid, at, v in rows],
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


def index_stats(store: Store) -> dict[str, int]:
    row = store.one(
        "SELECT count(*) AS chunks, coalesce(sum(embedded), 0) AS embedded,"
        " coalesce(sum(provisional), 0) AS provisional FROM chunks"
    )
    assert row is not None
    return {k: int(v) for k, v in row.items()}
