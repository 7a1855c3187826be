"""Consolidation's self-corrections read by the shipped repair tagger (memory/consolidate/corrections.py),
on hand-made sentences (not from the evaluation notes), no mocks."""

from __future__ import annotations

import pytest

from memory.consolidate.corrections import MIN_CONFIDENCE, find_corrections, repair_candidates
from memory.store.recordings import Segment
from memory.text.doc import Doc


def doc_of(*texts: str) -> Doc:
    segments = [
        Segment(i + 1, 1, i, None, i * 5.0, i * 5.0 + 4.5, None, t, t, False) for i, t in enumerate(texts)
    ]
    return Doc(segments, "2026-03-02T09:00:00")


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        # a decimal point ends no clause: "at 1" is no time here
        ("The caps come at 1.4 cents each, my mistake, 1.6 cents each, the 1.4 was the old price.",
         "1.4 cents each", "1.6 cents each", "number"),
        # a number said in words with a hyphen is one number
        ("They listed thirty-four interfaces, my mistake, thirty-six interfaces, most of them files.",
         "thirty-four interfaces", "thirty-six interfaces", "number"),
        # British "half eight" is half past eight
        ("Doors open from seven, or rather from half eight.", "from seven", "from half eight", "date"),
        # a day said as an ordinal in words, and the day alone after it
        ("The panel met on the thirtieth of March, what am I saying, the thirty-first, the Tuesday.",
         "the thirtieth of March", "the thirty-first", "date"),
    ],
)  # fmt: skip
def test_values_said_in_other_forms_are_compared(text: str, wrong: str, right: str, kind: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, kind)


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        ("We ordered 120 chairs, make that 140, for the hall.", "120 chairs", "140", "number"),
        ("The go-live is the 6th, no wait, the 13th.", "the 6th", "the 13th", "date"),
    ],
)
def test_a_repair_becomes_a_correction_with_the_exact_words(
    text: str, wrong: str, right: str, kind: str
) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, kind)
    assert text[c.wrong.seg_start : c.wrong.seg_start + len(c.wrong.text)] == wrong  # raw offsets


def test_the_tagger_is_sure_of_a_marked_repair() -> None:
    [(repair, correction)] = repair_candidates(doc_of("We ordered 120 chairs, make that 140, for the hall."))
    assert repair.marker_text == "make that"
    assert repair.confidence >= MIN_CONFIDENCE
    assert correction.kind == "number"


@pytest.mark.parametrize(
    "text",
    [
        "No, that is not what the board wants, they want to keep the old layout.",
        "Sorry, I am late with this note, the meeting was on Friday.",
        "We have 12 rooms and 40 desks, and the lease ends in May.",
        "I just want to ask them whether Monday or Tuesday suits the trainers.",
    ],
)
def test_plain_speech_holds_no_corrections(text: str) -> None:
    assert find_corrections(doc_of(text)) == []


@pytest.mark.parametrize(
    ("text", "wrong", "right"),
    [
        ("The deposit is due on the 9th of October, hang on, the 16th of October.", "the 9th of October",
         "the 16th of October"),
        ("They quoted eight hundred pounds a day, my mistake, nine hundred.", "eight hundred pounds a day",
         "nine hundred"),
        ("The venue holds two hundred, my bad, two hundred and fifty people.", "two hundred",
         "two hundred and fifty people"),
        ("We start on Tuesday, what am I saying, Wednesday.", "Tuesday", "Wednesday"),
        ("The kickoff is at two, let me get that right, half past two.", "at two", "half past two"),
    ],
)  # fmt: skip
def test_more_editing_terms_correct_a_value_of_one_kind(text: str, wrong: str, right: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text) == (wrong, right)


@pytest.mark.parametrize(
    "text",
    [
        "The review went well. Hang on, the client wants the report on Friday.",
        "Make that call to the landlord before Monday.",
        "My mistake was trusting the old spreadsheet.",
    ],
)
def test_an_editing_term_without_a_value_corrected_is_no_correction(text: str) -> None:
    assert find_corrections(doc_of(text)) == []


def test_a_capital_alone_makes_no_name_to_correct() -> None:
    """Meeting speech: "Project Manager, um, I'm Marty" is an introduction, not "Marty" put in the
    place of "Manager". A name is what the note's parse reads as one (a proper noun or a name
    entity), not any capitalised word; a real name repair is still read."""
    assert (
        find_corrections(doc_of("So the Project Manager, um, I'm Marty, and I'll run the meeting today."))
        == []
    )
    [name] = find_corrections(doc_of("My contact at Helvion is not Weber but Wegener, Stefan Wegener."))
    assert (name.wrong.text, name.right.text, name.kind) == ("Weber", "Wegener", "name")


def test_a_repair_without_values_of_one_kind_is_not_a_correction() -> None:
    """The tagger may read "the red, sorry, the blue folder" as a repair; with no value on either
    side there is no evidence beside it, so consolidation reports nothing."""
    text = "Put the contracts in the red, sorry, the blue folder on the shelf."
    assert all(c.kind == "words" for _, c in repair_candidates(doc_of(text)))
    assert find_corrections(doc_of(text)) == []


def test_a_german_note_keeps_the_cue_rules() -> None:
    [c] = find_corrections(doc_of("Der Termin ist am Montag, nein, warte, ich meinte Mittwoch."))
    assert (c.wrong.text, c.right.text.split()[0]) == ("Montag", "Mittwoch")
    assert repair_candidates(doc_of("Der Termin ist am Montag, nein, warte, ich meinte Mittwoch.")) == []


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        # no editing term: the speaker goes back to "on the" and says the day again
        (
            "The audit is on the 5th, on the 6th of May, in the boardroom.",
            "on the 5th",
            "on the 6th of May",
            "date",
        ),
        # an editing term no cue rule and no training pair holds, between the two framings
        (
            "Delivery is Friday the 8th of May, hang on, Friday the 15th of May, as agreed.",
            "Friday the 8th of May",
            "Friday the 15th of May",
            "date",
        ),
        # the editing term after the repair
        ("We sold 300 units, 350 sorry, in the first quarter.", "300 units", "350", "number"),
        # a dash before the repair, the unit said again
        (
            "The pilot covers 30 branches - 35 branches in total.",
            "30 branches",
            "35 branches in total",
            "number",
        ),
        # numbers said in several words are one number each side
        (
            "The roof alone is five hundred and twenty thousand, hang on, four hundred and twenty thousand.",
            "five hundred and twenty thousand",
            "four hundred and twenty thousand",
            "number",
        ),
        # an editing term of several phrases and words
        (
            "The print run was three thousand four hundred, uh, strike that, four thousand three hundred.",
            "three thousand four hundred",
            "four thousand three hundred",
            "number",
        ),
        (
            "We've had nine replies, um, I tell a lie, eleven replies.",
            "nine replies",
            "eleven replies",
            "number",
        ),
        # the frame said again by a pronoun and "be" (a name only so: names in a row are a list)
        (
            "The grant asks for forty thousand, I've got that wrong, it's forty-five thousand.",
            "forty thousand",
            "forty-five thousand",
            "number",
        ),
        ("The site lead is Ana, I had that backwards, it's Ines.", "Ana", "Ines", "name"),
        (
            "The workshop is on the 12th, hold on, it's the 14th of May.",
            "the 12th",
            "the 14th of May",
            "date",
        ),
    ],
)
def test_a_retraced_value_is_a_correction(text: str, wrong: str, right: str, kind: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, kind)


@pytest.mark.parametrize(
    "text",
    [
        "Sessions are on the 5th, on the 6th, and on the 7th of May.",  # a list
        "The audit is on Tuesday, the 5th of May, in the boardroom.",  # one day said two ways
        "We charge 1,250 euros a day, 6,250 a week, travel on top.",  # another unit
        "We could take five or six, seven at most.",  # alternatives before
        "So that's two, so that's seven, fine.",  # counting in the same frame
        "The meeting starts on Monday, at ten, in Hamburg.",  # a day and a time
        "The vote was twenty eight, three, and two abstentions.",  # two numbers, nothing said again
        "So the third one is, uh, the kinetic energy ones.",  # a position, not a number to correct
        "We run twelve sites, it's fourteen on Fridays.",  # the second value says more of its own
        "Last year it was two hundred, it's two hundred and fifty.",  # a value then, another now
        "We hired Ana, it's Ines who runs the desk.",  # a name said of something else
    ],
)
def test_values_in_a_row_that_are_not_retraces(text: str) -> None:
    assert find_corrections(doc_of(text)) == []


def test_a_time_said_in_words_is_compared_as_a_time() -> None:
    """ "at nine, no, half past nine": without reading "half past nine" as 09:30 both sides hold
    the number nine and the repair has no differing value."""
    [c] = find_corrections(
        doc_of("The weekly call moves to Fridays at nine, no, half past nine, for the school run.")
    )
    assert (c.wrong.text, c.right.text, c.kind) == ("at nine", "half past nine", "date")


@pytest.mark.parametrize(
    ("text", "wrong", "right"),
    [
        ("The crews start at seven, seven-thirty actually.", "at seven", "seven-thirty"),
        ("The crews start at seven, eight actually.", "at seven", "eight"),
        ("The crews start at seven, at eight sorry.", "at seven", "at eight"),
    ],
)
def test_a_bare_hour_after_a_time_is_a_time(text: str, wrong: str, right: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, "date")


def test_a_count_after_a_time_is_no_repair() -> None:
    assert find_corrections(doc_of("We meet at seven, eight of us in total.")) == []
    assert find_corrections(doc_of("Doors open at seven, eight hundred guests expected.")) == []


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        ("Our sponsor there is not Keller but Kessler, Anna Kessler.", "Keller", "Kessler", "name"),
        ("Der Workshop beginnt nicht um neun, sondern um 14 Uhr.", "um neun", "um 14 Uhr", "date"),
        ("The fee is not 1,200 but 1,500 euros.", "1,200", "1,500", "number"),
    ],
)
def test_not_x_but_y_puts_the_right_value_in_place(text: str, wrong: str, right: str, kind: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, kind)


@pytest.mark.parametrize(
    "text",
    [
        "We need not only 40 seats but also 12 desks.",  # additive, not corrective
        "It is not that we lack 40 seats, but the budget is 12,000.",  # two clauses
        "The room is not large but the view is good.",  # no values
    ],
)
def test_not_but_without_a_replaced_value_is_no_correction(text: str) -> None:
    assert find_corrections(doc_of(text)) == []


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        # the slip said again to take it back, whatever words do it
        ("The pilot group will be nine, I keep saying nine, it's eleven people from the depot.",
         "nine", "eleven", "number"),
        ("Renewal is due on the 17th, sorry, not the 17th, the 19th, so legal has time.",
         "the 17th", "the 19th", "date"),
        ("Send the draft to Ines Moreau, I keep saying Ines Moreau, it's Ines Morel, before Friday.",
         "Ines Moreau", "Ines Morel", "name"),
        # a word cut off by a dash
        ("The grant is worth seventy— seventy-five thousand pounds over two years.", "seventy",
         "seventy-five thousand pounds over two years", "number"),
        ("I met Hamis— Hamish Dunbar from the estates team on site.", "Hamis",
         "Hamish Dunbar from the estates team on site", "words"),
        # a dash, no words: the voice stopped and said the value again
        ("Urgent faults on the boilers get a response in eight — five hours, the rest in two days.",
         "eight", "five", "number"),
        ("Their project lead is Morwenna — Marianne Kessel, who signs the orders.", "Morwenna",
         "Marianne Kessel", "name"),
        # a clause broken off and started again with the value meant
        ("Brightline quoted forty-two for the— Brightline's quote is forty-six thousand, all in.",
         "forty-two for the", "forty-six thousand", "number"),
        # a name spelled nearly the same put in place of the one just said
        ("The contract goes to Harrowgate Systems, Harrowfield Systems, I meant to say, from May.",
         "Harrowgate Systems", "Harrowfield Systems", "name"),
        ("Please copy in Magdalena Sowa, Sobczak, before the steering meeting.", "Magdalena Sowa", "Sobczak",
         "name"),
    ],
)  # fmt: skip
def test_a_value_repeated_or_cut_off_is_taken_back(text: str, wrong: str, right: str, kind: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, kind)


@pytest.mark.parametrize(
    "text",
    [
        "Halden signed, and Halden's lawyer says Brisco will sign next.",  # a name said twice, then another
        "We had forty in March, forty again in April, and fifty in May.",  # a list of counts
        "It's a pre- and post-launch survey for the Dunmore team.",  # a dash before "and"
        "The budget — set in March — is 40,000 pounds.",  # an aside between dashes
        "We invited Marta Lindqvist, Marek Lindahl and Ola Berg to the review.",  # a list of names
        "The shortlist is Brightwell, Brightmoor, Castlegate.",  # a list goes on
        "We have two options — eight or ten weeks of testing.",  # a list after the dash
        "The rooms — twelve in all — are booked for the week.",  # an aside between dashes
        "The kickoff is with Kit — Anna Berg, her manager, joins later.",  # another name, not alike
        "They moved to the Powder - Tower site in May.",  # a hyphen written with spaces, in a name
    ],
)
def test_values_said_twice_or_dashes_that_take_nothing_back(text: str) -> None:
    assert find_corrections(doc_of(text)) == []


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        # the words between say the slip, in words no cue list holds
        ("The rollout covers nine depots, ugh, that's not right, it's eleven depots, all in the south.",
         "nine", "eleven depots", "number"),
        ("The auditors arrive on the 5th of May — blast, misread my diary — the 8th of May.",
         "the 5th of May", "the 8th of May", "date"),
        ("Send it to Halloran, strike that, Hallett, she runs procurement now.",
         "Halloran", "Hallett", "name"),
        # after "no", the correcting value is in the phrase after the stretch
        ("The vote is on Tuesday — no, that's wrong, it's on Wednesday, after the AGM.",
         "Tuesday", "Wednesday", "date"),
        # said after the repair
        ("The shuttle leaves at seven, at eight, apologies, from the north gate.", "seven", "eight", "date"),
        # the value the first phrase ends on, a clock time said another way after it
        ("The site call is Mondays at nine, eight o'clock I should say, before the crews arrive.",
         "at nine", "eight o'clock", "date"),
        ("We budgeted thirty thousand, forty thousand, my error, for the pilot year.",
         "thirty thousand", "forty thousand", "number"),
        # German: a number is one word however long, read in its sentence's language
        ("Die Fenster kosten zweihundertvierzigtausend, nein, Moment, zweihundertzehntausend Euro.",
         "zweihundertvierzigtausend", "zweihundertzehntausend", "number"),
        # a question to oneself after the value, then the words that take it back
        ("The depot runs nineteen vans, doesn't it? no, hang on, twenty-one vans since March.",
         "nineteen", "twenty-one vans", "number"),
        ("Invoices go out on the 6th, is that right? No, sorry, the 9th of each month.",
         "the 6th", "the 9th", "date"),
    ],
)  # fmt: skip
def test_words_that_say_a_slip_take_a_value_back(text: str, wrong: str, right: str, kind: str) -> None:
    found = [(c.wrong.text, c.right.text, c.kind) for c in find_corrections(doc_of(text))]
    assert any(wrong in w and right in r and k == kind for w, r, k in found), found


@pytest.mark.parametrize(
    "text",
    [
        "Sorry, long week, but the launch stays on the 9th of June.",
        "Still no Danish partner signed, and the board meets on the 4th.",
        "I said ten, then eleven, and then no more changes, the 3rd of June it is.",
        # a question about the value, answered: no slip of the speaker's
        "Did the trustees approve the eighty thousand? No, they want sixty for now.",
        # German capitals are nouns, not names to compare ("Euro", "Moment")
        "Das Angebot liegt bei 180.000 Euro, nein, Moment, das ist ohne Montage.",
    ],
)
def test_a_word_of_apology_or_no_without_a_slip_takes_nothing_back(text: str) -> None:
    assert [(c.wrong.text, c.right.text) for c in find_corrections(doc_of(text))] == []


def test_the_slip_named_again_is_not_corrected_back() -> None:
    text = "The handover is on the 3rd of March, the 10th, the 10th of March, I keep saying the 3rd."
    found = [(c.wrong.text, c.right.text) for c in find_corrections(doc_of(text))]
    assert found and all("3rd" not in right for _, right in found), found


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        # a word broken off before a comma, its frame said again
        ("The reserve is one point f-, one point four million for the year.",
         "one point f", "one point four million", "words"),
        # the broken word is the second half of a hyphened number
        ("The total is fifty-ei-, fifty-three thousand four hundred, net.",
         "fifty-ei", "fifty-three thousand four hundred", "number"),
        # the frame said again, and the sentence goes on after the repair
        ("The walkthrough is on Tuesday, is on Thursday after the board, so keep it free.",
         "on Tuesday", "is on Thursday", "date"),
        # the repair said again whole continues no list; a day as an ordinal word is a day
        ("The steering group meets on the fourteenth of May — the twenty-first, the twenty-first of May.",
         "the fourteenth of May", "the twenty-first", "date"),
        # a name put right and said again
        ("Their buyer is Niamh Costigan, Costigan, Costello, it is Costello really.",
         "Costigan", "Costello", "name"),
    ],
)  # fmt: skip
def test_repairs_that_say_the_frame_or_the_repair_again(text: str, wrong: str, right: str, kind: str) -> None:
    found = [(c.wrong.text, c.right.text, c.kind) for c in find_corrections(doc_of(text))]
    assert any(wrong in w and right in r and k == kind for w, r, k in found), found


@pytest.mark.parametrize(
    "text",
    [
        # two values each with words of its own: a contrast, not a retrace
        "We meet at ten on Mondays, at eleven on Fridays, in the small room.",
        # a weekday and the day of the month it falls on say one day
        "The board met on Monday, it was the Monday, the fourteenth, and approved it.",
    ],
)
def test_parallel_values_and_one_day_said_twice_take_nothing_back(text: str) -> None:
    assert [(c.wrong.text, c.right.text) for c in find_corrections(doc_of(text))] == []


def test_a_repair_said_after_keeps_its_time_and_takes_back_the_unit() -> None:
    # the time after the repair is the repaired day's, not a third day
    text = "The site walk is on Wednesday, Friday my mistake, at half nine."
    assert [(c.wrong.text, c.right.text) for c in find_corrections(doc_of(text))] == [("Wednesday", "Friday")]
    # the taken-back words are the value and its unit; the marker is the words that say the slip
    [c] = find_corrections(doc_of("The top of grade D is forty-two k, that's wrong, it's forty-four k."))
    assert (c.wrong.text, c.marker) == ("forty-two k", "that's wrong, it's")


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        # the repair said twice to make it stick, no marker at all
        ("Overall they've got thirty-four accounts, uh, forty-three, forty-three accounts in all.",
         "thirty-four", "forty-three, forty-three", "number"),
        ("The launch is on the 9th, the 16th, the 16th of November, after the audit.",
         "the 9th", "the 16th", "date"),
    ],
)  # fmt: skip
def test_a_repair_said_twice_puts_the_slip_right(text: str, wrong: str, right: str, kind: str) -> None:
    [c] = find_corrections(doc_of(text))
    assert (c.wrong.text, c.kind) == (wrong, kind) and c.right.text.startswith(right)


@pytest.mark.parametrize(
    "text",
    [
        "We need three, three more chairs for the panel.",  # one value said twice
        "Between ten and twelve, twelve is better for the room.",  # a choice
        "Send it to Priya, Jonas, Jonas and Mei.",  # names: a list
    ],
)
def test_a_value_said_twice_alone_is_no_repair(text: str) -> None:
    assert find_corrections(doc_of(text)) == []
