"""`verbatim search` and `verbatim index` as a user runs them."""

from __future__ import annotations

import pytest

from app.library import Library
from app.search import RESULTS_CUT
from memory.search import index
from tests.conftest import require_models
from tests.support.cli import run
from tests.support.retrieval_corpus import NOTES, add_note, build_library


@pytest.fixture
def notes(library: Library) -> Library:
    require_models()
    build_library(library)
    return library


@pytest.mark.slow
def test_search_prints_passages_with_project_time_and_why(notes: Library) -> None:
    result = run("search", "Who is the site engineer?", "--as-of", "2026-06-01T09:00")
    assert result.code == 0, result.err
    first = result.out.split("\n\n")[0]
    assert first.startswith("1. Millbrook · 2026-04-14 09:15 · 0:00–")
    assert "Owain Pritchard" in first and "score " in first and "recency=" in first


@pytest.mark.slow
def test_search_json_has_every_hit_field_and_honours_scope_and_mode(notes: Library) -> None:
    result = run(
        "search",
        "budget",
        "--project",
        "Tidewater",
        "--k",
        "1",
        "--mode",
        "keyword",
        "--json",
        "--as-of",
        "2026-06-01",
    )
    assert result.code == 0, result.err
    data = result.json()
    assert data["mode"] == "keyword" and len(data["hits"]) == 1
    hit = data["hits"][0]
    assert hit["project"] == "Tidewater" and hit["segment_ids"] and "keyword_rank" in hit["components"]
    assert set(hit) >= {"project", "recording_id", "spoken_at", "start", "end", "text", "score", "components"}
    dated = run("search", "budget", "--since", "2026-05-01", "--until", "2026-05-31", "--json").json()
    assert {h["spoken_at"][:7] for h in dated["hits"]} == {"2026-05"}


@pytest.mark.slow
@pytest.mark.parametrize("query", ['"Owain', "NEAR(a b)", "*", "AND", "(", "🎉", "x" * 12000])
def test_search_never_fails_on_odd_queries(notes: Library, query: str) -> None:
    result = run("search", query, "--json")
    assert result.code == 0, result.err
    assert isinstance(result.json()["hits"], list)


def test_search_explains_bad_input_in_one_line(library: Library) -> None:
    empty = run("search", "   ")
    assert empty.code == 1 and empty.err.startswith("error: the search is empty")
    unknown = run("search", "budget", "--project", "Nowhere")
    assert unknown.code == 1 and "no project named 'Nowhere'" in unknown.err
    bad_date = run("search", "budget", "--as-of", "yesterday")
    assert bad_date.code == 1 and "not a date" in bad_date.err
    assert run("search", "budget").code == 0  # an empty library is not an error


@pytest.mark.slow
def test_index_makes_pending_recordings_searchable(library: Library) -> None:
    require_models()
    project, spoken_at, lines = NOTES[1]
    add_note(library, project, spoken_at, lines)
    assert run("search", "Pritchard", "--json").json()["hits"] == []
    result = run("index")
    assert result.code == 0, result.err
    assert result.out.startswith("indexed 1 recordings") and "with vectors" in result.out
    assert run("search", "Pritchard", "--json").json()["hits"][0]["project"] == "Millbrook"
    stats = run("index", "--json").json()["index"]
    assert stats == index.index_stats(library.store) and stats["embedded"] == stats["chunks"] > 0


@pytest.mark.slow
def test_search_stops_where_relevance_falls_away_unless_all_is_asked(notes: Library) -> None:
    asked = ("search", "Who is the site engineer?", "--k", "8", "--json", "--as-of", "2026-06-01T09:00")
    shown = run(*asked).json()["hits"]
    every = run(*asked, "--all").json()["hits"]
    assert len(every) == 3  # the library's three passages
    assert 1 <= len(shown) < len(every)
    best = shown[0]["score"]
    assert all(h["score"] >= RESULTS_CUT * best for h in shown)
    assert [h["chunk_id"] for h in shown] == [h["chunk_id"] for h in every[: len(shown)]]
    assert "Owain Pritchard" in shown[0]["text"]


@pytest.mark.slow
def test_an_archived_project_is_left_out_of_search_and_answers_unless_asked_for(notes: Library) -> None:
    from app.project_service import archive_project

    archive_project(notes, "Millbrook")
    question = ("Who is the site engineer?", "--as-of", "2026-06-01T09:00", "--json")
    default = run("search", *question).json()["hits"]
    assert all(h["project"] != "Millbrook" for h in default)
    everything = run("search", *question, "--include-archived").json()["hits"]
    assert everything[0]["project"] == "Millbrook" and "Owain Pritchard" in everything[0]["text"]
    named = run("search", *question, "--project", "Millbrook").json()["hits"]
    assert named and all(h["project"] == "Millbrook" for h in named)
    answer = run("ask", "Who is the site engineer at Millbrook?", "--no-llm", "--json").json()
    assert all(p["project"] != "Millbrook" for p in answer["passages"])
    asked = run(
        "ask", "Who is the site engineer at Millbrook?", "--no-llm", "--json", "--include-archived"
    ).json()
    assert any("Owain Pritchard" in c["text"] for c in asked["claims"] if c["kind"] == "stated")
