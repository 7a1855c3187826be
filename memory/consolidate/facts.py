"""Facts with validity: short statements, each with the exact raw words that support it.

The rule-based extractor finds values (dates, amounts, counts, percentages, people named after
"is", tools and vendors after "go with", "moving to", "in", ...) in sentences that state rather
than hedge, and describes each by the words around it (its attribute) and the project it is about
(the recording's, or an off-project stretch's). A value inside a self-correction's taken-back
words is never a fact; the correcting words are. Hedged, conditional and second-hand sentences
("apparently", "if", "might", "the email said", "half joking") give no fact at all.

A later fact of the same project, said as a change ("now", "the new ...", "moving to",
"switching ... to", "up to", "pushed"), whose attribute shares enough words with an earlier
current fact of the same kind of value, supersedes it: the earlier one keeps its quote and gets
valid_until and superseded_by; both stay. A fact that says an earlier value again restates it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from memory.consolidate.corrections import Correction
from memory.text.dates import MONTHS, NUMBER_WORDS, WEEKDAYS, word_list
from memory.text.doc import Doc, Sentence, Span
from memory.text.entities import Entity
from memory.text.quotes import ClaimKind, QuoteSource, SourceSegment, tokens
from memory.text.relevance import STOPWORDS, stem

HEDGE_SENTENCE = re.compile(
    r"\b(?:if|unless|whether|would|could|might|maybe|perhaps|possibly|probably|hopefully|hoping|"
    r"i\s+think|i\s+guess|i\s+suppose|not\s+sure|falls|wenn|ob|würde|könnte|vielleicht|"
    r"wahrscheinlich|vermutlich|möglicherweise|ich\s+glaube|ich\s+denke)\b",
    re.I,
)
_HEDGE_FORWARD = re.compile(
    r"\b(?:apparently|reportedly|supposedly|allegedly|rumou?rs?|mentioned|heard|joking|kidding|"
    r"deck|slide|email|e-mail|article|reckons?|thinks|angeblich|gerücht|erwähnt|scherz\w*)\b",
    re.I,
)
CHANGE = re.compile(
    r"(?<!right )\bnow\b|\bnew\b|\bmov(?:ed|ing|e)\s+(?:to|it|the)\b|\bhas\s+moved\b|\bswitch(?:ed|ing)?\b|"
    r"\bchang(?:ed|ing)\b|\binstead\b|\bno\s+longer\b|\bup\s+to\b|\bdown\s+to\b|\braised\b|\bincreased\b|"
    r"\breduced\b|\bpushed\b|\bpostponed\b|\bdelayed\b|\bslipped\b|\bbrought\s+forward\b|\brescheduled\b|"
    r"\breplac(?:ed|ing)\b|\bgrown\b|\bdropp(?:ed|ing)\b|\bjetzt\b|\bneue[rn]?\b|\bverschoben\b|"
    r"\bstattdessen\b|\bab\s+sofort\b|\bgeändert\b",
    re.I,
)
_NEGATED_BEFORE = re.compile(
    r"\b(?:not|instead\s+of|rather\s+than|original|originally|old|previous|nicht|statt)\s+(?:the\s+)?$", re.I
)
_SWITCH_FROM = re.compile(r"\bfrom\s+(?:the\s+)?$", re.I)
_COPULA_BEFORE = re.compile(r"(?:\bis|\bare|\bwas|['’]s|\bist|\bsind)\s+(?:now\s+|still\s+|jetzt\s+)?$", re.I)
_TOOL_BEFORE = re.compile(
    r"\b(?:go(?:ing)?\s+with|mov(?:e|ed|ing)\s+to|switch(?:ed|ing)?\s+to|migrat(?:e|ed|ing)\s+to|onto|into|in|"
    r"on|using|uses?|used|with|via|through|to|auf|mit|nach)\s+(?:the\s+)?$",
    re.I,
)
_PARTIAL_AFTER = re.compile(r"^\s+of\b", re.I)
VALUE_KINDS = ("date", "amount", "count", "percent", "person", "name")
FAMILY = {"date": "date", "amount": "amount", "count": "count", "percent": "percent", "person": "person"}
FAMILY |= {"technology": "name", "organisation": "name", "name": "name"}
_NOT_CONTEXT = frozenset(
    list(WEEKDAYS)
    + list(MONTHS)
    + list(NUMBER_WORDS)
    + word_list("um uh okay right actually basically really now new just also still the so well yeah")
)
MIN_ATTRIBUTE_OVERLAP = 1.5  # idf-weighted shared context a superseding fact needs
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


def context_stems(text: str) -> set[str]:
    return {
        stem(t.norm)
        for t in tokens(text)
        if t.norm not in STOPWORDS
        and t.norm not in _NOT_CONTEXT
        and len(t.norm) > 2
        and not t.norm[0].isdigit()
    }


def hedged_ranges(sentence: Sentence) -> list[tuple[int, int]]:
    """Doc offsets of the sentence's hedged parts: all of it for a conditional, else from the
    clause that reports second-hand ("apparently", "the email", "mentioned") to the end."""
    if HEDGE_SENTENCE.search(sentence.text):
        return [(sentence.start, sentence.end)]
    m = _HEDGE_FORWARD.search(sentence.text)
    if m is None:
        return []
    at = sentence.start + m.start()
    clause = next((a for a, b in sentence.clauses() if a <= at < b + 1), at)
    return [(clause, sentence.end)]


def _inside(ranges: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    return any(x <= a and b <= y + 1 for x, y in ranges)


def overlaps(ranges: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    return any(a < y and b > x for x, y in ranges)


def _attribute(doc: Doc, clause_start: int, value_start: int, value_end: int, clause_end: int) -> str:
    """The few content words nearest before the value in its clause (else after it)."""

    def words(a: int, b: int) -> list[str]:
        return [
            doc.text[a + t.start : a + t.end].lower()
            for t in tokens(doc.text[a:b])
            if t.norm not in STOPWORDS and t.norm not in _NOT_CONTEXT and len(t.norm) > 2
        ]

    before = words(clause_start, value_start)
    return " ".join(before[-3:] or words(value_end, clause_end)[:3])


def _clause_bounds(sentence: Sentence, at: int) -> tuple[int, list[tuple[int, int]]]:
    clauses = sentence.clauses() or [(sentence.start, sentence.end)]
    index = next((i for i, (a, b) in enumerate(clauses) if a <= at < b + 1), 0)
    return index, clauses


def _value_of(e: Entity, sentence_entities: Sequence[Entity], doc: Doc) -> tuple[str, str, int]:
    """(value as said, comparable value, end offset): a date takes the time said right after it."""
    if e.kind == "date":
        for t in sentence_entities:
            if t.kind == "time" and 0 <= t.start - e.end <= 30:
                return doc.text[e.start : t.end], f"{e.value}T{t.value}", t.end
        return e.text, e.value, e.end
    if e.kind == "count":
        return e.text, f"{e.value} {e.unit}".strip(), e.end
    if e.kind in ("person", "technology", "organisation", "name"):
        return e.text, e.value, e.end
    return e.text, e.value, e.end


def _inherited_unit(
    e: Entity, corrections: Sequence[Correction], entities: Sequence[Entity]
) -> tuple[str, int | None]:
    """A corrected count said without its noun ("62 beacons, no, 64") takes the noun of the words it"
    " corrects."""
    for number, c in enumerate(corrections):
        if c.right.start <= e.start < c.right.end + 1:
            if e.unit:
                return e.unit, number
            wrong = [
                w for w in entities if c.wrong.start <= w.start < c.wrong.end and w.kind == "count" and w.unit
            ]
            return (wrong[-1].unit if wrong else ""), number
    return e.unit, None


def _accept(e: Entity, before: str, after: str, own_date: str) -> bool:
    if _NEGATED_BEFORE.search(before):
        return False
    if e.kind == "date":
        return e.grain in ("day", "month", "week") and not (e.grain == "day" and e.value == own_date)
    if e.kind in ("amount", "percent"):
        return True
    if e.kind == "count":
        return not _PARTIAL_AFTER.match(after)
    if e.kind == "person":
        return bool(_COPULA_BEFORE.search(before))
    if e.kind in ("technology", "organisation", "name"):
        return bool(_TOOL_BEFORE.search(before)) and not _SWITCH_FROM.search(before[-30:])
    return False


def rule_facts(
    doc: Doc,
    entities: Sequence[Entity],
    corrections: Sequence[Correction],
    projects: Sequence[int],
    project_names: dict[int, str],
) -> list[FactIn]:
    """Facts of one recording. `projects[i]` is the project segment i is about."""
    wrong = [(c.wrong.start, c.wrong.end) for c in corrections]
    own_date = doc.spoken_at.date().isoformat()
    project_words = set().union(*(context_stems(n.replace("-", " ")) for n in project_names.values()))
    # Who said or did something is not what the value is about ("Imogen is now saying ...").
    name_words = set().union(
        *(
            context_stems(e.text)
            for e in entities
            if e.kind == "name" or (e.kind == "person" and len(e.text.split()) == 2)
        )
    )
    found: list[FactIn] = []
    for sentence in doc.sentences:
        hedges = hedged_ranges(sentence)
        here = [e for e in entities if sentence.start <= e.start < sentence.end]
        for e in here:
            if e.kind == "time" or overlaps(wrong, e.start, e.end) or _inside(hedges, e.start, e.end):
                continue
            if not _accept(e, doc.text[sentence.start : e.start], doc.text[e.end : sentence.end], own_date):
                continue
            if e.kind in ("technology", "organisation", "name") and context_stems(e.text) & project_words:
                continue  # "back to Wrenfield": a project named, not a value
            unit, correction = _inherited_unit(e, corrections, entities)
            if e.kind == "count" and unit != e.unit:
                e = Entity(e.kind, e.text, e.start, e.end, e.value, unit)
            value, norm, value_end = _value_of(e, here, doc)
            index, clauses = _clause_bounds(sentence, e.start)
            near = clauses[max(0, index - 2) : index + 3]
            context = context_stems(doc.text[near[0][0] : near[-1][1]]) - context_stems(value) - name_words
            if unit:
                context.add(stem(unit))
            changed = bool(CHANGE.search(doc.text[clauses[index][0] : e.start]))
            quote = doc.span(sentence.start, sentence.end)
            if len(sentence.text.split()) > QUOTE_MAX_WORDS:
                quote = doc.span(clauses[max(0, index - 1)][0], clauses[min(len(clauses) - 1, index + 1)][1])
            project = projects[doc.segment_at(e.start)]
            found.append(
                FactIn(
                    subject=project_names.get(project, ""),
                    attribute=_attribute(doc, clauses[index][0], e.start, value_end, clauses[index][1])
                    or (unit or e.kind),
                    value=value,
                    value_kind=FAMILY[e.kind],
                    value_norm=norm,
                    context=context,
                    quote=quote,
                    value_start=e.start,
                    value_end=value_end,
                    changed=changed,
                    project_id=project,
                    correction=correction,
                )
            )
    return found


def check_quote(doc: Doc, fact: FactIn) -> bool:
    """The deterministic checker: the quote is verbatim in the raw segments it names."""
    covered = doc.segments[fact.quote.first_segment : fact.quote.first_segment + len(fact.quote.segment_ids)]
    source = QuoteSource([SourceSegment(s.id, s.start, s.end, s.raw_text) for s in covered])
    return source.find(fact.quote.text, min_words=1) is not None
