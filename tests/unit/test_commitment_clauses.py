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
    # the parse rules alone: what the learned detector adds is tested in test_commitment_detector.py
    return [(c.who, c.to_whom, c.what) for c in find_commitments(doc, doc_entities(doc), detector=None)]


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


def dues(text: str) -> list[tuple[str, str, str | None]]:
    doc = Doc([Segment(1, 1, 0, None, 0.0, 6.0, None, text, text, False)], "2026-03-02T09:00:00")
    return [(c.who, c.to_whom or "", c.due_date) for c in find_commitments(doc, doc_entities(doc))]


def test_shapes_the_small_parser_reads_otherwise_are_still_owed() -> None:
    # "get Lorna a matrix" is parsed as a clause "Lorna a matrix"; the person is still whom it goes to
    assert dues("I've said I'll get Lorna a weighted scoring matrix by next Tuesday.") == [
        ("me", "Lorna", "2026-03-10")
    ]
    # "to Jana" parsed as the dative: Jana, not "to Jana"
    assert owed("I'll send the deck to Jana on Friday.") == [("me", "Jana", "the deck")]
    # whom it was told to is whom it goes to
    assert owed("They told us they'd send the contract by Monday.") == [("they", "us", "the contract")]


def test_a_present_progressive_with_someone_and_a_day_is_an_arrangement() -> None:
    assert dues("I'm sending Fenella the programme outline after Easter, the 31st.") == [
        ("me", "Fenella", "2026-03-31")
    ]
    assert owed("I'm sending her the deck now.") == []  # happening, not promised


def test_what_would_have_been_is_neither_promised_nor_delivered() -> None:
    assert owed("He said he'd have sent it already.") == []
    assert owed("I'd sent Oren the scorecard twice already.") == [("me", "Oren", "the scorecard")]


def test_a_deadline_a_week_on_or_a_fortnight_away() -> None:
    # 2 March 2026 is a Monday: the coming Friday is the 6th, "Friday week" the 13th
    assert dues("I owe Odile the case for support by Friday week.") == [("me", "Odile", "2026-03-13")]
    assert dues("Priya will send me the floor plans in a fortnight.") == [("Priya", "me", "2026-03-16")]


def test_a_german_promise_to_someone() -> None:
    assert dues("Ich hab Veronika versprochen, dass der Antrag spätestens am 10. März draußen ist.") == [
        ("me", "Veronika", "2026-03-10")
    ]
    assert dues("Markus hat uns zugesagt, die Daten bis Freitag zu schicken.") == [
        ("Markus", "us", "2026-03-06")
    ]
    assert dues("Ich habe Jana nicht versprochen, dass die Folien bis Montag fertig sind.") == []


def delivered(text: str) -> list[tuple[str, str, str]]:
    doc = Doc([Segment(1, 1, 0, None, 0.0, 6.0, None, text, text, False)], "2026-03-02T09:00:00")
    return [
        (c.who, c.to_whom or "", c.what)
        for c in find_commitments(doc, doc_entities(doc))
        if c.kind == "delivery"
    ]


def test_what_was_sent_named_before_its_relative_clause() -> None:
    assert delivered("Priya took the floor plan I sent on Monday and marked it up.") == [
        ("me", "", "the floor plan")
    ]
    assert delivered("The draft that went to Oren came back with comments.")[0][1:] == ("Oren", "The draft")


def test_a_promised_thing_the_parser_reads_as_a_clause() -> None:
    # "a welcome pack ... the questions guests ask" parsed as a clause whose subject is the pack
    assert dues(
        "I promised Nadia a welcome pack, the floor plan and the questions guests ask,"
        " before the open day on the 20th."
    ) == [("me", "Nadia", "2026-03-20")]
    assert owed("I promised Nadia the pack would be ready.") == []  # what would be, not a thing promised


def test_a_heading_the_parser_gives_as_a_second_subject_is_not_who() -> None:
    # In a whole note the parser sometimes reads "Actions," before "I've promised ..." as a second
    # subject of "promised" (built here as it parsed it): the one said nearest the verb is who.
    from spacy.tokens import Doc as Parsed

    from memory.consolidate.commitment_parties import nearest_first
    from memory.text.nlp import english

    words = ["Actions", ",", "I", "'ve", "promised", "Gareth", "an", "outline"]
    heads = [4, 4, 4, 4, 4, 4, 7, 4]
    deps = ["nsubj", "punct", "nsubj", "aux", "ROOT", "dative", "det", "dobj"]
    parsed = Parsed(english().vocab, words=words, heads=heads, deps=deps)
    verb = parsed[4]
    subjects = [t for t in verb.children if t.dep_ == "nsubj"]
    assert [t.text for t in nearest_first(subjects, verb)] == ["I", "Actions"]


def test_when_something_starts_is_no_deadline() -> None:
    # going to do something, said with no one it is owed to and only a start: no commitment
    assert (
        owed(
            "Ines Marlow, my colleague, is going to run the evaluation panels, five days straight,"
            " starting Monday the 9th of March, here on site."
        )
        == []
    )
    assert dues("Tomas is going to send me the interview notes by Friday the 13th.") == [
        ("Tomas", "me", "2026-03-13")
    ]


def test_the_head_of_a_thing_owed_is_what_a_delivery_must_name() -> None:
    from memory.consolidate.commitment_store import head_word

    # "side-by-side" is one word, not a cut at "by"; a counted measure is not the thing
    assert head_word("a side-by-side comparison of three telephone agencies") == "comparison"
    assert head_word("the ten years of fish count data") == "data"
    assert head_word("a first draft of the playbook") == "draft"


def test_two_verbs_of_one_promise() -> None:
    # the deadline said after the second verb is the first one's too
    assert dues("Nadia is going to set those up and do them with me by the end of March.") == [
        ("Nadia", "", "2026-03-31")
    ]
    # writing a thing and getting it to someone by a day is one promise, to that someone
    assert dues(
        "I've said I'll write the risk section of the bid and get it to Omar by Friday the 13th."
    ) == [("me", "Omar", "2026-03-13")]


def test_those_in_a_promise_are_the_things_of_the_sentence_before() -> None:
    texts = [
        "Nadia wants site visits done before the board, with two other schools.",
        "Ruth is going to set those up by the end of March.",
    ]
    segments = [
        Segment(i + 1, 1, i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False) for i, t in enumerate(texts)
    ]
    doc = Doc(segments, "2026-03-02T09:00:00")
    assert [(c.who, c.what) for c in find_commitments(doc, doc_entities(doc))] == [("Ruth", "site visits")]


def test_whose_job_it_is_said_with_on() -> None:
    # "it's on me to …" is an undertaking; "the decision is on me" names nothing handed over
    assert owed("It's on me to send Marcus the data dictionary by Friday.") == [
        ("me", "Marcus", "the data dictionary")
    ]
    assert owed("It's on us to get the revised budget to Orla before the board.") == [
        ("us", "Orla", "the revised budget")
    ]
    assert owed("The decision is on me now.") == []
    assert owed("It's on the agenda to send out the minutes.") == []


def test_what_someone_waits_for_from_whoever_has_it_is_owed_to_them() -> None:
    assert owed("Dana's waiting on my revised cost model.") == [("me", "Dana", "revised cost model")]
    assert owed("We're still waiting for Priya's access logs.") == [("Priya", "us", "access logs")]
    assert owed("They're waiting on the invoice from us.")[0][::2] == ("us", "the invoice")
    # whose it is not said, or a person waited for: nothing owed
    assert owed("We're waiting on the invoice.") == []
    assert owed("I'm waiting on their sign-off.") == []
    assert owed("We're waiting for the board.") == []


def test_the_speakers_own_work_on_something_is_owed_to_nobody() -> None:
    assert owed("The draft list is a mess of duplicates, I'll clean it up on Wednesday.") == []
    assert owed("The deck is nearly done, I'll send it over by Friday.")[0][:2] == ("me", None)
    assert owed("I'll draft the scoring matrix for Niamh by Friday.") == [
        ("me", "Niamh", "the scoring matrix")  # whom it is for is to_whom
    ]


def test_having_a_thing_with_someone_or_in_their_hands_is_owed() -> None:
    # "have" hands a thing over "for" a person, "with" a person by a deadline, "in X's hands"
    assert owed("I need to have the tariff model in Odile's hands before the review.") == [
        ("me", "Odile", "the tariff model")
    ]
    assert owed("I need to have the options memo with Rashid before the recess.") == [
        ("me", "Rashid", "the options memo")
    ]
    assert owed("I'll have the board paper ready for Imke by Monday.") == [("me", "Imke", "the board paper")]
    assert owed("We'll have a budget for the hospital by June.") == []
    assert owed("I need to have something for them before that.") == []


def test_what_someone_expects_or_will_have_from_someone_is_owed_to_them() -> None:
    assert owed("Imke's expecting a revised rota from me first thing Monday.") == [
        ("me", "Imke", "a revised rota")
    ]
    # whom the speaker told is "she", not the speaker
    assert owed("I've told Imke she'll have the scoring sheet from me on Thursday.") == [
        ("me", "Imke", "the scoring sheet")
    ]
    assert owed("We'll have the survey data from Rashid by Friday.") == [("Rashid", "us", "the survey data")]
    assert owed("The board expects a decision by March.") == []
    # getting a thing from someone is receiving it: Tomasz owes it, not Imke herself
    assert owed("I told Imke she'd get the deck from Tomasz on Monday.") == [("Tomasz", "Imke", "the deck")]


def test_a_name_and_s_gonna_is_a_promise_not_a_possessive() -> None:
    # the small model reads "Rashid's gonna" as "Rashid's gon" (a noun) unless "'s" is read as "is"
    assert owed("Rashid's gonna send me the floor loadings by the 3rd.") == [
        ("Rashid", "me", "the floor loadings")
    ]


def test_owed_without_the_owing_party_as_the_subject() -> None:
    # the passive of handing over, in the future, with whom it is by
    assert owed("The updated headcount figures will be sent over to Marguerite by me before the board.") == [
        ("me", "Marguerite", "The updated headcount figures")
    ]
    # due to someone from someone
    assert owed("The market sizing is due to Rohan from me on the 3rd.") == [
        ("me", "Rohan", "The market sizing")
    ]
    assert owed("The rent is due on the 1st.") == []
    # a reply that brings a thing
    assert owed("Mateus is going to get back to me with the licence count before the renewal call.") == [
        ("Mateus", "me", "the licence count")
    ]
    assert owed("Bronwyn will come back to us with a decision next week.") == [
        ("Bronwyn", "us", "a decision")
    ]
    assert owed("I will revert to Mr. Venkataraman with the revised estimates by Friday.") == [
        ("me", "Venkataraman", "the revised estimates")
    ]
    # "once" waits for something expected: still owed; "if" may never come
    assert owed("Isidore will call me back with the final headcount once HR confirms it.") == [
        ("Isidore", "me", "the final headcount")
    ]
    assert owed("Isidore will call me back with the final headcount if HR confirms it.") == []


def test_whose_job_it_is_said_of_the_thing() -> None:
    assert owed("Right, the vendor shortlist is on me, Kwabena wants it by the fifteenth.") == [
        ("me", None, "the vendor shortlist")
    ]
    assert owed("Pulling together the cost summary for Rashida is down to me.") == [
        ("me", "Rashida", "the cost summary")
    ]
    assert owed("The weather is down to luck.") == []
    assert owed("That's on me.") == []


def test_a_note_to_self_without_i() -> None:
    assert owed("Need to send Leopold the updated Gantt chart.") == [
        ("me", "Leopold", "the updated Gantt chart")
    ]
    assert owed("Need to book the hotel.") == []


def test_a_promise_made_earlier_with_d_is_still_owed() -> None:
    # "I'd promised" is "I had promised"; "he'd have sent it" is what would have been
    assert owed("I'd promised Jana the deck by Friday.") == [("me", "Jana", "the deck")]
    assert owed("He'd have sent it already by Friday.") == []


def test_will_said_after_a_name_or_a_noun() -> None:
    # spaCy splits "'ll" only after pronouns; "Leanne'll" was one word with no verb
    assert owed("Leanne'll flick me the full schedule on Monday.") == [("Leanne", "me", "the full schedule")]
    assert owed("The client'll send us the signed contract by Friday.") == [
        ("The client", "us", "the signed contract")
    ]


def test_telling_someone_they_will_have_a_thing_is_a_promise_to_them() -> None:
    assert owed("I told Moira she'd have a draft project plan from me by Friday.") == [
        ("me", "Moira", "a draft project plan")
    ]
    assert owed("I've said Hamish will have an options paper before the board meets.") == [
        ("me", "Hamish", "an options paper")
    ]
    # from someone else: they owe it
    assert owed("I told Jana she'd have the deck from Tomasz on Monday.") == [("Tomasz", "Jana", "the deck")]
    assert owed("I said Hamish would have a tough time with the board.") == []  # no thing handed over
    assert owed("She told me she'd have the numbers by Friday.") == []  # her own having


def test_for_me_when_someone_else_does_it() -> None:
    assert owed("Tess is going to dig out the bottling volumes for me, she didn't say when.") == [
        ("Tess", "me", "the bottling volumes")
    ]
    assert owed("She didn't say she'd send me the volumes.") == []  # a report taken back
    assert owed("I'm going to book a room for us on Friday.") == [("me", None, "a room")]  # own errand
    assert owed("We'll turn around the redlined contract for Ezekiel within two days.") == [
        ("us", "Ezekiel", "the redlined contract")
    ]
    assert owed("I'll draft the forecast for Q3 by Friday.") == [("me", None, "the forecast")]


def test_things_and_people_the_small_parser_misreads() -> None:
    # "survey" tagged a verb after "the"; "Ingrid the capacity model" read as a clause
    assert owed("Declan reckons he'll have the site survey to us Tuesday week.") == [
        ("Declan", "us", "the site survey")
    ]
    assert owed("I've got to get Ingrid the capacity model by tomorrow morning.") == [
        ("me", "Ingrid", "the capacity model")
    ]
    assert owed("Gotta get the audit findings over to Ines before her flight on Thursday.") == [
        ("me", "Ines", "the audit findings")
    ]


def test_notes_to_self_and_offers() -> None:
    assert owed("Gonna send Thaddeus the updated roadmap, he's been chasing it.") == [
        ("me", "Thaddeus", "the updated roadmap")
    ]
    assert owed("Gonna be a long week.") == []
    assert owed("To do, send Berenice the updated timeline.") == [("me", "Berenice", "the updated timeline")]
    assert owed("Note to self, send Carys the revised fee proposal on Monday.") == [
        ("me", "Carys", "the revised fee proposal")
    ]
    assert owed("Note to self, the board meets on Tuesday.") == []
    assert owed("Let me dig out the baseline data for Aurelio.") == [("me", "Aurelio", "the baseline data")]
    assert owed("Let me get that right, quarter past three.") == []  # a repair, offered to no one
