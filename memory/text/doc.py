"""A recording's raw words as one text, cut into sentences and clauses, mapped back to segments.

Consolidation reads whole sentences (a speech recogniser cuts segments mid-sentence, and a
dictated segment may hold several sentences), but everything it stores points at raw segments:
`Doc.span` turns a character range of the joined text into segment ids, times and the raw words.
"""

from __future__ import annotations

import bisect
import itertools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from memory.store.recordings import Segment
from memory.text.nlp import language_of
from memory.text.numbers import GERMAN_MONTHS

_SENTENCE_END = re.compile(r"(?<=[.!?…])['\"”’)\]]*\s+")  # the one sentence splitter of the project
_CLAUSE_BREAK = re.compile(r"\s*(?:[,;:–—]|\s-\s)\s*")
# German writes an ordinal as a number and a dot: "am 3. September", "der 2. große Termin"; the
# dot ends no sentence when a month or a lower-case word follows it.
_GERMAN_ORDINAL = re.compile(r"(?<![\w.,])\d{1,4}\.$")
_GERMAN_MONTH = re.compile(rf"(?:{'|'.join(GERMAN_MONTHS)})\b", re.I)


def _german_ordinal(text: str, end: int, next_start: int) -> bool:
    """The sentence end found at `end` (the next sentence would start at `next_start`) is the dot
    of a German ordinal: a number, its dot, then a month or a lower-case word."""
    if not _GERMAN_ORDINAL.search(text, max(0, end - 6), end):
        return False
    return text[next_start : next_start + 1].islower() or bool(_GERMAN_MONTH.match(text, next_start))


# A title's dot before a name ends no sentence: "I will revert to Mr. Venkataraman with the
# estimates" was two sentences, and the promise was lost (speech recognisers write the dot).
_TITLE = re.compile(r"(?<![\w.])(?:Mr|Mrs|Ms|Mx|Dr|Prof|Rev|Fr|St|Hr)\.$")


def _title(text: str, end: int, next_start: int) -> bool:
    """The sentence end found at `end` is the dot of a title and a name follows."""
    return bool(_TITLE.search(text, max(0, end - 6), end)) and text[next_start : next_start + 1].isupper()


def sentence_spans(text: str, language: str | None = None) -> list[tuple[int, int]]:
    """(start, end) of each sentence of `text`, surrounding whitespace left out. A title's dot before
    a name ("Mr. Venkataraman", "Dr. Okafor") ends no sentence. German text (`language` "de", or
    None and `text` reads as German) is not cut after an ordinal's dot."""
    ends = [m for m in _SENTENCE_END.finditer(text) if not _title(text, m.start(), m.end())]
    if ends and (language or language_of(text)) == "de":
        ends = [m for m in ends if not _german_ordinal(text, m.start(), m.end())]
    bounds = [0, *(m.end() for m in ends), len(text)]
    out = []
    for a, b in itertools.pairwise(bounds):
        piece = text[a:b]
        lead = len(piece) - len(piece.lstrip())
        if piece.strip():
            out.append((a + lead, a + lead + len(piece.strip())))
    return out


def split_sentences(text: str, language: str | None = None) -> list[str]:
    """The sentences of `text`, as written (`language`: as for `sentence_spans`)."""
    return [text[a:b] for a, b in sentence_spans(text, language)]


@dataclass(frozen=True)
class Span:
    """A character range of the joined text, resolved to raw segments."""

    start: int
    end: int
    text: str
    segment_ids: tuple[int, ...]
    first_segment: int  # position in Doc.segments
    seg_start: int  # character offsets inside the first and last segments' raw text
    seg_end: int
    time_start: float
    time_end: float


@dataclass(frozen=True)
class Sentence:
    number: int
    start: int
    end: int
    text: str

    def clauses(self) -> list[tuple[int, int]]:
        """(start, end) of each comma-separated clause, in the joined text's offsets."""
        out, at = [], 0
        for m in _CLAUSE_BREAK.finditer(self.text):
            if m.start() > at:
                out.append((self.start + at, self.start + m.start()))
            at = m.end()
        if at < len(self.text):
            out.append((self.start + at, self.end))
        return out


class Doc:
    def __init__(self, segments: Sequence[Segment], spoken_at: str, known_names: Iterable[str] = ()) -> None:
        self.segments = list(segments)
        self.spoken_at = datetime.fromisoformat(spoken_at)
        # The given names of the people the library has named in its notes ("fenella" of "Fenella
        # Crabtree"): a name wherever it stands here, even first in a sentence, where a capital
        # says nothing. Given names only: a tagger's "person" is at times a firm ("Tallyforth
        # People"), whose last word is a common one.
        self.known_names = frozenset(
            name.lower().split()[0] for name in known_names if name.strip() and len(name.split()[0]) >= 3
        )
        self.offsets: list[int] = []
        parts: list[str] = []
        at = 0
        for seg in self.segments:
            self.offsets.append(at)
            parts.append(seg.raw_text)
            at += len(seg.raw_text) + 1
        self.text = " ".join(parts)
        self.sentences = self._sentences()

    def _sentences(self) -> list[Sentence]:
        # A segment that ends a thought ends its sentence even without punctuation after a pause.
        return [Sentence(i, a, b, self.text[a:b]) for i, (a, b) in enumerate(sentence_spans(self.text))]

    def segment_at(self, char: int) -> int:
        """Position (in self.segments) of the segment holding character `char` of the joined text."""
        return max(0, bisect.bisect_right(self.offsets, char) - 1)

    def span(self, start: int, end: int) -> Span:
        start, end = max(0, start), min(len(self.text), end)
        while start < end and self.text[start].isspace():
            start += 1
        while end > start and self.text[end - 1].isspace():
            end -= 1
        first, last = self.segment_at(start), self.segment_at(max(start, end - 1))
        covered = self.segments[first : last + 1]
        return Span(
            start=start,
            end=end,
            text=self.text[start:end],
            segment_ids=tuple(s.id for s in covered),
            first_segment=first,
            seg_start=start - self.offsets[first],
            seg_end=end - self.offsets[last],
            time_start=covered[0].start,
            time_end=covered[-1].end,
        )

    def sentence_at(self, char: int) -> Sentence:
        starts = [s.start for s in self.sentences]
        return self.sentences[max(0, bisect.bisect_right(starts, char) - 1)]

    def segment_sentences(self, position: int) -> list[Sentence]:
        """The sentences that overlap segment `position`."""
        a = self.offsets[position]
        b = a + len(self.segments[position].raw_text)
        return [s for s in self.sentences if s.start < b and s.end > a]
