"""Times of day in spoken text: "at two", "half past nine", "quarter to ten", "ten o'clock", "nine
in the morning", "um 14 Uhr", "halb zehn". An hour without its part of the day is an office hour
("at two" is 14:00)."""

from __future__ import annotations

import re

from memory.text.said_values import NUMBER_WORD_PATTERN, Entity, Taken, parse_number

# an hour said with its part of the day, or "o'clock", needs no "at": "two in the afternoon", "nine
# in the morning", "ten o'clock I should say"
_DAYPART_TIME = re.compile(
    rf"\b(?P<h>\d{{1,2}}|{NUMBER_WORD_PATTERN})(?P<mi>)\s+"
    r"(?P<ap>in the morning|in the afternoon|in the evening|at night|o['’]clock\b|a\.m\.|p\.m\.)",
    re.I,
)
# minutes said after the hour: "seven-thirty", "seven fifteen" (read by text2num as "7-30", "7 15"),
# "7.30" (a point and two digits)
_MINUTE_WORDS = {"fifteen": 15, "thirty": 30, "forty five": 45, "forty": 40, "twenty": 20, "fifty": 50}
_MINUTE_PATTERN = "|".join(sorted((w.replace(" ", r"[-\s]") for w in _MINUTE_WORDS), key=len, reverse=True))
_TIME = re.compile(
    rf"\b(?:at|um|from)\s+(?P<h>\d{{1,2}}|{NUMBER_WORD_PATTERN})"
    rf"(?:(?::|\.(?=[0-5]\d\b)|[-\s](?=[0-5]\d\b))(?P<mi>\d{{2}})|[-\s](?P<mw>{_MINUTE_PATTERN})\b)?\s*"
    r"(?P<ap>a\.?m\.?|p\.?m\.?|o'clock|o’clock|in the morning|in the afternoon|in the"
    r" evening|at night|uhr)?(?!\s*(?:%|percent))",
    re.I,
)
# what may follow a bare hour ("at seven", no a.m. or o'clock) for it to be a time, not a count or
# a rate ("at fifteen days", "at 620 a day"): the clause's end, a preposition, or a word of repair
# said right after it ("at eight, sorry", "at seven-thirty actually"); a full stop, not a decimal
# point ("at 1.8 pence each" says no time)
_AFTER_BARE_HOUR = re.compile(
    r"\s*(?:[,;!?)]|\.(?!\d)|$|(?:on|to|with|for|and|sharp|until|till|sorry|actually|rather|no|i\s+mean)\b)",
    re.I,
)


# Clock times said in words: "half past nine", "quarter to ten", "ten past two", "Viertel nach neun",
# "halb zehn" (German "halb zehn" is half an hour before ten).
_CLOCK_MINUTES = {
    "half": 30,
    "quarter": 15,
    "a quarter": 15,
    "twenty": 20,
    "ten": 10,
    "five": 5,
    "viertel": 15,
}
_CLOCK_WORDS = re.compile(
    rf"\b(?:(?P<m>half|a\s+quarter|quarter|viertel)\s+(?P<rel>past|after|to|nach|vor)"
    rf"|(?P<m2>twenty|ten|five)\s+(?P<rel2>past|after)"  # not "to": "five to ten minutes" is a range
    rf"|(?P<halb>halb)"
    # British "half nine" (half past nine), at the end of its clause or before "at", "in", …:
    # not "half two weeks", "half three of them"
    rf"|(?P<half>half)(?=\s+(?:\d{{1,2}}|{NUMBER_WORD_PATTERN})\b\s*(?:[,;!?)]|\.(?!\d)|$|(?:at|in|on|for|to|with|and|"
    rf"sharp|until|till|tonight|tomorrow|then)\b)))\s+(?P<h>\d{{1,2}}|{NUMBER_WORD_PATTERN})\b",
    re.I,
)


def _clock_words(text: str, taken: Taken) -> list[Entity]:
    found = []
    for m in _CLOCK_WORDS.finditer(text):
        hour = parse_number(m.group("h"))
        if hour is None or not 1 <= hour <= 12 or not taken.free(m.start(), m.end()):
            continue
        if m.group("halb"):
            hour, minute = hour - 1, 30
        elif m.group("half"):
            minute = 30
        elif m.group("m2"):
            minute = _CLOCK_MINUTES[m.group("m2").lower()]
        else:
            minute = _CLOCK_MINUTES[" ".join(m.group("m").lower().split())]
            if m.group("rel").lower() in ("to", "vor"):
                hour, minute = hour - 1, 60 - minute
        if hour < 8:  # as for "at two": an office hour, in the afternoon
            hour += 12
        taken.take(m.start(), m.end())
        found.append(Entity("time", m.group(0), m.start(), m.end(), f"{hour:02d}:{minute:02d}"))
    return found


def find_times(text: str, taken: Taken) -> list[Entity]:
    found = _clock_words(text, taken)
    for m in [*_TIME.finditer(text), *_DAYPART_TIME.finditer(text)]:
        hour = parse_number(m.group("h"))
        if hour is None or hour > 23 or not taken.free(m.start("h"), m.end()):
            continue
        if m.re is _DAYPART_TIME and not 1 <= hour <= 12:
            continue  # "twenty in the morning queue"
        ap = (m.group("ap") or "").lower().replace(".", "")
        colon = m.re is _TIME and bool(m.group("mi")) and text[m.start("mi") - 1] == ":"
        if not ap and not colon and (hour > 12 or not _AFTER_BARE_HOUR.match(text[m.end() :])):
            continue  # "at fifteen days", "at 620 a day", "at 2.50 a unit": not a time
        if (
            ap.startswith("p")
            or "afternoon" in ap
            or "evening" in ap
            or ("night" in ap and hour >= 6)  # "eleven at night"; "two at night" is 02:00
            or (not ap.startswith("a") and "morning" not in ap and hour < 8)
        ):
            hour = hour + 12 if hour < 12 else hour
        minute = int(m.group("mi") or 0)
        if m.re is _TIME and m.group("mw"):
            minute = _minutes(m.group("mw"))
        taken.take(m.start("h"), m.end())
        found.append(Entity("time", m.group(0), m.start(), m.end(), f"{hour:02d}:{minute:02d}"))
    return found


def _minutes(words: str) -> int:
    return _MINUTE_WORDS[" ".join(words.lower().replace("-", " ").split())]
