"""A question that says when ("in June") is answered by a note spoken then, which need not say the
month: a date in the question is not a name the passage must mention (memory/text/relevance.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.ask_eval import quote_violations
from memory.text.quotes import ClaimKind
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

pytestmark = pytest.mark.slow  # a library indexed with the embedding model

NOTES = [
    (
        "tessera:1",
        "Tessera",
        "Tessera kickoff",
        "2026-06-12T09:00:00",
        [
            "Tessera kickoff with Oren and Priya, they want the implementation playbook by the end of July.",
            "On my fee, we agreed a day rate of 1,150 euros, eight days a month.",
            "Oren will send the customer list on Monday.",
        ],
    ),
    (
        "harbour:1",
        "Harbour Foods",
        "Harbour payroll",
        "2026-06-15T09:00:00",
        [
            "Harbour payroll export still drops the overtime column.",
            "The finance team checks the export every morning.",
            "The payroll runs of June 2026 and of July 2026 both go through the new export.",
        ],
    ),
    (
        "quarry:1",
        "Quarry Lane",
        "Quarry Lane site visit",
        "2026-06-20T16:00:00",
        [
            "Quarry Lane site visit, the weather held for once.",
            "The crew poured the foundations for the second block yesterday.",
        ],
    ),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("ask-dated"), NOTES) as lib:
        yield lib


def test_a_month_in_the_question_is_answered_by_the_note_spoken_then(library: Library) -> None:
    question = "What day rate did I agree with Tessera in June?"
    answer = ask(library, AskRequest(question, as_of="2026-07-01T09:00:00", no_llm=True))
    assert answer.answer_found
    assert "1,150 euros" in answer.stated[0].text
    assert answer.stated[0].citations[0].project == "Tessera"
    assert quote_violations(library.store, answer) == 0


def test_a_name_no_note_mentions_still_finds_nothing(library: Library) -> None:
    question = "What day rate did I agree with Wrenfield in June?"
    answer = ask(library, AskRequest(question, as_of="2026-07-01T09:00:00", no_llm=True))
    assert not answer.answer_found


def test_the_words_of_a_month_asked_about_are_said_by_a_note_spoken_then(library: Library) -> None:
    # "June 2026" is not in the Tessera note's words (only a Harbour note says it); the Tessera
    # kickoff was spoken on 12 June 2026, so its passage speaks to the month asked about.
    question = "What will Oren send in June 2026?"
    answer = ask(library, AskRequest(question, as_of="2026-07-01T09:00:00", no_llm=True))
    assert answer.answer_found
    assert "Oren will send the customer list on Monday" in answer.stated[0].text
    # asked about a month in which no Tessera note was spoken, the same words do not answer
    later = AskRequest("What will Oren send in July 2026?", as_of="2026-07-20T09:00:00", no_llm=True)
    assert not ask(library, later).answer_found


def test_a_when_question_gets_the_day_a_relative_quote_means(library: Library) -> None:
    question = "When were the foundations for the second block poured at Quarry Lane?"
    answer = ask(library, AskRequest(question, as_of="2026-07-01T09:00:00", no_llm=True))
    assert answer.answer_found
    assert "poured the foundations for the second block yesterday" in answer.stated[0].text
    inferred = [c.text for c in answer.claims if c.kind == ClaimKind.INFERRED]
    assert "“yesterday”, said on Saturday 20 June 2026: Friday 19 June 2026." in inferred
    assert quote_violations(library.store, answer) == 0
