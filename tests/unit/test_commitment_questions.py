"""Which questions are about commitments, and whose (memory/answer/commitment_answers.py). The
phrasings are written for this test, none from the eval sets."""

from __future__ import annotations

from memory.answer.commitment_answers import commitment_question


def test_owing_and_promising_in_either_direction() -> None:
    mine = commitment_question("What did I promise the Orchard team?")
    assert mine is not None and mine.mine is True
    owed = commitment_question("Who still owes us the figures?")
    assert owed is not None and owed.mine is False
    either = commitment_question("Is anything overdue on Orchard Bank?")
    assert either is not None and either.mine is None and "orchard" in either.names
    assert commitment_question("When is the Fischer report due?") is not None
    my = commitment_question("Which of my commitments are still open?")
    assert my is not None and my.mine is True


def test_other_questions_are_not_about_commitments() -> None:
    for question in (
        "What is the budget for the warehouse?",
        "Who is the site engineer at Millbrook?",
        "When did Caroline go to the support group?",
        "Welche Lagerhalle hat Herr Krause gezeigt?",
    ):
        assert commitment_question(question) is None, question


def test_german_questions_by_their_word_forms() -> None:
    asked = commitment_question("Was schulde ich Frau Berger noch?")
    assert asked is not None and asked.mine is True and "berg" in asked.names
    assert commitment_question("Wann liefert Herr Krause die Stammdaten?") is not None
