"""What a question names, which a passage has to mention to be kept (memory/text/relevance.py
`question_names`): a number offered to be checked in a yes-or-no question is not one of them."""

import pytest

from memory.text.relevance import question_names


@pytest.mark.parametrize(
    "question",
    [
        "so are we back up to 42 vans?",
        "The cap is 2.2m, isn't it?",
        "Does the council pay 11 pounds a head?",
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
