"""How common each query word is in the keyword index, to leave the commonest out of the search.

BM25 gives a word in more than half of all passages no weight at all (FTS5's IDF is floored at
1e-6 there), and a word in a fifth of them little; yet FTS5 reads and scores every passage such a
word occurs in. At 100,000 passages one such word costs ~20 ms of a search. The share of passages
holding a word is counted once per process (a count over the word's postings) and kept, scaled by
the library's size as it grows.

The cut is RankingOptions.common_share. At 0.5 nothing changes but the time (100,000 passages:
keyword p95 38 → 27 ms); lower cuts are faster still but change what is found (measured on the dev
sets with the cut forced on: 0.3 costs 0.4 points of locomo-dev recall@400, 0.2 costs 0.8).
"""

from __future__ import annotations

import threading
import weakref

from memory.search import fts
from memory.search.index import library_size
from memory.store.store import Store

SMALL_LIBRARY = 5_000  # passages: below this, every word is searched for
RECOUNT_GROWTH = 1.25  # the library grew by a quarter since the counts: count again
_MAX_WORDS = 50_000


class _Counts:
    def __init__(self, size: int) -> None:
        self.size = size  # passages when the counts were taken
        self.docs: dict[str, int] = {}


_counts: weakref.WeakKeyDictionary[Store, _Counts] = weakref.WeakKeyDictionary()
_lock = threading.Lock()


def doc_shares(store: Store, terms: list[str]) -> dict[str, float]:
    """Share of the library's passages each term occurs in (as the index stems it), 0–1."""
    size = library_size(store)
    with _lock:
        counts = _counts.get(store)
        if counts is None or size > counts.size * RECOUNT_GROWTH or size < counts.size / RECOUNT_GROWTH:
            counts = _counts[store] = _Counts(size)
        if len(counts.docs) > _MAX_WORDS:
            counts.docs.clear()
        for term in terms:
            if term not in counts.docs:
                counts.docs[term] = int(
                    store.scalar(
                        "SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH ?",
                        (fts.match_expression([term]),),
                    )
                )
        return {t: counts.docs[t] / max(counts.size, 1) for t in terms}


def selective_terms(store: Store, terms: list[str], common_share: float) -> list[str]:
    """The terms worth searching for: those in at most `common_share` of the passages. All of them
    in a small library (where every search is fast, and a word in two of five notes is not
    "common"), or when none of the rarer terms occurs at all."""
    if common_share >= 1.0 or len(terms) < 2 or library_size(store) < SMALL_LIBRARY:
        return terms
    shares = doc_shares(store, terms)
    rare = [t for t in terms if shares[t] <= common_share]
    return rare if any(shares[t] > 0 for t in rare) else terms
