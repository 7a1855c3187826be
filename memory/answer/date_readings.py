"""The days a quote says relative to when it was spoken, read as calendar days, for "when" questions.

"When did Caroline go to the support group?" is answered by her words, "I went to a support group
yesterday", spoken on Monday 8 May 2023: the quote is the evidence, but the answer the user asked
for is Sunday 7 May 2023. Each relative day in a stated quote ("yesterday", "last Saturday", "next
Thursday", "last week") is resolved against the day its note was spoken, by the same reader of
dates consolidation uses (memory/text/dates.py), and shown after the quote as an inferred line cited
to it: a reading of the words, never a new fact. Days said in full ("Thursday the 11th of June") need
no reading, and a bare "the 13th" gets none: its month is whatever was said before it ("the 6th of
June, no wait, the 13th"), which the day it was spoken does not tell.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from memory.answer.answers import Claim
from memory.store.clock import parse_time
from memory.text.dates import DateResolver, find_dates
from memory.text.quotes import ClaimKind
from memory.text.said_values import Taken

# Words that tie a day to the moment of speaking.
_FROM_NOW = re.compile(
    r"\b(?:yesterday|today|tonight|tomorrow|last|next|this|coming|ago|gestern|heute|morgen|übermorgen|"
    r"vorgestern|letzte\w*|nächste\w*|kommende\w*|diese\w*)\b",
    re.I,
)


def _day(d: date) -> str:
    return f"{d.strftime('%A')} {d.day} {d.strftime('%B %Y')}"


def readings(claim: Claim) -> list[str]:
    """The relative days of a stated claim's quote, each read as a calendar day."""
    if claim.kind != ClaimKind.STATED or not claim.citations:
        return []
    spoken = parse_time(claim.citations[0].spoken_at)
    out = []
    for found in find_dates(claim.text, DateResolver(spoken), Taken()):
        if found.explicit or found.grain not in ("day", "week") or not _FROM_NOW.search(found.text):
            continue
        day = date.fromisoformat(found.value)
        said = f"“{found.text}”, said on {_day(spoken.date())}"
        out.append(f"{said}: {'the week of ' if found.grain == 'week' else ''}{_day(day)}.")
    return out


def with_date_readings(claims: Sequence[Claim]) -> list[Claim]:
    """The claims, each stated one followed by the readings of its relative days (inferred, cited to
    the same words)."""
    out: list[Claim] = []
    for claim in claims:
        out.append(claim)
        out += [Claim(text, ClaimKind.INFERRED, list(claim.citations), "date") for text in readings(claim)]
    return out
