"""A sentence that says the asked thing is not known yet is read as such by its parse, and only
for the kind of thing it says is unknown. The sentences are written for this test, not taken from
any evaluation set."""

from __future__ import annotations

import pytest

from memory.answer.not_yet_known import not_known_kinds, says_not_known


@pytest.mark.parametrize(
    ("sentence", "kind", "question"),
    [
        ("The client has a new sponsor, but Greta wouldn't tell me who", "person", "Who sponsors it?"),
        ("Oren didn't want to say the name yet", "name", "Which forwarder is it?"),
        ("They picked one of the two printers, I don't know which yet", "name", "Which printer?"),
        ("I have no idea who is running the pilot", "person", "Who runs the pilot?"),
        ("I'm not sure how much they'll charge for the second phase", "price", "What do they charge?"),
        ("We still haven't decided where the offsite will be", "place", "Where is the offsite?"),
        ("Nobody could tell me the date of the inspection", "time", "What is the date of the inspection?"),
        (
            "I need to look up what the current figure is before I price the menus",
            "amount",
            "How much per head?",
        ),
        # a word that says the knowing is missing, without a negation
        ("The landlord was vague on how many desks we get", "amount", "How many desks do we get?"),
        ("It's still unclear who will chair the panel", "person", "Who chairs the panel?"),
        # a question that opens with its wh-phrase's preposition
        (
            "The inspectors will come in spring, nobody knows when",
            "time",
            "On what date do the inspectors come?",
        ),
    ],
)
def test_what_a_sentence_says_is_not_known(sentence: str, kind: str, question: str) -> None:
    assert says_not_known(sentence, kind, question), not_known_kinds(sentence)


@pytest.mark.parametrize(
    ("sentence", "kind"),
    [
        # the negation is in another clause than the answer
        ("I don't know if they'll sign, but the budget is forty thousand", "amount"),
        # told, known, or owed to someone else: the speaker has it
        ("She told me who the new manager is: it's Priya", "person"),
        ("I have to tell Jonas the date by Friday", "time"),
        ("Marco knows exactly how much it costs, twelve thousand", "amount"),
        ("We don't have the contract yet, and she told me who signs it", "person"),
        # negated, but about something else than the kind asked
        ("We didn't say no to the proposal", "person"),
        ("Greta wouldn't tell me who is sponsoring it", "time"),
        ("They never told us the kickoff was moved", "time"),
        # a noun of the kind, but not the thing the question asks about
        ("The email mentioned a project worth 100k, but nobody has confirmed a budget", "amount"),
        ("Nobody could tell me the date of the inspection", "time"),
    ],
)
def test_what_a_sentence_does_not_say_is_unknown(sentence: str, kind: str) -> None:
    question = {"amount": "How much is the project worth?", "person": "Who signs it?"}.get(
        kind, "When is it?"
    )
    assert not says_not_known(sentence, kind, question), not_known_kinds(sentence)


def test_no_kind_asked_and_german_text_are_never_read_as_unknown() -> None:
    assert not says_not_known("I don't know who is coming", None)
    assert not says_not_known("Ich weiß noch nicht, wer das Projekt leitet", "person")
