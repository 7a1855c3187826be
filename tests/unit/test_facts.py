"""Rule-based layers on their own: dates resolved against spoken_at, amounts and counts, names,
self-corrections (English and German), hedges, and facts with their validity. No model involved:
these results are deterministic, so they are asserted exactly."""

from __future__ import annotations

from datetime import datetime

import pytest

from memory.consolidate.corrections import find_corrections
from memory.consolidate.facts import hedged_ranges, rule_facts
from memory.store.recordings import Segment
from memory.text.doc import Doc
from memory.text.entities import doc_entities, sentence_entities

MONDAY = datetime(2026, 3, 2, 9, 0)  # a Monday


def doc_of(*texts: str, spoken_at: str = "2026-03-02T09:00:00") -> Doc:
    segments = [
        Segment(i + 1, 1, i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False) for i, t in enumerate(texts)
    ]
    return Doc(segments, spoken_at)


def values(text: str, kind: str, when: datetime = MONDAY) -> list[str]:
    return [e.value for e in sentence_entities(text, when) if e.kind == kind]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The review is on Friday the 13th of March.", "2026-03-13"),
        ("Deadline is the 30th of June for the submission.", "2026-06-30"),
        ("We meet on Wednesday the 4th.", "2026-03-04"),  # the 4th that is a Wednesday, near the note
        ("I'll chase him tomorrow.", "2026-03-03"),
        ("The trustees liked the plan on Friday.", "2026-02-27"),  # past tense: the last Friday
        ("Send it by Friday.", "2026-03-06"),  # a deadline: the coming Friday
        # said in the past of what is still to come: the coming Friday; a past perfect: the last
        ("She said she'd send the contracts over EOD Friday.", "2026-03-06"),
        ("He told me he'll ring on Friday.", "2026-03-06"),
        ("She said she'd sent the contracts on Friday.", "2026-02-27"),
        ("Der Termin ist am 11. Juni.", "2026-06-11"),
        ("Draft it by the end of next week.", "2026-03-13"),
        ("We go live on 2026-06-11.", "2026-06-11"),
    ],
)
def test_dates_resolve_against_when_the_note_was_spoken(text: str, expected: str) -> None:
    assert expected in values(text, "date")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The steering group moved to Thursday, two in the afternoon, at the dairy.", ["14:00"]),
        ("We start at nine in the morning.", ["09:00"]),
        ("There were twenty in the morning queue.", []),  # no hour of the day
    ],
)
def test_an_hour_said_with_its_part_of_the_day_is_a_time(text: str, expected: list[str]) -> None:
    assert values(text, "time") == expected


def test_a_bare_day_means_the_day_the_note_already_named() -> None:
    doc = doc_of("The new date is Thursday the 11th of June.", "For that day, so the 11th, I'll be on site.")
    dates = [e.value for e in doc_entities(doc) if e.kind == "date"]
    assert dates == ["2026-06-11", "2026-06-11"]


def test_amounts_counts_percentages_and_names() -> None:
    text = "Lumen and Lathe quoted 14,800 pounds, about 620 a day, for 64 beacons and twelve percent more."
    found = {(e.kind, e.value) for e in sentence_entities(text, MONDAY)}
    assert ("amount", "14800 GBP") in found
    assert ("count", "620") in found and ("count", "64") in found
    assert ("percent", "12%") in found
    assert ("organisation", "lumen and lathe") in found
    assert values("My contact is Gwen Trevelyan, the finance director.", "person") == ["gwen trevelyan"]
    assert values("The readings go into DuckDB tonight.", "technology") == ["duckdb"]


def test_words_capitalised_only_because_they_come_first_are_not_names() -> None:
    doc = doc_of(
        "Mm, yeah. It 's quite a lot of work.",
        "Great, and the readings go into DuckDB tonight.",
        "That was a great call with Owain.",
        "Wow, Congrats on the launch!",
        "DuckDB is fine, Owain says. Textwell sends the reminders, and we pay Textwell monthly.",
    )
    names = {e.value for e in doc_entities(doc) if e.kind in ("person", "organisation", "technology", "name")}
    assert {"duckdb", "owain", "textwell"} <= names
    # fillers and function words; "great" is said in lower case too; a clause's first word unknown
    assert not names & {"mm", "it", "great", "that", "wow", "congrats"}


@pytest.mark.parametrize(
    ("text", "wrong", "right"),
    [
        (
            "I present the plan on Thursday the 12th, no, sorry, Friday the 13th of March.",
            "Thursday the 12th",
            "Friday",
        ),
        ("Wrenfield is six clinics, well, seven actually, since January.", "six clinics", "seven"),
        ("They buy from 38 suppliers, um, actually 36, after a merger.", "38 suppliers", "36"),
        ("The quote came in at 18,400, sorry, 14,800 pounds for the install.", "18,400", "14,800 pounds"),
        ("The workshop is on Monday, oh wait, I actually meant Tuesday.", "Monday", "Tuesday"),
        ("We'll use Redis, scratch that, we'll use Postgres for the cache.", "Redis", "Postgres"),
        ("Der Termin ist am Montag, nein, warte, ich meinte Mittwoch.", "Montag", "Mittwoch"),
        ("Das Budget ist 40.000 Euro, Korrektur, 45.000 Euro.", "40.000", "45.000"),
        ("The stand-up is on Mondays, I mean Tuesdays, at nine.", "Mondays", "Tuesdays"),
        # a retrace, then the weekday of the day it means: the same day again, not a list going on
        ("Annerby is on the 28th, on the 30th of September, the Wednesday.", "the 28th", "the 30th"),
    ],
)
def test_self_corrections_link_the_taken_back_words_to_the_meant_ones(
    text: str, wrong: str, right: str
) -> None:
    [c] = find_corrections(doc_of(text))
    assert wrong in c.wrong.text and right in c.right.text
    assert c.wrong.end <= c.right.start  # taken back first, then the correction
    assert text[c.wrong.seg_start : c.wrong.seg_start + len(c.wrong.text)] == c.wrong.text  # raw offsets


@pytest.mark.parametrize(
    "text",
    [
        "She's, she's great actually, very organised.",
        "The data migration is the, well, it's the scary bit.",
        "Sorry, switching to the museum for a second.",
        "It's about 4 pence a message instead of 3.",
        "The deadline is the 15th of September, not the end of June.",
        "So that takes a lot of, um, a lot of pressure off.",
        "We have sessions on the 3rd, on the 4th, the Saturday, and the 9th.",
    ],
)
def test_restarts_fillers_and_contrasts_are_not_self_corrections(text: str) -> None:
    assert find_corrections(doc_of(text)) == []


def test_a_correction_across_two_segments() -> None:
    doc = doc_of("The workshop is on Monday.", "Oh wait, I actually meant Tuesday.")
    [c] = find_corrections(doc)
    assert c.wrong.text == "Monday" and c.right.text.startswith("Tuesday")
    assert c.wrong.segment_ids == (1,) and c.right.segment_ids == (2,)


def _facts(*texts: str) -> list:  # type: ignore[type-arg]
    doc = doc_of(*texts)
    entities = doc_entities(doc)
    return rule_facts(doc, entities, find_corrections(doc), [1] * len(doc.segments), {1: "Atlas"})


def test_facts_take_the_corrected_value_and_say_where_it_was_said() -> None:
    [fact] = [
        f
        for f in _facts("We've ended up with 62 beacons, no, 64, for the new gallery.")
        if f.value_kind == "count"
    ]
    assert fact.value == "64" and fact.value_norm == "64 beacon"  # the corrected count keeps its noun
    assert fact.correction == 0 and fact.quote.segment_ids == (1,)


def test_an_amount_read_across_a_cut_off_word_is_the_corrected_one() -> None:
    """ "seventy— seventy-five thousand pounds" is read as one amount (75,000); the cut-off word is
    taken back, the amount said whole is not."""
    amounts = [
        f
        for f in _facts("The grant is worth seventy— seventy-five thousand pounds in total.")
        if f.value_kind == "amount"
    ]
    assert [f.value_norm for f in amounts] == ["75000 GBP"]


@pytest.mark.parametrize(
    "text",
    [
        "Apparently their rival spent 90,000 on a similar app.",
        "If the grant comes through, phase two would have 60,000 pounds.",
        "I might suggest a pilot at two clinics first.",
        "There was a slide in their deck that said 212,000 visitors.",
        "He also mentioned that the heritage centre got a 250,000 grant.",
        "Gwen said, half joking, that she'll switch the range to recycled wool.",
    ],
)
def test_hedged_conditional_and_second_hand_sentences_give_no_fact(text: str) -> None:
    assert _facts(text) == []
    assert hedged_ranges(doc_of(text).sentences[0])


def test_changes_and_plain_statements() -> None:
    facts = _facts(
        "Monday morning, the 2nd of March, notes.",  # the note's own date is not a fact
        "My contact from now on is Ben Okoro.",
        "We're switching the text messages from Textwell to Pingmate.",
        "The budget for phase one is 30,000 pounds.",
    )
    by_value = {f.value: f for f in facts}
    assert set(by_value) == {"Ben Okoro", "Pingmate", "30,000 pounds"}  # Textwell is the old value
    assert by_value["Ben Okoro"].changed and by_value["Pingmate"].changed
    assert not by_value["30,000 pounds"].changed
    assert by_value["Ben Okoro"].attribute == "contact"


@pytest.mark.parametrize(
    ("text", "value", "changed"),
    [
        ("I've reworked my price for the season to 16,750 pounds.", "16,750 pounds", True),
        ("The licence budget went to 52,000 euros.", "52,000 euros", True),
        ("They put the review on the 22nd of April.", "the 22nd of April", False),
        # a date that slips to another is a change, whatever the tense
        ("The handover of the east wing slips to Monday the 3rd of April.", "Monday the 3rd of April", True),
        ("We sorted the payslips to staff on Friday the 3rd of April.", "Friday the 3rd of April", False),
        ("We can spend up to 40,000 pounds on the pilot.", "40,000 pounds", False),
        ("Due to the outage the pilot starts on the 3rd of November.", "the 3rd of November", False),
        # the verbs the value hangs from say it, past a clause about the person
        ("Omar Castell, our finance lead, has taken over the budget.", "Omar Castell", True),
        ("Lena Varga, who runs the kitchen, has agreed to lead the tasting instead.", "Lena Varga", True),
        ("Lena Varga, who runs the kitchen, has agreed to lead the tasting.", "Lena Varga", False),
        # the new holder of a role
        ("The new site engineer is Tomas Brandl.", "Tomas Brandl", True),
        ("Tomas Brandl is the site engineer.", "Tomas Brandl", False),
    ],
)
def test_a_value_a_verb_sets_something_to_is_a_change(text: str, value: str, changed: bool) -> None:
    # said by its grammar, whatever the verb: the value hangs on the preposition "to" of a verb
    by_value = {f.value: f for f in _facts(text)}
    assert by_value[value].changed is changed


def test_a_time_goes_with_the_day_said_right_before_it() -> None:
    # the time is Friday's (the day put right), not Wednesday's; and "half nine" is no number
    by_value = {f.value: f for f in _facts("The site walk is on Wednesday, Friday my mistake, at half nine.")}
    assert "Wednesday" not in " ".join(by_value) and "nine" not in by_value
    assert {f.value_norm[:10] for f in by_value.values()} == {"2026-03-06"}
    assert [f.value for f in _facts("The review is on Friday at ten.")] == ["Friday at ten"]
