"""What is not asserted never becomes a stated fact: conditions, modals and tentative ideas,
negations, questions, second-hand remarks, numbers qualified as being for something else; a wish
is kept, not as stated. Read by spaCy's parse (English) or by rules (German). Sentences written for
these tests, not taken from the evaluation sets."""

from __future__ import annotations

import pytest

from memory.consolidate.corrections import find_corrections
from memory.consolidate.facts import FactIn, rule_facts
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities
from memory.text.quotes import ClaimKind


def facts_of(*texts: str, spoken_at: str = "2026-02-10T09:30:00") -> list[FactIn]:
    segments = [
        Segment(i + 1, RecordingId(1), i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False)
        for i, t in enumerate(texts)
    ]
    doc = Doc(segments, spoken_at)
    return rule_facts(
        doc, doc_entities(doc), find_corrections(doc), [1] * len(segments), {1: "orchard-clinic"}
    )


@pytest.mark.parametrize(
    "text",
    [
        "If procurement signs off, the pilot starts on the 4th of May.",
        "We could stretch the licence budget to 95,000 pounds.",
        "The kickoff is probably on Monday the 9th of March.",
        "I think the hosting costs about 12,000 euros a year.",
        "The workshop isn't on the 3rd of June, whatever the invite says.",
        "Is the vendor demo on the 12th of February?",
        "I'm toying with the idea of charging 8k for the audit.",
        "The deposit was 20,000 pounds, but that's only for the first site.",
        "Their old platform cost 1.4 million, but that was a much bigger trust.",
        "Dana mentioned that the council got 300,000 pounds for a similar portal.",
        "Dana would like to open a second office in Leeds by September.",
        "Vielleicht kostet die Lizenz noch einmal 30.000 Euro.",
        "Wenn der Vorstand zustimmt, starten wir am 1. Juni.",
        "Die Schulung ist nicht am dritten April.",
        "The tentative go-live is the 3rd of June.",
        "The hospice up the road paid 140,000 pounds for something similar.",
        # someone else's number, said so after it
        "The trust next door pays 45,000 a year for hosting, but that's Kelby's figure, not ours.",
        "It seems the go-live moves to the 3rd of June.",
        # history: a year gone by says when, so it is not how things stand (spoken in 2026)
        "Their first capital campaign, back in 2011, brought in 380,000 pounds.",
        "The warehouse shipped 9,000 pallets a month, that was 2022, before the fire.",
        "Im Jahr 2020 hatte die Schule noch 450 Schüler.",
        # what a document says, in its own clause
        "Their pitch deck says 180,000 visitors a year.",
        "The email from the vendor quoted 14,000 pounds for the licences.",
        # a condition on the clause it follows, or on both of two joined by "and"
        "The fee is 48,000 pounds if they extend the contract.",
        "If the board signs it off, we start on the 4th of May and finish on the 30th of June.",
        # the question mark asks the clause that opens as a question, or the one it goes on from
        "Is the workshop on the 12th of March, or has it moved again?",
        "The headcount back then was, what, twelve people?",
        "The contact there is still Aoife Brennan, is it?",
        # a state said in the past tense at a time gone by: history
        "Originally the handover was the 2nd of March.",
        "We used to pay 14,000 a year for the licences.",
        "Before the merger they had eleven depots.",
        "Last time they quoted 8,000 for the audit.",
        # a proposal floated, not agreed
        "They're floating twenty-two weeks for the build.",
        # a wish whose value sits in the to-infinitive's own clause
        "Dana would love to get reactive work down to forty per cent, she said so twice.",
        # a month of a year gone by
        "The last refit, back in March 2024, cost them 90,000 pounds.",
    ],
)
def test_what_is_not_asserted_is_never_a_stated_fact(text: str) -> None:
    assert [f.value for f in facts_of(text) if f.kind == ClaimKind.STATED] == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The go-live is on Thursday the 7th of May.", "Thursday the 7th of May"),
        ("The licence budget is ninety-five thousand pounds.", "ninety-five thousand pounds"),
        ("Das Budget für die Schulungen liegt bei 45.000 Euro.", "45.000 Euro"),
        ("The deposit was 20,000 pounds, and that's the date the board wants.", "20,000 pounds"),
        ("The budget is forty thousand pounds, but that's everyone's worry now.", "forty thousand pounds"),
        # a "not" after the value sets it against what goes
        (
            "We're now planning for three hundred and forty guests, not the figure from the pitch.",
            "three hundred and forty",
        ),
        ("The budget is now sixty thousand pounds, not the figure we started with.", "sixty thousand pounds"),
        # "new" things the value of a target, not an increment
        ("The target for the year is eight hundred new members.", "eight hundred"),
        ("The campaign is now going for three point four million.", "three point four million"),
        ("Tamara Lindqvist is the site manager.", "Tamara Lindqvist"),  # the one a role names
        ("Osman Reyes has agreed to run the pilot.", "Osman Reyes"),
        # a year as a boundary, or with how things stand now, is no history
        (
            "The records from before 2019 stay in the old archive, which costs 3,000 pounds a year.",
            "3,000 pounds a year",
        ),
        ("The fund was 2.1 million in 2024 and it is 2.6 million now.", "2.6 million"),
        # a clause after the document's says what the speaker knows now
        ("Priya's email came in this morning, the hosting budget is 36,000 pounds.", "36,000 pounds"),
        # a condition, a doubt or a question about another clause leaves the value asserted
        (
            "Whether the trainers come is another matter, but the workshop is on Tuesday the 3rd of March.",
            "Tuesday the 3rd of March",
        ),
        ("I don't know if they'll like it, but the budget is signed off at 90,000 pounds.", "90,000 pounds"),
        (
            "The go-live is the 14th of April, and whether the staff like it is another story.",
            "the 14th of April",
        ),
        (
            "Even if the unions grumble, the pay award is three point five percent.",
            "three point five percent",
        ),
        (
            "The discount is fifteen percent, signed off this morning, will the shops follow?",
            "fifteen percent",
        ),
        ("The team has seven analysts now, no?", "seven"),
        # a decision in the past still stands; a recent time is when it was set
        ("The board approved ninety-five thousand last week.", "ninety-five thousand"),
        ("We signed with Harbourline last year for 30,000 a year.", "30,000 a year"),
        ("The headcount was fourteen last Tuesday when I checked.", "fourteen"),
        ("The go-live is in October 2026, the board signed it off.", "in October"),
    ],
)
def test_plain_statements_are_stated(text: str, value: str) -> None:
    assert value in [f.value for f in facts_of(text) if f.kind == ClaimKind.STATED]


@pytest.mark.parametrize(
    "text",
    [
        "They cut the licence budget by 10,000 pounds.",
        "We need an extra 20,000 pounds for hardware.",
        "Der Preis wurde um 5.000 Euro erhöht.",
    ],
)
def test_how_much_something_changed_is_not_its_value(text: str) -> None:
    assert facts_of(text) == []


def test_a_wish_is_kept_but_not_as_stated() -> None:
    [fact] = [f for f in facts_of("Hannah wants to move the training to Monday the 16th of March.")]
    assert fact.value == "Monday the 16th of March" and fact.kind == ClaimKind.INFERRED
    assert fact.changed  # said as a change: it may supersede an earlier training date


def test_a_clause_of_its_own_is_read_on_its_own() -> None:
    # the negation and the modal belong to other clauses than the values
    found = facts_of(
        "The list came in on Friday, it's forty-one interfaces, which I wouldn't really call interfaces."
    )
    stated = {f.value: f for f in found if f.kind == ClaimKind.STATED}
    assert stated["forty-one"].value_kind == "count" and stated["forty-one"].value_norm.startswith(
        "41 interfac"
    )


def test_had_written_as_d_is_no_modal() -> None:
    # "'d" before a past participle is "had": what was agreed is stated; "'d have agreed" is "would"
    assert "400,000" in [
        f.value for f in facts_of("We'd agreed the budget at 400,000.") if f.kind == ClaimKind.STATED
    ]
    assert "400,000" not in [
        f.value for f in facts_of("We'd have agreed the budget at 400,000.") if f.kind == ClaimKind.STATED
    ]


def test_a_not_after_the_value_before_a_noun_phrase_names_what_goes() -> None:
    from memory.text.hedges import _sets_against
    from memory.text.nlp import parse

    doc = parse("We agreed twelve desks, not a desk more, and the plan is not final.")
    twelve, first_not, second_not = doc[2], doc[5], doc[14]
    assert (twelve.text, first_not.text, second_not.text) == ("twelve", "not", "not")
    assert _sets_against(first_not, twelve)  # "not a desk more": what goes
    assert not _sets_against(second_not, twelve)  # "not final": a negation of its own clause
    assert not _sets_against(first_not, doc[15])  # a "not" before the value negates it
