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
  fact; a wished one ("Per wants to move go-live to ...") is kept as inferred, never stated.
A value inside a self-correction's taken-back words is never a fact; the correcting words are.
Whether it is said as a change ("now", "moved to", "cut ... to", "approved", "jetzt") or as no
change ("stays", "still", "bleibt") is kept for validity (memory/consolidate/fact_store.py).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from memory.consolidate.correction_phrases import Correction
from memory.text.dates import MONTHS, NUMBER_WORDS, WEEKDAYS, DateResolver, fact_dates, word_list
from memory.text.doc import Doc, Sentence, Span
from memory.text.entities import Entity
from memory.text.fact_parse import (
    ParsedSentence,
    attribute_tokens,
    counted_noun,
    parsed,
    past_event,
    pronoun_subject,
    replaced_tokens,
    word_of,
)
from memory.text.hedges import Assertion, read_value, sentence_hedges
from memory.text.numbers import find_quantities
from memory.text.quotes import ClaimKind, QuoteSource, SourceSegment, tokens
from memory.text.relevance import STOPWORDS
from memory.text.stems import stem

if TYPE_CHECKING:
    from spacy.tokens import Token

# Kept for the digest (memory/consolidate/digest.py): a sentence that hedges as a whole.
HEDGE_SENTENCE = re.compile(
    r"\b(?:if|unless|whether|would|could|might|maybe|perhaps|possibly|probably|hopefully|hoping|"
    r"i\s+think|i\s+guess|i\s+suppose|not\s+sure|falls|wenn|ob|würde|könnte|vielleicht|"
    r"wahrscheinlich|vermutlich|möglicherweise|ich\s+glaube|ich\s+denke)\b",
    re.I,
)
CHANGE = re.compile(
    r"(?<!right )\bnow\b|\bnew\s+(?:[\w-]+\s+)?(?:date|deadline|target|budget|price|rate|plan|contact|owner|"
    r"lead|head|version|timeline|schedule|figure|number|total|scope|vendor|supplier|provider|tool|system|name|"
    r"time|day|venue|location)\b|\bmov(?:ed|ing|es?)\b|\bswitch(?:ed|ing|es)?\b|\bchang(?:ed|ing|es?)\b|"
    r"\binstead\b|\bno\s+longer\b|\banymore\b|\b(?:is|are|was|were|now)\s+(?:\w+\s+)?(?:up|down)\s+to\b|"
    r"['’]re\s+(?:\w+\s+)?(?:up|down)\s+to\b|\bput\s+(?:\S+\s+){0,4}?(?:up|down|back)\b|"
    r"\b(?:gone|went|goes|come|came|comes)\s+(?:back\s+)?(?:up|down)\b|\bback\s+(?:up|down)\b|\braised?\b|"
    r"\bincreased?\b|\breduced?\b|\bcut\b|\blowered\b|\bpushed\b|\bpostponed\b|\bdelayed\b|\bslipped\b|"
    r"\bbrought\s+forward\b|\brescheduled\b|\breplac(?:ed|ing|es?)\b|\bgrown\b|\bdropp(?:ed|ing)\b|"
    r"\bapproved\b|\bdecided\b|\bpulled\b|\bextended\b|\btak(?:en|es|ing)\s+over\b|"
    r"\bhanded\s+over\b|\bsits\s+with\b|\bjetzt\b|\bnun\b|\binzwischen\b|\bmittlerweile\b|\bverschoben\b|"
    r"\bstattdessen\b|\bab\s+sofort\b|\bgeändert\b|\bgenehmigt\b|\bbeschlossen\b|\bfreigegeben\b|\berhöht\b|"
    r"\bgekürzt\b|\bgesenkt\b|\bumgestellt\b|\bneue[rnms]?\s+(?:termin|datum|frist|budget|preis|stand|"
    r"zeitplan|ansprechpartner\w*)\b",
    re.I,
)
NO_CHANGE = re.compile(
    r"\b(?:stays?|stayed|still|remains?|remained|holding|unchanged|as\s+planned|as\s+before|bleibt|"
    r"weiterhin|wie\s+geplant|unverändert|nach\s+wie\s+vor)\b",
    re.I,
)
_NEGATED_BEFORE = re.compile(
    r"\b(?:not|instead\s+of|rather\s+than|original|originally|old|previous|nicht|statt|ursprünglich\w*|"
    r"alte[nmrs]?)\s+(?:the\s+|der\s+|die\s+|das\s+|dem\s+|den\s+)?$",
    re.I,
)
_SWITCH_FROM = re.compile(r"\b(?:from|off|von)\s+(?:the\s+)?$", re.I)
_COPULA_BEFORE = re.compile(r"(?:\bis|\bare|\bwas|['’]s|\bist|\bsind)\s+(?:now\s+|still\s+|jetzt\s+)?$", re.I)
_TOOL_BEFORE = re.compile(
    r"\b(?:go(?:ing)?\s+with|mov(?:e|ed|ing)\s+to|switch(?:ed|ing)?\s+to|migrat(?:e|ed|ing)\s+to|"
    r"onto|into|in|on|using|uses?|used|with|via|through|to)\s+(?:the\s+)?$",
    re.I,
)
# Without the parse's agreement, only a verb of choosing makes a name a value.
_TOOL_STRONG = re.compile(
    r"\b(?:go(?:ing)?\s+with|mov(?:e|ed|ing)\s+(?:\w+\s+){0,6}(?:over\s+)?to|switch(?:ed|ing)?\s+"
    r"(?:\w+\s+){0,6}to|migrat(?:e|ed|ing)\s+(?:\w+\s+){0,3}to|using|decided\s+on|chose|picked|selected|"
    r"opted\s+for)\s+(?:the\s+)?$",
    re.I,
)
_AS_VALUE_BEFORE = re.compile(
    r"(?:\bis|\bare|\bwas|\bwere|['’]s|['’]re|\bbe|\bat|\bto|\bof|\bist|\bsind|\bliegt|\bbei|\bauf|\bvon)\s+"
    r"(?:now\s+|only\s+|just\s+|about\s+|around\s+|roughly\s+|jetzt\s+|nur\s+|rund\s+|etwa\s+|ca\.\s+)?$",
    re.I,
)
_WORDS = re.compile(r"[A-Za-zÄÖÜäöüß][\wÄÖÜäöüß]*(?:-[\wÄÖÜäöüß]+)*")
_DELTA_BEFORE = re.compile(
    r"\b(?:by|um|another|extra|additional|further|more|weitere\w*|zusätzlich\w*|noch\s+(?:mal|einmal))\s+"
    r"(?:(?:about|around|roughly|some|rund|etwa|ca\.)\s+)?(?:[€£$]\s?)?$",
    re.I,
)
_PARTIAL_AFTER = re.compile(r"^\s+(?:of|von|der)\b", re.I)
_GERMAN_NOUN_AFTER = re.compile(r"\s+(?P<w>[A-ZÄÖÜ][a-zäöüß-]{2,})")
_ENGLISH_NOUN_AFTER = re.compile(r"\s+(?:[a-z]+\s+)?(?P<w>[a-z][a-z-]{2,}s)\b")
_OWNER_VERBS = frozenset(
    word_list(
        """
    own lead run manage handle coordinate chair head sponsor take oversee drive sign approve"""
    )
)
_CHOICE_VERBS = frozenset(
    word_list(
        """
    use choose pick select adopt buy license go move switch migrate decide settle opt replace"""
    )
)
_KEEP_VERBS = frozenset(
    word_list(
        """
    keep store host run build track manage hold put load log"""
    )
)
_HANDOVER_PREPS = frozenset({"with", "to", "by", "under", "bei", "an"})
_NOT_NAME_ENTS = frozenset(
    {"GPE", "LOC", "FAC", "DATE", "TIME", "NORP", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY"}
)
_INCREMENT = frozenset({"new", "more", "extra", "additional", "further", "another", "other"})
VALUE_KINDS = ("date", "amount", "count", "number", "percent", "person", "name", "status")
FAMILY = {"date": "date", "amount": "amount", "count": "count", "percent": "percent", "person": "person"}
FAMILY |= {
    "technology": "name",
    "organisation": "name",
    "name": "name",
    "number": "number",
    "status": "status",
}
_NOT_CONTEXT = frozenset(
    list(WEEKDAYS)
    + list(MONTHS)
    + list(NUMBER_WORDS)
    + word_list(
        "um uh okay right actually basically really now new just also still the so well yeah äh ähm also"
    )
)
MIN_ATTRIBUTE_OVERLAP = 1.5  # kept for older callers: idf-weighted shared context
QUOTE_MAX_WORDS = 40
ASIDE_OPENING_WORDS = 5  # an aside names its project in its first words
HEADER_SENTENCES = 1  # the note's own date said in its first sentence dates the note, it is no fact
ATTRIBUTE_WORDS = 5
PAST = "~past"  # in a fact's context: the date of something that happened, which nothing supersedes
REPLACES = "<"  # in a fact's context, before a stem: a word of what the change replaces ("from the day rate")


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
        and t.norm not in _NOT_CONTEXT
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


def overlaps(ranges: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    return any(a < y and b > x for x, y in ranges)


# --- values -------------------------------------------------------------------------------------------
@dataclass
class _Value:
    kind: str  # date | amount | count | number | percent | person | name
    start: int  # doc offsets
    end: int
    text: str
    norm: str
    unit: str = ""  # counts: the noun counted
    currency: str = ""
    rate: str = ""
    grain: str = ""
    entity: str = ""  # names: person | organisation | technology | name


def _clause_bounds(sentence: Sentence, at: int) -> tuple[int, list[tuple[int, int]]]:
    clauses = sentence.clauses() or [(sentence.start, sentence.end)]
    index = next((i for i, (a, b) in enumerate(clauses) if a <= at < b + 1), 0)
    return index, clauses


def _dates(ps: ParsedSentence, resolver: DateResolver, own_date: str) -> list[_Value]:
    s = ps.sentence
    found = fact_dates(s.text, resolver, ps.language)
    out: list[_Value] = []
    for e in found:
        if e.kind != "date":
            continue
        start, end, text, norm = s.start + e.start, s.start + e.end, e.text, e.value
        for t in found:  # a date takes the time said right after it
            if t.kind == "time" and 0 <= t.start - e.end <= 30:
                end, text, norm = s.start + t.end, s.text[e.start : t.end], f"{e.value}T{t.value}"
                break
        out.append(_Value("date", start, end, text, norm, grain=e.grain))
    header = s.number < HEADER_SENTENCES  # "Monday the 15th of June, notes from ...": the note's own date
    return [
        v
        for v in out
        if v.grain in ("day", "week", "month", "quarter") and not (header and v.norm[:10] == own_date)
    ]


def _unit_by_rules(text: str, end: int, language: str) -> str:
    if language == "de":
        m = _GERMAN_NOUN_AFTER.match(text, end)
        return stem(m.group("w").lower(), "de") if m else ""
    m = _ENGLISH_NOUN_AFTER.match(text, end)
    return stem(m.group("w").lower()) if m and m.group("w").lower() not in STOPWORDS else ""


def _quantities(ps: ParsedSentence, taken: list[tuple[int, int]]) -> list[_Value]:
    s = ps.sentence
    out: list[_Value] = []
    for q in find_quantities(s.text, ps.language):
        start, end = s.start + q.start, s.start + q.end
        if overlaps(taken, start, end) or (q.words and q.value < 2 and not q.currency):
            continue
        if q.percent:
            out.append(_Value("percent", start, end, q.text, q.norm()))
            continue
        if q.currency:
            out.append(_Value("amount", start, end, q.text, q.norm(), currency=q.currency, rate=q.rate))
            continue
        unit, increment = "", False
        if ps.tokens is not None:
            anchor = ps.anchor(start, end)
            noun = (
                counted_noun(anchor, {t.i for t in ps.tokens_in(start, end)}) if anchor is not None else None
            )
            if noun is not None:
                unit = stem(noun.lemma_.lower())
                increment = any(c.dep_ == "amod" and c.lower_ in _INCREMENT for c in noun.children)
        else:
            unit = _unit_by_rules(s.text, q.end, ps.language)
        if increment:
            continue  # "two new customers": an increment, not how many there are
        if unit:
            norm = f"{q.value:.10g} {unit}" + (f" {q.rate}" if q.rate else "")
            out.append(_Value("count", start, end, q.text, norm, unit=unit, rate=q.rate))
        else:
            out.append(
                _Value("number", start, end, q.text, f"{q.value:.10g}" + (f" {q.rate}" if q.rate else ""))
            )
    return out


def _names(ps: ParsedSentence, entities: Sequence[Entity], taken: list[tuple[int, int]]) -> list[_Value]:
    """People and names: the recording's name entities, and the proper nouns of the parse that are
    none of them (a tool or vendor the entity reader did not know)."""
    s = ps.sentence
    out = []
    for e in entities:
        if not (s.start <= e.start < s.end) or e.kind not in ("person", "organisation", "technology", "name"):
            continue
        if overlaps(taken, e.start, e.end):
            continue
        out.append(
            _Value("person" if e.kind == "person" else "name", e.start, e.end, e.text, e.value, entity=e.kind)
        )
    if ps.tokens is None:
        return out
    covered = taken + [(v.start, v.end) for v in out]
    for t in ps.tokens:
        # a proper noun, or a capitalised word inside the sentence the small model mis-tagged
        # ("going with Campusly": ADV)
        capitalised = t.i > 0 and t.text[:1].isupper() and t.is_alpha and t.lower_ not in _NOT_CONTEXT
        if not (t.pos_ == "PROPN" or (capitalised and t.pos_ in ("NOUN", "ADV", "ADJ", "VERB", "X"))):
            continue
        if t.dep_ in ("compound", "flat") or t.ent_type_ in _NOT_NAME_ENTS - {"GPE", "LOC", "FAC"}:
            continue
        run = [c for c in t.children if c.dep_ in ("compound", "flat") and c.pos_ == "PROPN" and c.i < t.i]
        first = min([t, *run], key=lambda x: x.i)
        start, end = s.start + first.idx, s.start + t.idx + len(t.text)
        if overlaps(covered, start, end) or not t.text[:1].isupper() or t.i == 0:
            continue
        kind = "person" if t.ent_type_ == "PERSON" else "name"
        text = s.text[first.idx : t.idx + len(t.text)]
        out.append(_Value(kind, start, end, text, " ".join(text.lower().split()), entity=""))
    return out


def _role_accepts(ps: ParsedSentence, v: _Value) -> bool | None:
    """Whether the parse makes a person or name the value of something; None without a parse."""
    anchor = ps.anchor(v.start, v.end)
    if anchor is None:
        return None
    head = anchor.head
    if anchor.dep_ in ("attr", "oprd") or (anchor.dep_ == "appos" and head.dep_ == "attr"):
        return True  # "my contact is X"
    if anchor.dep_ == "dobj" and head.lemma_.lower() in _CHOICE_VERBS:
        return True  # "they'll use Jira"
    if anchor.dep_ == "pobj":
        verb = next((a for a in head.ancestors if a.pos_ in ("VERB", "AUX")), head.head)
        if head.lower_ in ("to", "onto", "into") and verb.lemma_.lower() in _CHOICE_VERBS | {"over"}:
            return True  # "move the projects over to Asana"
        if (
            head.lower_ in _HANDOVER_PREPS
            and verb.pos_ in ("VERB", "AUX")
            and verb.lemma_.lower()
            in ("sit", "lie", "rest", "go", "move", "pass", "hand", "transfer", "stay", "be", "fall")
        ):
            return v.kind == "person" or head.lower_ == "with"  # "now sits with X", "going with X"
        if head.lower_ == "on" and verb.lemma_.lower() in ("decide", "settle", "agree"):
            return True  # "decided on EduNest"
        if head.lower_ in ("in", "on", "into") and verb.lemma_.lower() in _KEEP_VERBS:
            return True  # "we keep the scripts in Contentful", "hosted in Germany"
    if anchor.dep_ == "appos" and head.dep_ in ("nsubj", "nsubjpass"):  # "Their head of IT, X, is leading"
        anchor, head = head, head.head
    if anchor.dep_ == "nsubj" and v.kind == "person" and head.lemma_.lower() in _OWNER_VERBS:
        return any(c.dep_ == "dobj" for c in head.children)  # "X owns the data migration"
    return False


def _accept(ps: ParsedSentence, v: _Value, before: str, after: str, corrected: bool) -> bool:
    if _NEGATED_BEFORE.search(before):
        return False
    if v.kind in ("amount", "count", "number", "percent") and _DELTA_BEFORE.search(before):
        return (
            False  # "cut by 10,000", "another 90,000", "noch mal 5.000": how much it changed, not what it is
        )
    if corrected and v.kind in ("count", "number"):
        return True
    if v.kind in ("date", "amount", "percent", "status"):
        return True
    if v.kind == "count":
        return not _PARTIAL_AFTER.match(after)
    if v.kind == "number":
        if _PARTIAL_AFTER.match(after):
            return False
        anchor = ps.anchor(v.start, v.end) if ps.tokens is not None else None
        if anchor is not None and (
            anchor.dep_ in ("dobj", "attr", "oprd", "acomp")
            or (anchor.dep_ == "pobj" and anchor.head.lower_ in ("to", "at", "of", "around", "about"))
        ):
            return True  # the object or complement of its clause: "they want four", "it's now six"
        return bool(_AS_VALUE_BEFORE.search(before))
    if _SWITCH_FROM.search(before[-30:]):
        return False  # "switching from Textwell to ...": the old value
    if ps.language == "de":  # no parse, and every German noun is capitalised: only "X ist <Person>"
        return v.kind == "person" and bool(_COPULA_BEFORE.search(before))
    by_role = _role_accepts(ps, v) if ps.tokens is not None else None
    if by_role:
        return True
    if v.kind == "person":
        return bool(_COPULA_BEFORE.search(before))
    if by_role is None or v.entity == "technology":  # a known tool, kept "in" or used "on"
        return bool(_TOOL_BEFORE.search(before))
    return bool(_TOOL_STRONG.search(before))


# --- in or out of scope ---------------------------------------------------------------------------
SCOPE_NOUNS = frozenset(["scope", "phase", "release", "mvp", "sprint", "milestone", "wave", "stage", "pilot"])
_GERMAN_STATUS = re.compile(
    r"(?P<x>\b(?:[Dd](?:er|ie|as)\s+)?[A-ZÄÖÜ][\wäöüß-]+(?:\s+[A-ZÄÖÜ][\wäöüß-]+)?)\s+"
    r"(?:ist|sind|bleibt|bleiben|kommt|kommen|gehört|gehören)\s+(?:jetzt\s+|nun\s+|doch\s+|wieder\s+|noch\s+)*"
    r"(?P<v>(?P<neg>nicht\s+)?(?:im\s+(?:scope|umfang|projektumfang)|in\s+(?:den\s+)?(?:scope|umfang|phase\s+\w+)|"
    r"zum\s+(?:scope|umfang))|(?P<out>außerhalb\s+des\s+(?:scopes?|umfangs)|raus\s+aus\s+dem\s+(?:scope|umfang)))",
    re.I,
)


def _statuses(ps: ParsedSentence) -> list[_Value]:
    """Whether something is in or out of a scope or phase: "the parent app is out of scope for phase
    one", "they want the parent app in phase one", "X ist nicht im Scope". The value is "in" or
    "out"; its unit is the thing (so only statuses of the same thing are compared)."""
    s = ps.sentence
    out: list[_Value] = []
    if ps.tokens is None:
        if ps.language != "de":
            return out
        for m in _GERMAN_STATUS.finditer(s.text):
            polarity = "out" if (m.group("neg") or m.group("out")) else "in"
            said = stem(m.group("x").split()[-1].lower(), "de")
            start, end = s.start + m.start("v"), s.start + m.end("v")
            out.append(_Value("status", start, end, m.group("v"), f"{polarity} {said}", unit=said))
        return out
    for t in ps.tokens:
        if t.lemma_.lower() not in SCOPE_NOUNS or t.dep_ != "pobj":
            continue
        prep = t.head
        if prep.lower_ == "of" and prep.head.lower_ == "out":
            polarity, first = "out", prep.head
        elif prep.lower_ in ("in", "into", "within"):
            polarity, first = "in", prep
        else:
            continue
        holder = first.head
        thing: Token | None = None
        if holder.pos_ in ("NOUN", "PROPN"):
            thing = holder
        elif holder.pos_ in ("VERB", "AUX"):
            thing = next(
                (
                    c
                    for c in holder.children
                    if c.dep_ in ("nsubj", "nsubjpass") and c.pos_ in ("NOUN", "PROPN")
                ),
                None,
            )
            thing = thing or next(
                (c for c in holder.children if c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN")), None
            )
            if any(c.dep_ == "neg" for c in holder.children):
                polarity = "in" if polarity == "out" else "out"
        if thing is None:
            continue
        last = t.doc[max(x.i for x in t.subtree)]
        start, end = s.start + first.idx, s.start + last.idx + len(last.text)
        unit = stem(thing.lemma_.lower())
        out.append(
            _Value(
                "status", start, end, s.text[start - s.start : end - s.start], f"{polarity} {unit}", unit=unit
            )
        )
    return out


# --- attribute, subject, change -------------------------------------------------------------------
def _attribute(
    ps: ParsedSentence,
    doc: Doc,
    v: _Value,
    clauses: list[tuple[int, int]],
    people: set[str],
    skip: Sequence[tuple[int, int]] = (),
) -> tuple[str, set[str]]:
    """(the attribute as words, the stems it is matched on); who said or did it is not what the value
    is about ("Priya cut the hiring plan to two"). A clause whose subject is a pronoun ("the
    languages have grown, it's now six") takes the nouns of the clause before. `skip`: doc ranges
    whose words never name the attribute: self-corrections' markers ("no wait", "sorry") and the
    sentence's other values ("the 13th, the 6th is the board meeting")."""
    index = next((i for i, (a, b) in enumerate(clauses) if a <= v.start < b + 1), 0)
    clause = clauses[index]
    if ps.tokens is not None and (anchor := ps.anchor(v.start, v.end)) is not None:
        value_ids = {t.i for t in ps.tokens_in(v.start, v.end)}
        path = ps.path(anchor)
        described = attribute_tokens(path, value_ids)
        if v.kind == "count" and not any(w.lemma_.lower() == v.unit for w in described):
            noun = counted_noun(anchor, value_ids)
            if noun is not None:
                described = sorted([*described, noun], key=lambda t: t.i)
        chosen = [w for w in described if w.lemma_.lower() not in _NOT_CONTEXT and w.lower_ not in people]
        # A dislocated topic ("Key users, we're up to sixteen now") names what the value is.
        root = path[-1]
        for child in root.children:
            if child.dep_ in ("dep", "npadvmod") and child.pos_ in ("NOUN", "PROPN") and child.i < anchor.i:
                chosen += [t for t in child.subtree if t.pos_ in ("NOUN", "PROPN", "ADJ")]
        if pronoun_subject(path) and index > 0:
            a, b = clauses[index - 1]
            chosen += [
                t
                for t in ps.tokens_in(a, b)
                if t.pos_ in ("NOUN", "PROPN")
                and t.lower_ not in people
                and t.lemma_.lower() not in _NOT_CONTEXT
            ]
        if v.kind == "number":  # a bare number is what its nouns say it is ("four at launch, languages")
            chosen = [t for t in chosen if t.pos_ == "NOUN" or (t.pos_ == "PROPN" and t.i == 0)] or chosen
        chosen = [w for w in chosen if not any(x <= ps.sentence.start + w.idx < y for x, y in skip)]
        # matched on lemmas ("users", "user"), shown as said ("data freeze", not "datum freeze")
        pairs = {word_of(t): word_of(t, surface=True) for t in chosen}
        pairs = {w: shown for w, shown in pairs.items() if len(w) > 2 and w not in STOPWORDS}
        marks = {PAST} if v.kind == "date" and past_event(path) else set()
        marks |= {
            REPLACES + stem(word_of(t)) for t in replaced_tokens(path, value_ids) if t.lower_ not in people
        }
        if v.rate:  # "1,150 euros a day" is a day rate
            pairs |= {w: w for w in ["rate", *v.rate.split()[1:]]}
        if pairs:
            return " ".join(list(pairs.values())[:ATTRIBUTE_WORDS]), {stem(w) for w in pairs} | marks
    language = ps.language
    a, b = clause

    def words(x: int, y: int) -> list[str]:
        return [
            w
            for w in (m.group(0).lower() for m in _WORDS.finditer(doc.text[x:y]))
            if w not in STOPWORDS and w not in _NOT_CONTEXT and w not in people and len(w) > 2
        ]

    before, after = words(a, v.start), words(v.end, b)
    nearest = before[-3:] or after[:3]
    return " ".join(nearest), {stem(w, language) for w in before + after}


def project_mentions(text: str, project_names: dict[int, str]) -> set[int]:
    """Projects a sentence opens with, by a distinctive word of their name, capitalised, in its first
    words ("Oh, Kranich, the board approved ...", "Quick Harrow thing, ..."): the sentence is an
    aside about that project. A name said later in the sentence is only mentioned."""
    text = " ".join(text.split()[:ASIDE_OPENING_WORDS])
    found = set()
    for pid, name in project_names.items():
        for word in re.split(r"[-_\s]+", name):
            if len(word) >= 4 and re.search(rf"\b{re.escape(word.capitalize())}\b", text):
                found.add(pid)
                break
    return found


def _changed(ps: ParsedSentence, doc: Doc, v: _Value, clauses: list[tuple[int, int]], index: int) -> bool:
    text = doc.text[clauses[max(0, index - 1)][0] : clauses[index][1]]
    if NO_CHANGE.search(doc.text[clauses[index][0] : clauses[index][1]]):
        return False
    if not CHANGE.search(text):
        return False
    if ps.tokens is not None:  # "two new customers": new things, not a changed value
        for t in ps.tokens_in(v.start, v.end):
            if t.head.pos_ == "NOUN" and any(
                c.dep_ == "amod" and c.lower_ in _INCREMENT for c in t.head.children
            ):
                return bool(CHANGE.search(text.replace(" new ", " ")))
    return True


# --- the extractor ------------------------------------------------------------------------------------
def _correction_of(v: _Value, corrections: Sequence[Correction]) -> int | None:
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
        values = _dates(ps, resolver, own_date)
        values += _quantities(ps, [(v.start, v.end) for v in values])
        values += _names(ps, entities, [(v.start, v.end) for v in values])
        values += [
            v for v in _statuses(ps) if not overlaps([(w.start, w.end) for w in values], v.start, v.end)
        ]
        if not values:
            continue
        named = project_mentions(sentence.text, project_names)
        people = {
            w.lower()
            for e in entities
            if sentence.start <= e.start < sentence.end and e.kind in ("person", "name")
            for w in e.text.split()
        }
        taken_back = {id(v): v for v in values if overlaps(wrong, v.start, v.end)}
        markers = [
            (c.wrong.end, c.right.start) for c in corrections if sentence.start <= c.wrong.end < sentence.end
        ]
        for v in values:
            if id(v) in taken_back:
                continue
            before, after = doc.text[sentence.start : v.start], doc.text[v.end : sentence.end]
            correction = _correction_of(v, corrections)
            if not _accept(ps, v, before, after, correction is not None):
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
            attribute, context = _attribute(ps, doc, v, clauses, people, skip)
            if correction is not None:
                v = _inherit(v, corrections[correction], list(taken_back.values()))
                for w in taken_back.values():
                    if overlaps(
                        [(corrections[correction].wrong.start, corrections[correction].wrong.end)],
                        w.start,
                        w.end,
                    ):
                        wa, wc = _attribute(ps, doc, w, clauses, people, markers)
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
                    changed=_changed(ps, doc, v, clauses, index),
                    project_id=project,
                    kind=ClaimKind.INFERRED if reading.assertion == Assertion.WISH else ClaimKind.STATED,
                    correction=correction,
                )
            )
    return found


def _inherit(v: _Value, c: Correction, taken_back: Sequence[_Value]) -> _Value:
    """A corrected value said without its noun or currency ("1,250 euros a day, correction, 1,150";
    "62 beacons, no, 64") takes them from the words it corrects."""
    wrong = [w for w in taken_back if c.wrong.start <= w.start < c.wrong.end]
    if not wrong or v.kind not in ("number", "count"):
        return v
    w = wrong[-1]
    number = v.norm.split(" ", 1)[0]
    if w.kind == "amount" and v.kind == "number":
        norm = " ".join(x for x in (number, w.currency, w.rate) if x)
        return _Value("amount", v.start, v.end, v.text, norm, currency=w.currency, rate=w.rate)
    if w.kind == "count" and v.kind == "number":
        return _Value("count", v.start, v.end, v.text, f"{number} {w.unit}", unit=w.unit)
    return v


def check_quote(doc: Doc, fact: FactIn) -> bool:
    """The deterministic checker: the quote is verbatim in the raw segments it names."""
    covered = doc.segments[fact.quote.first_segment : fact.quote.first_segment + len(fact.quote.segment_ids)]
    source = QuoteSource([SourceSegment(s.id, s.start, s.end, s.raw_text) for s in covered])
    return source.find(fact.quote.text, min_words=1) is not None
