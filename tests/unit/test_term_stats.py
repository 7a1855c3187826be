"""Keyword search leaves out the commonest words of a query (memory/search/term_stats.py), on a real store.

A word in more than half of the passages weighs nothing in FTS5's BM25, so leaving it out must not
change the ranking; a word in fewer passages than the cut is always searched; and a small library,
or a query whose rarer words occur nowhere, searches every word.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from bench import synthetic_store
from memory.search import term_stats
from memory.search.retrieval import Scope, keyword_candidates
from memory.store.store import Store

DIMS = 8
# Every chunk is five segments drawn from this pool: "meeting" is in nearly every chunk, "beacon"
# in about a third, "quarry" in a few, "zebra" in none.
POOL = [
    (None, "The meeting went on about the budget and the schedule."),
    (None, "Another meeting, the same points about hiring again."),
    (None, "We talked about the beacon install at the museum."),
    (None, "The quarry survey needs a second look before the meeting."),
    *[(None, f"Plain words number {i} with nothing else to say, meeting notes.") for i in range(8)],
    *[(None, f"Filler sentence {i} about lunch and coffee.") for i in range(6)],
]


@pytest.fixture(scope="module")
def big_store(tmp_path_factory: pytest.TempPathFactory) -> Store:
    path = Path(tmp_path_factory.mktemp("terms")) / "terms.db"
    store = Store(path)
    rng = np.random.default_rng(1)
    synthetic_store.fill_synthetic(
        store,
        n_chunks=400,
        pool=POOL,
        vectors=lambda first, count: rng.normal(size=(count, DIMS)).astype(np.float32),
        model="synthetic-8",
        dims=DIMS,
        projects=3,
    )
    return store


def _share_by_counting(store: Store, word: str) -> float:
    texts = [str(t).lower() for (t,) in store.rows("SELECT text FROM chunks")]
    return sum(1 for t in texts if word in t) / len(texts)


def test_shares_are_the_share_of_passages_holding_each_word(big_store: Store) -> None:
    shares = term_stats.doc_shares(big_store, ["meeting", "beacon", "quarry", "zebra"])
    for word in ("meeting", "beacon", "quarry"):
        assert shares[word] == pytest.approx(_share_by_counting(big_store, word), abs=1e-9)
    assert shares["meeting"] > 0.5 and 0.05 < shares["quarry"] < 0.5 and 0.05 < shares["beacon"] < 0.5
    assert shares["zebra"] == 0.0


def test_words_in_most_passages_are_left_out_without_changing_the_ranking(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(term_stats, "SMALL_LIBRARY", 100)  # 400 passages count as large here
    assert term_stats.selective_terms(big_store, ["meeting", "quarry"], 0.5) == ["quarry"]
    every_word = keyword_candidates(big_store, "meeting quarry", Scope(), 20, common_share=1.0)
    selective = keyword_candidates(big_store, "meeting quarry", Scope(), 20, common_share=0.5)
    # FTS5 gives a word in more than half of the passages no weight (1e-6): the same scores, rank
    # by rank (passages with equal scores may swap places).
    assert len(selective) == 20
    assert [round(s, 4) for _, s in selective] == [round(s, 4) for _, s in every_word]
    assert selective and all("quarry" in _text(big_store, cid) for cid, _ in selective)


def test_every_word_is_searched_when_the_rarer_ones_occur_nowhere_or_the_library_is_small(
    big_store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(term_stats, "SMALL_LIBRARY", 100)
    assert term_stats.selective_terms(big_store, ["meeting", "zebra"], 0.5) == ["meeting", "zebra"]
    assert keyword_candidates(big_store, "meeting zebra", Scope(), 5)  # found by "meeting"
    assert term_stats.selective_terms(big_store, ["beacon", "quarry"], 0.5) == ["beacon", "quarry"]
    monkeypatch.setattr(term_stats, "SMALL_LIBRARY", 5_000)
    assert term_stats.selective_terms(big_store, ["meeting", "quarry"], 0.5) == ["meeting", "quarry"]


def _text(store: Store, chunk_id: int) -> str:
    return str(store.scalar("SELECT text FROM chunks WHERE id = ?", (chunk_id,))).lower()
