"""A question asked in other words than the note's ("final day" for "last day", "indoors" for
"inside") is answered: the relevance gate counts a passage's word that the embedding model puts
near the question's (memory/answer/near_words.py). Notes and questions written for this test."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import numpy as np
import pytest

from app.ask import AskRequest, ask
from app.library import Library
from memory.answer.near_words import word_vectors
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library
from tests.support.hostile_files import dump_store

pytestmark = pytest.mark.slow  # a library indexed with the embedding model

ASKED = "2026-06-20T09:00:00"
NOTES = [
    (
        "hollins:1",
        "Hollins Hotel",
        "Hollins handover",
        "2026-05-12T09:00:00",
        [
            "Wednesday, Hollins, bit of a shock today.",
            "Beatrix is stepping down as food and beverage manager, and Jonas takes over in June.",
            "Her last day is the 28th of May, so there is a week of handover.",
            "The restaurant has eighty-four covers inside and twenty on the terrace.",
            "The wine list is being cut to forty bins, mostly French.",
        ],
    ),
    # Another client's note says the question's words as asked: they weigh in the library (a word
    # no note says weighs nothing, memory/text/relevance.py), but it is not the Hollins.
    (
        "cafe:1",
        "Harbour Cafe",
        "Cafe fit-out",
        "2026-05-20T09:00:00",
        [
            "Harbour Cafe, the fit-out is nearly done.",
            "The seats indoors are being reupholstered in June.",
            "The final invoice for the joinery went out today.",
        ],
    ),
]


@pytest.fixture(scope="module")
def library(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Library]:
    require_models()
    with imported_library(tmp_path_factory.mktemp("near-words"), NOTES) as lib:
        yield lib


def test_a_word_said_another_way_still_finds_the_answer(library: Library) -> None:
    # "indoors" is said "inside" in the Hollins note (the question's other word, "seats", is said
    # "covers": too far for the embedding model, so the near word alone carries it)
    question = "How many seats does the Hollins restaurant have indoors?"
    answer = ask(library, AskRequest(question, as_of=ASKED, no_llm=True))
    assert answer.answer_found
    assert "eighty-four covers inside" in answer.stated[0].text
    assert answer.stated[0].citations[0].project == "Hollins Hotel"


def test_a_question_no_word_of_the_notes_is_near_is_still_not_in_your_notes(library: Library) -> None:
    answer = ask(library, AskRequest("What colour are the Hollins delivery vans?", as_of=ASKED, no_llm=True))
    assert not answer.answer_found


def test_words_are_embedded_once_and_asking_writes_nothing(library: Library) -> None:
    embedder = library.models.embedder()
    embedded: list[str] = []

    def embed(words: Sequence[str]) -> np.ndarray:
        embedded.extend(words)
        return embedder.embed(words)

    model = library.models.embedding_model_name()
    # words no note or question here says (those are embedded as questions are asked)
    first = word_vectors(["lighthouse", "marmalade"], model, embed)
    again = word_vectors(["lighthouse", "marmalade", "accordion"], model, embed)
    assert embedded == ["lighthouse", "marmalade", "accordion"]  # the first two came from memory
    assert np.allclose(first["marmalade"], again["marmalade"])
    assert abs(float(np.linalg.norm(again["accordion"])) - 1.0) < 1e-3
    # a question whose words are near the notes' changes nothing in the library
    before = dump_store(library.store)
    ask(
        library,
        AskRequest("How many seats does the Hollins restaurant have indoors?", as_of=ASKED, no_llm=True),
    )
    assert dump_store(library.store) == before
