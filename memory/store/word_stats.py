"""How common a word is where a search looks: the passages of the projects searched.

FTS5 counts over the whole index, so one project's size skewed every other: import a 60 MB text
into "Scratch" and "budget" became a common word everywhere, weighed next to nothing in BM25 and in
the relevance gate, and "What is the phase one budget for Hartwell?" went unanswered even when
asked of Hartwell alone. Here a word's share is counted over the passages of the projects searched:
a project is searched as if the others were absent, and archived projects (left out of the scope)
count for nothing. Across all projects the share is the whole library's, as BM25 means it: a
word that a huge import repeats does tell its passages apart less well there. Weighing each
project alike instead was measured and dropped (docs/benchmarks.md, "One project's size").

Counts are kept per process and taken again when a passage is added, removed or moved to another
project (a count the database keeps by triggers); one read of a word's postings gives every
project's count at once.
"""

from __future__ import annotations

import math
import threading
import weakref
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from memory.store.store import Store

_MAX_WORDS = 50_000


@dataclass(frozen=True)
class WordStats:
    """Statistics of the query's words over a scope: `shares[w]` in 0–1, and `passages`, the
    passages in scope (the N that turns a share back into a count)."""

    shares: dict[str, float]
    passages: float

    def count(self, word: str) -> float:
        return self.shares.get(word, 0.0) * self.passages

    def idf(self, word: str) -> float:
        """BM25's idf as FTS5 computes it, from this scope's N and document count."""
        n, df = max(self.passages, 1.0), self.count(word)
        return max(1e-6, math.log((n - df + 0.5) / (df + 0.5)))


class _Counts:
    def __init__(self, version: int, ids: np.ndarray, projects: np.ndarray) -> None:
        self.version = version
        self.ids = ids  # every passage id, ascending
        self.codes, self.project_of_code = _codes(projects)  # each passage's project, as 0..P-1
        self.sizes = {
            int(p): int(n) for p, n in zip(self.project_of_code, np.bincount(self.codes), strict=True)
        }
        self.docs: dict[str, dict[int, int]] = {}  # word -> project id -> passages holding it


def _codes(projects: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    unique, codes = np.unique(projects, return_inverse=True)
    return codes.astype(np.int64), unique


_counts: weakref.WeakKeyDictionary[Store, _Counts] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def _version(store: Store) -> int:
    """Changes to the passages so far: every insert, deletion and move of one counts
    (migration 0080_passage_changes.sql), which the largest id and the count alone do not tell."""
    return int(store.scalar("SELECT n FROM passage_changes WHERE id = 1") or 0)


def _current(store: Store) -> _Counts:
    version = _version(store)
    counts = _counts.get(store)
    if counts is None or counts.version != version:
        rows = store.rows("SELECT id, project_id FROM chunks ORDER BY id")
        table = np.array(rows, dtype=np.int64).reshape(-1, 2)
        counts = _counts[store] = _Counts(version, table[:, 0], table[:, 1])
    if len(counts.docs) > _MAX_WORDS:
        counts.docs.clear()
    return counts


def _match(word: str) -> str:
    """One word as an FTS5 string (never an operator)."""
    return '"' + word.replace('"', '""') + '"'


def _per_project(store: Store, counts: _Counts, word: str) -> dict[int, int]:
    """Passages holding the word, per project. The matching ids are read from FTS5 alone and placed
    by the passage table held in memory (a join to chunks costs ~30 times as much per match)."""
    found = counts.docs.get(word)
    if found is None:
        matched = np.array(
            [
                r[0]
                for r in store.rows("SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?", (_match(word),))
            ],
            dtype=np.int64,
        )
        at = np.searchsorted(counts.ids, matched)
        inside = at < len(counts.ids)
        at, matched = at[inside], matched[inside]
        at = at[counts.ids[at] == matched]  # a passage written since the table was read is not counted
        held = np.bincount(counts.codes[at], minlength=len(counts.project_of_code))
        found = counts.docs[word] = {
            int(p): int(n) for p, n in zip(counts.project_of_code, held, strict=True) if n
        }
    return found


def word_stats(store: Store, words: Iterable[str], project_ids: Sequence[int] | None = None) -> WordStats:
    """Each word's share of the passages of the projects in scope (None: the whole library, which
    is what FTS5's bm25() counts with); words as the index tokenizer stems them (FTS5 matching)."""
    unique = list(dict.fromkeys(words))
    with _lock:
        counts = _current(store)
        scope = list(counts.sizes) if project_ids is None else [p for p in project_ids if counts.sizes.get(p)]
        passages = sum(counts.sizes[p] for p in scope)
        if not passages:
            return WordStats({w: 0.0 for w in unique}, 0.0)
        shares = {}
        for word in unique:
            held = _per_project(store, counts, word)
            shares[word] = sum(held.get(p, 0) for p in scope) / passages
    return WordStats(shares, float(passages))
