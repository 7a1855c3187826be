"""Days a question names, as the days notes about them were likely spoken (pure, no store)."""

from __future__ import annotations

from datetime import date, datetime

import pytest

from memory.search.asked_dates import in_spans, named_days, spans

ASKED = datetime(2026, 3, 20, 9, 0)


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # A month without a year is its latest occurrence up to the question (last July, not next).
        ("When did Melanie go camping in July?", [(date(2025, 7, 1), date(2025, 8, 14))]),
        ("What did we decide in March?", [(date(2026, 3, 1), date(2026, 3, 20))]),  # not past today
        ("Who did Maria have dinner with on May 3, 2023?", [(date(2023, 5, 3), date(2023, 5, 17))]),
        ("What happened on the 3rd of February?", [(date(2026, 2, 3), date(2026, 2, 17))]),
        ("What did John attend in March 2023?", [(date(2023, 3, 1), date(2023, 4, 14))]),
        ("Was ist im Januar passiert?", [(date(2026, 1, 1), date(2026, 2, 14))]),
        # Looking ahead: days no note has been spoken on yet, nothing to match.
        ("Do I have any scheduling conflicts coming up in June?", []),
        ("What will happen in February?", []),
        # No date named; "may" the verb; a day that does not exist (its month still counts).
        ("What is the budget?", []),
        ("What may the board decide?", []),
        ("What happened on 31 February 2025?", [(date(2025, 2, 1), date(2025, 3, 14))]),
        # The words around a month are part of what is named; "back in" and "was going to" look back.
        ("What was the catering budget back in mid-January?", [(date(2026, 1, 1), date(2026, 2, 14))]),
        ("What did the lease say at the beginning of February?", [(date(2026, 2, 1), date(2026, 3, 14))]),
        (
            "Back in January, which printer was the school going to use?",
            [(date(2026, 1, 1), date(2026, 2, 14))],
        ),
        ("Which venue were we going to book in late February?", [(date(2026, 2, 1), date(2026, 3, 14))]),
    ],
)
def test_the_days_a_question_names(question: str, expected: list[tuple[date, date]]) -> None:
    assert spans(question, ASKED) == expected


def test_a_note_is_in_a_span_by_its_day_and_odd_times_are_not() -> None:
    found = spans("What happened in July?", ASKED)
    assert in_spans("2025-07-31T23:59:00", found) and in_spans("2025-08-14T08:00:00", found)
    assert not in_spans("2025-08-15T08:00:00", found) and not in_spans("2025-06-30T12:00:00", found)
    assert not in_spans("not a time", found)


def test_the_words_around_a_month_are_said_by_a_note_spoken_then() -> None:
    question = "What was the catering budget back in mid-January?"
    [((a, b), _)] = named_days(question, ASKED)
    assert question[a:b] == "back in mid-January"  # "back" and "mid" are no words a passage must say
