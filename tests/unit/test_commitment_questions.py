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
    assert commitment_question("What's due from me this week?") is not None
    my = commitment_question("Which of my commitments are still open?")
    assert my is not None and my.mine is True


def test_what_someone_is_supposed_to_do_and_what_is_waited_on() -> None:
    sending = commitment_question("What's Rui supposed to be sending me?")
    assert sending is not None and sending.mine is False and "rui" in sending.names
    meant = commitment_question("What was I meant to draft for Leona?")
    assert meant is not None and meant.mine is True
    waiting = commitment_question("What am I still waiting on from the bank?")
    assert waiting is not None and waiting.mine is False
    on_me = commitment_question("Is anyone waiting for me?")
    assert on_me is not None and on_me.mine is True


def test_other_questions_are_not_about_commitments() -> None:
    for question in (
        "What is the budget for the warehouse?",
        "Who is the site engineer at Millbrook?",
        "When did Caroline go to the support group?",
        "Welche Lagerhalle hat Herr Krause gezeigt?",
        # a time something was to happen, and a wait that is not between the user and someone
        "When was the steering call supposed to be?",
        "What is the warehouse waiting for?",
        # "due" and "supposed to" said of a thing, not between the user and someone: a date asked
        "When is the Fischer report due?",
        "When was the harbour tender due in?",
        "When was the depot consultation supposed to start?",
    ):
        assert commitment_question(question) is None, question


def test_german_questions_by_their_word_forms() -> None:
    asked = commitment_question("Was schulde ich Frau Berger noch?")
    assert asked is not None and asked.mine is True and "berg" in asked.names
    assert commitment_question("Wann liefert Herr Krause die Stammdaten?") is not None


def test_whether_something_promised_was_handed_over() -> None:
    kept = commitment_question("Did Leona send me the site survey when she said she would?")
    assert kept is not None and kept.delivered and {"survey"} <= kept.thing and "leona" in kept.names
    sent = commitment_question("Has Rui ever sent the tariff sheets?")
    assert sent is not None and sent.delivered and "sheet" in sent.thing
    assert commitment_question("Did the board approve the budget?") is None  # no handing over


def test_a_name_of_two_words_is_one_name() -> None:
    asked = commitment_question("What do I owe Leona Farrant, and by when?")
    assert asked is not None and asked.phrases == (frozenset({"leona", "farrant"}),)
