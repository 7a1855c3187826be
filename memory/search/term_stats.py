"""How common each query word is in the keyword index, to leave the commonest out of the search.

BM25 gives a word in more than half of all passages no weight at all (FTS5's IDF is floored at
1e-6 there), and a word in a fifth of them little; yet FTS5 reads and scores every passage such a
word occurs in. At 100,000 passages one such word costs ~20 ms of a search. The share of passages
holding a word is counted in the projects searched (memory/store/word_stats.py), so a word that
one huge project repeats is still searched for within the others.

The cut is RankingOptions.common_share. At 0.5 nothing changes but the time (100,000 passages:
keyword p95 38 → 27 ms); lower cuts are faster still but change what is found (measured on the dev
sets with the cut forced on: 0.3 costs 0.4 points of locomo-dev recall@400, 0.2 costs 0.8).
"""

from __future__ import annotations

from collections.abc import Mapping

from memory.search.index import library_size
from memory.store import word_stats
from memory.store.store import Store

SMALL_LIBRARY = 5_000  # passages: below this, every word is searched for


def doc_shares(store: Store, terms: list[str]) -> dict[str, float]:
    """Share of the library's passages each term occurs in (as the index stems it), 0–1."""
    return word_stats.word_stats(store, terms).shares


def selective_terms(
    store: Store, terms: list[str], common_share: float, shares: Mapping[str, float] | None = None
) -> list[str]:
    """The terms worth searching for: those in at most `common_share` of the passages (`shares`:
    each term's share where the search looks; the whole library's when not given). All of them
    in a small library (where every search is fast, and a word in two of five notes is not
    "common"), or when none of the rarer terms occurs at all."""
    if common_share >= 1.0 or len(terms) < 2 or library_size(store) < SMALL_LIBRARY:
        return terms
    shares = shares if shares is not None else doc_shares(store, terms)
    rare = [t for t in terms if shares[t] <= common_share]
    return rare if any(shares[t] > 0 for t in rare) else terms
