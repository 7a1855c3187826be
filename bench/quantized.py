"""An int8 copy of the vector table, to compare with the binary first pass the product uses.

A float KNN over every passage reads 1.5 KB per passage; int8 reads a quarter of that and binary
a thirty-second. The quantised search over-fetches candidates and their exact float distances
decide the order, so only the recall of the first stage is lost. Measured by `verbatim bench
search` (the numbers are in docs/benchmarks.md).
"""

from __future__ import annotations

import numpy as np

from memory.search.index import VECTOR_TABLE
from memory.store.store import Store

KINDS = ("int8",)  # binary lives in the product's own vector table (memory/search/index.py)
OVERSAMPLE = 8  # quantised candidates per wanted result

_COLUMN = {"int8": "int8[{dims}] distance_metric=cosine", "bit": "bit[{dims}]"}
_QUANTISE = {"int8": "vec_quantize_int8({value}, 'unit')", "bit": "vec_quantize_binary({value})"}


def table(kind: str) -> str:
    return f"{VECTOR_TABLE}_{kind}"


def build(store: Store, dims: int, kinds: tuple[str, ...] = KINDS) -> None:
    """(Re)create the quantised tables from the float vector table."""
    for kind in kinds:
        with store.transaction():
            store.execute(f"DROP TABLE IF EXISTS {table(kind)}")
            store.execute(
                f"CREATE VIRTUAL TABLE {table(kind)} USING vec0(chunk_id INTEGER PRIMARY KEY,"
                f" project_id INTEGER PARTITION KEY, embedding {_COLUMN[kind].format(dims=int(dims))})"
            )
            quantised = _QUANTISE[kind].format(value="embedding")
            store.execute(
                f"INSERT INTO {table(kind)} (chunk_id, project_id, embedding)"
                f" SELECT chunk_id, project_id, {quantised} FROM {VECTOR_TABLE}"
            )


def search(
    store: Store, kind: str, vector: np.ndarray, scope: object, k: int, model: str
) -> list[tuple[int, float]]:
    """(chunk_id, cosine similarity) best first: quantised KNN, then exact rescoring."""
    from memory.search.retrieval import rescore

    project_ids = getattr(scope, "project_ids", None)
    blob = np.asarray(vector, dtype="<f4").tobytes()
    wanted = min(k * OVERSAMPLE, 4096)
    quantised = _QUANTISE[kind].format(value="?")
    sql = f"SELECT chunk_id FROM {table(kind)} WHERE embedding MATCH {quantised} AND k = ?"
    candidates: list[int] = []
    if project_ids is None:
        candidates = [r[0] for r in store.rows(sql, (blob, wanted))]
    else:
        for pid in project_ids:
            candidates += [r[0] for r in store.rows(sql + " AND project_id = ?", (blob, wanted, pid))]
    return rescore(store, candidates, vector, model)[:k]
