"""Who owes what in a sentence of two promises, read by spaCy's parse (sentences written for this
test, not from the evaluation sets)."""

from __future__ import annotations

import pytest

from memory.consolidate.commitments import find_commitments
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities


def owed(text: str) -> list[tuple[str, str, str]]:
    doc = Doc([Segment(1, 1, 0, None, 0.0, 6.0, None, text, text, False)], "2026-03-02T09:00:00")
    return [(c.who, c.to_whom, c.what) for c in find_commitments(doc, doc_entities(doc))]


@pytest.mark.parametrize(
    "text",
    [
        # the parse hangs "Markus" on "Monday"; he is still the one who sends the data
        "I'll send Jana the deck by Monday and Markus will send me the data.",
        "I'll send Jana the deck by Monday, and Markus will send me the data.",
    ],
)
def test_the_second_promise_of_a_sentence_is_its_own_speakers(text: str) -> None:
    assert owed(text) == [("me", "Jana", "the deck"), ("Markus", "me", "the data")]


def test_having_a_thing_to_someone_by_a_day_is_owed() -> None:
    # "have X to someone" hands X over; "have a chat to someone" is an act, not a thing
    assert owed("I'll have the revised floor plan to Priya by Monday.") == [
        ("me", "Priya", "the revised floor plan")
    ]
    assert owed("I'll have a chat to Priya about it on Monday.") == []
    assert owed("I'll have lunch with him on Friday.") == []


def test_getting_a_thing_for_oneself_or_under_a_condition_is_not_owed() -> None:
    # getting is receiving unless it goes to someone, or is promised
    assert owed("We'll get a second quote next week.") == []
    assert owed("I'll get the deck to Jana by Friday.") == [("me", "Jana", "the deck")]
    assert owed("Ruth promised to get the payroll file out of Leeds by Friday.")[0][:2] == ("Ruth", None)
    # "as long as …" is a condition
    assert owed("He said he'd sign it as long as the price is fixed.") == []
