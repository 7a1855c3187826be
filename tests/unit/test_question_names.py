"""The names a question is about, which a passage must mention, are read by spaCy for English
questions (memory/text/relevance.py): dates and times are not names, a note's own date answers them;
a number offered to be checked in a yes-or-no question is not one either."""

from __future__ import annotations

import pytest

from memory.text.relevance import question_names, question_terms


def _names(question: str) -> set[str]:
    words = {w: 1 for w in question.replace("?", " ").replace("'s", " ").split()}
    return set(question_terms(question, document_counts=words, documents=10).names)


def test_a_month_or_a_date_in_the_question_is_not_a_name() -> None:
    assert _names("What day rate did I agree with Tessera in June?") == {"tessera"}
    assert _names("Where did Oscar go on 5 May 2023?") == {"oscar"}
    assert _names("What time is the presentation to Kranich's advisory board on 10 September?") == {"kranich"}


def test_people_organisations_and_amounts_are_names() -> None:
    assert _names("Is Priya Raman still at Helvion Cloud?") == {"priya", "raman", "helvion", "cloud"}
    assert "5" in _names("What did the 5 new laptops cost?")
    assert _names("How long has Melanie been creating art?") == {"melani"}


def test_german_questions_keep_the_capitals_rule() -> None:
    # No German spaCy pipeline here: capitals stand in (German nouns are read as names too).
    assert _names("Wo fanden die Demotage für Kranich statt?") == {"demotag", "kranich"}


@pytest.mark.parametrize(
    "question",
    [
        "so are we back up to 42 vans?",
        "The cap is 2.2m, isn't it?",
        "Does the council pay 11 pounds a head?",
        "Is the budget still 5,000 euros?",  # the passage that answers may say another figure
        "Harbour House raised 640k last time, so is that roughly what this appeal is aiming for?",
    ],
)
def test_a_number_offered_to_be_checked_need_not_be_said(question: str) -> None:
    assert not any(ch.isdigit() for name in question_names(question) for ch in name)


@pytest.mark.parametrize(
    ("question", "number"),
    [
        ("What does Lot 3 cost?", "3"),  # asks what: the number says which
        ("How many rooms are booked for the 40 guests?", "40"),
        ("Well, who is bringing the 12 laptops?", "12"),
    ],
)
def test_a_number_in_a_question_that_asks_what_stays_a_name(question: str, number: str) -> None:
    assert number in question_names(question)


def test_names_stay_names_in_a_yes_or_no_question() -> None:
    assert "priya" in question_names("Is Priya still leading the 12 interviews?")
