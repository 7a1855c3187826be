"""The relative days of a quote read as calendar days for "when" questions (memory/answer/date_readings.py).
Sentences written for this test."""

from __future__ import annotations

from memory.answer.answers import Citation, Claim
from memory.answer.date_readings import readings, with_date_readings
from memory.text.quotes import ClaimKind


def _stated(text: str, spoken_at: str = "2026-03-10T09:00:00") -> Claim:  # a Tuesday
    cite = Citation(1, "Orchard", 7, spoken_at, 12.0, 18.0, (41,), text)
    return Claim(text, ClaimKind.STATED, [cite], "extractive")


def test_relative_days_are_read_against_the_day_the_note_was_spoken() -> None:
    claim = _stated("We signed the contract yesterday, and the kickoff is next Thursday.")
    assert readings(claim) == [
        "“yesterday”, said on Tuesday 10 March 2026: Monday 9 March 2026.",
        "“next Thursday”, said on Tuesday 10 March 2026: Thursday 19 March 2026.",
    ]
    week = _stated("Last week the auditors were on site.")
    assert readings(week) == ["“Last week”, said on Tuesday 10 March 2026: the week of Monday 2 March 2026."]


def test_days_said_in_full_bare_days_and_inferred_lines_get_no_reading() -> None:
    assert readings(_stated("The go-live is Thursday the 11th of June 2026.")) == []
    # "the 13th" takes its month from what was said before it, not from the day it was spoken
    assert readings(_stated("The go-live is the 6th of June, no wait, the 13th.")) == []
    assert readings(Claim("yesterday", ClaimKind.INFERRED, [], "model")) == []


def test_each_reading_follows_its_quote_inferred_and_cited_to_it() -> None:
    quote = _stated("The pilot started yesterday.")
    other = _stated("Nothing else was decided.")
    out = with_date_readings([quote, other])
    assert [c.kind for c in out] == [ClaimKind.STATED, ClaimKind.INFERRED, ClaimKind.STATED]
    assert out[1].citations == quote.citations
    assert out[1].text.endswith("Monday 9 March 2026.")
