"""Values of facts as said: number words (text2num, English and German), shorthand and separators,
currencies and rates; dates resolved against when the note was spoken, with the forms dateparser
does not read (quarters, parts of a month, German weeks). Sentences written for these tests."""

from __future__ import annotations

from datetime import datetime

import pytest

from memory.consolidate.corrections import find_corrections
from memory.store.recordings import Segment
from memory.text.dates import DateResolver, date_interval, fact_dates
from memory.text.doc import Doc
from memory.text.numbers import find_quantities, german_number_words
from memory.text.said_values import NUMBER_WORDS, parse_number

TUESDAY = datetime(2026, 2, 10, 9, 30)  # a Tuesday


def norms(text: str, language: str = "en") -> list[str]:
    return [q.norm() for q in find_quantities(text, language)]


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("The licence pot is four hundred and twenty thousand pounds.", "en", "420000 GBP"),
        ("They asked for two thousand six hundred euros a month for hosting.", "en", "2600 EUR per month"),
        ("The quote came back at 380k.", "en", "380000"),
        ("We invoiced 2,750 dollars per seat per year.", "en", "2750 USD per seat per year"),
        ("Their bid was 275.000 Euro, which surprised everyone.", "en", "275000 EUR"),
        ("The grant is about 3.5 million euros.", "en", "3500000 EUR"),
        ("Sie verlangen vierhundertsechzig Euro pro Monat.", "de", "460 EUR per month"),
        ("Das Angebot liegt bei 1.250.000 Euro.", "de", "1250000 EUR"),
        ("Die Lizenz kostet 1,5 Mio Euro.", "de", "1500000 EUR"),
        ("Dazu kommen zweitausendfünfhundert Euro für Schulungen.", "de", "2500 EUR"),
        ("Dazu kommen noch siebeneinhalbtausend Stellplätze.", "de", "7500"),
        ("The budget is holding at six eighty, she says.", "en", "680"),
        # a price said short with its "k", rate or currency, hyphened as it is often written
        ("The heat pump package is now three-sixty-five k.", "en", "365000"),
        ("The package is now three sixty-five k.", "en", "365000"),
        ("My rate for the audit is two-fifty a day.", "en", "250 per day"),
        ("The kit came to four-ninety euros.", "en", "490 EUR"),
        ("About fourteen percent of the invoices bounced.", "en", "14%"),
        # a decimal said in words with its scale: one number, not 2.1 and 1000000
        ("So the appeal is now going for two point one million.", "en", "2100000"),
        ("We are now at one point nine five million pounds.", "en", "1950000 GBP"),
        ("Es sind jetzt zwei Komma fünf Millionen Euro.", "de", "2500000 EUR"),
        # the Indian scale and rupees
        ("The sanction limit is now six lakh rupees.", "en", "600000 INR"),
        ("They have set aside Rs 1.5 crore for the core banking upgrade.", "en", "15000000 INR"),
        ("The penalty came to Rs. 12,50,000 in the end.", "en", "1250000 INR"),
        ("The vendor wants ₹40 lakh per year for the licence.", "en", "4000000 INR per year"),
        ("Cold storage is forty-five thousand rand a month.", "en", "45000 ZAR per month"),
    ],
)
def test_numbers_are_read_however_they_are_said(text: str, language: str, expected: str) -> None:
    assert expected in norms(text, language)
    assert "1000000" not in norms(text, language)  # a scale is no number of its own


@pytest.mark.parametrize(
    "text",
    [
        "We meet at two, by phone.",  # a time
        "It starts at one — at two o'clock, sorry.",  # a time, even before a dash
        "The call is at six fifty tomorrow.",  # a time, not 650
        "The call is at one-twenty on Monday.",  # a time, hyphened
        "Das Treffen ist um zehn Uhr.",  # a time
        "Version 4.2 fixes the export.",  # an identifier
        "Phase 3 starts later.",  # an identifier
        "The review is on the 3rd.",  # a date's day
    ],
)
def test_times_identifiers_and_days_are_not_quantities(text: str) -> None:
    language = "de" if " ist " in text else "en"
    assert norms(text, language) == []


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("We've landed on the seven-grade structure.", 7.0),
        ("They booked a three-day workshop.", 3.0),
        ("It's a twenty-four-bed ward.", 24.0),
    ],
)
def test_a_count_said_as_a_compound_adjective_is_read(text: str, value: float) -> None:
    assert [q.value for q in find_quantities(text, "en")] == [value]


def test_a_fraction_said_as_a_compound_is_no_count() -> None:
    assert find_quantities("They need a two-thirds majority.", "en") == []


def test_a_quantity_points_at_the_raw_words() -> None:
    text = "Rollout costs came to nine hundred and ten thousand euros, in the end."
    [q] = find_quantities(text, "en")
    assert text[q.start : q.end] == q.text == "nine hundred and ten thousand euros"
    assert q.words and q.value == 910000 and q.currency == "EUR"


def dates(text: str, language: str = "en", when: datetime = TUESDAY) -> list[tuple[str, str]]:
    return [(e.text, e.value) for e in fact_dates(text, DateResolver(when), language) if e.kind == "date"]


@pytest.mark.parametrize(
    ("text", "language", "said", "value"),
    [
        ("The cutover is on the second of March.", "en", "the second of March", "2026-03-02"),
        ("We sign by the end of Q2.", "en", "the end of Q2", "2026-06"),
        ("The pilot opens at the start of Q3.", "en", "the start of Q3", "2026-07"),
        ("Acceptance is planned for mid-November.", "en", "mid-November", "2026-11"),
        ("Die Abnahme ist Mitte November.", "de", "Mitte November", "2026-11"),
        ("Die Schulung ist am dritten April.", "de", "am dritten April", "2026-04-03"),
        ("Das Angebot kommt Ende nächster Woche.", "de", "Ende nächster Woche", "2026-02-20"),
        ("Der Umzug ist am 14.05.2026 geplant.", "de", "14.05.2026", "2026-05-14"),
        ("We sign on 3 Mar 2027, all being well.", "en", "3 Mar 2027", "2027-03-03"),
        ("The review is next Thursday.", "en", "next Thursday", "2026-02-19"),
        ("Send it by the 21st, please.", "en", "the 21st", "2026-02-21"),
        ("I owe Odile the draft by Friday week.", "en", "Friday week", "2026-02-20"),
        ("She'll have it to me a week on Friday.", "en", "a week on Friday", "2026-02-20"),
        (
            "He'll send the diagrams by the Thursday after next.",
            "en",
            "the Thursday after next",
            "2026-02-26",
        ),
        ("Anjali will get me the profiles a fortnight from now.", "en", "a fortnight from now", "2026-02-24"),
        ("We'll know in a fortnight.", "en", "in a fortnight", "2026-02-24"),
        ("The forecast is due by KW 44.", "en", "KW 44", "2026-10-26"),
        ("Die Daten kommen in vierzehn Tagen.", "de", "in vierzehn Tagen", "2026-02-24"),
        ("Das Angebot kommt in einer Woche.", "de", "in einer Woche", "2026-02-17"),
        (
            "The board sits on the 20th of February and he confirms it the day after.",
            "en",
            "the day after",
            "2026-02-21",
        ),
        ("We meet the day after tomorrow.", "en", "the day after tomorrow", "2026-02-12"),
    ],
)
def test_dates_resolve_against_when_the_note_was_spoken(
    text: str, language: str, said: str, value: str
) -> None:
    assert (said, value) in dates(text, language)


def test_the_day_after_an_event_or_no_date_is_no_date() -> None:
    assert dates("The day after the board meeting we sign.") == []
    assert dates("I'll see her the day after.") == []


def test_a_numbered_week_of_something_else_is_no_calendar_week() -> None:
    assert dates("We are in week 3 of the trial.") == []
    assert dates("The Friday weekly call moved.") == [("Friday", "2026-02-13")]


def test_an_ordinal_of_something_else_is_not_a_day() -> None:
    assert dates("Interviews run in the second week of May.") == []
    assert dates("We need the first two sites live.") == []


def test_a_date_value_covers_its_days() -> None:
    assert date_interval("2026-09") == ("2026-09-01", "2026-09-30")
    assert date_interval("2026-Q3") == ("2026-07-01", "2026-09-30")
    assert date_interval("2026-06-11T10:00") == ("2026-06-11", "2026-06-11")


@pytest.mark.parametrize(
    ("word", "value"),
    [
        ("elf", 11),
        ("Elf", 11),
        ("zwölf", 12),
        ("dreizehn", 13),
        ("sechzehn", 16),
        ("siebzehn", 17),
        ("einundzwanzig", 21),
        ("dreiundzwanzig", 23),
        ("dreißig", 30),
        ("dreissig", 30),
        ("siebenundsiebzig", 77),
        ("neunundneunzig", 99),
    ],
)
def test_german_number_words_are_read_with_text2num(word: str, value: int) -> None:
    assert parse_number(word) == value
    assert german_number_words()[word.lower()] == value


def test_german_articles_are_no_number_words() -> None:
    assert not {"ein", "eine", "einen", "einer"} & set(NUMBER_WORDS)


def _doc(text: str) -> Doc:
    return Doc([Segment(1, 1, 0, None, 0.0, 4.5, None, text, text, False)], "2026-03-02T09:00:00")


@pytest.mark.parametrize(
    ("text", "wrong", "right", "kind"),
    [
        ("Der Workshop beginnt nicht um elf, sondern um 14 Uhr.", "um elf", "um 14 Uhr", "date"),
        ("Wir brauchen elf, nein, zwölf Lizenzen.", "elf", "zwölf Lizenzen", "number"),
        ("Wir brauchen einundzwanzig, nein, dreiundzwanzig.", "einundzwanzig", "dreiundzwanzig", "number"),
    ],
)
def test_german_number_words_are_values_of_a_self_correction(
    text: str, wrong: str, right: str, kind: str
) -> None:
    [c] = find_corrections(_doc(text))
    assert (c.wrong.text, c.right.text, c.kind) == (wrong, right, kind)


def test_german_number_words_in_quantities_and_dates() -> None:
    assert norms("Wir brauchen elf Lizenzen zu je zwölf Euro.", "de") == ["11", "12 EUR"]
    assert dates("Das Projekt endet in dreiundzwanzig Tagen.", "de") == [
        ("in dreiundzwanzig Tagen", "2026-03-05")
    ]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("The call moved, it's ten o'clock now.", "10:00"),
        ("Doors open eleven o'clock sharp.", "11:00"),
        ("Pickup is six p.m. from the hotel.", "18:00"),
        ("Amplified music has to stop at eleven at night.", "23:00"),
        ("The last bus leaves at two at night.", "02:00"),
    ],
)
def test_an_hour_with_o_clock_or_a_part_of_the_day_needs_no_at(text: str, value: str) -> None:
    when = datetime(2026, 3, 2, 9, 0)
    assert [e.value for e in fact_dates(text, DateResolver(when), "en") if e.kind == "time"] == [value]


@pytest.mark.parametrize(
    ("text", "value"),
    [
        ("Day shift starts at seven-thirty.", "19:30"),  # an office hour, as for "at seven"
        ("The crews start at seven thirty, sharp.", "19:30"),
        ("Drinks are at 7.30 on the terrace.", "19:30"),
        ("Standup is at nine fifteen on Mondays.", "09:15"),
        ("The crews start at eight sorry.", "08:00"),  # a repair word after the hour
        ("Doors open at ten actually.", "10:00"),
    ],
)
def test_minutes_after_the_hour_and_a_repair_word_after_it(text: str, value: str) -> None:
    when = datetime(2026, 3, 2, 9, 0)
    assert [e.value for e in fact_dates(text, DateResolver(when), "en") if e.kind == "time"] == [value]


def test_a_price_or_a_count_after_at_is_no_time() -> None:
    when = datetime(2026, 3, 2, 9, 0)
    for text in ("They sell at 2.50 a unit.", "We're at 7 30 people now.", "Capped at eight people."):
        assert [e for e in fact_dates(text, DateResolver(when), "en") if e.kind == "time"] == []


def test_a_number_after_at_that_counts_something_is_no_time() -> None:
    assert [q.value for q in find_quantities("The register is at 23 providers now.", "en")] == [23.0]
    assert [q.value for q in find_quantities("The pilot is capped at fifteen days.", "en")] == [15.0]
