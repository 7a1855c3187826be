"""A self-correction (`Correction`: the marker, the wrong words, the right words, the kind of value
corrected) and the phrases either side of its marker, which every reader of corrections
(memory/consolidate/corrections.py, correction_rules.py) cuts and compares alike: the clause
before the marker and the clause after it (at most MAX_PHRASE_WORDS words each), the numbers,
dates and names each holds, and which value of one kind the right phrase puts in place of the
wrong one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from memory.text.dates import WEEKDAYS, DateResolver, fact_dates
from memory.text.doc import Doc, Span
from memory.text.fact_parse import parsed
from memory.text.nlp import language_of
from memory.text.numbers import GERMAN_MONTHS, Converted
from memory.text.said_values import NUMBER_WORD_PATTERN

# A German ordinal's dot ("am 3. September") ends no clause.
_CLAUSE_END = re.compile(
    r",(?!\d{3}\b)|[;!?]|\.(?!\d)(?!(?<=\d\.)\s+(?:" + "|".join(GERMAN_MONTHS) + r")\b)", re.I
)
_TRAILING_ACTUALLY = re.compile(r"[,\s]+(?:actually|eigentlich)\s*$", re.I)
_NUMERIC = re.compile(rf"\d[\d,.]*|\b(?:{NUMBER_WORD_PATTERN})\b", re.I)
_NAME_WORD = re.compile(r"\b[A-ZÄÖÜ][\w'-]+")
MAX_PHRASE_WORDS = 9


@dataclass(frozen=True)
class Correction:
    marker: str
    wrong: Span
    right: Span
    kind: str  # date | number | name | words

    def to_json(self) -> dict[str, object]:
        return {
            "marker": self.marker,
            "kind": self.kind,
            "wrong": {"text": self.wrong.text, "segment_ids": list(self.wrong.segment_ids)},
            "right": {"text": self.right.text, "segment_ids": list(self.right.segment_ids)},
        }


def phrase_values(
    phrase: str, doc: Doc, language: str | None = None
) -> dict[str, list[tuple[int, int, str]]]:
    """(start, end, comparable value) of each number, date and name in a phrase, by family.
    `language`: the phrase's sentence's, when known (a short phrase such as
    "hundertvierundsiebzigtausend Euro" has no function word to tell its language by)."""
    found: dict[str, list[tuple[int, int, str]]] = {"date": [], "number": [], "name": []}
    taken: list[tuple[int, int]] = []
    language = language or language_of(phrase)
    for e in fact_dates(phrase, DateResolver(doc.spoken_at), language):
        if e.kind in ("date", "time"):
            found["date"].append((e.start, e.end, e.value))
            taken.append((e.start, e.end))
    # a weekday, or every one of them ("on Thursdays, I mean Fridays")
    for m in re.finditer(r"\b(" + "|".join(WEEKDAYS) + r")s?\b", phrase, re.I):
        if all(m.end() <= a or m.start() >= b for a, b in taken):
            found["date"].append((m.start(), m.end(), m.group(1).lower()))
    # a number said in several words is one number ("four hundred and sixty thousand": text2num),
    # compared by its digits; not an ordinal ("the third one": a position, or a day)
    converted = Converted(phrase, language)
    for m in re.finditer(r"\d[\d,.]*\d(?![a-z])|\d(?![a-z])", converted.text):
        a, b = converted.raw_span(m.start(), m.end())
        if (
            converted.said_in_words(m.start(), m.end())
            and _one_number(phrase[a:b], m.group(0), language)
            and all(b <= x or a >= y for x, y in taken)
        ):
            found["number"].append((a, b, m.group(0).replace(",", "")))
            taken.append((a, b))
    for m in _NUMERIC.finditer(phrase):
        if all(m.end() <= a or m.start() >= b for a, b in taken):
            text = m.group(0).rstrip(",.").replace(",", "").lower()
            found["number"].append((m.start(), m.start() + len(m.group(0).rstrip(",.")), text))
    names = parsed(doc).name_words() | doc.known_names
    for m in _NAME_WORD.finditer(phrase):
        if m.group(0).lower() not in names:
            continue  # a capital alone makes no name ("{disfmarker} You", "If")
        # a phrase's first word is a name only when the library knows it as one ("Fenella wants")
        first = m.start() == 0 and m.group(0).lower() not in doc.known_names
        if not first and all(m.end() <= a or m.start() >= b for a, b in taken):
            found["name"].append((m.start(), m.end(), m.group(0).lower()))
    for values in found.values():
        values.sort()  # in the order said: the last value before a marker is the one taken back
    return found


def _one_number(said: str, digits: str, language: str) -> bool:
    """Words that make one number: "thirty-four", "four hundred and sixty thousand", German's
    "hundertvierundsiebzigtausend" (a single English word is read with the number words)."""
    return len(said.split()) > 1 or "-" in said or (language == "de" and len(digits) > 1)


def right_phrase(doc: Doc, start: int, limit: int) -> tuple[int, int]:
    """From `start` to the end of its clause (at most MAX_PHRASE_WORDS words), trailing 'actually' cut."""
    end = limit
    if m := _CLAUSE_END.search(doc.text, start, limit):
        end = m.start()
    words = list(re.finditer(r"\S+", doc.text[start:end]))
    if len(words) > MAX_PHRASE_WORDS:
        end = start + words[MAX_PHRASE_WORDS - 1].end()
    phrase = doc.text[start:end]
    if m := _TRAILING_ACTUALLY.search(phrase):
        end = start + m.start()
    return start, end


def left_phrase(doc: Doc, end: int, floor: int) -> tuple[int, int]:
    """The clause before the cue (at most MAX_PHRASE_WORDS words, back to `floor`)."""
    head = doc.text[floor:end].rstrip(" ,;:.!?")
    breaks = list(_CLAUSE_END.finditer(head))
    start = floor + breaks[-1].end() if breaks else floor
    words = list(re.finditer(r"\S+", doc.text[start : floor + len(head)]))
    if len(words) > MAX_PHRASE_WORDS:
        start += words[-MAX_PHRASE_WORDS].start()
    return start, floor + len(head)


def match_values(left: str, right: str, doc: Doc) -> tuple[str, int, int] | None:
    """The kind of value corrected, where the wrong value starts in `left`, where the right one ends."""
    lv, rv = phrase_values(left, doc), phrase_values(right, doc)
    # "am 3., nein, am 4. September": a day said alone, its month said once, with the right day
    if lv["number"] and not lv["date"] and rv["date"] and not rv["number"]:
        day, said = lv["number"][-1], right[rv["date"][0][0] : rv["date"][0][1]]
        if (
            re.fullmatch(r"\d{1,2}", day[2])
            and (m := re.search(r"\b\d{1,2}\b", said))
            and m.group() != day[2]
        ):
            return "date", day[0], rv["date"][0][1]
    for family in ("date", "number", "name"):
        if lv[family] and rv[family]:
            wrong, correct = lv[family][-1], rv[family][0]
            if wrong[2] != correct[2]:
                return family, wrong[0], correct[1]
    return None
