"""When passages of two projects are about the same time (memory/consolidate/connections.py): the
stretches of days a passage names (dates read against the day its note was spoken, a month named
alone), the clock times it names, the days two passages have in common, and the words that say the
speaker is taken up then (being somewhere, or all day), which make a shared day a calendar clash.
"""

from __future__ import annotations

import re
from datetime import date, datetime
from functools import lru_cache

from memory.text.dates import MONTH_PATTERN, MONTHS, DateResolver, date_interval, fact_dates
from memory.text.entities import sentence_dates
from memory.text.nlp import language_of

# Taken up for the whole day ("on site all day", "the whole day, from the set-up right through"):
# being somewhere, and at every hour of it, so whatever else is on that day is at the same time.
ALL_DAY = re.compile(
    r"\b(?:all[\s-]day|(?:the|a)\s+(?:whole|full|entire)\s+day|full[\s-]day|ganztägig\w*|den\s+ganzen\s+tag)\b",
    re.I,
)
PRESENCE = re.compile(
    r"\b(?:on\s+site|in\s+person|i['’]ll\s+be|i\s+will\s+be|be\s+there|attend\w*|travel\w*|visit\w*|"
    r"promised|demo|present\w*|trip|vor\s+ort|persönlich|reise\w*)\b",
    re.I,
)


@lru_cache(maxsize=4096)
def days_said(text: str, spoken_at: str) -> tuple[tuple[date, date], ...]:
    """The stretches of days a passage names ("September and October", "from mid-September")."""
    try:
        when = datetime.fromisoformat(spoken_at)
    except ValueError:
        return ()
    out = []
    found = [e for e in fact_dates(text, DateResolver(when), language_of(text)) if e.kind == "date"]
    for e in found:
        span = date_interval(e.value)
        if span is not None:
            out.append((date.fromisoformat(span[0]), date.fromisoformat(span[1])))
    for m in _MONTH.finditer(text):  # a month named alone ("September and October")
        if any(e.start <= m.start() < e.end for e in found) or m.group(0) == "may":
            continue
        month = MONTHS[m.group(0).lower()]
        year = when.year + (1 if month < when.month - 6 else 0)
        last = date(year + month // 12, month % 12 + 1, 1) - date.resolution
        out.append((date(year, month, 1), last))
    return tuple(out)


_MONTH = re.compile(rf"\b(?:{MONTH_PATTERN})\b", re.I)


@lru_cache(maxsize=4096)
def times_said(text: str, spoken_at: str) -> frozenset[str]:
    """The clock times a passage names ("at two o'clock", "two in the afternoon": "14:00")."""
    try:
        when = datetime.fromisoformat(spoken_at)
    except ValueError:
        return frozenset()
    return frozenset(e.value for e in sentence_dates(text, when) if e.kind == "time")


def days_in_common(a_text: str, a_spoken_at: str, b_text: str, b_spoken_at: str) -> int:
    """Days the two passages' times have in common: the same person or vendor at the same time in
    two projects (booked twice) is the link that matters most."""
    if not (a_text and b_text):
        return 0
    a_days, b_days = days_said(a_text, a_spoken_at), days_said(b_text, b_spoken_at)
    return max(((min(x[1], y[1]) - max(x[0], y[0])).days + 1 for x in a_days for y in b_days), default=0)
