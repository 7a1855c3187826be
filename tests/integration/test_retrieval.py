"""Search: hybrid, keyword and vector retrieval, scopes, dates, recency and hostile queries."""

from __future__ import annotations

from datetime import datetime

import pytest

from app.ingest.indexing import index_recording
from app.library import Library
from app.search import search
from memory.search import fts, retrieval
from memory.search.hits import Hit
from memory.search.ranking import RankingOptions, diversify, fuse, recency_weight
from models.errors import InputError, NotFoundError
from tests.conftest import require_models
from tests.support.retrieval_corpus import add_note, build_library

AFTER_ALL = datetime(2026, 6, 1, 9, 0)


@pytest.fixture
def notes(library: Library) -> Library:
    require_models()
    build_library(library)
    return library


# --- pure parts ----------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "terms"),
    [
        ('"Owain Pritchard"', ["owain", "pritchard"]),
        ("beacon* NEAR(budget cost)", ["beacon", "near", "budget", "cost"]),
        ("budget AND OR NOT -cost ^start col:umn", ["budget", "cost", "start", "col", "umn"]),
        ("What is the budget?", ["budget"]),
        ("what is the", ["what", "is", "the"]),
        ("🎉🚀", []),
        ("Ferreira's café", ["ferreira", "café"]),
    ],
)
def test_query_words_are_only_ever_quoted_terms(text: str, terms: list[str]) -> None:
    assert fts.query_terms(text) == terms
    expression = fts.match_expression(terms)
    assert all(part.startswith('"') and part.endswith('"') for part in expression.split(" OR ") if part)


def test_recency_decays_from_the_time_of_asking_and_never_rewards_the_future() -> None:
    weight, age = recency_weight("2026-05-02T09:00:00", AFTER_ALL, 0.01)
    assert age == pytest.approx(30.0) and weight == pytest.approx(0.7408, abs=1e-4)
    assert recency_weight("2026-07-01T09:00:00", AFTER_ALL, 0.01) == (1.0, 0.0)
    assert recency_weight("2020-01-01T00:00:00", AFTER_ALL, 0.0)[0] == 1.0
    # The floor bounds how far age can pull a passage down: years-old notes keep 85 %.
    assert recency_weight("2020-01-01T00:00:00", AFTER_ALL, 0.01, 0.85)[0] == pytest.approx(0.85, abs=1e-3)
    assert recency_weight("2026-05-02T09:00:00", AFTER_ALL, 0.01, 0.85)[0] == pytest.approx(
        0.85 + 0.15 * 0.7408, abs=1e-4
    )


def test_diversity_takes_a_second_recording_before_more_of_the_first() -> None:
    def h(rid: int, score: float) -> Hit:
        return Hit(0, rid, 1, "P", "", "2026-01-01T00:00:00", 0, 1, "x", [], score)

    hits = [h(1, 1.0), h(1, 0.95), h(1, 0.9), h(2, 0.85)]
    assert [x.recording_id for x in diversify(hits, 0.0)] == [1, 1, 1, 2]
    assert [x.recording_id for x in diversify(hits, 0.15)] == [1, 2, 1, 1]
    assert [x.score for x in diversify(hits, 0.15)] == [1.0, 0.85, 0.95, 0.9]  # scores stay as they were
    assert [x.recording_id for x in diversify(hits, 0.04)] == [1, 1, 2, 1]  # a small one acts later


def test_fusion_keeps_a_chunk_found_by_both_lists_above_one_found_by_either() -> None:
    fused = fuse([(1, 9.0), (2, 5.0)], [(1, 0.8), (3, 0.7)], RankingOptions())
    assert max(fused, key=fused.__getitem__) == 1
    assert fuse([(1, 9.0)], [], RankingOptions(fusion="rrf")) == {1: pytest.approx(1 / 61)}


# --- the real thing: SQLite file and MiniLM -------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hybrid", "keyword", "vector"])
def test_each_mode_finds_the_passage_and_says_why(notes: Library, mode: str) -> None:
    hits = search(notes, "Who is the site engineer at Millbrook?", mode=mode, as_of=AFTER_ALL, k=3)
    top = hits[0]
    assert top.project == "Millbrook" and "Owain Pritchard" in top.text
    assert top.spoken_at == "2026-04-14T09:15:00" and top.end > top.start and top.segment_ids
    assert 0 < top.components["recency"] < 1 and top.components["age_days"] == pytest.approx(48, abs=1)
    assert ("keyword_rank" in top.components) == (mode != "vector")
    assert ("vector_rank" in top.components) == (mode != "keyword")
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


@pytest.mark.slow
def test_vector_search_finds_meaning_that_shares_no_words(notes: Library) -> None:
    query = "handheld tour for tourists"
    assert search(notes, query, mode="keyword", as_of=AFTER_ALL) == []
    hits = search(notes, query, mode="vector", as_of=AFTER_ALL, k=2)
    assert {h.project for h in hits} == {"Tidewater"}
    assert search(notes, query, mode="hybrid", as_of=AFTER_ALL, k=1)[0].project == "Tidewater"


@pytest.mark.slow
def test_scope_one_project_several_or_all_and_unknown_projects_are_named(notes: Library) -> None:
    query = "budget and board"
    assert {h.project for h in search(notes, query, projects=["Millbrook"], as_of=AFTER_ALL)} == {"Millbrook"}
    assert {
        h.project for h in search(notes, query, projects=["millbrook", "Tidewater"], as_of=AFTER_ALL)
    } == {
        "Millbrook",
        "Tidewater",
    }
    assert {h.project for h in search(notes, query, as_of=AFTER_ALL)} == {"Millbrook", "Tidewater"}
    with pytest.raises(NotFoundError, match="Nowhere"):
        search(notes, query, projects=["Nowhere"])


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hybrid", "keyword", "vector"])
def test_a_date_range_keeps_only_notes_spoken_in_it(notes: Library, mode: str) -> None:
    hits = search(
        notes, "museum budget ceiling", since="2026-05-01", until="2026-05-29", mode=mode, as_of=AFTER_ALL
    )
    assert hits and {h.spoken_at for h in hits} == {"2026-05-29T16:45:00"}
    assert search(notes, "museum budget", until="2026-03-01", mode=mode) == []
    with pytest.raises(InputError, match="empty"):
        search(notes, "museum", since="2026-05-02", until="2026-05-01")


@pytest.mark.slow
def test_the_newer_statement_ranks_first_and_as_of_moves_the_clock(notes: Library) -> None:
    hits = search(notes, "budget ceiling pounds", projects=["Tidewater"], as_of=AFTER_ALL, k=2)
    assert hits[0].spoken_at == "2026-05-29T16:45:00" and "fifty thousand" in hits[0].text
    # Asked back in March, the May note's recency is 1 (Δt never negative) and March's is higher.
    march = search(notes, "budget ceiling pounds", projects=["Tidewater"], as_of=datetime(2026, 3, 3), k=2)
    by_date = {h.spoken_at: h.components["recency"] for h in march}
    assert by_date["2026-05-29T16:45:00"] == 1.0 and by_date["2026-03-02T08:40:00"] > 0.98


HOSTILE = [
    '"Owain Pritchard"',
    '"unbalanced quote',
    "Owain*",
    "*",
    "NEAR(Owain Pritchard, 3)",
    "Owain AND Pritchard",
    "AND",
    "OR NOT",
    "(((Owain",
    "Owain)",
    "site:engineer",
    "Pritchard^",
    "-Owain +Pritchard",
    "🎉 Owain 🚀",
    "🎉🚀",
    "'; DROP TABLE chunks; --",
    "\\x00 Owain \x00",
    "Owain " * 1700 + "Pritchard",
]


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["hybrid", "keyword", "vector"])
def test_hostile_queries_give_results_or_a_clear_message_never_an_sql_error(
    notes: Library, mode: str
) -> None:
    for query in HOSTILE:
        hits = search(notes, query, mode=mode, as_of=AFTER_ALL, k=3)
        if mode != "vector" and "owain" in query.lower():
            assert "Owain" in hits[0].text, query
    assert len(HOSTILE[-1]) > 10_000
    assert notes.store.scalar("SELECT count(*) FROM chunks") > 0
    for empty in ("", "   ", "\n\t"):
        with pytest.raises(InputError, match="empty"):
            search(notes, empty, mode=mode)
    with pytest.raises(InputError, match="mode"):
        search(notes, "x", mode="fuzzy")


@pytest.mark.slow
def test_a_month_the_question_names_raises_the_notes_spoken_then(notes: Library) -> None:
    question = "budget ceiling pounds in March"
    named = search(notes, question, projects=["Tidewater"], k=3, as_of=AFTER_ALL)
    assert named[0].spoken_at.startswith("2026-03-02") and "forty two thousand" in named[0].text
    assert named[0].components["date_named"] == 1.0
    plain = search(
        notes, question, projects=["Tidewater"], k=3, as_of=AFTER_ALL, options=RankingOptions(date_match=0.0)
    )
    march = next(h for h in plain if h.chunk_id == named[0].chunk_id)
    assert named[0].score == pytest.approx(march.score * (1 + RankingOptions.date_match))
    assert "date_named" not in march.components
    # The note spoken in May is left as it was.
    may = [(h.chunk_id, h.score) for h in named if h.spoken_at.startswith("2026-05-29")]
    assert may and may == [(h.chunk_id, h.score) for h in plain if h.spoken_at.startswith("2026-05-29")]


@pytest.mark.slow
def test_a_large_librarys_keyword_pass_runs_beside_the_vector_pass_with_the_same_results(
    notes: Library, monkeypatch: pytest.MonkeyPatch
) -> None:
    question = "Who runs the dye house boilers and what do they burn?"
    serial = search(notes, question, k=5, as_of=AFTER_ALL)
    assert notes.store._reader is None  # a small library reads on one connection
    monkeypatch.setattr(retrieval, "PARALLEL_FROM", 0)
    side_by_side = search(notes, question, k=5, as_of=AFTER_ALL)
    assert notes.store._reader is not None
    assert [(h.chunk_id, h.score, h.text) for h in side_by_side] == [
        (h.chunk_id, h.score, h.text) for h in serial
    ]
    # The second connection sees what the first commits.
    rid = add_note(
        notes, "Millbrook", "2026-05-30T10:00:00", [(None, "Owain Pritchard retires from the dye house.")]
    )
    index_recording(notes, rid, final=True)
    assert any("retires" in h.text for h in search(notes, "Owain Pritchard retires", k=3, as_of=AFTER_ALL))
    notes.store.close()
    assert notes.store._reader is None
