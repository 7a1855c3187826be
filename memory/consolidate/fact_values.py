"""The values of one sentence that may be facts, and whether each is said as the value of something.

Values (`Value`, offsets in the doc's joined text): dates and times resolved against when the note
was spoken (memory/text/dates.py `fact_dates`; the note's own date in its first sentence is none),
amounts, percentages and counts with their currency, rate and the noun counted
(memory/text/numbers.py), people and names (the recording's entities, memory/text/entities.py, and
the parse's proper nouns), and whether something is in or out of a scope or phase. `accept_value`
says whether the sentence makes a value the value of something: by the parse's roles ("my
contact is ...", "... owns the data migration", "going with ...") or, without one, by the words
before it; never an old value ("switching from ..."), a change by an amount ("cut by 10,000") or a
part of something ("two of the ..."). memory/consolidate/facts.py makes facts of the values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.text.dates import MONTHS, WEEKDAYS, DateResolver, fact_dates
from memory.text.fact_parse import OWNER_PHRASES, ParsedSentence, counted_noun
from memory.text.numbers import find_quantities, word_list
from memory.text.relevance import STOPWORDS
from memory.text.said_values import NUMBER_WORDS, Entity
from memory.text.stems import stem

if TYPE_CHECKING:
    from spacy.tokens import Token

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
# Where a thing comes from is who supplies it: "comes from Brewhold", "we buy the cups from Corvane".
_SOURCE_VERBS = frozenset(word_list("come buy order source get rent lease hire import"))
_SUPPLY_VERBS = frozenset(word_list("supply provide make deliver manufacture print build host run"))
_NOT_NAME_ENTS = frozenset(
    {"GPE", "LOC", "FAC", "DATE", "TIME", "NORP", "CARDINAL", "ORDINAL", "MONEY", "QUANTITY"}
)
INCREMENT = frozenset({"new", "more", "extra", "additional", "further", "another", "other"})
NOT_CONTEXT = frozenset(
    list(WEEKDAYS)
    + list(MONTHS)
    + list(NUMBER_WORDS)
    + word_list(
        "um uh okay right actually basically really now new just also still the so well yeah äh ähm also"
    )
)
HEADER_SENTENCES = 1  # the note's own date said in its first sentence dates the note, it is no fact


def overlaps(ranges: Sequence[tuple[int, int]], a: int, b: int) -> bool:
    return any(a < y and b > x for x, y in ranges)


@dataclass
class Value:
    kind: str  # date | time | amount | count | number | percent | person | name | status
    start: int  # doc offsets
    end: int
    text: str
    norm: str
    unit: str = ""  # counts: the noun counted
    currency: str = ""
    rate: str = ""
    grain: str = ""
    entity: str = ""  # names: person | organisation | technology | name


# "on Friday at nine", "the 3rd, from half ten": the words between a date and its time ("on
# Wednesday, Friday my mistake, at half nine" gives Friday, not Wednesday, its time)
MAX_WORDS_BEFORE_TIME = 2


def date_values(
    ps: ParsedSentence, resolver: DateResolver, own_date: str, times: list[tuple[int, int]] | None = None
) -> list[Value]:
    """The sentence's dates (with the time said right after each); `times` gets the doc spans of
    every time of day said, so that no other reader takes "half nine" for a number."""
    s = ps.sentence
    found = fact_dates(s.text, resolver, ps.language)
    if times is not None:
        times += [(s.start + t.start, s.start + t.end) for t in found if t.kind == "time"]
    out: list[Value] = []
    for e in found:
        if e.kind != "date":
            continue
        start, end, text, norm = s.start + e.start, s.start + e.end, e.text, e.value
        for t in found:  # a date takes the time said right after it, with nothing else between
            if (
                t.kind == "time"
                and 0 <= t.start - e.end <= 30
                and len(s.text[e.end : t.start].split()) <= MAX_WORDS_BEFORE_TIME
                and not any(d.kind == "date" and e.end <= d.start < t.start for d in found)
            ):
                end, text, norm = s.start + t.end, s.text[e.start : t.end], f"{e.value}T{t.value}"
                break
        out.append(Value("date", start, end, text, norm, grain=e.grain))
    for t in [] if out else found:  # a time of day said without a day: "music stops at eleven at night"
        if t.kind == "time":
            out.append(Value("time", s.start + t.start, s.start + t.end, t.text, t.value, grain="time"))
    header = s.number < HEADER_SENTENCES  # "Monday the 15th of June, notes from ...": the note's own date
    return [
        v
        for v in out
        if v.grain in ("day", "week", "month", "quarter", "time") and not (header and v.norm[:10] == own_date)
    ]


def _unit_by_rules(text: str, end: int, language: str) -> str:
    if language == "de":
        m = _GERMAN_NOUN_AFTER.match(text, end)
        return stem(m.group("w").lower(), "de") if m else ""
    m = _ENGLISH_NOUN_AFTER.match(text, end)
    return stem(m.group("w").lower()) if m and m.group("w").lower() not in STOPWORDS else ""


def quantity_values(ps: ParsedSentence, taken: list[tuple[int, int]]) -> list[Value]:
    s = ps.sentence
    out: list[Value] = []
    for q in find_quantities(s.text, ps.language):
        start, end = s.start + q.start, s.start + q.end
        if overlaps(taken, start, end) or (q.words and q.value < 2 and not q.currency):
            continue
        if q.percent:
            out.append(Value("percent", start, end, q.text, q.norm()))
            continue
        if q.currency:
            out.append(Value("amount", start, end, q.text, q.norm(), currency=q.currency, rate=q.rate))
            continue
        unit, increment = "", False
        if ps.tokens is not None:
            anchor = ps.anchor(start, end)
            noun = (
                counted_noun(anchor, {t.i for t in ps.tokens_in(start, end)}) if anchor is not None else None
            )
            if noun is not None:
                unit = stem(noun.lemma_.lower())
                # "two new customers" came in; "the goal is 450 new donors" is what the goal is
                increment = noun.dep_ != "attr" and any(
                    c.dep_ == "amod" and c.lower_ in INCREMENT for c in noun.children
                )
        else:
            unit = _unit_by_rules(s.text, q.end, ps.language)
        if increment:
            continue  # "two new customers": an increment, not how many there are
        if unit:
            norm = f"{q.value:.10g} {unit}" + (f" {q.rate}" if q.rate else "")
            out.append(Value("count", start, end, q.text, norm, unit=unit, rate=q.rate))
        else:
            out.append(
                Value("number", start, end, q.text, f"{q.value:.10g}" + (f" {q.rate}" if q.rate else ""))
            )
    return out


def name_values(ps: ParsedSentence, entities: Sequence[Entity], taken: list[tuple[int, int]]) -> list[Value]:
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
            Value("person" if e.kind == "person" else "name", e.start, e.end, e.text, e.value, entity=e.kind)
        )
    if ps.tokens is None:
        return out
    covered = taken + [(v.start, v.end) for v in out]
    for t in ps.tokens:
        # a proper noun, or a capitalised word inside the sentence the small model mis-tagged
        # ("going with Campusly": ADV)
        capitalised = t.i > 0 and t.text[:1].isupper() and t.is_alpha and t.lower_ not in NOT_CONTEXT
        if not (t.pos_ == "PROPN" or (capitalised and t.pos_ in ("NOUN", "ADV", "ADJ", "VERB", "X"))):
            continue
        if sum(ch.isalpha() for ch in t.text) < 2:
            continue  # "neither am I.": the model's proper noun is a pronoun with its full stop
        if t.dep_ in ("compound", "flat") or (
            t.ent_type_ in _NOT_NAME_ENTS - {"GPE", "LOC", "FAC"} and not _misread_group(t)
        ):
            continue
        run = [c for c in t.children if c.dep_ in ("compound", "flat") and c.pos_ == "PROPN" and c.i < t.i]
        first = min([t, *run], key=lambda x: x.i)
        start, end = s.start + first.idx, s.start + t.idx + len(t.text)
        if overlaps(covered, start, end) or not t.text[:1].isupper() or t.i == 0:
            continue
        kind = "person" if t.ent_type_ == "PERSON" else "name"
        text = s.text[first.idx : t.idx + len(t.text)]
        out.append(Value(kind, start, end, text, " ".join(text.lower().split()), entity=""))
    return out


def _misread_group(t: Token) -> bool:
    """A singular proper noun the small model files as a nationality or group (NORP): an invented
    firm's name ("went with Fenwright"); a people or a creed is an adjective ("the Danish
    retailer") or a plural ("the Germans")."""
    return t.ent_type_ == "NORP" and t.tag_ == "NNP"


def _takes_charge(verb: Token) -> bool:
    """The verb takes charge of something with its particle or preposition (OWNER_PHRASES:
    "picked up the supplier onboarding", "looking after the depot budgets"), and says what."""
    lemma = verb.lemma_.lower()
    for c in verb.children:
        if (lemma, c.lower_) not in OWNER_PHRASES:
            continue
        if c.dep_ == "prt" and any(d.dep_ == "dobj" for d in verb.children):
            return True
        if c.dep_ == "prep" and any(d.dep_ == "pobj" for d in c.children):
            return True
    return False


def _role_accepts(ps: ParsedSentence, v: Value) -> bool | None:
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
        if head.lower_ == "by" and head.dep_ == "agent" and verb.lemma_.lower() in _SUPPLY_VERBS:
            return True  # "the tills are supplied by Paydeck"
        if head.lower_ in ("in", "on", "into") and verb.lemma_.lower() in _KEEP_VERBS:
            return True  # "we keep the scripts in Contentful", "hosted in Germany"
    if anchor.dep_ == "appos" and head.dep_ in ("nsubj", "nsubjpass"):  # "Their head of IT, X, is leading"
        anchor, head = head, head.head
    if (
        anchor.dep_ == "nsubj"
        and head.lemma_.lower() == "be"
        and any(
            c.dep_ == "attr" and c.pos_ == "NOUN" and any(d.lower_ == "the" for d in c.children)
            for c in head.children
        )
    ):
        return True  # "Brightlock are now the front-runner": the one, not a description ("a firm")
    if anchor.dep_ == "nsubj" and v.kind == "person":
        if head.lemma_.lower() == "be" and any(c.dep_ == "attr" and c.pos_ == "NOUN" for c in head.children):
            return True  # "Declan Furey is the brand manager"
        # "X owns the data migration", "X has agreed to lead the campaign"
        verbs = [head, *(c for c in head.children if c.dep_ == "xcomp" and c.pos_ == "VERB")]
        return any(
            (verb.lemma_.lower() in _OWNER_VERBS and any(c.dep_ == "dobj" for c in verb.children))
            or _takes_over(verb)
            or _takes_charge(verb)
            for verb in verbs
        )
    return False


def _takes_over(verb: Token) -> bool:
    """ "… and Jonas Pike takes over": succeeding to whatever the sentence says someone leaves."""
    return verb.lemma_.lower() == "take" and any(
        c.dep_ == "prt" and c.lower_ == "over" for c in verb.children
    )


def _sourced_from(ps: ParsedSentence, v: Value) -> bool:
    """ "comes from Brewhold", "we buy the cups from Corvane": where a thing comes from (a verb of
    sourcing), not what is left ("switching from Textwell"), not a place ("I came from Leeds"), and
    "come" only of a thing, not "Tomasz came from a hotel kitchen"."""
    anchor = ps.anchor(v.start, v.end) if ps.tokens is not None else None
    if anchor is None or anchor.dep_ != "pobj" or anchor.head.lower_ != "from":
        return False
    verb = next((a for a in anchor.head.ancestors if a.pos_ in ("VERB", "AUX")), anchor.head.head)
    lemma = verb.lemma_.lower()
    if lemma not in _SOURCE_VERBS or anchor.ent_type_ in ("GPE", "LOC", "FAC"):
        return False
    return lemma != "come" or any(c.dep_ == "nsubj" and c.pos_ == "NOUN" for c in verb.children)


def accept_value(ps: ParsedSentence, v: Value, before: str, after: str, corrected: bool) -> bool:
    if _NEGATED_BEFORE.search(before):
        return False
    if v.kind in ("amount", "count", "number", "percent") and _DELTA_BEFORE.search(before):
        return (
            False  # "cut by 10,000", "another 90,000", "noch mal 5.000": how much it changed, not what it is
        )
    if corrected and v.kind in ("count", "number"):
        return True
    if v.kind in ("date", "time", "amount", "percent", "status"):
        return True
    if v.kind == "count":
        return not _PARTIAL_AFTER.match(after)
    if v.kind == "number":
        if _PARTIAL_AFTER.match(after):
            return False
        anchor = ps.anchor(v.start, v.end) if ps.tokens is not None else None
        if anchor is not None and (
            anchor.dep_ in ("dobj", "attr", "oprd", "acomp")
            or (anchor.dep_ == "pobj" and anchor.head.lower_ in ("to", "at", "of", "for", "around", "about"))
        ):
            return True  # the object or complement of its clause: "they want four", "it's now six"
        return bool(_AS_VALUE_BEFORE.search(before))
    if _sourced_from(ps, v):
        return True  # "their coffee comes from Brewhold Roasters": who supplies it
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


def status_values(ps: ParsedSentence) -> list[Value]:
    """Whether something is in or out of a scope or phase: "the parent app is out of scope for phase
    one", "they want the parent app in phase one", "X ist nicht im Scope". The value is "in" or
    "out"; its unit is the thing (so only statuses of the same thing are compared)."""
    s = ps.sentence
    out: list[Value] = []
    if ps.tokens is None:
        if ps.language != "de":
            return out
        for m in _GERMAN_STATUS.finditer(s.text):
            polarity = "out" if (m.group("neg") or m.group("out")) else "in"
            said = stem(m.group("x").split()[-1].lower(), "de")
            start, end = s.start + m.start("v"), s.start + m.end("v")
            out.append(Value("status", start, end, m.group("v"), f"{polarity} {said}", unit=said))
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
            Value(
                "status", start, end, s.text[start - s.start : end - s.start], f"{polarity} {unit}", unit=unit
            )
        )
    return out
