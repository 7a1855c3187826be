"""Numbers as they are said or typed, in English and German, with their currency, rate and unit.

Number words go through text2num (`alpha2digit`, "en" and "de"): "four hundred and twenty
thousand" → 420000, "vierhundertsechzig" → 460, "the first of October" → "the 1st of October",
"dreiundzwanzigster Juni" → "23. Juni". `Converted` keeps, for every word of the converted text,
the raw characters it came from, so a value found in the converted text points at the raw words.

German number words one at a time (`german_number_words`, `number_word_value`, read by
memory.text.dates' NUMBER_WORDS and so by self-corrections and facts) take their values from
text2num too: "elf" 11, "dreizehn" 13, "einundzwanzig" 21; only the parts a German cardinal is
built from are listed here, to spell the words out.

What text2num does not do is done here, minimally: digits with separators by language ("1,150"
and "9,500" in English, "350.000" and "1,5" in German; a dot followed by exactly three digits and a
currency, or ".000", is a thousands separator in either language, since prices have two decimals),
shorthand multipliers ("18k", "1.2 million", "2 Mio", and the Indian "5 lakh", "1.2 crore", with
digits grouped the Indian way, "12,50,000", and rupees: "Rs", "₹", "INR"), a spoken hundreds pair
whose second part cannot be minutes or that has its "k", rate or currency ("seven eighty" → 780,
"three-sixty-five k" → 365,000, "two-fifty a day" → 250 a day; "at one-twenty" stays a time) and
German "-einhalbtausend" ("neuneinhalbtausend" → 9500).
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from text_to_num import alpha2digit, text2num

_WORD = re.compile(r"\S+")


def word_list(text: str) -> list[str]:
    """Words of a word list written as text."""
    return text.split()


def number_word_value(word: str, language: str) -> int | None:
    """The value of one number word as text2num reads it ("elf" → 11, "dreiundzwanzig" → 23), or None."""
    try:
        return int(text2num(word.strip().lower(), "de" if language == "de" else "en"))
    except ValueError:
        return None


# What a German cardinal below a hundred is built from ("ein" and "eins" are also the article and
# the pronoun: "eins" is kept alone, "ein" only inside a word, "einundzwanzig").
_GERMAN_UNITS = word_list("ein zwei drei vier fünf sechs sieben acht neun")
_GERMAN_TEENS = word_list("zehn elf zwölf dreizehn vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn")
_GERMAN_TENS = word_list("zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig")


@lru_cache(maxsize=1)
def german_number_words() -> dict[str, int]:
    """German cardinals from one to ninety-nine as one word ("eins", "elf", "dreiundzwanzig", with
    "ss" for "ß" as Swiss German writes it), each with text2num's value; a word text2num does not
    read is left out."""
    spelled = ["eins", *_GERMAN_UNITS[1:], *_GERMAN_TEENS, *_GERMAN_TENS]
    spelled += [f"{unit}und{tens}" for tens in _GERMAN_TENS for unit in _GERMAN_UNITS]
    spelled += [w.replace("ß", "ss") for w in spelled if "ß" in w]
    values = {w: number_word_value(w, "de") for w in spelled}
    return {w: v for w, v in values.items() if v is not None}


_SCALE_WORDS = frozenset(
    word_list(
        """
    thousand million billion tausend million millionen milliarde milliarden"""
    )
)


@dataclass(frozen=True)
class Word:
    text: str  # the converted word
    start: int  # the raw characters it came from
    end: int
    converted: bool  # said in words (and converted)


# A price said short with a hyphen, as it is often written: "three-sixty-five k", "two-fifty a day"
# (365,000; 250 a day). Read as the two words it is said as ("three sixty-five"), which text2num
# converts to a pair (`_PAIR`); not "twenty-four", which is one number.
_UNIT_WORD = "(?:one|two|three|four|five|six|seven|eight|nine)"
# "a seven-grade structure", "a three-day workshop", "the twenty-four-bed ward": a count said as a
# compound adjective, read as "seven grade" (the same length, so offsets stay those of the raw text)
_NUMBER_THEN_NOUN = re.compile(
    r"(\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|"
    r"sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|"
    r"\d))-(?=[a-z]{3,}\b)(?!(?:one|two|three|four|five|six|seven|eight|nine)\b)"
    r"(?!(?:halfs?|halves|thirds?|quarters?|fifths?|sixths?|sevenths?|eighths?|ninths?|tenths?)\b)",
    re.I,
)
_HYPHENED_PAIR = re.compile(
    rf"\b{_UNIT_WORD}-(?=(?:sixty|seventy|eighty|ninety)(?:-{_UNIT_WORD})?\b|"
    # below sixty it could be a time ("at one-twenty"): a price only with its "k", currency or rate
    rf"(?:twenty|thirty|forty|fifty)(?:-{_UNIT_WORD})?\s?(?:k|grand|euros?|pounds?|dollars?|quid|"
    r"a\s+(?:day|week|month|year|head|seat)|per)\b)",
    re.I,
)


class Converted:
    """A text with its number words written as digits, mapped back to the raw characters."""

    def __init__(self, text: str, language: str) -> None:
        self.raw = text
        if language != "de":  # the same length: offsets into it are offsets into the raw text
            text = _HYPHENED_PAIR.sub(lambda m: m.group(0)[:-1] + " ", text)
            text = _NUMBER_THEN_NOUN.sub(r"\1 ", text)
        raw = [(m.group(), m.start(), m.end()) for m in _WORD.finditer(text)]
        converted = _convert(text, language).split()
        words: list[Word] = []
        matcher = SequenceMatcher(None, [w for w, _, _ in raw], converted, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                words += [Word(raw[i][0], raw[i][1], raw[i][2], False) for i in range(i1, i2)]
            elif tag in ("replace", "insert") and j2 > j1:
                a = raw[i1][1] if i1 < len(raw) else len(text)
                b = raw[i2 - 1][2] if i2 > i1 else a
                if (
                    i2 - i1 == 1
                    and j2 - j1 == 1
                    and raw[i1][0].lower().strip(".,;:!?") in _SCALE_WORDS
                    and words
                    and words[-1].text[-1:].isdigit()
                ):  # "1.2 million": the digits and their scale, not 1.2 and 1000000
                    words.append(Word(raw[i1][0], a, b, False))
                    continue
                if (
                    i2 - i1 > 1
                    and j2 - j1 > 1
                    and raw[i2 - 1][0].lower().strip(".,;:!?") in _SCALE_WORDS
                    and re.fullmatch(r"\d+[.,]\d+", converted[j2 - 2])
                ):  # "two point one million": text2num writes "2.1 1000000"; keep the scale a word
                    b = raw[i2 - 2][2]
                    words += [Word(converted[j], a, b, True) for j in range(j1, j2 - 1)]
                    words.append(Word(raw[i2 - 1][0], raw[i2 - 1][1], raw[i2 - 1][2], False))
                    continue
                words += [Word(converted[j], a, b, True) for j in range(j1, j2)]
        self.words = words
        starts, at = [], 0
        for w in words:
            starts.append(at)
            at += len(w.text) + 1
        self.starts = starts
        self.text = " ".join(w.text for w in words)

    def raw_span(self, a: int, b: int) -> tuple[int, int]:
        """The raw character range of the converted range [a, b)."""
        if not self.words:
            return a, b
        first = max(0, bisect.bisect_right(self.starts, a) - 1)
        last = max(first, bisect.bisect_right(self.starts, max(a, b - 1)) - 1)
        w1, w2 = self.words[first], self.words[last]
        start = w1.start if w1.converted else w1.start + min(a - self.starts[first], len(w1.text))
        if w2.converted:  # the raw words' trailing punctuation stays out when the match does
            core = len(w2.text.rstrip(".,;:!?)\"'’”"))
            end = w2.end - (len(w2.text) - core if b - self.starts[last] <= core else 0)
        else:
            end = w2.start + min(b - self.starts[last], len(w2.text))
        return start, max(start, end)

    def said_in_words(self, a: int, b: int) -> bool:
        first = max(0, bisect.bisect_right(self.starts, a) - 1)
        last = max(first, bisect.bisect_right(self.starts, max(a, b - 1)) - 1)
        return any(w.converted for w in self.words[first : last + 1])


_GERMAN_HALF = re.compile(
    r"\b(?P<n>[a-zäöüß]+?)einhalb(?P<m>tausend|hundert)?\b", re.I
)  # "neuneinhalbtausend"


@lru_cache(maxsize=4096)
def _convert(text: str, language: str) -> str:
    lang = "de" if language == "de" else "en"
    if lang == "de":
        text = _GERMAN_HALF.sub(_german_half, text)
    try:
        return str(alpha2digit(text, lang, threshold=0))
    except (ValueError, RuntimeError):  # pragma: no cover - text2num refuses a text
        return text


def _german_half(m: re.Match[str]) -> str:
    try:
        n = int(text2num(m.group("n").lower(), "de")) + 0.5
    except ValueError:
        return m.group(0)
    scale = {"tausend": 1000, "hundert": 100}.get((m.group("m") or "").lower(), 1)
    value = n * scale
    return f"{value:g}" if scale > 1 else m.group(0)


# --- quantities -----------------------------------------------------------------------------------------
CURRENCY_WORDS = {"€": "EUR", "£": "GBP", "$": "USD", "euro": "EUR", "euros": "EUR", "eur": "EUR"}
CURRENCY_WORDS |= {"pound": "GBP", "pounds": "GBP", "quid": "GBP", "gbp": "GBP", "dollar": "USD"}
CURRENCY_WORDS |= {"dollars": "USD", "usd": "USD", "chf": "CHF", "franken": "CHF", "francs": "CHF"}
CURRENCY_WORDS |= {"pence": "GBP-pence", "p": "GBP-pence", "cent": "EUR-cent", "cents": "EUR-cent"}
# Rupees ("Rs 5 lakh", "₹40 lakh", "INR 3 crore", "six lakh rupees") and rand.
CURRENCY_WORDS |= {"₹": "INR", "rs": "INR", "rs.": "INR", "inr": "INR", "rupee": "INR", "rupees": "INR"}
CURRENCY_WORDS |= {"rand": "ZAR", "zar": "ZAR"}
_CURRENCY = "|".join(sorted((re.escape(c) for c in CURRENCY_WORDS), key=len, reverse=True))
_MULTIPLIERS = {"k": 1e3, "thousand": 1e3, "grand": 1e3, "tsd": 1e3, "tausend": 1e3, "m": 1e6, "mio": 1e6}
_MULTIPLIERS |= {"million": 1e6, "millionen": 1e6, "mn": 1e6, "bn": 1e9, "billion": 1e9, "mrd": 1e9}
_MULTIPLIERS |= {"milliarden": 1e9}
# The Indian scale: a lakh is a hundred thousand, a crore ten million ("5 lakh", "1.2 crore").
_MULTIPLIERS |= {"lakh": 1e5, "lakhs": 1e5, "lac": 1e5, "lacs": 1e5, "crore": 1e7, "crores": 1e7}
_MULT = "|".join(sorted(_MULTIPLIERS, key=len, reverse=True))
_QUANTITY = re.compile(
    rf"(?:(?P<pre>[€£$₹]|\b(?:Rs\.?|INR)(?=\s?\d))\s?)?"
    # digits grouped in thousands, or the Indian way ("12,50,000": twelve lakh fifty thousand)
    rf"(?P<num>\d{{1,2}}(?:,\d\d)+,\d{{3}}(?:\.\d+)?|\d{{1,3}}(?:[.,]\d{{3}})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?)"
    rf"(?:\s?(?P<mult>{_MULT})\b(?:(?<=mio|tsd|mrd)\.)?)?(?:\s?(?P<post>[€£$]|(?:{_CURRENCY})\b))?",
    re.I,
)
_TIME_AFTER = re.compile(r"\s?(?:uhr|o['’]clock|a\.?m\.?|p\.?m\.?|h)\b", re.I)
# What follows an hour said after "at" (memory/text/dates.py reads the same): the clause ends, its
# minutes, or a word of when ("at nine sharp", "at two thirty", "at ten on Monday").
_TIME_AFTER_AT = re.compile(
    r"\s*(?:[,;!?)\u2013\u2014-]|\.(?!\d)|$|\d|(?:on|to|with|for|and|or|sharp|until|till|in|at|tomorrow|tonight|today|"
    r"then|o['’]clock|a\.?m\b|p\.?m\b)\b)",
    re.I,
)
_AT_BEFORE = re.compile(r"\b(?:at|um|gegen|ab|from|till|until|bis)\s+$", re.I)
_PAIR = re.compile(r"\b(?P<a>[1-9]) (?P<b>[1-9]\d)\b")  # "seven eighty", converted to "7 80"
_PAIR_SCALE = re.compile(r"\s?(?:k|grand)\b", re.I)  # "three sixty-five k": 365,000
_PERCENT = re.compile(r"\s?(?:%|percent\b|per\s+cent\b|prozent\b)", re.I)
_RATE = re.compile(
    r"\s+(?:a|an|per|pro|each|je|im|in\s+the)\s+(?P<r>day|hour|week|month|year|message|head|user|seat|person|"
    r"student|licen[cs]e|customer|tag|stunde|woche|monat|jahr|nutzer|lizenz)\b",
    re.I,
)
_ORDINAL = re.compile(r"(?:st|nd|rd|th)\b", re.I)
_IDENTIFIER_BEFORE = re.compile(
    r"(?:^|\W)(?:phase|scope|step|stage|tier|number|no|nr|version|v|halle|hall|gate|level|room|q|"
    r"building|floor|release|sprint|wave|lot|block|unit|line|welle|stufe|bau)\.?\s*$",
    re.I,
)


@dataclass(frozen=True)
class Quantity:
    start: int  # raw character offsets in the text searched
    end: int
    text: str  # the raw words
    value: float
    currency: str = ""  # "EUR", "GBP", ...
    rate: str = ""  # "per day", "per student per year"
    percent: bool = False
    words: bool = False  # said in words

    def norm(self) -> str:
        number = f"{self.value:.10g}"
        if self.percent:
            return f"{number}%"
        return " ".join(x for x in (number, self.currency, self.rate) if x)


def parse_digits(num: str, language: str, after: str) -> float | None:
    """ "1,150" → 1150, "350.000" → 350000, "1,5" (German) → 1.5, "3.2" → 3.2."""
    dots, commas = num.count("."), num.count(",")
    thousands_dot = bool(re.fullmatch(r"\d{1,3}(?:\.\d{3})+", num)) and (
        language == "de"
        or dots > 1
        or num.endswith(".000")
        or bool(re.match(rf"\s?(?:{_CURRENCY})\b", after, re.I))
    )
    if thousands_dot:
        return float(num.replace(".", ""))
    if language == "de" and commas == 1 and dots == 0 and not re.fullmatch(r"\d{1,3},\d{3}", num):
        return float(num.replace(",", "."))
    if language == "de" and dots and commas == 1:
        return float(num.replace(".", "").replace(",", "."))
    if commas and not re.fullmatch(r"\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d{1,2}(?:,\d\d)+,\d{3}(?:\.\d+)?", num):
        return None  # "1,2,3"
    try:
        return float(num.replace(",", ""))
    except ValueError:
        return None


def find_quantities(text: str, language: str = "en") -> list[Quantity]:
    """Amounts, percentages and bare numbers of `text` (raw offsets), ordinals and dates' days left out."""
    conv = Converted(text, language)
    t = conv.text
    found: list[Quantity] = []
    taken: list[tuple[int, int]] = []
    for m in _PAIR.finditer(t):
        b = int(m.group("b"))
        if not conv.said_in_words(m.start(), m.end()):
            continue
        after = t[m.end() :]
        scaled = _PAIR_SCALE.match(after)
        if b >= 60 or scaled or _RATE.match(after) or re.match(rf"\s?(?:{_CURRENCY})\b", after):
            end = m.end() + (scaled.end() if scaled else 0)
            pair_rate = _RATE.match(t, end)
            a, z = conv.raw_span(m.start(), pair_rate.end() if pair_rate else end)
            pair_value = (int(m.group("a")) * 100 + b) * (1000 if scaled else 1)
            said_currency = re.match(rf"\s?({_CURRENCY})\b", t[end:], re.I)
            pair_currency = (
                CURRENCY_WORDS.get(said_currency.group(1).lower(), "")
                if said_currency and not pair_rate
                else ""
            )
            per = "per " + _rate_word(pair_rate.group("r")) if pair_rate else ""
            found.append(Quantity(a, z, text[a:z], pair_value, pair_currency, per, words=True))
            taken.append((m.start(), pair_rate.end() if pair_rate else end))
        elif _AT_BEFORE.search(t[: m.start()]):
            taken.append((m.start(), m.end()))  # "at six fifty": a time of day
    for m in _QUANTITY.finditer(t):
        if any(m.start() < y and m.end() > x for x, y in taken):
            continue
        num = m.group("num")
        after = t[m.end("num") :]
        if not m.group("mult") and not m.group("post") and (_ORDINAL.match(after) or _is_month_day(after)):
            continue  # "the 1st", "23. Juni": a date's day
        if (
            t[m.end() : m.end() + 1] == ":"
            or t[max(0, m.start() - 1) : m.start()] == ":"
            or _TIME_AFTER.match(t, m.end())
        ):
            continue  # a time
        if (
            _AT_BEFORE.search(t[: m.start()])
            and not m.group("post")
            and not m.group("mult")
            and _small(num)
            and (language != "en" or _TIME_AFTER_AT.match(t, m.end()))
        ):
            continue  # "at two", "um zehn": a time of day (not "at 23 providers": a count)
        if _IDENTIFIER_BEFORE.search(t[: m.start()]) and not m.group("post") and not m.group("pre"):
            continue  # "phase 2", "Halle 3", "version 3.2"
        value = parse_digits(num, language, t[m.end("num") :])
        if value is None:
            continue
        mult = (m.group("mult") or "").lower()
        if mult == "m" and not m.group("pre") and not m.group("post"):
            continue  # "5 m" is metres
        value *= _MULTIPLIERS.get(mult, 1.0)
        symbol = m.group("pre") or m.group("post") or ""
        currency = CURRENCY_WORDS.get(symbol.lower(), "")
        end = m.end()
        if not m.group("post"):
            end = m.end("mult") if m.group("mult") else m.end("num")
        rate_parts = []
        if p := _PERCENT.match(t, end):
            a, z = conv.raw_span(m.start(), p.end())
            found.append(
                Quantity(a, z, text[a:z], value, percent=True, words=conv.said_in_words(m.start(), end))
            )
            continue
        while r := _RATE.match(t, end):
            rate_parts.append("per " + _rate_word(r.group("r")))
            end = r.end()
            if len(rate_parts) == 2:
                break
        a, z = conv.raw_span(m.start(), end)
        found.append(
            Quantity(
                a,
                z,
                text[a:z],
                value,
                currency,
                " ".join(rate_parts),
                words=conv.said_in_words(m.start(), end),
            )
        )
    return _without_ranges(text, sorted(found, key=lambda q: q.start))


_BETWEEN = re.compile(
    r"^\s*(?:to|-|–|by|x|or|bis|oder)\s*$|^\s*(?:and|und)\s*$", re.I
)  # "25 to 35", "five by five", "two or three"; "between 4 and 6"


def _without_ranges(text: str, found: list[Quantity]) -> list[Quantity]:
    """A range, a size or a choice of numbers is no one value: both go ("18 to 35 year olds",
    "between 4 and 6"); "from 38 to 34" keeps the second, the value it goes to."""
    drop: set[int] = set()
    for i in range(len(found) - 1):
        a, b = found[i], found[i + 1]
        between = text[a.end : b.start]
        if not _BETWEEN.match(between) or (a.currency and b.currency and a.currency != b.currency):
            continue
        if between.strip().lower() in ("and", "und") and not re.search(
            r"\bbetween\s+$|\bzwischen\s+$", text[: a.start], re.I
        ):
            continue
        if re.search(r"\b(?:from|von)\s+$", text[: a.start], re.I):
            drop.add(i)
        else:
            drop |= {i, i + 1}
    return [q for i, q in enumerate(found) if i not in drop]


_RATE_WORDS = {"tag": "day", "stunde": "hour", "woche": "week", "monat": "month", "jahr": "year"}
_RATE_WORDS |= {"nutzer": "user", "lizenz": "licence", "license": "licence"}


def _rate_word(word: str) -> str:
    return _RATE_WORDS.get(word.lower(), word.lower())


GERMAN_MONTHS = word_list(
    """
    januar februar märz april mai juni juli august september oktober november dezember"""
)


def _is_month_day(after: str) -> bool:
    m = re.match(r"\.\s*([A-ZÄÖÜ][a-zäöü]+)", after)
    return bool(m and m.group(1).lower() in GERMAN_MONTHS)


def _small(num: str) -> bool:
    return num.isdigit() and int(num) <= 24
