"""Dates in spoken text, resolved the way a listener would, against when the note was spoken.

"Friday the 13th" is the Friday the 13th nearest the day of the note; "on Friday" is the coming
Friday, or the last one when its clause is in the past ("the trustees liked it on Friday"); "the
11th" is the 11th the note already named, else the next 11th; "tomorrow", "next week", "end of
May", "in two weeks" and their German forms likewise. Times of day ("at two o'clock", "um 14 Uhr")
are read in memory/text/clock_times.py, the values both find in memory/text/said_values.py.

`fact_dates` reads a sentence for facts: number words first written as digits by text2num ("the
first of October", "dreiundzwanzigster Juni"), then the forms above, then quarters ("end of Q3"),
parts of a month ("mid-October", "Mitte Oktober") and German weeks ("Ende nächster Woche"), which
dateparser does not read, and numeric or abbreviated dates ("14.05.2026", "Oct 1st"), which it
does. `date_interval` gives the days a value covers, so "end of September" and "the 30th of
September" can be compared.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta

from memory.text.clock_times import find_times
from memory.text.said_values import NUMBER_WORD_PATTERN, Entity, Taken, parse_number

MONTHS = {
    **{m.lower(): i for i, m in enumerate(calendar.month_name) if m},
    **{"januar": 1, "februar": 2, "märz": 3, "maerz": 3, "mai": 5, "juni": 6, "juli": 7},
    **{"oktober": 10, "dezember": 12},
}
WEEKDAYS = {
    **{d.lower(): i for i, d in enumerate(calendar.day_name)},
    **{"montag": 0, "dienstag": 1, "mittwoch": 2, "donnerstag": 3, "freitag": 4, "samstag": 5},
    **{"sonntag": 6},
}
MONTH_PATTERN = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
ORDINAL_SUFFIX = r"(?:st|nd|rd|th)"
_WD = rf"(?:(?P<wd>{_WEEKDAY}),?\s+)?"

_DATE_PATTERNS = [
    re.compile(
        rf"\b{_WD}(?:the\s+)?(?P<d>\d{{1,2}}){ORDINAL_SUFFIX}?\s+(?:of\s+)?(?P<m>{MONTH_PATTERN})\b(?:,?\s+(?P<y>\d{{4}}))?",
        re.I,
    ),
    re.compile(
        rf"\b{_WD}(?P<m>{MONTH_PATTERN})\s+(?:the\s+)?(?P<d>\d{{1,2}}){ORDINAL_SUFFIX}?\b(?:,?\s+(?P<y>\d{{4}}))?",
        re.I,
    ),
    re.compile(
        rf"\b{_WD}(?:(?:den|dem|am)\s+)?(?P<d>\d{{1,2}})\.\s*(?P<m>{MONTH_PATTERN})\b(?:\s+(?P<y>\d{{4}}))?",
        re.I,
    ),
    re.compile(r"\b(?P<y>\d{4})-(?P<mn>\d{2})-(?P<d>\d{2})\b"),
    re.compile(rf"\b(?P<wd>{_WEEKDAY}),?\s+(?:the\s+)?(?P<d>\d{{1,2}}){ORDINAL_SUFFIX}\b", re.I),
    re.compile(rf"\bthe\s+(?P<d>\d{{1,2}}){ORDINAL_SUFFIX}\b", re.I),
]
_RELATIVE = re.compile(
    r"\b(?P<rel>today|tonight|tomorrow|yesterday|heute|morgen|gestern|übermorgen|"
    r"(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:next\s+)?(?:week|month)|"
    r"(?:next|last|this|nächste|letzte|diese)\s+woche|(?:next|last|this)\s+week|"
    rf"in\s+(?P<n>\d+|{NUMBER_WORD_PATTERN}|an?|einer|einem)\s+(?P<u>days?|weeks?|fortnights?|tag|tagen|woche|wochen)|"
    rf"(?P<n2>\d+|{NUMBER_WORD_PATTERN}|an?)\s+(?P<u2>days?|weeks?|fortnights?)\s+(?:from|after)\s+(?:now|today))\b",
    re.I,
)
# A weekday a week on: "Friday week" and "a week on Friday" (the coming Friday and seven days),
# "the Thursday after next" (seven days after "next Thursday"), "Freitag in einer Woche".
_WEEKDAY_WEEK = re.compile(
    rf"\b(?:a\s+week\s+(?:on|from|this|come)\s+(?P<a>{_WEEKDAY})|(?P<b>{_WEEKDAY})\s+week(?![\w-])"
    rf"|(?:the\s+)?(?P<c>{_WEEKDAY})\s+after\s+next|(?P<d>{_WEEKDAY})\s+in\s+einer\s+woche)\b",
    re.I,
)
# "the day after", "the week before": said after a date of the same sentence, counted from it
# ("on the 20th of April and ... the day after"); "the day after tomorrow" from the note's day.
# Not "the day after the board meeting": an event, whose date is not known here.
_DAY_AFTER = re.compile(
    r"\bthe\s+(?P<w>day|week)\s+(?P<d>after|before)\b(?:\s+(?P<t>tomorrow)\b)?"
    r"(?!\s+(?:the|a|an|his|her|their|our|my|that|this|next|last|it|we|i|they|he|she)\b)",
    re.I,
)
# A calendar week by its number: "KW 44", "Kalenderwoche 44", "calendar week 44" (ISO weeks, as
# German offices count them); "week 3 of the trial" is no calendar week.
_CALENDAR_WEEK = re.compile(r"\b(?:kw|kalenderwoche|calendar\s+week)\s*(?P<w>\d{1,2})\b", re.I)
_WEEKDAY_ALONE = re.compile(
    rf"\b(?:(?P<mod>next|last|this|coming|nächsten|letzten|diesen|kommenden)\s+)?(?P<wd>{_WEEKDAY})\b", re.I
)
_MONTH_ALONE = re.compile(
    rf"\b(?P<pre>in|from|since|by|until|till|end\s+of|start\s+of|early|late|mid|ab|im|bis|ende)\s+"
    rf"(?:the\s+)?(?:end\s+of\s+)?(?P<m>{MONTH_PATTERN})\b",
    re.I,
)
_YEAR = re.compile(r"(?<![\d,.])\b(?P<y>(?:19|20)\d{2})\b(?![\d,.]\d)")
_PAST = re.compile(
    r"\b(?:was|were|did|had|went|sent|said|told|liked|came|found|met|spoke|called|asked|"
    r"submitted|agreed|gave|took|made|saw|heard|left|\w{3,}ed)\b",
    re.I,
)
_DEADLINE = re.compile(r"\b(?:by|until|till|before|to|bis|next|this|coming)\s+$", re.I)
# said in the past of what is still to come: "she said she'd send it Thursday", "he told me he'll
# ring on Monday" (not "she'd sent it on Thursday", a past perfect)
_FUTURE_IN_PAST = re.compile(
    r"(?:\b(?:would|will|shall|gonna)|['’](?:d|ll)|\bgoing\s+to)\s+(?:(?:just|still|then|also)\s+)?(?P<v>\w+)",
    re.I,
)


def _said_of_the_past(clause: str) -> bool:
    """The clause before a weekday is in the past ("the trustees liked it on Friday"), unless a
    future is said after its last past verb."""
    past = list(_PAST.finditer(clause))
    if not past or _DEADLINE.search(clause):
        return False
    after = clause[past[-1].end() :]
    return not any(not _PAST.fullmatch(m.group("v")) for m in _FUTURE_IN_PAST.finditer(after))


def _near(candidates: list[date], anchor: date) -> date:
    return min(candidates, key=lambda d: (abs((d - anchor).days), d < anchor))


def _safe(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


class DateResolver:
    """Resolves dates within one recording: remembers the dates it has named (for "the 11th")."""

    def __init__(self, spoken_at: datetime) -> None:
        self.today = spoken_at.date()
        self.named: list[date] = []

    def explicit(self, d: int, month: int, year: int | None, weekday: int | None) -> date | None:
        if year is not None:
            return _safe(year, month, d)
        options = [
            x
            for y in (self.today.year - 1, self.today.year, self.today.year + 1)
            if (x := _safe(y, month, d))
        ]
        if weekday is not None and any(o.weekday() == weekday for o in options):
            options = [o for o in options if o.weekday() == weekday]
        return _near(options, self.today) if options else None

    def day_with_weekday(self, d: int, weekday: int) -> date | None:
        options = []
        for shift in range(-3, 8):
            y, m = divmod(self.today.month - 1 + shift, 12)
            found = _safe(self.today.year + y, m + 1, d)
            if found is not None and found.weekday() == weekday:
                options.append(found)
        return _near(options, self.today) if options else self.bare_day(d)

    def bare_day(self, d: int) -> date | None:
        for known in reversed(self.named):
            if known.day == d:
                return known
        if d >= self.today.day:
            return _safe(self.today.year, self.today.month, d)
        years, month = divmod(self.today.month, 12)  # the next month (none after December 9999)
        return _safe(self.today.year + years, month + 1, d)

    def weekday(self, weekday: int, modifier: str, past: bool) -> date | None:
        try:
            return self._weekday(weekday, modifier, past)
        except OverflowError:  # a note dated in the first or last week of the calendar
            return None

    def _weekday(self, weekday: int, modifier: str, past: bool) -> date:
        delta = (weekday - self.today.weekday()) % 7
        modifier = modifier.lower()
        if modifier in ("last", "letzten") or (past and not modifier):
            return self.today - timedelta(days=(7 - delta) if delta else 7)
        if modifier in ("next", "nächsten", "kommenden", "coming"):
            monday_next = self.today + timedelta(days=7 - self.today.weekday())
            return (
                monday_next + timedelta(days=weekday)
                if modifier == "next"
                else self.today + timedelta(days=delta or 7)
            )
        return self.today + timedelta(days=delta)


def _relative(resolver: DateResolver, m: re.Match[str]) -> tuple[date, str] | None:
    try:
        return _relative_date(resolver, m)
    except OverflowError:  # "in 99999999999 days" is past any calendar: not a date
        return None


def _relative_date(resolver: DateResolver, m: re.Match[str]) -> tuple[date, str] | None:
    rel = " ".join(m.group("rel").lower().split())
    today = resolver.today
    monday = today - timedelta(days=today.weekday())
    table = {"today": 0, "tonight": 0, "heute": 0, "tomorrow": 1, "morgen": 1, "übermorgen": 2}
    table |= {"yesterday": -1, "gestern": -1}
    if rel in table:
        return today + timedelta(days=table[rel]), "day"
    if m.group("u") or m.group("u2"):  # "in two weeks", "a fortnight from now", "in einer Woche"
        said = (m.group("n") or m.group("n2")).lower()
        n = 1 if said in ("a", "an", "einer", "einem") else parse_number(said) or 0
        unit = (m.group("u") or m.group("u2")).lower()
        days = n * (14 if unit.startswith("fortnight") else 7 if unit.startswith(("week", "woche")) else 1)
        return today + timedelta(days=days), "day"
    if "end of" in rel:
        if "month" in rel:
            last = calendar.monthrange(today.year, today.month)[1]
            return today.replace(day=last), "day"
        return monday + timedelta(days=4 + (7 if "next" in rel else 0)), "day"
    if rel.startswith(("next", "nächste")):
        return monday + timedelta(days=7), "week"
    if rel.startswith(("last", "letzte")):
        return monday - timedelta(days=7), "week"
    return monday, "week"


def _said(m: re.Match[str], when: date, grain: str = "day", *, explicit: bool = False) -> Entity:
    """The date `m` says, resolved to `when`."""
    return Entity("date", m.group(0), m.start(), m.end(), when.isoformat(), grain=grain, explicit=explicit)


def _counted_from_a_day(text: str, resolver: DateResolver, taken: Taken, found: list[Entity]) -> list[Entity]:
    """ "the day after" / "the week before" a day the sentence named before it; "the day after
    tomorrow"."""
    out = []
    for m in _DAY_AFTER.finditer(text):
        if not taken.free(m.start(), m.end()):
            continue
        step = timedelta(days=7 if m.group("w").lower() == "week" else 1)
        sign = 1 if m.group("d").lower() == "after" else -1
        if m.group("t"):
            base: date | None = resolver.today + timedelta(days=1)
        else:
            earlier = [e for e in found if e.explicit and e.grain == "day" and e.end <= m.start()]
            base = date.fromisoformat(earlier[-1].value) if earlier else None
        if base is not None:
            taken.take(m.start(), m.end())
            out.append(_said(m, base + sign * step))
    return out


def _weeks_named(text: str, resolver: DateResolver, taken: Taken) -> list[Entity]:
    """ "Friday week", "the Thursday after next" (a weekday a week on) and calendar weeks ("KW 44")."""
    out = []
    for m in _WEEKDAY_WEEK.finditer(text):
        if taken.free(m.start(), m.end()):
            said = next(g for g in m.group("a", "b", "c", "d") if g)
            base = resolver.weekday(WEEKDAYS[said.lower()], "next" if m.group("c") else "", False)
            if base is not None:
                taken.take(m.start(), m.end())
                out.append(_said(m, base + timedelta(days=7)))
    for m in _CALENDAR_WEEK.finditer(text):
        week = int(m.group("w"))
        if taken.free(m.start(), m.end()) and 1 <= week <= 53:
            year = resolver.today.year + (1 if week < resolver.today.isocalendar()[1] - 26 else 0)
            try:
                monday = date.fromisocalendar(year, week, 1)
            except ValueError:  # week 53 of a year that has 52
                continue
            taken.take(m.start(), m.end())
            out.append(_said(m, monday, "week", explicit=True))
    return out


def find_dates(text: str, resolver: DateResolver, taken: Taken) -> list[Entity]:
    found: list[Entity] = []
    for number, pattern in enumerate(_DATE_PATTERNS):
        for m in pattern.finditer(text):
            if not taken.free(m.start(), m.end()):
                continue
            groups = m.groupdict()
            day = int(groups["d"])
            weekday = WEEKDAYS[groups["wd"].lower()] if groups.get("wd") else None
            if groups.get("m"):
                month = MONTHS.get(groups["m"].lower())
                if month == 5 and groups["m"] == "may" and "of may" not in m.group(0).lower():
                    continue  # the modal verb, not the month
                when = resolver.explicit(
                    day, month or 1, int(groups["y"]) if groups.get("y") else None, weekday
                )
            elif groups.get("mn"):
                when = _safe(int(groups["y"]), int(groups["mn"]), day)
            elif weekday is not None:
                when = resolver.day_with_weekday(day, weekday)
            else:
                when = resolver.bare_day(day)
            if when is None:
                continue
            taken.take(m.start(), m.end())
            explicit = number < 5
            if explicit:
                resolver.named.append(when)
            found.append(
                Entity(
                    "date", m.group(0), m.start(), m.end(), when.isoformat(), grain="day", explicit=explicit
                )
            )
    found += _counted_from_a_day(text, resolver, taken, found)
    for m in _RELATIVE.finditer(text):
        if taken.free(m.start(), m.end()) and (resolved := _relative(resolver, m)):
            taken.take(m.start(), m.end())
            when, grain = resolved
            found.append(_said(m, when, grain))
    found += _weeks_named(text, resolver, taken)
    for m in _WEEKDAY_ALONE.finditer(text):
        if taken.free(m.start(), m.end()):
            taken.take(m.start(), m.end())
            clause = " ".join(re.split(r"[,;]", text[: m.start()])[-2:])
            in_past = _said_of_the_past(clause)
            when = resolver.weekday(WEEKDAYS[m.group("wd").lower()], m.group("mod") or "", in_past)
            if when is None:
                continue
            found.append(_said(m, when))
    for m in _MONTH_ALONE.finditer(text):
        start = m.start("m")
        if not taken.free(start, m.end()) or (m.group("m") == "may"):
            continue
        taken.take(start, m.end())
        found.append(_month_entity(m, resolver, None))
    for m in _YEAR.finditer(text):
        if taken.free(m.start(), m.end()):
            taken.take(m.start(), m.end())
            found.append(Entity("date", m.group(0), m.start(), m.end(), m.group("y"), grain="year"))
    return found


# --- dates of facts: number words first, then the forms above, then what dateparser cannot read --------
_QUARTER = re.compile(
    r"\b(?:(?P<pos>(?:the\s+)?(?:end|start|beginning|middle)\s+of|ende|anfang|mitte|by|in|bis|im)\s+)?"
    r"(?:the\s+)?Q(?P<q>[1-4])\b(?:\s+(?P<y>(?:19|20)\d{2}))?",
    re.I,
)
_MID_MONTH = re.compile(
    rf"\b(?P<pos>mid-?|middle\s+of\s+|mitte\s+|anfang\s+|ende\s+|beginning\s+of\s+|early\s+|late\s+)"
    rf"(?P<m>{MONTH_PATTERN})\b(?:\s+(?P<y>(?:19|20)\d{{2}}))?",
    re.I,
)
_GERMAN_WEEK = re.compile(
    r"\b(?P<end>ende\s+|anfang\s+)?(?:der\s+)?(?P<which>nächste[rn]?|kommende[rn]?|diese[rn]?|letzte[rn]?|"
    r"übernächste[rn]?)\s+woche\b",
    re.I,
)
_ORDINAL_NOUN = re.compile(
    r"\s+(?:\d|(?!(?:of|on|at|and|or|to|for|in|by|from|so|but|is|was|which|that|when|then|we|i|it|the|a|as|"
    r"until|till|with|because|if|this|next|last|now|then|already|again|too|though|instead|anyway|still|yet|"
    r"latest|sharp|ish|um|uh|please|right|okay)\b)[a-z])",
    re.I,
)
_ABBREVIATED = r"(?:jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec|okt|dez)\.?"
# "01.10.2026", "1/10/26", "Oct 1st", "1 Oct 2026": forms dateparser reads well
_NUMERIC_DATE = re.compile(
    r"\b\d{1,2}[./]\d{1,2}[./](?:\d{4}|\d{2})\b"
    rf"|\b\d{{1,2}}(?:st|nd|rd|th)?\s+{_ABBREVIATED}(?:\s+\d{{4}})?(?!\w)"
    rf"|\b{_ABBREVIATED}\s+\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s+\d{{4}})?",
    re.I,
)


def _month_year(resolver: DateResolver, month: int, year: str | None) -> int:
    if year:
        return int(year)
    return resolver.today.year + (1 if month < resolver.today.month - 6 else 0)


def _month_entity(m: re.Match[str], resolver: DateResolver, year: str | None) -> Entity:
    """A month said on its own or as a part ("in March", "Mitte Oktober"), of the year it is in."""
    month = MONTHS[m.group("m").lower()]
    value = f"{_month_year(resolver, month, year):04d}-{month:02d}"
    return Entity("date", m.group(0), m.start(), m.end(), value, grain="month", explicit=True)


def _quarter_dates(text: str, resolver: DateResolver, taken: Taken) -> list[Entity]:
    found = []
    for m in _QUARTER.finditer(text):
        if not taken.free(m.start(), m.end()):
            continue
        q = int(m.group("q"))
        first = 3 * q - 2
        year = int(m.group("y")) if m.group("y") else resolver.today.year
        if not m.group("y") and 3 * q < resolver.today.month:
            year += 1  # a quarter already over: the next one of that name
        pos = (m.group("pos") or "").lower()
        if pos.startswith(("the end", "end", "ende", "by", "bis")):
            month, grain = first + 2, "month"
        elif pos.startswith(("the start", "start", "the beginning", "beginning", "anfang")):
            month, grain = first, "month"
        elif pos.startswith(("the middle", "middle", "mitte")):
            month, grain = first + 1, "month"
        else:
            month, grain = 0, "quarter"
        taken.take(m.start(), m.end())
        value = f"{year:04d}-{month:02d}" if month else f"{year:04d}-Q{q}"
        found.append(Entity("date", m.group(0), m.start(), m.end(), value, grain=grain, explicit=True))
    return found


def _month_parts(text: str, resolver: DateResolver, taken: Taken) -> list[Entity]:
    found = []
    for m in _MID_MONTH.finditer(text):
        if not taken.free(m.start("m"), m.end()) or (m.group("m").lower() == "may" and m.group("m") == "may"):
            continue
        taken.take(m.start(), m.end())
        found.append(_month_entity(m, resolver, m.group("y")))
    for m in _GERMAN_WEEK.finditer(text):
        if not taken.free(m.start(), m.end()):
            continue
        which = m.group("which").lower()
        weeks = {"nä": 1, "ko": 1, "di": 0, "le": -1, "üb": 2}[which[:2]]
        monday = resolver.today - timedelta(days=resolver.today.weekday()) + timedelta(days=7 * weeks)
        taken.take(m.start(), m.end())
        if m.group("end"):
            day = monday + timedelta(days=4 if m.group("end").lower().startswith("ende") else 0)
            found.append(
                Entity("date", m.group(0), m.start(), m.end(), day.isoformat(), grain="day", explicit=False)
            )
        else:
            found.append(
                Entity(
                    "date", m.group(0), m.start(), m.end(), monday.isoformat(), grain="week", explicit=False
                )
            )
    return found


def _numeric_dates(text: str, resolver: DateResolver, taken: Taken, language: str) -> list[Entity]:
    """ "01.10.2026", "1/10/26", "Oct 1st": read by dateparser (day first, as in Germany and Britain;
    the nearer year when none is said)."""
    import dateparser

    found = []
    for m in _NUMERIC_DATE.finditer(text):
        if not taken.free(m.start(), m.end()):
            continue
        settings = {
            "RELATIVE_BASE": datetime.combine(resolver.today, datetime.min.time()),
            "DATE_ORDER": "DMY",
            "PREFER_DATES_FROM": "current_period",
        }
        when = dateparser.parse(m.group(0), languages=[language, "en"], settings=settings)
        if when is None:
            continue
        if not re.search(r"\d{4}", m.group(0)):  # no year said: the one nearest the note
            near = resolver.explicit(when.day, when.month, None, None)
            when = datetime.combine(near, datetime.min.time()) if near else when
        taken.take(m.start(), m.end())
        found.append(Entity("date", m.group(0), m.start(), m.end(), when.date().isoformat(), grain="day"))
    return found


def fact_dates(text: str, resolver: DateResolver, language: str = "en") -> list[Entity]:
    """Dates and times of one sentence, for facts, with raw offsets.

    Number words are written as digits first (text2num, memory.text.numbers: "the first of October",
    "dreiundzwanzigster Juni", "dem zehnten September"); then the forms of `find_dates` and
    `find_times`; then what dateparser 1.5 does not read (checked: "end of Q3", "start of Q4",
    "Mitte Oktober", "mid-October", "Ende nächster Woche" all give None): quarters, parts of a month
    and German weeks, by the rules above; numeric dates ("01.10.2026") by dateparser.
    """
    from memory.text.numbers import Converted

    conv = Converted(text, language)
    taken = Taken()
    here = _quarter_dates(conv.text, resolver, taken) + _month_parts(conv.text, resolver, taken)
    here += _numeric_dates(conv.text, resolver, taken, language)
    here += find_dates(conv.text, resolver, taken) + find_times(conv.text, taken)
    out = []
    for e in sorted(here, key=lambda e: e.start):
        if (
            e.kind == "date"
            and _ORDINAL_NOUN.match(conv.text, e.end)
            and re.fullmatch(r"(?i)the\s+\d+\w*", e.text)
        ):
            continue  # "the first week of July", "the 2nd round": an ordinal of something else
        a, b = conv.raw_span(e.start, e.end)
        out.append(Entity(e.kind, text[a:b], a, b, e.value, e.unit, e.grain, e.explicit))
    return out


def date_interval(value: str) -> tuple[str, str] | None:
    """The first and last day (ISO) a normalised date value covers: "2026-09" → 09-01 .. 09-30."""
    m = re.fullmatch(r"(\d{4})(?:-(\d{2})(?:-(\d{2}))?|-Q([1-4]))?(?:T.*)?", value)
    if m is None:
        return None
    year = int(m.group(1))
    if m.group(3):
        return value[:10], value[:10]
    if m.group(2):
        month = int(m.group(2))
        last = calendar.monthrange(year, month)[1]
        return f"{year:04d}-{month:02d}-01", f"{year:04d}-{month:02d}-{last:02d}"
    if m.group(4):
        q = int(m.group(4))
        last = calendar.monthrange(year, 3 * q)[1]
        return f"{year:04d}-{3 * q - 2:02d}-01", f"{year:04d}-{3 * q:02d}-{last:02d}"
    return f"{year:04d}-01-01", f"{year:04d}-12-31"
