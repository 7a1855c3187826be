"""One project's size cannot skew another's search and answers.

Importing a huge text into a project "Scratch" made "What is the phase one budget for Hartwell
Logistics?" unanswerable, even asked of Hartwell alone: FTS5 and the relevance gate counted how
common "budget" and "phase" were over the whole library, which the import was nearly all of. Now
the statistics are those of the projects searched (memory/store/word_stats.py): within a project
a search ranks, and the gate weighs words, as if the others were absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ask import AskRequest, ask
from app.library import Library
from app.paths import DataDir
from app.search import resolve_scope
from memory.search.retrieval import keyword_candidates
from memory.store.word_stats import word_stats
from memory.text.relevance import load_question_terms
from tests.conftest import require_models
from tests.support.retrieval_corpus import add_note

pytestmark = pytest.mark.slow  # the notes are indexed and asked with the real embedding model

HARTWELL = "Hartwell Logistics"
QUESTION = "What is the phase one budget for Hartwell Logistics?"
ANSWER = "The phase one budget is eighty thousand pounds"
HARTWELL_NOTES = [
    (
        "2026-03-02T09:00:00",
        [
            "Hartwell Logistics kickoff at their Leeds depot with the operations director, Dana Okafor.",
            "They want a routing tool for the forty vans that leave the depot every morning.",
            f"{ANSWER}, agreed with Dana on the call.",
            "The drivers use handheld scanners that are nearly ten years old.",
            "Dana wants the pilot on the northern routes before the summer peak.",
        ],
    ),
    (
        "2026-03-09T14:00:00",
        [
            "Hartwell follow-up: the dispatch team showed me their spreadsheets.",
            "Route planning takes two people most of the morning, every morning.",
            "Phase two would add the southern depots, but that is next year at the earliest.",
            "The telematics vendor is Fleetline, and their data export is a nightly CSV.",
        ],
    ),
]


def _scratch_lines(count: int) -> list[str]:
    """A pasted dump where the question's words are on every line."""
    return [
        f"Item {i}: the budget for phase {i % 9} of workstream {i % 31} is current as of week {i % 52},"
        f" pending review by the committee on spending and planning number {i % 17}."
        for i in range(count)
    ]


def _hartwell(library: Library) -> None:
    for spoken_at, lines in HARTWELL_NOTES:
        add_note(library, HARTWELL, spoken_at, [(None, s) for s in lines], title=HARTWELL)


def _index_all(library: Library) -> None:
    from app.ingest.indexing import index_recording

    for (rid,) in library.store.rows("SELECT id FROM recordings ORDER BY id"):
        index_recording(library, int(rid), final=True)


def _keyword_ranking(library: Library) -> list[tuple[str, float]]:
    scope = resolve_scope(library, [HARTWELL], None, None)
    found = keyword_candidates(library.store, QUESTION, scope, 20)
    texts = dict(library.store.rows("SELECT id, text FROM chunks"))
    return [(str(texts[cid]), round(score, 6)) for cid, score in found]


@pytest.fixture
def skewed(library: Library) -> Library:
    require_models()
    _hartwell(library)
    add_note(
        library, "Scratch", "2026-03-20T10:00:00", [(None, s) for s in _scratch_lines(600)], title="dump"
    )
    _index_all(library)
    return library


def test_the_question_is_answered_from_hartwell_beside_a_huge_project(skewed: Library) -> None:
    for projects in ([HARTWELL], None):
        answer = ask(skewed, AskRequest(QUESTION, projects=projects, no_llm=True))
        assert answer.answer_found, f"not answered with projects={projects}"
        assert ANSWER in answer.claims[0].citations[0].quote


def test_a_project_ranks_as_if_the_others_were_absent(skewed: Library, tmp_path: Path) -> None:
    alone = Library(DataDir.resolve(tmp_path / "alone"))
    try:
        _hartwell(alone)
        _index_all(alone)
        assert _keyword_ranking(skewed) == _keyword_ranking(alone)
    finally:
        alone.close()


def test_the_relevance_gate_weighs_words_as_in_the_project_alone(skewed: Library, tmp_path: Path) -> None:
    alone = Library(DataDir.resolve(tmp_path / "alone"))
    try:
        _hartwell(alone)
        _index_all(alone)
        beside = load_question_terms(
            skewed.store, QUESTION, resolve_scope(skewed, [HARTWELL], None, None).project_ids
        )
        assert beside.weights == pytest.approx(load_question_terms(alone.store, QUESTION).weights)
    finally:
        alone.close()


def test_across_all_projects_the_statistics_are_the_whole_librarys(skewed: Library) -> None:
    """What BM25 means by a common word: across all projects a word the dump repeats on every line
    is common (it tells its passages apart less well); within Hartwell it is not."""
    store = skewed.store
    total = int(store.scalar("SELECT count(*) FROM chunks"))
    holding = int(store.scalar("SELECT count(*) FROM chunks_fts WHERE chunks_fts MATCH 'budget'"))
    assert word_stats(store, ["budget"]).shares["budget"] == pytest.approx(holding / total)
    hartwell = resolve_scope(skewed, [HARTWELL], None, None).project_ids
    assert holding / total > 0.9
    assert word_stats(store, ["budget"], hartwell).shares["budget"] == 0.5  # one of its two notes
