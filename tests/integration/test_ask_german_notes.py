"""An English question about a note dictated in German: the note's loanwords and names are the
question's words ("Budget", "Team"), though the German stemmer cuts them differently from the English
one ("budg" for "budget"). memory/text/relevance.py `said_stems` looks a question's words up in both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.ask_eval import quote_violations
from memory.text.relevance import said_stems, stems
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

NOTES = [
    (
        "brenner:1",
        "Brenner Logistik",
        "Brenner Kickoff",
        "2026-03-10T09:00:00",
        [
            "Also, Dienstag, Notizen zum Kickoff bei Brenner Logistik in Kassel, das war ein langer Tag.",
            "Das Budget für das Projekt liegt bei zweihundertvierzigtausend Euro, inklusive Schulung.",
            "Der Lagerleiter ist skeptisch, aber die Geschäftsführung will das unbedingt durchziehen.",
        ],
    ),
    (
        "harbour:1",
        "Harbour Foods",
        "Harbour payroll",
        "2026-03-12T09:00:00",
        [
            "Harbour payroll export still drops the overtime column.",
            "The finance team checks the export every morning before nine.",
        ],
    ),
]


def test_a_german_text_is_looked_up_in_english_stems_too() -> None:
    text = "Das Budget für das Projekt liegt bei 240.000 Euro."
    assert "budget" not in stems(text)  # the German stemmer's "budg"
    assert {"budget", "budg", "projekt"} <= said_stems(text)
    english = "The budget for the project is set."
    assert said_stems(english) == stems(english)  # English text is stemmed once


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("ask-german"), NOTES) as lib:
        yield lib


@pytest.mark.slow  # a library indexed with the embedding model
def test_an_english_question_is_answered_from_a_german_note(library: Library) -> None:
    answer = ask(library, AskRequest("What is the Brenner budget?", as_of="2026-04-01T09:00:00", no_llm=True))
    assert answer.answer_found
    assert "Das Budget für das Projekt liegt bei zweihundertvierzigtausend Euro" in answer.stated[0].text
    assert answer.stated[0].citations[0].project == "Brenner Logistik"
    assert quote_violations(library.store, answer) == 0
