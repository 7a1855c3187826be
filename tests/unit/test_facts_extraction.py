"""Which values become facts, and what they are about: people by their role in the sentence, tools
by the verbs that choose them, counts by the noun counted, in or out of scope, corrected values
with the words they correct. Read with spaCy's parse. Sentences written for these tests."""

from __future__ import annotations

import pytest

from memory.consolidate.corrections import find_corrections
from memory.consolidate.facts import FactIn, rule_facts
from memory.store.ids import RecordingId
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities


def facts_of(*texts: str, spoken_at: str = "2026-02-16T09:30:00") -> list[FactIn]:
    segments = [
        Segment(i + 1, RecordingId(1), i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False)
        for i, t in enumerate(texts)
    ]
    doc = Doc(segments, spoken_at)
    return rule_facts(
        doc, doc_entities(doc), find_corrections(doc), [1] * len(segments), {1: "harrow-museum"}
    )


def by_value(*texts: str) -> dict[str, FactIn]:
    return {f.value: f for f in facts_of(*texts)}


@pytest.mark.parametrize(
    ("text", "person", "attribute_word"),
    [
        ("Their head of IT, Sunita Rao, is leading the procurement.", "Sunita Rao", "procurement"),
        ("Procurement now sits with Tom Becker, Sunita is on leave.", "Tom Becker", "procurement"),
        ("Dev Patel owns the data migration from now on.", "Dev Patel", "migration"),
        # taking charge said with a particle or a preposition
        ("Nadia Osei has picked up the supplier onboarding.", "Nadia Osei", "onboarding"),
        ("Tomasz Wierzba is looking after the depot budgets now.", "Tomasz Wierzba", "budgets"),
    ],
)
def test_a_person_is_the_value_of_the_role_the_sentence_gives_them(
    text: str, person: str, attribute_word: str
) -> None:
    fact = by_value(text)[person]
    assert fact.value_kind == "person" and attribute_word in fact.attribute


@pytest.mark.parametrize(
    ("text", "tool"),
    [
        ("We're moving ticket sales off Eventora and onto Passly.", "Passly"),
        ("For the newsletters they'll use Mailbeam.", "Mailbeam"),
        ("They keep the collection records in Vitrina.", "Vitrina"),
    ],
)
def test_a_tool_is_a_value_where_a_verb_chooses_or_keeps_it(text: str, tool: str) -> None:
    found = by_value(text)
    assert found[tool].value_kind == "name"
    assert "Eventora" not in found  # what the change moves away from is no value


def test_a_count_is_of_the_noun_it_counts() -> None:
    fact = by_value("We have fourteen customs brokers on the list.")["fourteen"]
    assert (fact.value_kind, fact.value_norm) == ("count", "14 broker")


def test_a_bare_number_takes_the_topic_it_answers() -> None:
    fact = by_value("Languages, they want five at launch.")["five"]
    assert fact.value_kind == "number" and "languages" in fact.attribute


def test_in_or_out_of_scope_is_a_value_of_the_thing() -> None:
    out = by_value("The visitor app is out of scope for the first release.")
    [fact] = [f for f in out.values() if f.value_kind == "status"]
    assert fact.value_norm == "out app" and fact.value.startswith("out of scope")
    back = [
        f
        for f in facts_of("The trustees now want the visitor app in the first release.")
        if f.value_kind == "status"
    ]
    assert [f.value_norm for f in back] == ["in app"]


def test_a_corrected_value_takes_the_currency_and_rate_it_corrects() -> None:
    fact = by_value("I quoted them 900 pounds a day, sorry, 850, for ten days.")["850"]
    assert (fact.value_kind, fact.value_norm) == ("amount", "850 GBP per day")


def test_the_notes_own_date_is_a_fact_only_after_its_header() -> None:
    found = facts_of(
        "Monday the 16th of February, notes on the museum.",
        "The pilot has been pushed back to Monday the 16th of February.",
    )
    assert [f.quote.text for f in found if f.value_norm == "2026-02-16"] == [
        "The pilot has been pushed back to Monday the 16th of February."
    ]


def test_the_date_of_something_that_happened_is_marked() -> None:
    fact = by_value("I sent Hannah the revised plan on Thursday the 12th of February.")
    assert "~past" in fact["Thursday the 12th of February"].context


@pytest.mark.parametrize(
    ("text", "attribute", "value"),
    [
        ("The kickoff is the 6th of June, no wait, the 13th.", "kickoff", "the 13th"),
        ("The launch is the 4th of May, sorry, the 11th.", "launch", "the 11th"),
        (
            "The audit is on the 2nd of March, no wait, the 9th, the 2nd is the board meeting.",
            "audit",
            "the 9th",
        ),
    ],
)
def test_a_repair_marker_is_neither_a_negation_nor_part_of_the_attribute(
    text: str, attribute: str, value: str
) -> None:
    """ "no wait" before the words meant once made the value tentative (a negation) and "wait" or
    "sorry" a word of the attribute."""
    facts = by_value(text)
    assert facts[value].attribute == attribute and facts[value].kind == "stated"
    assert all("wait" not in f.attribute and "sorry" not in f.attribute for f in facts.values())
