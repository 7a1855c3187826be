"""Where search results stop (app/search.py) and how that is scored (bench/evals/search_cut.py)."""

from __future__ import annotations

import pytest

from app.search import cut_where_relevance_falls
from bench.evals.search_cut import score_cut
from memory.search.hits import Hit


def hit(chunk: int, score: float) -> Hit:
    return Hit(chunk, 1, 1, "Atlas", "", "2026-03-02T08:40:00", 0.0, 4.0, "words", [chunk], score)


def test_results_stop_below_the_share_of_the_best_and_the_best_always_stays() -> None:
    hits = [hit(1, 0.9), hit(2, 0.5), hit(3, 0.44), hit(4, 0.3)]
    assert [h.chunk_id for h in cut_where_relevance_falls(hits, 0.5)] == [1, 2]
    assert [h.chunk_id for h in cut_where_relevance_falls(hits, 0.0)] == [1, 2, 3, 4]
    assert [h.chunk_id for h in cut_where_relevance_falls([hit(7, 0.0)], 0.9)] == [7]
    assert cut_where_relevance_falls([], 0.5) == []


def test_a_cut_is_scored_by_what_it_keeps_of_the_right_passages() -> None:
    ranked = [hit(1, 0.9), hit(2, 0.8), hit(3, 0.2)]
    right = {1, 3}
    scores = score_cut(ranked[:2], ranked, lambda h: h.chunk_id in right)
    assert scores["precision"] == 0.5 and scores["recall"] == 0.5 and scores["shown"] == 2
    assert scores["f1"] == pytest.approx(0.5) and scores["f2"] == pytest.approx(0.5)
    everything = score_cut(ranked, ranked, lambda h: h.chunk_id in right)
    # F2 weighs recall: keeping all three beats keeping two of them here.
    assert everything["recall"] == 1.0 and everything["f2"] > scores["f2"]
