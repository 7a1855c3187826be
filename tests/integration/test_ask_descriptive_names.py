"""A name that describes what is asked about ("the Colombian co-op", "the Portuguese mill") need not
be said by the passage that answers: a note says "in Colombia" or "in Portugal" (memory/text/relevance.py
`descriptive_names`). A name that names the thing asked about still must be said somewhere."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from app.ask import AskRequest, ask
from app.library import Library
from bench.evals.ask_eval import quote_violations
from memory.text.relevance import descriptive_names, question_names
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

NOTES = [
    (
        "kestrel:1",
        "Kestrel Roasters",
        "Kestrel kickoff",
        "2026-03-10T09:00:00",
        [
            "Kickoff at Kestrel Roasters, notes on the sourcing review.",
            "Most of the beans come from one co-operative in Huila, in Colombia, called Las Palmas.",
            "Kestrel pay that co-op a premium of fourteen cents a pound on top of the market price.",
            "The audit of the roastery itself is booked for the spring.",
        ],
    ),
    (
        "fernhill:1",
        "Fernhill Outdoor",
        "Fernhill factories",
        "2026-03-12T09:00:00",
        [
            "Fernhill notes, the factory audit programme is the topic.",
            "There are five factories in Portugal and three in Vietnam on the list.",
            "The first visit is the knitting mill in Braga, the week of the 20th of April.",
        ],
    ),
]


def test_adjectives_of_nationality_are_descriptive_names() -> None:
    question = "How much over the market does Kestrel pay the Colombian co-op?"
    assert {"colombian", "kestrel"} <= question_names(question)
    assert descriptive_names(question) == {"colombian"}
    assert descriptive_names("Who is the contact at Kestrel Roasters?") == set()


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("ask-descriptive"), NOTES) as lib:
        yield lib


@pytest.mark.slow  # a library indexed with the embedding model
@pytest.mark.parametrize(
    ("question", "said"),
    [
        (
            "How much over the market does Kestrel pay the Colombian co-op?",
            "a premium of fourteen cents a pound",
        ),
        ("Which Portuguese mill is Fernhill visiting first?", "the knitting mill in Braga"),
    ],
)
def test_a_question_is_answered_by_a_note_that_names_the_country(
    library: Library, question: str, said: str
) -> None:
    answer = ask(library, AskRequest(question, as_of="2026-04-01T09:00:00", no_llm=True))
    assert answer.answer_found
    assert any(said in claim.text for claim in answer.stated)
    assert quote_violations(library.store, answer) == 0


@pytest.mark.slow
def test_a_name_no_note_says_still_means_not_in_your_notes(library: Library) -> None:
    answer = ask(
        library,
        AskRequest(
            "How much does Kestrel pay the Brightwater co-op?", as_of="2026-04-01T09:00:00", no_llm=True
        ),
    )
    assert not answer.answer_found
