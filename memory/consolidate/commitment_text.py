"""What commitments are read into, for both languages: `Found` (a commitment or a delivery with its
quote's range), the parties' names ("me"/"us" for the user), and `Context`, one recording's people
(who "he" stands for) and dates (each sentence's deadlines, resolved against when it was spoken).
Read by memory/consolidate/commitment_english.py (from spaCy's parse) and commitments.py (German).
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Literal

from memory.text.dates import DateResolver, fact_dates
from memory.text.doc import Doc, Sentence
from memory.text.fact_parse import parsed
from memory.text.numbers import word_list
from memory.text.said_values import Entity

if TYPE_CHECKING:
    from memory.consolidate.commitment_detector import CommitmentDetector

Kind = Literal["commitment", "delivery"]
ME, US = "me", "us"  # the user's side
MINE = frozenset({ME, US})
DEADLINE_WORDS = frozenset({"by", "until", "till", "before", "after", "no", "latest", "bis", "spätestens"})
# A date said as when something starts is no deadline: "run the panels, five days straight,
# starting Monday the 24th", "from the 3rd", "ab dem 3. Mai".
START_WORDS = frozenset({"starting", "from", "beginning", "commencing", "ab"})
WHAT_WORDS = 14  # what is shown of the thing; the quote holds the rest

# English words the parse is read with (memory/consolidate/commitment_english.py) ---------------------
# Verbs that neither hand over nor make anything: "I'll be there", "we'll see", "he'll start Monday".
NOT_DELIVERABLE = frozenset(
    word_list(
        """be have like love want need see know think hear feel look seem become go come stay remain
        happen meet talk discuss wait try start begin continue keep hold leave sit live end spend lose
        mind wonder guess hope let say tell ask rather prefer plan expect"""
    )
)
# Verbs of handing something over, for "need to / have to": "I need to send Jana the deck".
TRANSFER = frozenset(
    word_list(
        """send deliver give get hand forward share submit return email mail pass provide bring
        circulate upload post pay invoice show present"""
    )
)
# Said in the past, these say something was handed over: "I sent Oren the scorecard".
DELIVERED = frozenset(
    word_list(
        """send deliver hand forward share submit return email mail pass provide circulate upload post
        pay invoice finish complete"""
    )
)
ARRIVED = frozenset({"arrive", "land", "come", "go"})  # "the list came in", "the draft went to Oren"
ARRIVAL_PARTICLES = frozenset({"in", "back", "through", "out", "over", "off"})
RECEIVED = frozenset({"receive", "get"})  # "we got the dump from Markus"
# The heading of a list of one's own next actions: "Actions, ...", "To do: ...", "Note to self, ..."
ACTIONS = re.compile(
    r"^\W*(?:(?:my|the|our)\s+)?(?:actions?(?:\s+for\s+me)?|action\s+items?|to[- ]?dos?|next\s+steps?|"
    r"notes?\s+to\s+self|reminder(?:\s+to\s+self)?)\b",
    re.I,
)
REPORTING = frozenset({"say", "promise", "tell", "agree", "confirm", "commit", "assure", "guarantee"})
PROMISES = frozenset({"promise", "commit", "pledge", "guarantee"})
TENTATIVE = frozenset(
    word_list("think guess suppose hope wonder consider doubt imagine toy dream speculate wish like prefer")
)
HEDGES = frozenset(
    word_list("maybe perhaps possibly probably hopefully presumably apparently supposedly ideally")
)
TENTATIVE_MODALS = frozenset({"might", "could", "may", "should"})
WILL = frozenset({"will", "'ll", "’ll", "shall", "wo"})
WOULD = frozenset({"would", "'d", "’d"})
# "once the lawyers sign off, I'll send it" waits for something expected: still owed ("if" may never come)
CONDITIONS = frozenset({"if", "unless", "whether", "assuming", "provided"})
PERSON_PRONOUNS = {"i": ME, "me": ME, "we": US, "us": US, "myself": ME, "ourselves": US}
THIRD_PERSON = frozenset({"he", "she", "him", "her"})
GROUP = frozenset({"they", "them"})
THING_PRONOUNS = frozenset({"it", "this", "that", "them", "these", "those"})
CALENDAR = frozenset({"DATE", "ORDINAL", "TIME"})
MODIFIERS = frozenset({"det", "amod", "compound", "poss", "nummod", "case", "punct"})
SEPARATE_CLAUSES = frozenset({"conj", "advcl", "parataxis", "relcl", "ccomp", "csubj"})
_PERIOD_END = re.compile(
    r"(?:\b(?:bis|by|before)\s+(?:zum\s+)?)?(?P<p>(?P<month>\b(?:ende\s+(?:des|dieses)\s+(?P<next>nächsten\s+)?"
    r"monats|monatsende)\b)|\b(?:ende\s+(?:der|dieser)\s+woche|(?:the\s+)?end\s+of\s+this\s+week)\b)",
    re.I,
)
_LEAD = re.compile(r"\b(?P<w>[a-zäöüß]+)(?:\s+(?:the|zum|zur|den|dem|am))?\s+$", re.I)
_AFTER_DEADLINE = re.compile(
    r"\b(?:by|until|till|before|bis(?:\s+zum|\s+zur)?|spätestens)\s+(?P<d>[^,.;:]{3,30})", re.I
)


@dataclass(frozen=True)
class Found:
    """A commitment, or a delivery that may mark one done, found in a recording's doc."""

    kind: Kind
    start: int  # the quote's range in the doc's joined text
    end: int
    who: str  # ME, US, or a name as said (a pronoun when nobody was named before it)
    what: str
    to_whom: str | None
    due_text: str | None = None
    due_date: str | None = None  # ISO day
    language: str = "en"
    still: bool = False  # said as owed already ("still owes us")


@dataclass(frozen=True)
class Mention:
    """Where a person is named (doc offsets)."""

    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Due:
    """A deadline said in a sentence: its words ("by Friday the 26th") and the day they mean."""

    text: str
    date: str  # ISO day
    start: int  # where its words start in the sentence

    @property
    def end(self) -> int:
        return self.start + len(self.text)


class Context:
    """One recording's people and dates, shared by the readers of its sentences."""

    def __init__(
        self,
        doc: Doc,
        entities: Sequence[Entity],
        people: Iterable[str],
        not_people: Iterable[str],
        detector: CommitmentDetector | None = None,
    ) -> None:
        self.doc = doc
        self.parsed = parsed(doc)  # each sentence parsed once, shared with the facts stage
        self.resolver = DateResolver(doc.spoken_at)
        self.today = doc.spoken_at.date()
        self.not_people = {w.lower() for w in not_people}
        self.detector = detector  # the learned second reader, when one ships
        self.people = self._mentions(entities, people)

    def _person(self, text: str) -> bool:
        return not any(w in self.not_people for w in re.split(r"[\s'’-]+", text.lower()))

    def _mentions(self, entities: Sequence[Entity], people: Iterable[str]) -> list[Mention]:
        """Where people are named: the person entities, spaCy's PERSON names, and any word of a
        person's name the library or this note knows ("Daniel Okoro" → "Daniel")."""
        found = [Mention(e.start, e.end, e.text) for e in entities if e.kind == "person"]
        for sentence in self.doc.sentences:
            tokens = self.parsed.sentence(sentence).tokens
            if tokens is not None:
                found += [
                    Mention(sentence.start + e.start_char, sentence.start + e.end_char, e.text)
                    for e in tokens.ents
                    if e.label_ == "PERSON"
                ]
        found = [m for m in found if self._person(m.text)]
        words = {w for name in people for w in name.lower().split() if len(w) > 1}
        words |= {w for m in found for w in m.text.lower().split() if len(w) > 1}
        words -= self.not_people
        for sentence in self.doc.sentences:
            for word in re.finditer(r"\b[A-ZÄÖÜ][\wäöüß-]+", sentence.text):
                if word.group(0).lower() in words:
                    at = sentence.start + word.start()
                    found.append(Mention(at, at + len(word.group(0)), word.group(0)))
        kept: list[Mention] = []
        for mention in sorted(found, key=lambda m: (m.start, m.start - m.end)):
            if not kept or mention.start >= kept[-1].end:  # the longest of overlapping mentions
                kept.append(mention)
        return kept

    # --- dates ------------------------------------------------------------------------------------
    def dues(self, sentence: Sentence, language: str) -> list[Due]:
        """The sentence's dates that can be deadlines: on or after the day of the note, with the
        word that makes them one when it comes just before ("by", "until", "bis", "spätestens")."""
        out = []
        text = sentence.text
        for e in fact_dates(text, self.resolver, language):
            if e.kind != "date":
                continue
            lead = _LEAD.search(text[: e.start])
            if lead is not None and lead.group("w").lower() in START_WORDS:
                continue
            deadline = lead is not None and lead.group("w").lower() in DEADLINE_WORDS
            if e.grain == "year" and not deadline:
                continue  # "LVS-2000", "since 2019"
            day = _last_day(e.value, e.grain, e.text)
            if day is None or day < self.today:
                continue
            start = lead.start("w") if lead is not None and deadline else e.start
            out.append(Due(text[start : e.end], day.isoformat(), start))
        out += self._period_ends(text, out)
        return out + _dateparser_dues(text, self.doc.spoken_at, language, out)

    def _period_ends(self, text: str, known: list[Due]) -> list[Due]:
        """ "bis Ende des Monats", "Monatsende", "Ende der Woche", "end of this week": the last day
        of the month, the Friday of the week (what the date rules leave to the listener)."""
        out = []
        for m in _PERIOD_END.finditer(text):
            if any(d.start <= m.start("p") < d.end for d in known):
                continue
            if m.group("month"):
                year, month = self.today.year, self.today.month + (1 if m.group("next") else 0)
                year, month = year + (month - 1) // 12, (month - 1) % 12 + 1
                day = date(year, month, calendar.monthrange(year, month)[1])
            else:
                day = self.today + timedelta(days=(4 - self.today.weekday()) % 7)
            if day >= self.today:
                out.append(Due(m.group(0), day.isoformat(), m.start()))
        return out

    # --- people -----------------------------------------------------------------------------------
    def person_before(self, at: int) -> str | None:
        """The nearest person named before doc offset `at`, in this sentence or the three before it."""
        number = self.doc.sentence_at(at).number
        floor = self.doc.sentences[max(0, number - 3)].start
        named = [e for e in self.people if floor <= e.start and e.end <= at]
        return named[-1].text if named else None

    def person_at(self, start: int, end: int) -> str | None:
        for e in self.people:
            if e.start <= start < e.end or start <= e.start < end:
                return e.text
        return None


def _last_day(value: str, grain: str, text: str) -> date | None:
    """The day a deadline of this grain means: a week's Friday, a month's last day ("mid-" the 15th,
    "start of"/"Anfang" the 1st), a quarter's or a year's last day."""
    try:
        if grain == "day":
            return date.fromisoformat(value[:10])
        if grain == "week":
            return date.fromisoformat(value[:10]) + timedelta(days=4)
        year = int(value[:4])
        if grain == "month":
            month = int(value[5:7])
            lowered = text.lower()
            if re.search(r"\b(?:mid|middle|mitte)\b", lowered):
                return date(year, month, 15)
            if re.search(r"\b(?:start|beginning|anfang|early)\b", lowered):
                return date(year, month, 1)
            return date(year, month, calendar.monthrange(year, month)[1])
        if grain == "quarter":
            month = 3 * int(value[-1])
            return date(year, month, calendar.monthrange(year, month)[1])
        if grain == "year":
            return date(year, 12, 31)
    except ValueError:
        return None
    return None


def _dateparser_dues(text: str, spoken_at: datetime, language: str, known: list[Due]) -> list[Due]:
    """What follows "by"/"bis" that the rules did not read ("by 3 Sept", "bis 15.10."), by dateparser."""
    import dateparser

    out = []
    settings = {"RELATIVE_BASE": spoken_at, "PREFER_DATES_FROM": "future", "REQUIRE_PARTS": ["day"]}
    for m in _AFTER_DEADLINE.finditer(text):
        if any(d.start <= m.start("d") < d.end for d in known):
            continue
        words = m.group("d").split()
        for n in range(min(4, len(words)), 0, -1):
            phrase = " ".join(words[:n])
            if not re.search(r"\d", phrase):
                continue  # a weekday or a relative phrase the rules did not take is no date here
            when = dateparser.parse(phrase, languages=[language, "en"], settings=settings)
            if when is not None and when.date() >= spoken_at.date():
                said = text[m.start() : m.start("d") + len(phrase)]
                out.append(Due(said, when.date().isoformat(), m.start()))
                break
    return out
