"""A line the user corrected answers questions in its corrected words: search found "the printed
banners" once "the slides" was corrected to them, but the answer weighed only the raw words and
said "not in your notes". The stated quote stays the raw words, which the answer checker verifies
against the raw transcript, and the corrected line is shown beside it. Notes and questions written
for this test."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.answer_text import claim_text
from app.ask import AskRequest, ask
from app.edits import save_edit
from memory.store.recordings import list_segments
from tests.conftest import require_models
from tests.support.consolidation_corpus import imported_library

pytestmark = pytest.mark.slow  # a library indexed with the shipped embedding model

NOTE = (
    "atlas:1",
    "Atlas",
    "Atlas kickoff",
    "2026-03-02T09:00:00",
    [
        "The workshop is on Tuesday at the Leeds office.",
        "Maria will bring the slides.",
        "The catering is booked with Hobbs for twenty people.",
    ],
)


def test_a_corrected_line_answers_in_its_corrected_words(tmp_path: Path) -> None:
    require_models()
    with imported_library(tmp_path, [NOTE]) as library:
        line = next(s for s in list_segments(library.store, 1) if "slides" in s.text)
        save_edit(library, line.id, "Maria will bring the printed banners.")
        answer = ask(library, AskRequest("Who is bringing the printed banners?", no_llm=True))
    assert answer.answer_found, [p.text for p in answer.passages]
    assert [c.text for c in answer.stated] == ["Maria will bring the slides"]  # the raw words, quoted
    assert answer.stated[0].citations[0].segment_ids == (line.id,)
    said = answer.stated[0]
    assert said.corrected == "Maria will bring the printed banners."  # beside it, what the user says was said
    assert said.to_json()["corrected"] == said.corrected
    assert "you corrected this line: “Maria will bring the printed banners.”" in claim_text(said)


def test_a_line_nobody_corrected_shows_no_correction(tmp_path: Path) -> None:
    require_models()
    with imported_library(tmp_path, [NOTE]) as library:
        answer = ask(library, AskRequest("Who is doing the catering?", no_llm=True))
    assert answer.stated and all(c.corrected is None for c in answer.stated)
    assert all("corrected" not in c.to_json() for c in answer.claims)
