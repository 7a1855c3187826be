"""The days a question names ("in July", "on May 3, 2023", "in March 2024"), as the spans of days
when notes about them were most likely spoken: the day or month itself and the two weeks after
(people tell of a trip or a meeting on the day or soon after, rarely months later).

A question is asked after what it asks about, so a month without a year is its latest occurrence
up to the moment of asking ("in July", asked in March 2026, is July 2025); unless the question
looks ahead ("coming up in June", "what will happen in May"): then it is the next one, and no note
has been spoken on those days yet: nothing to match.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memory.text.dates import MONTHS

TOLD_WITHIN = timedelta(days=14)  # how long after a day notes still tell of it

_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?P<y>(?:19|20)\d{2})"
_AHEAD = re.compile(
    r"\b(?:coming\s+up|upcoming|next|will|going\s+to|gonna|planned|plan(?:s|ning)?\s+to|scheduled|due|"
    r"later|ahead|future|nächste\w*|kommende\w*|wird|werden)\b",
    re.I,
)
# "What was the school going to use?", "Which venue were we going to book?": a plan in the past.
_PAST_PLAN = re.compile(r"\b(?:was|were)\b(?:\s+\w+){0,3}?\s+going\s+to\b", re.I)
_PATTERNS = (
    # 3 May 2023, the 3rd of May, 3 May
    re.compile(rf"\b(?P<d>\d{{1,2}}){_ORD}\s+(?:of\s+)?(?P<m>{_MONTH})\b\.?(?:,?\s+{_YEAR}\b)?", re.I),
    # May 3, 2023; May the 3rd; May 3
    re.compile(rf"\b(?P<m>{_MONTH})\.?\s+(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}\b(?:,?\s+{_YEAR}\b)?", re.I),
    # May 2023, May of 2023
    re.compile(rf"\b(?P<m>{_MONTH})\s+(?:of\s+)?{_YEAR}\b", re.I),
    # back in mid-May, at the beginning of July, the first half of August, early March: the words
    # around the month are part of what the question names ("may" alone is the verb far more often)
    re.compile(
        rf"\b(?:back\s+)?(?:(?:in|at|by|around|from|since|until)\s+)?(?:the\s+)?(?:very\s+)?"
        rf"(?:early|mid|late|beginning|start|end|middle|(?:first|second|last)\s+(?:half|week|weeks))"
        rf"(?:\s+of)?\s*-?\s*(?P<m>{_MONTH})\b",
        re.I,
    ),
    # in May, during July, back in June
    re.compile(
        rf"\b(?:back\s+)?(?:in|during|early|late|mid|since|through|throughout|im)\s+-?\s*(?P<m>{_MONTH})\b",
        re.I,
    ),
)


def spans(question: str, as_of: datetime | None) -> list[tuple[date, date]]:
    """(first, last) days, inclusive, on which notes telling of the days the question names were
    likely spoken; empty when it names none."""
    return [days for _, days in named_days(question, as_of)]


def named_days(question: str, as_of: datetime | None) -> list[tuple[tuple[int, int], tuple[date, date]]]:
    """Each day or month the question names: where it is said (character offsets) and the span of
    days on which notes telling of it were likely spoken."""
    today = (as_of or datetime.now()).date()
    ahead = looks_ahead(question)
    found: list[tuple[tuple[int, int], tuple[date, date]]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(question):
            if any(a < m.end() and m.start() < b for (a, b), _ in found):
                continue  # part of a fuller date already read ("May 3, 2023", then "May")
            back = m.group(0).lower().startswith("back")  # "back in June": behind, whatever else is said
            days = _days(m.groupdict(), today, ahead and not back)
            if days is not None and days[0] <= today:
                found.append(((m.start(), m.end()), (days[0], min(days[1] + TOLD_WITHIN, today))))
    return found


def looks_ahead(question: str) -> bool:
    """Whether the question asks about what is still to come ("coming up", "next", "will")."""
    return bool(_AHEAD.search(question)) and not _PAST_PLAN.search(question)


def _days(groups: dict[str, str | None], today: date, ahead: bool) -> tuple[date, date] | None:
    month = MONTHS[str(groups["m"]).lower()]
    year = int(y) if (y := groups.get("y")) else None
    day = int(d) if (d := groups.get("d")) else None
    if year is None:
        # The latest such month (or day) not after today; looking ahead, the next one from today.
        passed = (month, day or 1) <= (today.month, today.day)
        year = today.year + (1 if passed else 0) if ahead else today.year if passed else today.year - 1
    last_day = calendar.monthrange(year, month)[1]
    if day is None:
        return date(year, month, 1), date(year, month, last_day)
    if not 1 <= day <= last_day:
        return None
    return date(year, month, day), date(year, month, day)


def in_spans(spoken_at: str, found: list[tuple[date, date]]) -> bool:
    """Whether a note spoken at `spoken_at` (store time, ISO) falls in one of the spans."""
    try:
        day = date.fromisoformat(spoken_at[:10])
    except ValueError:
        return False
    return any(first <= day <= last for first, last in found)


CalendarMention = tuple[int | None, int, int | None]  # (year, month, day) as said; None: not said


def calendar_mentions(text: str) -> list[CalendarMention]:
    """Each day or month the text names, as said: "on 10 September" (None, 9, 10), "in June 2026"
    (2026, 6, None), "Thursday the 11th of June" (None, 6, 11)."""
    found: list[tuple[tuple[int, int], CalendarMention]] = []
    for pattern in _PATTERNS:
        for m in pattern.finditer(text):
            if any(a < m.end() and m.start() < b for (a, b), _ in found):
                continue
            groups = m.groupdict()
            year = int(y) if (y := groups.get("y")) else None
            day = int(d) if (d := groups.get("d")) else None
            found.append(((m.start(), m.end()), (year, MONTHS[str(groups["m"]).lower()], day)))
    return [mention for _, mention in found]


def same_days(a: CalendarMention, b: CalendarMention) -> bool:
    """Whether two mentions can name the same day: the same month, and the same day and year where
    both say one ("June" meets "the 11th of June")."""
    (ya, ma, da), (yb, mb, db) = a, b
    return ma == mb and (da is None or db is None or da == db) and (ya is None or yb is None or ya == yb)
