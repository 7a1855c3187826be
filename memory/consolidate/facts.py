"""Facts with validity: short statements, each with the exact raw words that support it.

A fact is (subject, attribute, value, value kind). The rule-based extractor reads each sentence
once (memory/text/fact_parse.py: spaCy's parse of an English sentence; a German one is read by
rules):
- values: dates and times resolved against when the note was spoken (memory/text/dates.py
  `fact_dates`, number words through text2num first), amounts, percentages and counts with their
  currency, rate and the noun counted (memory/text/numbers.py: "four hundred and twenty thousand
  euros", "18k", "350.000 Euro", "seven eighty"), people and names (memory/text/entities.py) where
  the parse (or, without one, the words before them) makes them the value of something ("my
  contact is ...", "... owns the data migration", "going with ...", "use ...");
- the attribute: the words of the value's clause that say what it is (the path from the value to
  its clause's head and the subjects, objects and compounds on it: "go-live", "hiring plan
  implementation consultants", "owns data migration"); a corrected value takes the attribute of
  the words it corrects;
- the subject: the project the sentence is about, which is the note's (or its off-project
  stretch's) unless the sentence names another project ("Oh, Kranich, the board approved ...");
- how it is asserted (memory/text/hedges.py): a tentative value (condition, modal, hedge,
  negation, question, second-hand, an idea, a number qualified as being for something else) is no
  fact, nor is a value in a sentence tied to a year gone by ("back in 2014"); a wished one ("Per
  wants to move go-live to ...") is kept as inferred, never stated.
A value inside a self-correction's taken-back words is never a fact; the correcting words are.
Whether it is said as a change ("now", "moved to", "cut ... to", "approved", "jetzt") or as no
change ("stays", "still", "bleibt") is kept for validity (memory/consolidate/fact_validity.py).

The values and whether each is the value of something are read in
memory/consolidate/fact_values.py, the attribute, subject and change in fact_attributes.py; this
module holds the facts (`FactIn`, `Fact`) and the extractor that puts them together
(`rule_facts`), and the quote checker.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memory.consolidate.correction_phrases import Correction
from memory.consolidate.fact_attributes import attribute_of, is_change, project_mentions
from memory.consolidate.fact_values import (
    NOT_CONTEXT,
    Value,
    accept_value,
    date_values,
    name_values,
    overlaps,
    quantity_values,
    status_values,
)
from memory.text.dates import DateResolver
from memory.text.doc import Doc, Sentence, Span
from memory.text.fact_parse import parsed
from memory.text.hedges import Assertion, of_a_past_year, read_value, sentence_hedges
from memory.text.quotes import ClaimKind, QuoteSource, SourceSegment, tokens
from memory.text.relevance import STOPWORDS
from memory.text.said_values import Entity
from memory.text.stems import stem

# Kept for the digest (memory/consolidate/digest.py): a sentence that hedges as a whole.
HEDGE_SENTENCE = re.compile(
    r"\b(?:if|unless|whether|would|could|might|maybe|perhaps|possibly|probably|hopefully|hoping|"
    r"i\s+think|i\s+guess|i\s+suppose|not\s+sure|falls|wenn|ob|würde|könnte|vielleicht|"
    r"wahrscheinlich|vermutlich|möglicherweise|ich\s+glaube|ich\s+denke)\b",
    re.I,
)
FAMILY = {"date": "date", "amount": "amount", "count": "count", "percent": "percent", "person": "person"}
FAMILY |= {
    "technology": "name",
    "organisation": "name",
    "name": "name",
    "number": "number",
    "status": "status",
}
QUOTE_MAX_WORDS = 40


@dataclass
class FactIn:
    """A fact about to be stored (offsets are in the doc's joined text)."""

    subject: str
    attribute: str
    value: str
    value_kind: str
    value_norm: str
    context: set[str]
    quote: Span
    value_start: int
    value_end: int
    changed: bool
    project_id: int
    kind: ClaimKind = ClaimKind.STATED
    source: str = "rules"
    correction: int | None = None  # index into the recording's corrections


@dataclass(frozen=True)
class Fact:
    id: int
    recording_id: int
    project_id: int
    project: str
    subject: str
    attribute: str
    value: str
    value_kind: str
    value_norm: str
    kind: ClaimKind
    quote: str
    segment_ids: list[int]
    start: float
    end: float
    spoken_at: str
    valid_from: str
    valid_until: str | None
    superseded_by: int | None
    restates: int | None
    changed: bool
    correction_id: int | None
    source: str
    context: str = ""
    replaced: list[int] = field(default_factory=list)  # facts this one superseded

    @property
    def current(self) -> bool:
        return self.valid_until is None

    def to_json(self) -> dict[str, Any]:
        out = {k: v for k, v in self.__dict__.items() if k != "context"}
        out["current"] = self.current
        return out


def context_stems(text: str, language: str = "en") -> set[str]:
    return {
        stem(t.norm, language)
        for t in tokens(text)
        if t.norm not in STOPWORDS
        and t.norm not in NOT_CONTEXT
        and len(t.norm) > 2
        and not t.norm[0].isdigit()
    }


def hedged_ranges(sentence: Sentence) -> list[tuple[int, int]]:
    """Doc offsets of the sentence's parts whose values are tentative whatever the parse says
    (memory/text/hedges.py `sentence_hedges`), and all of it when it hedges as a whole."""
    ranges = [(sentence.start + a, sentence.start + b) for a, b, _ in sentence_hedges(sentence.text)]
    if HEDGE_SENTENCE.search(sentence.text):
        ranges.append((sentence.start, sentence.end))
    return ranges


def _clause_bounds(sentence: Sentence, at: int) -> tuple[int, list[tuple[int, int]]]:
    clauses = sentence.clauses() or [(sentence.start, sentence.end)]
    index = next((i for i, (a, b) in enumerate(clauses) if a <= at < b + 1), 0)
    return index, clauses


# --- the extractor ------------------------------------------------------------------------------------
def _correction_of(v: Value, corrections: Sequence[Correction]) -> int | None:
    for number, c in enumerate(corrections):
        if c.right.start <= v.start < c.right.end + 1:
            return number
    return None


def rule_facts(
    doc: Doc,
    entities: Sequence[Entity],
    corrections: Sequence[Correction],
    projects: Sequence[int],
    project_names: dict[int, str],
    about: Sequence[int] | None = None,
) -> list[FactIn]:
    """Facts of one recording. `projects[i]` is the project segment i is filed under, `about[i]` the
    project it is about (an aside about another project; default: the same)."""
    wrong = [(c.wrong.start, c.wrong.end) for c in corrections]
    own_date = doc.spoken_at.date().isoformat()
    resolver = DateResolver(doc.spoken_at)
    reader = parsed(doc)
    project_words = set().union(*(context_stems(n.replace("-", " ")) for n in project_names.values()))
    found: list[FactIn] = []
    for sentence in doc.sentences:
        ps = reader.sentence(sentence)
        times: list[tuple[int, int]] = []
        values = date_values(ps, resolver, own_date, times)
        values += quantity_values(ps, [(v.start, v.end) for v in values] + times)
        values += name_values(ps, entities, [(v.start, v.end) for v in values])
        values += [
            v for v in status_values(ps) if not overlaps([(w.start, w.end) for w in values], v.start, v.end)
        ]
        if not values or of_a_past_year(sentence.text, doc.spoken_at.year):
            continue  # history ("their last appeal, back in 2014, raised 640k"): not how things stand
        named = project_mentions(sentence.text, project_names)
        people = {
            w.lower()
            for e in entities
            if sentence.start <= e.start < sentence.end and e.kind in ("person", "name")
            for w in e.text.split()
        }
        # a value read across a correction ("sixty— sixty-five thousand pounds": one amount, 65,000)
        # is the correcting words said whole, not taken back
        taken_back = {
            id(v): v
            for v in values
            if overlaps(wrong, v.start, v.end)
            and not any(
                c.wrong.start < v.end
                and v.start < c.wrong.end
                and c.right.start < v.end
                and v.start < c.right.end
                for c in corrections
            )
        }
        markers = [
            (c.wrong.end, c.right.start) for c in corrections if sentence.start <= c.wrong.end < sentence.end
        ]
        for v in values:
            if id(v) in taken_back:
                continue
            before, after = doc.text[sentence.start : v.start], doc.text[v.end : sentence.end]
            correction = _correction_of(v, corrections)
            if not accept_value(ps, v, before, after, correction is not None):
                continue
            if v.kind == "name" and context_stems(v.text) & project_words:
                continue  # "back to Wrenfield": a project named, not a value
            repair = (
                [(corrections[correction].wrong.start, corrections[correction].right.start)]
                if correction is not None
                else []
            )
            reading = read_value(ps, v.start, v.end, negation_is_value=v.kind == "status", taken_back=repair)
            if reading.assertion == Assertion.TENTATIVE:
                continue
            index, clauses = _clause_bounds(sentence, v.start)
            skip = markers + [(w.start, w.end) for w in values if w is not v]
            attribute, context = attribute_of(ps, doc, v, clauses, people, skip)
            if correction is not None:
                v = _inherit(v, corrections[correction], list(taken_back.values()))
                for w in taken_back.values():
                    if overlaps(
                        [(corrections[correction].wrong.start, corrections[correction].wrong.end)],
                        w.start,
                        w.end,
                    ):
                        wa, wc = attribute_of(ps, doc, w, clauses, people, markers)
                        attribute, context = wa or attribute, context | wc
            if v.kind in ("count", "status") and v.unit:
                context.add(v.unit)
            quote = doc.span(sentence.start, sentence.end)
            if len(sentence.text.split()) > QUOTE_MAX_WORDS:
                quote = doc.span(clauses[max(0, index - 1)][0], clauses[min(len(clauses) - 1, index + 1)][1])
            segment = doc.segment_at(v.start)
            project = projects[segment]
            subject = next(iter(named)) if len(named) == 1 else (about or projects)[segment]
            found.append(
                FactIn(
                    subject=project_names.get(subject, ""),
                    attribute=attribute or v.unit or v.kind,
                    value=v.text,
                    value_kind=v.kind,
                    value_norm=v.norm,
                    context=context - context_stems(v.text, ps.language),
                    quote=quote,
                    value_start=v.start,
                    value_end=v.end,
                    changed=is_change(ps, doc, v, clauses, index),
                    project_id=project,
                    kind=ClaimKind.INFERRED if reading.assertion == Assertion.WISH else ClaimKind.STATED,
                    correction=correction,
                )
            )
    return found


def _inherit(v: Value, c: Correction, taken_back: Sequence[Value]) -> Value:
    """A corrected value said without its noun or currency ("1,250 euros a day, correction, 1,150";
    "62 beacons, no, 64") takes them from the words it corrects."""
    wrong = [w for w in taken_back if c.wrong.start <= w.start < c.wrong.end]
    if not wrong or v.kind not in ("number", "count"):
        return v
    w = wrong[-1]
    number = v.norm.split(" ", 1)[0]
    if w.kind == "amount" and v.kind == "number":
        norm = " ".join(x for x in (number, w.currency, w.rate) if x)
        return Value("amount", v.start, v.end, v.text, norm, currency=w.currency, rate=w.rate)
    if w.kind == "count" and v.kind == "number":
        return Value("count", v.start, v.end, v.text, f"{number} {w.unit}", unit=w.unit)
    return v


def check_quote(doc: Doc, fact: FactIn) -> bool:
    """The deterministic checker: the quote is verbatim in the raw segments it names."""
    covered = doc.segments[fact.quote.first_segment : fact.quote.first_segment + len(fact.quote.segment_ids)]
    source = QuoteSource([SourceSegment(s.id, s.start, s.end, s.raw_text) for s in covered])
    return source.find(fact.quote.text, min_words=1) is not None
