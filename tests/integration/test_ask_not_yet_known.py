"""When the newest thing the notes say about a question is that it is not known yet ("she wouldn't
tell me who"), the answer is "Not in your notes", with that sentence among the nearest passages;
once a later note says it, that note answers (memory/answer/not_yet_known.py). Notes and questions
written for this test."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.ask import AskRequest, ask
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

pytestmark = pytest.mark.slow  # a library indexed with the shipped embedding model

QUESTION = "Who is sponsoring the harbour exhibition?"
FIRST = (
    "museum:1",
    "Brackley Museum",
    "Museum kickoff",
    "2026-03-02T09:00:00",
    [
        "Kickoff with the Brackley Museum team about the harbour exhibition.",
        "The director, Ines Falk, wants the harbour exhibition open by the end of June.",
        "The board has found a sponsor for the harbour exhibition, but Ines wouldn't tell me who.",
        "The exhibition budget is sixty thousand pounds.",
    ],
)
LATER = (
    "museum:2",
    "Brackley Museum",
    "Museum follow-up",
    "2026-03-16T09:00:00",
    [
        "Follow-up with Ines at the Brackley Museum.",
        "The sponsor of the harbour exhibition is Harbour Mutual, the board announced it on Friday.",
    ],
)


def test_a_sponsor_nobody_would_name_is_not_in_your_notes(tmp_path: Path) -> None:
    require_models()
    with imported_library(tmp_path, [FIRST]) as library:
        answer = ask(library, AskRequest(QUESTION, no_llm=True))
    assert not answer.answer_found, [c.text for c in answer.claims]
    assert any("wouldn't tell me who" in p.text for p in answer.passages)  # shown as the nearest


def test_once_a_later_note_names_the_sponsor_it_answers(tmp_path: Path) -> None:
    require_models()
    with imported_library(tmp_path, [FIRST, LATER]) as library:
        answer = ask(library, AskRequest(QUESTION, no_llm=True))
    assert answer.answer_found
    assert any("Harbour Mutual" in c.text for c in answer.stated)
