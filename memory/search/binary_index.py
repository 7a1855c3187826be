"""All-project vector search of a large library, from a copy of its binary vectors in memory.

sqlite-vec scans the 48-byte sign bits of every passage for each query (300–800 ms at a million
passages on 2 cores); the same bits held as six numpy columns are compared in ~20 ms. The caller
rescores the candidates with exact cosines, so the copy only decides what is looked at.

The copy is loaded on a process's second all-project search (a one-off CLI search does not pay
~0.3 s per 100,000 passages for it) and kept per store. Before each search it is brought up to
date: new vectors (chunk ids above the highest loaded, the way the index hands them out) are read
one by one; any other change in the number of vectors, or a new embedding model, reloads it.
A passage re-embedded under the same id keeps its old bits until then: its exact score is current.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass

import numpy as np

from memory.search.index import VECTOR_TABLE
from memory.store.store import Store

ROWIDS = f"{VECTOR_TABLE}_rowids"  # sqlite-vec's own table of the rows it holds (a plain table)


@dataclass
class _Copy:
    model: str
    ids: np.ndarray  # int64 chunk ids
    columns: list[np.ndarray]  # one uint64 array per 64 dimensions (six for MiniLM's 384)
    highest: int
    seen: tuple[int, int] = (-1, -1)  # the store's write counters when the copy was last checked


_copies: weakref.WeakKeyDictionary[Store, _Copy | int] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def candidates(store: Store, vector: np.ndarray, model: str, wanted: int) -> list[int] | None:
    """Chunk ids of the `wanted` nearest sign patterns, or None when the copy is not used (yet)."""
    with _lock:
        found = _copies.get(store)
        if found is None:  # the first search of this process: sqlite-vec does it
            _copies[store] = 1
            return None
        if not isinstance(found, _Copy) or found.model != model:
            found = _load(store, model)
        else:
            found = _refresh(store, found)
        if found is None:
            return None
        _copies[store] = found
    if len(found.ids) == 0 or not found.columns:
        return []
    query = _bits(store, vector)
    distance = np.bitwise_count(found.columns[0] ^ query[0]).astype(np.uint16)
    for column, word in zip(found.columns[1:], query[1:], strict=True):
        distance += np.bitwise_count(column ^ word)
    take = min(wanted, len(distance))
    nearest = np.argpartition(distance, take - 1)[:take] if take < len(distance) else np.arange(len(distance))
    return [int(i) for i in found.ids[nearest]]


def preload(store: Store, model: str) -> None:
    """Read the copy now (the desktop app's start), instead of on the process's second search."""
    with _lock:
        found = _copies.get(store)
        if not isinstance(found, _Copy) or found.model != model:
            loaded = _load(store, model)
            if loaded is not None:
                _copies[store] = loaded


def _bits(store: Store, vector: np.ndarray) -> np.ndarray:
    # sqlite-vec's own quantiser, so the query's bits are packed exactly as the stored ones.
    blob = store.scalar("SELECT vec_quantize_binary(?)", (np.asarray(vector, dtype="<f4").tobytes(),))
    return np.frombuffer(_padded(bytes(blob)), dtype=np.uint64)


def _padded(bits: bytes) -> bytes:
    """Whole 64-bit words (a model whose dimensions are not a multiple of 64 leaves a part word)."""
    return bits + b"\0" * (-len(bits) % 8)


def _shape(store: Store) -> tuple[int, int]:
    highest, count = store.rows(f"SELECT coalesce(max(rowid), 0), count(*) FROM {ROWIDS}")[0]
    return int(highest), int(count)


def _load(store: Store, model: str) -> _Copy | None:
    highest, _ = _shape(store)
    rows = store.rows(f"SELECT chunk_id, embedding_bit FROM {VECTOR_TABLE}")
    return _copy(model, rows, highest)


def _writes(store: Store) -> tuple[int, int]:
    """Changes made through this connection, and commits by any other: both cost nothing to read,
    where counting the vectors of a large library takes tens of milliseconds."""
    return int(store.conn.total_changes()), int(store.scalar("PRAGMA data_version"))


def _refresh(store: Store, copy: _Copy) -> _Copy | None:
    writes = _writes(store)
    if writes == copy.seen:
        return copy
    copy.seen = writes
    highest, count = _shape(store)
    if highest == copy.highest and count == len(copy.ids):
        return copy
    new = store.rows(f"SELECT rowid FROM {ROWIDS} WHERE rowid > ?", (copy.highest,))
    if count != len(copy.ids) + len(new):  # something was deleted or rebuilt: read it all again
        return _load(store, copy.model)
    rows = [
        row
        for (chunk_id,) in new
        for row in store.rows(
            f"SELECT chunk_id, embedding_bit FROM {VECTOR_TABLE} WHERE chunk_id = ?", (chunk_id,)
        )
    ]
    added = _copy(copy.model, rows, highest)
    return _Copy(
        copy.model,
        np.concatenate([copy.ids, added.ids]),
        [np.concatenate([a, b]) for a, b in zip(copy.columns, added.columns, strict=True)],
        highest,
    )


def _copy(model: str, rows: list[tuple], highest: int) -> _Copy:
    ids = np.fromiter((r[0] for r in rows), dtype=np.int64, count=len(rows))
    words = len(_padded(bytes(rows[0][1]))) // 8 if rows else 0
    joined = b"".join(_padded(bytes(r[1])) for r in rows)
    bits = np.frombuffer(joined, dtype=np.uint64).reshape(len(rows), words)
    return _Copy(model, ids, [np.ascontiguousarray(bits[:, j]) for j in range(words)], highest)
