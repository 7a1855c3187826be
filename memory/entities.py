"""Rule-based entities in spoken text: dates (relative ones resolved against when the note was
spoken), times, amounts with currencies, counts with their unit, percentages, and names (people,
organisations, technologies and vendors). No model: these work with any chat model, or none.

Dates resolve the way a listener would: "Friday the 13th" is the Friday the 13th nearest the day
of the note; "on Friday" is the coming Friday, or the last one when the sentence is in the past;
"the 11th" is the 11th the note already named, else the next 11th; "tomorrow", "next week",
"end of May", "in two weeks" and their German forms likewise.
"""

from __future__ import annotations

import calendar
import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta

from memory.doc import Doc

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
_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
NUMBER_WORDS = {w: i for i, w in enumerate(_UNITS)} | {w: 20 + 10 * i for i, w in enumerate(_TENS)}
NUMBER_WORDS |= {"zwei": 2, "drei": 3, "vier": 4, "fünf": 5, "sechs": 6, "sieben": 7, "acht": 8}
NUMBER_WORDS |= {"neun": 9, "zehn": 10, "zwölf": 12, "zwanzig": 20, "dozen": 12}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = "|".join(sorted(WEEKDAYS, key=len, reverse=True))
_NUMWORD = "|".join(sorted(NUMBER_WORDS, key=len, reverse=True))
_ORD = r"(?:st|nd|rd|th)"
_WD = rf"(?:(?P<wd>{_WEEKDAY}),?\s+)?"

_DATE_PATTERNS = [
    re.compile(
        rf"\b{_WD}(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}?\s+(?:of\s+)?(?P<m>{_MONTH})\b(?:,?\s+(?P<y>\d{{4}}))?",
        re.I,
    ),
    re.compile(
        rf"\b{_WD}(?P<m>{_MONTH})\s+(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}?\b(?:,?\s+(?P<y>\d{{4}}))?", re.I
    ),
    re.compile(
        rf"\b{_WD}(?:(?:den|dem|am)\s+)?(?P<d>\d{{1,2}})\.\s*(?P<m>{_MONTH})\b(?:\s+(?P<y>\d{{4}}))?", re.I
    ),
    re.compile(r"\b(?P<y>\d{4})-(?P<mn>\d{2})-(?P<d>\d{2})\b"),
    re.compile(rf"\b(?P<wd>{_WEEKDAY}),?\s+(?:the\s+)?(?P<d>\d{{1,2}}){_ORD}\b", re.I),
    re.compile(rf"\bthe\s+(?P<d>\d{{1,2}}){_ORD}\b", re.I),
]
_RELATIVE = re.compile(
    r"\b(?P<rel>today|tonight|tomorrow|yesterday|heute|morgen|gestern|übermorgen|"
    r"(?:the\s+)?end\s+of\s+(?:the\s+|this\s+)?(?:next\s+)?(?:week|month)|"
    r"(?:next|last|this|nächste|letzte|diese)\s+woche|(?:next|last|this)\s+week|"
    rf"in\s+(?P<n>\d+|{_NUMWORD})\s+(?P<u>days?|weeks?|tagen|wochen))\b",
    re.I,
)
_WEEKDAY_ALONE = re.compile(
    rf"\b(?:(?P<mod>next|last|this|coming|nächsten|letzten|diesen|kommenden)\s+)?(?P<wd>{_WEEKDAY})\b", re.I
)
_MONTH_ALONE = re.compile(
    rf"\b(?P<pre>in|from|since|by|until|till|end\s+of|start\s+of|early|late|mid|ab|im|bis|ende)\s+"
    rf"(?:the\s+)?(?:end\s+of\s+)?(?P<m>{_MONTH})\b",
    re.I,
)
_YEAR = re.compile(r"(?<![\d,.])\b(?P<y>(?:19|20)\d{2})\b(?![\d,.]\d)")
_TIME = re.compile(
    rf"\b(?:at|um|from)\s+(?P<h>\d{{1,2}}|{_NUMWORD})(?::(?P<mi>\d{{2}}))?\s*"
    r"(?P<ap>a\.?m\.?|p\.?m\.?|o'clock|o’clock|in the morning|in the afternoon|in the evening|uhr)?(?!\s*(?:%|percent))",
    re.I,
)
_PAST = re.compile(
    r"\b(?:was|were|did|had|went|sent|said|told|liked|came|found|met|spoke|called|asked|"
    r"submitted|agreed|gave|took|made|saw|heard|left|\w{3,}ed)\b",
    re.I,
)
_DEADLINE = re.compile(r"\b(?:by|until|till|before|bis|next|this|coming)\s+$", re.I)

_NUMBER = re.compile(
    r"(?P<cur>[£$€])?\s?(?P<num>\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?)"
    r"(?:\s?(?P<mult>k|m|bn|million|thousand|grand|mio|tsd)\b)?",
    re.I,
)
_NUMBER_WORDS = re.compile(rf"\b(?P<w>(?:{_NUMWORD})(?:[\s-](?:{_NUMWORD}))?)\b", re.I)
_CURRENCY_WORD = re.compile(
    r"\s+(?P<c>pounds?|quid|euros?|eur|dollars?|usd|gbp|pence|p|cents?|francs?|chf|franken|euro)\b", re.I
)
_PERCENT = re.compile(r"\s*(?:%|percent\b|per\s+cent\b|prozent\b)", re.I)
_RATE = re.compile(
    r"\s+(?:a|an|per|pro|each)\s+(?P<r>day|hour|week|month|year|message|head|user|seat|person|"
    r"minute|batch|tag|stunde|monat|jahr)\b",
    re.I,
)
_UNIT_WORD = re.compile(r"\s+(?P<w>[a-zäöüß][a-zäöüß-]{1,})")
_CURRENCIES = {"£": "GBP", "$": "USD", "€": "EUR", "pound": "GBP", "quid": "GBP", "euro": "EUR"}
_CURRENCIES |= {"eur": "EUR", "dollar": "USD", "usd": "USD", "gbp": "GBP", "penny": "GBP-pence"}
_CURRENCIES |= {"pence": "GBP-pence", "p": "GBP-pence", "cent": "EUR-cent", "franc": "CHF", "chf": "CHF"}
_CURRENCIES |= {"franken": "CHF"}
_MULT = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "tsd": 1e3, "m": 1e6, "million": 1e6, "mio": 1e6}
_MULT |= {"bn": 1e9}
_NOT_UNITS = frozenset(
    ["a", "an", "the", "and", "or", "but", "of", "at", "to", "for", "in", "on", "by", "with", "from", "is", "are", "was", "were", "be", "been", "it", "its", "this", "that", "these", "those", "so", "if", "as", "than", "then", "there", "here", "no", "not", "up", "down", "out", "off", "over", "about", "into", "per", "has", "have", "had", "will", "would", "can", "could", "should", "may", "might", "do", "does", "did", "we", "you", "they", "he", "she", "i", "my", "our", "your", "their", "his", "her", "um", "uh", "like", "which", "who", "what", "when", "where", "while", "because", "also", "just", "all", "some", "any", "each", "other", "more", "less", "quid", "pounds", "pound", "euros", "euro", "dollars", "pence", "percent", "weeks", "days", "years", "months", "week", "day", "year", "month", "ago", "later", "earlier", "before", "after", "yet", "still", "already", "instead", "plus", "minus", "times", "odd", "ish", "actually", "really", "basically", "first", "again", "something", "point", "total", "altogether", "only", "just", "around", "roughly"]
)
_SKIPPABLE = frozenset(["new", "old", "extra", "more", "other", "additional", "full", "different", "separate", "big", "small", "main"])

_NAME = re.compile(
    r"(?:(?P<title>Dr|Mr|Mrs|Ms|Prof|Frau|Herr)\.?\s+)?"
    r"(?P<name>[A-ZÄÖÜ][\w’'-]*|[a-z]+[A-Z][\w-]*)"
    r"(?:\s+(?:(?:and|of|de|van|von|der|&)\s+)?(?:[A-ZÄÖÜ][\w’'-]*|[a-z]+[A-Z][\w-]*))*"
)
_NOT_NAMES = frozenset(
    ["i", "i'm", "i've", "i'll", "i'd", "i’m", "i’ve", "i’ll", "i’d", "okay", "ok", "oh", "um", "uh", "so", "right", "yeah", "yes", "no", "well", "and", "but", "the", "a", "morning", "good", "sorry", "quick", "big", "next", "back", "aside", "actions", "still", "first", "second", "also", "then", "now", "hi", "hello", "thanks", "ah", "hmm", "dr", "mr", "mrs", "ms", "prof", "frau", "herr"]
)
NATIONALITIES = frozenset(
    ["english", "french", "german", "dutch", "polish", "mandarin", "spanish", "italian", "danish", "chinese", "european", "british", "american", "scottish", "welsh", "irish", "swiss", "austrian", "japanese", "portuguese", "russian", "swedish", "norwegian", "finnish", "greek", "turkish", "arabic", "hindi", "indian", "canadian", "australian", "deutsch", "englisch"]
)
ORG_WORDS = frozenset(
    ["group", "fund", "ltd", "limited", "inc", "gmbh", "ag", "plc", "llc", "co", "company", "corp", "centre", "center", "museum", "council", "university", "college", "bank", "trust", "textiles", "partners", "agency", "ministry", "foundation", "association", "institute", "society", "services", "solutions", "systems", "labs", "studio", "studios", "hospital", "clinic", "school", "board", "committee", "authority", "department", "office"]
)
TECH = frozenset(
    ["postgres", "postgresql", "mysql", "sqlite", "redis", "mongodb", "kafka", "kubernetes", "docker", "aws", "azure", "gcp", "python", "java", "javascript", "typescript", "react", "flutter", "swift", "kotlin", "android", "ios", "iphone", "ipad", "bluetooth", "wifi", "excel", "sharepoint", "salesforce", "sap", "oracle", "jira", "confluence", "slack", "teams", "zoom", "tableau", "powerbi", "metabase", "duckdb", "snowflake", "databricks", "spark", "hadoop", "elasticsearch", "terraform", "linux", "windows", "macos", "github", "gitlab", "wordpress", "shopify", "stripe", "twilio", "contentful", "directus", "strapi", "drupal", "firebase", "supabase", "airflow", "dbt", "looker", "grafana", "nginx", "django", "rails", "graphql", "whatsapp", "xero", "quickbooks", "hubspot", "zendesk", "notion", "airtable", "figma", "dynamics", "netsuite", "workday", "bigquery", "s3", "lambda", "openai"]
)


@dataclass(frozen=True)
class Entity:
    kind: str  # date | time | amount | count | percent | person | organisation | technology | name
    text: str  # the raw words
    start: int  # character offsets in the text it was found in
    end: int
    value: str  # normalised: "2026-06-11", "14800 GBP", "64", "gwen trevelyan"
    unit: str = ""  # counts: "supplier"; amounts: "per day"
    grain: str = ""  # dates: day | week | month | year
    explicit: bool = True  # dates: said in full (a month or weekday named), not only resolved


def _near(candidates: list[date], anchor: date) -> date:
    return min(candidates, key=lambda d: (abs((d - anchor).days), d < anchor))


def _safe(y: int, m: int, d: int) -> date | None:
    try:
        return date(y, m, d)
    except ValueError:
        return None


def _number(word: str) -> int | None:
    word = word.lower()
    if word.isdigit():
        return int(word)
    total = 0
    for part in re.split(r"[\s-]+", word):
        if part not in NUMBER_WORDS:
            return None
        total += NUMBER_WORDS[part]
    return total


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
        month_start = self.today.replace(day=1)
        if d >= self.today.day:
            return _safe(month_start.year, month_start.month, d)
        nxt = (month_start + timedelta(days=32)).replace(day=1)
        return _safe(nxt.year, nxt.month, d)

    def weekday(self, weekday: int, modifier: str, past: bool) -> date:
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
    rel = " ".join(m.group("rel").lower().split())
    today = resolver.today
    monday = today - timedelta(days=today.weekday())
    table = {"today": 0, "tonight": 0, "heute": 0, "tomorrow": 1, "morgen": 1, "übermorgen": 2}
    table |= {"yesterday": -1, "gestern": -1}
    if rel in table:
        return today + timedelta(days=table[rel]), "day"
    if rel.startswith("in "):
        n = _number(m.group("n")) or 0
        days = n * 7 if m.group("u").lower().startswith(("week", "woche")) else n
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


class _Taken:
    """Character ranges already claimed by an entity (a date's "13" is not also a count)."""

    def __init__(self) -> None:
        self.ranges: list[tuple[int, int]] = []

    def free(self, a: int, b: int) -> bool:
        return all(b <= x or a >= y for x, y in self.ranges)

    def take(self, a: int, b: int) -> None:
        self.ranges.append((a, b))


def _dates(text: str, resolver: DateResolver, taken: _Taken) -> list[Entity]:
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
    for m in _RELATIVE.finditer(text):
        if taken.free(m.start(), m.end()) and (resolved := _relative(resolver, m)):
            taken.take(m.start(), m.end())
            when, grain = resolved
            found.append(
                Entity("date", m.group(0), m.start(), m.end(), when.isoformat(), grain=grain, explicit=False)
            )
    for m in _WEEKDAY_ALONE.finditer(text):
        if taken.free(m.start(), m.end()):
            taken.take(m.start(), m.end())
            clause = " ".join(re.split(r"[,;]", text[: m.start()])[-2:])
            in_past = bool(_PAST.search(clause)) and not _DEADLINE.search(clause)
            when = resolver.weekday(WEEKDAYS[m.group("wd").lower()], m.group("mod") or "", in_past)
            found.append(
                Entity("date", m.group(0), m.start(), m.end(), when.isoformat(), grain="day", explicit=False)
            )
    for m in _MONTH_ALONE.finditer(text):
        start = m.start("m")
        if not taken.free(start, m.end()) or (m.group("m") == "may"):
            continue
        taken.take(start, m.end())
        month = MONTHS[m.group("m").lower()]
        year = resolver.today.year + (1 if month < resolver.today.month - 6 else 0)
        found.append(
            Entity(
                "date",
                m.group(0),
                m.start(),
                m.end(),
                f"{year:04d}-{month:02d}",
                grain="month",
                explicit=True,
            )
        )
    for m in _YEAR.finditer(text):
        if taken.free(m.start(), m.end()):
            taken.take(m.start(), m.end())
            found.append(Entity("date", m.group(0), m.start(), m.end(), m.group("y"), grain="year"))
    return found


def _times(text: str, taken: _Taken) -> list[Entity]:
    found = []
    for m in _TIME.finditer(text):
        hour = _number(m.group("h"))
        if hour is None or hour > 23 or not taken.free(m.start("h"), m.end()):
            continue
        ap = (m.group("ap") or "").lower().replace(".", "")
        if (
            not ap
            and not m.group("mi")
            and (
                hour > 12
                or not re.match(
                    r"\s*(?:[,.;!?)]|$|(?:on|to|with|for|and|sharp|until|till)\b)", text[m.end() :]
                )
            )
        ):
            continue  # "at fifteen days", "at 620 a day": not a time
        if (
            ap.startswith("p")
            or "afternoon" in ap
            or "evening" in ap
            or (not ap.startswith("a") and "morning" not in ap and hour < 8)
        ):
            hour = hour + 12 if hour < 12 else hour
        minute = int(m.group("mi") or 0)
        taken.take(m.start("h"), m.end())
        found.append(Entity("time", m.group(0), m.start(), m.end(), f"{hour:02d}:{minute:02d}"))
    return found


def _unit_after(text: str, end: int) -> tuple[str, int]:
    """The noun counted ("44 suppliers", "47,000 patient records"): its stem, and where it ends."""
    unit, at, last = "", end, end
    for _ in range(3):
        m = _UNIT_WORD.match(text, at)
        if m is None or m.group("w").lower() in _NOT_UNITS:
            break
        at = m.end()
        if m.group("w").lower() not in _SKIPPABLE:
            unit, last = m.group("w").lower(), m.end()
            if unit.endswith("s"):
                break  # "47,000 patient records": the plural noun ends the phrase
    return (_singular(unit), last) if unit else ("", end)


def _singular(word: str) -> str:
    for suffix, replacement in (("ies", "y"), ("ches", "ch"), ("shes", "sh"), ("sses", "ss"), ("s", "")):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3 and not word.endswith("ss"):
            return word[: -len(suffix)] + replacement
    return word


def _quantity(
    text: str, start: int, end: int, amount: float, taken: _Taken, *, symbol: str | None, word: bool
) -> Entity | None:
    before = text[max(0, start - 12) : start].lower()
    if re.search(r"(?:^|\W)(?:phase|scope|step|stage|tier|number|no|version|v)\s*$", before):
        return None  # an identifier ("phase two", "scope three"), not a quantity
    currency = _CURRENCIES.get(symbol or "")
    stop = end
    if m := _CURRENCY_WORD.match(text, end):
        currency = _CURRENCIES.get(_singular(m.group("c").lower()), currency)
        stop = m.end()
    if m := _PERCENT.match(text, end):
        taken.take(start, m.end())
        return Entity("percent", text[start : m.end()], start, m.end(), f"{amount:g}%")
    unit = ""
    if m := _RATE.match(text, stop):
        unit, stop = f"per {m.group('r').lower()}", m.end()
    elif not currency:
        unit, stop = _unit_after(text, stop)
        said_as_value = re.search(
            r"(?:\bis|\bare|['’]s|\bbe|\bwants?|\bat)\s+(?:now\s+|only\s+|just\s+)?$", text[:start], re.I
        )
        if re.match(r"\s+of\b", text[stop:]) or (word and not unit and not said_as_value):
            return None  # "two of the galleries", "three have refused": no countable unit said
    taken.take(start, stop)
    value = f"{amount:g} {currency}".strip() + (f" {unit}" if currency and unit else "")
    kind = "amount" if currency else "count"
    return Entity(kind, text[start:stop], start, stop, value if currency else f"{amount:g}", unit)


def _quantities(text: str, taken: _Taken) -> list[Entity]:
    found = []
    for m in _NUMBER.finditer(text):
        a, b = m.start("num"), m.end()
        if not taken.free(a, b) or re.match(_ORD + r"\b", text[m.end("num") :]) or text[b : b + 1] == ":":
            continue
        if m.group("cur"):
            a = m.start("cur")
        amount = float(m.group("num").replace(",", "")) * _MULT.get((m.group("mult") or "").lower(), 1)
        if (e := _quantity(text, a, b, amount, taken, symbol=m.group("cur"), word=False)) is not None:
            found.append(e)
    for m in _NUMBER_WORDS.finditer(text):
        if not taken.free(m.start(), m.end()) or (value := _number(m.group("w"))) is None or value < 2:
            continue
        if (
            e := _quantity(text, m.start(), m.end(), float(value), taken, symbol=None, word=True)
        ) is not None:
            found.append(e)
    return found


def name_kind(words: list[str], title: bool) -> str:
    lowered = [w.lower() for w in words]
    if len(words) == 1 and (lowered[0] in TECH or re.match(r"[a-z]+[A-Z]|\w+[a-z][A-Z]", words[0])):
        return "technology"
    if any(w in ORG_WORDS for w in lowered) or any(w in ("and", "&") for w in lowered):
        return "organisation"
    if title or 2 <= len(words) <= 3:
        return "person"
    return "name"


def names(text: str, taken: _Taken, known: set[str]) -> list[Entity]:
    """Capitalised names. A sentence's first word counts only when it is known from elsewhere."""
    found = []
    for m in _NAME.finditer(text):
        words = re.sub(r"['’]s$", "", m.group(0)).split()
        if m.group("title"):
            words = words[1:]
        while words and (
            words[0].lower() in _NOT_NAMES or words[0].lower() in MONTHS or words[0].lower() in WEEKDAYS
        ):
            words = words[1:]
        cut = next((i for i, w in enumerate(words) if i and w.lower() in _NOT_NAMES), len(words))
        words = words[:cut]
        if any(w.lower() in ("and", "&") for w in words) and any(
            w.lower() in TECH or w.lower() in NATIONALITIES or re.match(r"[a-z]+[A-Z]", w) for w in words
        ):
            words = words[: next(i for i, w in enumerate(words) if w.lower() in ("and", "&"))]
        while words and (words[-1].lower() in ("and", "of", "&", "de", "van", "von", "der")):
            words = words[:-1]
        words = (
            [w for w in words if w.lower() not in WEEKDAYS and w.lower() not in MONTHS]
            if len(words) > 1
            else words
        )
        if (
            not words
            or words[0].lower() in _NOT_NAMES
            or words[0].lower() in MONTHS
            or words[0].lower() in WEEKDAYS
        ):
            continue
        if len(words) == 1 and words[0].lower() in NATIONALITIES:
            continue
        start = text.find(words[0], m.start())
        end = text.find(words[-1], start) + len(words[-1])
        if not taken.free(start, end):
            continue
        value = " ".join(w.lower().strip("'’-") for w in words)
        initial = not text[:start].strip(" ,\"'“‘(")
        if initial and len(words) == 1 and value not in known and not m.group("title"):
            continue
        taken.take(start, end)
        found.append(Entity(name_kind(words, bool(m.group("title"))), text[start:end], start, end, value))
    return found


NAME_KINDS = ("person", "organisation", "technology", "name")


def known_names(doc: Doc) -> set[str]:
    """Single capitalised words the doc uses inside a sentence (so its first word may be one too)."""
    known: set[str] = set()
    for sentence in doc.sentences:
        for m in re.finditer(r"(?<=[\w,;] )([A-ZÄÖÜ][\w-]+)", sentence.text):
            word = m.group(1).lower()
            if (
                word not in _NOT_NAMES
                and word not in NATIONALITIES
                and word not in MONTHS
                and word not in WEEKDAYS
            ):
                known.add(word)
    return known


def doc_entities(doc: Doc) -> list[Entity]:
    """Every entity of the recording, in order, with offsets in the doc's joined text."""
    resolver = DateResolver(doc.spoken_at)
    known = known_names(doc)
    found: list[Entity] = []
    for sentence in doc.sentences:
        taken = _Taken()
        here = _dates(sentence.text, resolver, taken) + _times(sentence.text, taken)
        here += _quantities(sentence.text, taken) + names(sentence.text, taken, known)
        for e in sorted(here, key=lambda e: e.start):
            found.append(
                Entity(
                    e.kind,
                    e.text,
                    e.start + sentence.start,
                    e.end + sentence.start,
                    e.value,
                    e.unit,
                    e.grain,
                    e.explicit,
                )
            )
    return found


def sentence_entities(text: str, spoken_at: datetime) -> list[Entity]:
    """Entities of a single text (tests, questions)."""
    resolver = DateResolver(spoken_at)
    taken = _Taken()
    here = _dates(text, resolver, taken) + _times(text, taken) + _quantities(text, taken)
    return sorted(here + names(text, taken, set()), key=lambda e: e.start)
