"""A question that asks two things is answered part by part: a passage that answers one part is
relevant, and the sentence that answers each part is quoted (memory/answer/question_parts.py).
Notes and questions written for this test."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.ask_eval import quote_violations
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

pytestmark = pytest.mark.slow  # a library indexed with the embedding model

ASKED = "2026-05-20T09:00:00"
NOTES = [
    (
        "fenwick:1",
        "Fenwick Depot",
        "Fenwick site walk",
        "2026-05-04T09:00:00",
        [
            "Fenwick depot, notes from the site walk this morning.",
            "Mirela Kovac runs the depot, she has been there six years.",
            "The racking on the north side needs replacing before winter.",
            "The forklift lease comes up for renewal in March.",
            "Tobias Wren signs off any spending over five thousand pounds.",
        ],
    ),
    (
        "harbour:1",
        "Harbour Foods",
        "Harbour check-in",
        "2026-05-06T09:00:00",
        ["Harbour Foods check-in.", "The payroll export runs every week on a Friday."],
    ),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("two-part"), NOTES) as lib:
        yield lib


def test_each_part_of_a_two_part_question_is_answered_by_its_sentence(library: Library) -> None:
    # Neither sentence says half of the question's words; each says all of its part's.
    question = "Who runs the Fenwick depot each week, and who signs off spending?"
    answer = ask(library, AskRequest(question, as_of=ASKED, no_llm=True))
    assert answer.answer_found
    quotes = " | ".join(c.text for c in answer.stated)
    assert "Mirela Kovac runs the depot" in quotes and "Tobias Wren signs off any spending" in quotes
    assert quote_violations(library.store, answer) == 0


def test_a_part_the_notes_do_not_answer_adds_nothing(library: Library) -> None:
    answer = ask(
        library, AskRequest("Who runs the Fenwick depot, and who cleans it?", as_of=ASKED, no_llm=True)
    )
    assert answer.answer_found
    assert all("Tobias" not in c.text for c in answer.stated)
