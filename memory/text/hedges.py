"""What a sentence asserts about a value in it: stated, wished, or only tentative.

A value is **tentative** (never a stated fact) when it is said under a condition ("if they
approve", "wenn", "falls"), as a question, second-hand or half seriously ("apparently", "Per
mentioned", "half joking", "angedeutet"; a document in its own clause: "the email said forty", not
"Gráinne's email came in, the budget is 240,000"), with a number qualified as being for
something else ("..., but that's only for test and staging", "but that was a much bigger site") or
said of another party's comparable thing ("got a 250,000 grant for something similar"), or, read
from spaCy's parse of its clause (the path from the value to its clause's head, and the verb a
clause is embedded under): under a modal of possibility ("would", "could", "might", "may",
"should", "'d"), a hedging word ("maybe", "probably", "perhaps"; "tentative", "provisional",
"likely" on what it is), a verb or noun of thinking or of ideas ("I think", "toying with the
idea", "considering", "seems"), or a negation ("not", "n't", "never"; not the "not" of a contrast
after the value: "465 guests, not the number from the kickoff"). It is a **wish** when its
clause is someone's wanting ("Per wants to move go-live to ...", "Ilse will bis Ende September
..."; "they'd like" is tentative already): kept, but not as stated. German sentences have no
parse: the same cues are read by rules (for the whole sentence; a negation in the value's clause).
A sentence tied to a year before the note's ("back in 2014", "that was 2019": `of_a_past_year`)
tells history, not how things stand: its values are no facts either; so does a clause in the past
tense put at a time gone by ("originally", "last year", "back then", "before the merger", "used
to": `_of_the_past`), unless its verb sets how things stand ("the board approved 95k last year").

A condition or a question covers only part of a spoken sentence, which joins clauses: "Whether
the minister shows is anybody's guess, but the opening is Friday the 19th" asserts the date. By
the parse, a condition covers the clause it opens and the clause it conditions, not one set
against it with "but" (`_conditioned`); a question mark asks the clause that opens as a question
near the end (`question_scope`). Measured on bench/assertion-sentences (`verbatim eval
assertions`, docs/benchmarks.md).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from memory.text.dates import MONTH_PATTERN
from memory.text.fact_parse import CHANGE_LEMMAS, ParsedSentence, governor, parenthetical
from memory.text.numbers import word_list

if TYPE_CHECKING:
    from spacy.tokens import Token


class Assertion(StrEnum):
    STATED = "stated"
    WISH = "wish"
    TENTATIVE = "tentative"


@dataclass(frozen=True)
class Reading:
    assertion: Assertion
    cue: str = ""  # the words that made it so


STATED = Reading(Assertion.STATED)

CONDITIONAL = re.compile(
    r"\b(?:if|unless|whether|in\s+case|provided\s+that|assuming|wenn|falls|ob|sofern|vorausgesetzt)\b", re.I
)
QUESTION = re.compile(r"\?\s*['\"”’)]*\s*$")
SECOND_HAND = re.compile(
    r"\b(?:apparently|reportedly|supposedly|allegedly|rumou?rs?|mentioned|heard|joking|kidding|"
    r"reckons?|hinted|thinking\s+out\s+loud|what-if|"
    r"angeblich|gerücht\w*|erwähnt|angedeutet|scherz\w*|laut\s+gerücht)\b",
    re.I,
)
# What a document says ("the figure in their deck", "the email said forty"): second-hand in its own
# clause; a clause after it says what the speaker now knows ("Gráinne's email came in, the budget
# is 240,000").
DOCUMENT = re.compile(r"\b(?:deck|slide|email|e-mail|article)\b", re.I)
# "..., but that's only for the test environments": the number is for something else, or someone
# else's ("but that's Rathmoy's number").
QUALIFIED = re.compile(
    r"\b(?:but|though|although|aber|allerdings)\s+(?:that|this|it|those|these|das|dies|der|die)"
    r"(?:['’]s|\s+is|\s+was|\s+were|\s+are|\s+ist|\s+war|\s+sind|\s+waren)\s+"
    r"(?:(?:only|just|merely|purely|nur|bloß|lediglich)\b|(?:the|der|die|das)\s+(?:whole|entire|total|"
    r"ganze|gesamte)\b|(?:a|an|ein|eine)\s+(?:\w+\s+)?(?:bigger|smaller|larger|different|other|separate|"
    r"größere\w*|kleinere\w*|andere\w*)\b|(?:for|für|before|vor|excluding|without|ohne|not|nicht)\b|"
    # someone else's: "but that's Rathmoy's number"
    r"(?-i:[A-ZÄÖÜ])[\w-]+['’]s\b)",
    re.I,
)
# A number for another party's comparable thing: not this project's.
COMPARISON = re.compile(
    r"\b(?:(?:something|somewhat|a|an|very)\s+similar|comparable|theirs|ähnliche[snm]?|vergleichbare[snm]?)\b",
    re.I,
)
# An illustration, not a fact: "for instance, go to channel 25", "let's say it's the 3rd".
EXAMPLE = re.compile(
    r"\b(?:for\s+instance|for\s+example|let['’]s\s+say|say\s+we|e\.\s?g\.|zum\s+beispiel|z\.\s?b\.|"
    r"sagen\s+wir|angenommen)",
    re.I,
)
TENTATIVE_MODALS = frozenset({"would", "could", "might", "may", "should", "'d", "’d", "ought"})
HEDGE_ADVERBS = frozenset(
    word_list(
        """
    maybe perhaps possibly probably hopefully presumably potentially conceivably theoretically
    apparently reportedly supposedly allegedly ideally likely unlikely possible potential tentative
    provisional"""
    )
)
TENTATIVE_LEMMAS = frozenset(
    word_list(
        """
    think guess suppose reckon believe assume expect imagine wonder consider toy doubt hope dream
    speculate hint propose suggest idea thought option possibility proposal suggestion scenario
    hypothetical wish-list seem appear float moot tout"""
    )
)
WISH_LEMMAS = frozenset({"want", "wish", "prefer", "like", "keen", "desire"})

_GERMAN_TENTATIVE = re.compile(
    r"\b(?:würde\w*|könnte\w*|dürfte\w*|sollte\w*|müsste\w*|hätte\w*|wäre\w*|vielleicht|wahrscheinlich|"
    r"vermutlich|möglicherweise|eventuell|hoffentlich|ich\s+glaube|ich\s+denke|ich\s+schätze|"
    r"schätzt|meint|idee|überlegt?|nicht|kein\w*|nie)\b",
    re.I,
)
_GERMAN_WISH = re.compile(r"\b(?:will|willst|wollen|wollte\w*|möchte\w*|wünsch\w*|hätte\s+gern)\b", re.I)
_ENGLISH_TENTATIVE = re.compile(
    r"\b(?:would|could|might|may|should|maybe|perhaps|possibly|probably|hopefully|i\s+think|i\s+guess|"
    r"i\s+suppose|not\s+sure|not|never|n['’]t)\b|\w['’]d\b",
    re.I,
)
_ENGLISH_WISH = re.compile(r"\b(?:wants?|wanted|wanting|wish(?:es)?|prefers?)\b", re.I)


def sentence_hedges(text: str) -> list[tuple[int, int, str]]:
    """(start, end, cue) ranges of a sentence (offsets in `text`) whose values are tentative, whatever
    the parse says: all of it for a condition (`read_value` narrows it by the parse), the part a
    closing question mark asks (`question_scope`), from a second-hand cue to the end, and
    up to a qualification ("but that's only ..."); all of it for a comparison with something else
    ("the centre down the coast got 250,000 for something similar") and for an illustration ("for
    instance", "let's say")."""
    out: list[tuple[int, int, str]] = []
    if m := CONDITIONAL.search(text):
        out.append((0, len(text), m.group(0)))
    if (asked := question_scope(text)) is not None:
        out.append((*asked, "?"))
    if m := SECOND_HAND.search(text):
        clause = max((c.end() for c in re.finditer(r"[,;:–—]\s*", text[: m.start()])), default=0)
        out.append((clause, len(text), m.group(0)))
    if m := DOCUMENT.search(text):
        clause = max((c.end() for c in re.finditer(r"[,;:–—]\s+", text[: m.start()])), default=0)
        end = next((c.start() for c in re.finditer(r"[,;:–—]\s", text) if c.start() > m.end()), len(text))
        out.append((clause, end, m.group(0)))
    if m := QUALIFIED.search(text):
        out.append((0, m.start(), m.group(0)))
    if m := COMPARISON.search(text):
        out.append((0, len(text), m.group(0)))
    if m := EXAMPLE.search(text):
        out.append((0, len(text), m.group(0)))
    return out


# A sentence's parts, for where a question starts: clause punctuation and spoken trailing-off.
_PART = re.compile(r"[,;:–—]\s*|\s+-\s+|\.\.\.\s*")
_FILLERS = r"(?:(?:and|or|but|so|well|okay|ok|then|now|um|uh|euh|eh|ah|like)\s+)*"
# A question's opening: an auxiliary before its subject, or a wh-word.
_ASKING = re.compile(
    rf"^\W*{_FILLERS}(?:is|are|was|were|am|do|does|did|has|have|had|will|would|can|could|should|shall|may|"
    r"might|must|who|whom|whose|what|which|when|where|why|how|isn['’]t|aren['’]t|wasn['’]t|don['’]t|"
    r"doesn['’]t|didn['’]t|won['’]t|can['’]t|haven['’]t|hasn['’]t)\b",
    re.I,
)
_ALTERNATIVE = re.compile(r"^\W*or\b", re.I)
# A question tag that asks about the clause before it: "…, is it?", "…, didn't they?".
_TAG_QUESTION = re.compile(
    r"^\W*(?:is|are|was|were|do|does|did|has|have|had|will|would|can|could|should)(?:n['’]t)?\s+"
    r"(?:it|he|she|they|we|you|i|that|there)\W*$",
    re.I,
)
SHORT_PART = 2  # words: "…, no?", "…, tá?" confirm the statement; "what, nine people?" asks its own
ASKING_REACH = 2  # a question mark belongs to the last clause or the one before, not to one far back


def question_scope(text: str) -> tuple[int, int] | None:
    """The part of a sentence that a closing question mark asks (offsets in `text`), or None. The
    question is the clause that opens as one, among the last two ("…, validated this morning —
    will the owners follow?" asks only whether they follow; "…, or sixty?" continues the question
    before it; "…, is it?" asks the whole); without one, a short last part asks only itself
    ("…, no?", "…, what, nine people?"), and a long one the whole sentence."""
    if not QUESTION.search(text):
        return None
    bounds = [0, *(m.end() for m in _PART.finditer(text) if m.end() < len(text))]
    parts = [x for x, y in zip(bounds, [*bounds[1:], len(text)], strict=True) if text[x:y].strip()]
    reach = ASKING_REACH
    for i, x in enumerate(reversed(parts)):
        if i >= reach:
            break
        part = text[x:]
        if _ALTERNATIVE.match(part):
            reach += 1  # "or sixty?": the question goes on from the clause before
            continue
        if _ASKING.match(part):
            return (0, len(text)) if _TAG_QUESTION.match(part) else (x, len(text))
    last = parts[-1] if parts else 0
    if len(parts) > 1 and len(text[last:].split()) <= SHORT_PART:
        return last, len(text)
    return 0, len(text)


# A year gone by, said as when something happened ("back in 2014", "that was 2019", "im Jahr 2019"):
# what the sentence says with it is history, not how things stand. Not a year as a boundary ("the
# records from before 2020 stay"), and not when the sentence also says how things stand now.
PAST_YEAR = re.compile(
    r"\b(?:back\s+in|in|during|that\s+was|(?:it|this)\s+was\s+in|im\s+jahr|damals,?\s+(?:im\s+jahr\s+)?)\s+"
    # a month may come first: "in October 2025", "back in early March 2024"
    rf"(?:(?:early|late|mid|the\s+end\s+of|anfang|ende|mitte)\s+)?(?:(?:{MONTH_PATTERN})\s+)?"
    r"(?P<year>(?:19|20)\d\d)\b",
    re.I,
)
NOW = re.compile(
    r"\b(?:now|currently|this\s+year|today|at\s+the\s+moment|jetzt|aktuell|dieses\s+jahr)\b", re.I
)


def of_a_past_year(text: str, year: int) -> str:
    """The words that tie the sentence to a year before `year` (the note's), when they do ("back in
    2014"); "" otherwise."""
    if NOW.search(text):
        return ""
    for m in PAST_YEAR.finditer(text):
        if int(m.group("year")) < year:
            return m.group(0)
    return ""


def _clause_of(text: str, at: int) -> tuple[int, int]:
    starts = [0, *(m.end() for m in re.finditer(r"[,;:–—]\s*", text))]
    a = max(s for s in starts if s <= at)
    b = min((m.start() for m in re.finditer(r"[,;:–—]", text) if m.start() >= at), default=len(text))
    return a, b


def read_value(
    sentence: ParsedSentence,
    start: int,
    end: int,
    *,
    negation_is_value: bool = False,
    taken_back: Sequence[tuple[int, int]] = (),
) -> Reading:
    """How the sentence asserts the value at doc offsets [start, end). `negation_is_value`: a "not"
    is part of the value ("the app is not in scope"), not a hedge. `taken_back`: doc ranges a
    self-correction takes back, its marker included ("the 6th of June, no wait, "): their words
    are not cues ("no wait" is a repair, not a negation)."""
    text = sentence.sentence.text
    offset = sentence.sentence.start
    if taken_back:  # the words meant: taken-back words and markers read as blanks
        chars = list(text)
        for x, y in taken_back:
            for i in range(max(0, x - offset), min(len(chars), y - offset)):
                chars[i] = " "
        text = "".join(chars)
    a, b = start - offset, end - offset

    def counts(t: Token) -> bool:
        return not any(x <= offset + t.idx < y for x, y in taken_back)

    anchor = sentence.anchor(start, end) if sentence.tokens is not None else None
    for x, y, cue in sentence_hedges(text):
        if x <= a and b <= y:
            if anchor is not None and CONDITIONAL.fullmatch(cue) and not _conditioned(anchor):
                continue  # the condition is said of another clause: the parse gives its scope
            return Reading(Assertion.TENTATIVE, cue)
    if sentence.tokens is None:
        return _read_by_rules(text, a, b, sentence.language, negation_is_value)
    if anchor is None:
        return _read_by_rules(text, a, b, "en")
    path = _before_contrast([t for t in sentence.path(anchor) if counts(t) or t is anchor])
    above = governor(path)
    if above is not None and not counts(above):
        above = None
    if above is not None and parenthetical(above, path[-1]):
        if above.lemma_.lower() in TENTATIVE_LEMMAS:
            return Reading(Assertion.TENTATIVE, above.text)  # "..., I think"
        above = None
    embedding = [above] if above is not None else []
    while embedding and embedding[-1].dep_ == "xcomp" and embedding[-1].head.i != embedding[-1].i:
        # a to-infinitive belongs to the clause above: "Moira would love [to get [it down to 30 %]]"
        embedding.append(embedding[-1].head)
    if (past := _of_the_past(path[-1])) and not NOW.search(text):
        return Reading(Assertion.TENTATIVE, past)  # "the old system cost sixty grand a year, back then"
    wish = ""
    for t in path + embedding:
        lemma = t.lemma_.lower()
        if lemma in TENTATIVE_LEMMAS:
            return Reading(Assertion.TENTATIVE, t.text)
        if lemma in WISH_LEMMAS and t.pos_ in ("VERB", "ADJ"):
            wish = wish or t.text
        for child in t.children:
            if not counts(child):
                continue
            word = child.lower_
            if (
                child.dep_ in ("aux", "auxpass")
                and child.tag_ == "MD"
                and word in TENTATIVE_MODALS
                and not (word in ("'d", "’d") and _had_done(t))  # "we'd agreed 400k": had, not would
            ):
                return Reading(Assertion.TENTATIVE, child.text)
            if (
                (child.dep_ == "neg" or (child.dep_ == "det" and word == "no"))
                and not negation_is_value
                and not _negates_contrast(child, t)
                and not _sets_against(child, anchor)
            ):
                return Reading(Assertion.TENTATIVE, child.text)
            if child.dep_ in ("advmod", "amod", "acomp") and child.lemma_.lower() in HEDGE_ADVERBS:
                return Reading(Assertion.TENTATIVE, child.text)
            if child.dep_ in ("nsubj", "nsubjpass"):  # "the idea is ...", "the tentative date is ..."
                if child.lemma_.lower() in TENTATIVE_LEMMAS:
                    return Reading(Assertion.TENTATIVE, child.text)
                for modifier in child.children:
                    if modifier.dep_ == "amod" and modifier.lemma_.lower() in HEDGE_ADVERBS:
                        return Reading(Assertion.TENTATIVE, modifier.text)
    if wish:
        return Reading(Assertion.WISH, wish)
    return STATED


# One-word conditions the parse can scope; "in case" and the like keep the whole sentence.
_CONDITION_WORDS = frozenset({"if", "unless", "whether", "assuming", "provided", "providing"})
_CONTRAST = frozenset({"but", "though", "although", "however"})


def _conditioned(anchor: Token) -> bool:
    """Whether a condition of the sentence is said of the value's clause, by spaCy's parse: the
    clause it opens ("if the Catalyst money comes through"), and, for a condition on another
    clause (advcl: "If it rains we move into the hall"), that clause, but not what is set against
    it ("..., but the date is the 17th of June"). "Whether" and "if" as a question someone asks or
    does not know the answer to ("I don't know whether they'll fill it") open only their own
    clause, and "even if" concedes: it conditions nothing else."""
    cues = [t for t in anchor.doc if t.lower_ in _CONDITION_WORDS]
    if not cues:
        return True  # a cue of several words ("in case"): the whole sentence, as before
    for cue in cues:
        clause = cue.head
        if clause.i in (cue.i, anchor.i) or clause.is_ancestor(anchor):
            return True
        conceded = cue.i > 0 and anchor.doc[cue.i - 1].lower_ == "even"
        if cue.lower_ == "whether" or conceded or clause.dep_ != "advcl":
            continue
        head = clause.head
        if head.i == anchor.i or (head.is_ancestor(anchor) and not _contrasted(anchor, head)):
            return True
    return False


def _contrasted(token: Token, top: Token) -> bool:
    """Whether the way up from `token` to `top` passes into a clause set against the one above
    it ("…, but the kick-off is Tuesday at ten") or beside it (parataxis)."""
    t = token
    while t.i != top.i and t.head.i != t.i:
        if t.dep_ == "parataxis" or (t.dep_ == "conj" and _contrast_between(t)):
            return True
        t = t.head
    return False


def _contrast_between(conjunct: Token) -> bool:
    head = conjunct.head
    return any(
        c.dep_ in ("cc", "mark", "advmod") and c.lower_ in _CONTRAST
        for c in head.children
        if c.i < conjunct.i
    ) or any(c.lower_ in _CONTRAST and c.i < conjunct.i for c in conjunct.children)


def _before_contrast(path: list[Token]) -> list[Token]:
    """The value's way up to its clause's head, stopped where it passes into a clause set against
    another ("Don't know how he'll get on, but the new lead is Travis": the "n't" is the other
    clause's)."""
    for i, t in enumerate(path[:-1]):
        if t.dep_ == "conj" and _contrast_between(t):
            return path[: i + 1]
    return path


_PAST_ADVERBS = frozenset({"originally", "previously", "formerly", "initially"})
_LONG_AGO = frozenset({"year", "time", "round", "season", "cycle", "decade"})
# Verbs that set how things stand: said in the past, what they set still holds.
_DECIDING = CHANGE_LEMMAS | frozenset(
    word_list(
        "agree sign confirm decide set book award appoint hire choose pick select settle fix lock approve"
    )
)


def _of_the_past(verb: Token) -> str:
    """The words that put a clause said in the past tense at a time gone by ("last year", "back
    then", "originally", "before the reorganisation", "used to"), when they do: what it says is
    history, not how things stand. "" otherwise."""
    past = verb.tag_ == "VBD" or any(c.dep_ in ("aux", "auxpass") and c.tag_ == "VBD" for c in verb.children)
    if verb.lemma_ == "use" and any(c.dep_ == "xcomp" for c in verb.children):
        return verb.text  # "we used to pay forty"
    if not past or verb.lemma_.lower() in _DECIDING:
        return ""  # "the board approved 95k last year": a decision that still stands
    for c in verb.children:
        word = c.lower_
        if c.dep_ == "advmod" and word in _PAST_ADVERBS:
            return c.text
        if c.lemma_.lower() in _LONG_AGO and any(d.lower_ == "last" for d in c.children):
            return f"last {c.text}"  # "last year", "last time"; not "last week", when things were set
        if c.dep_ == "advmod" and word == "back" and any(d.lower_ in ("then", "day") for d in c.subtree):
            return "back then"
        if c.dep_ == "prep" and word == "before" and any(d.dep_ == "pobj" for d in c.children):
            return "before"
    return ""


def _sets_against(neg: Token, value: Token) -> bool:
    """A "not" after the value and before a noun phrase names what goes, whatever the parse hangs
    it on: "thirty-two seats, not a seat more", "it's Hudson Ledger now, not the old crowd"."""
    after = neg.doc[neg.i + 1] if neg.i + 1 < len(neg.doc) else None
    return neg.i > value.i and after is not None and after.pos_ in ("DET", "NUM", "PROPN")


def _negates_contrast(neg: Token, head: Token) -> bool:
    """A "not" after its noun and before an apposition or conjunct of it negates that one: "465
    guests, not the number from the kickoff" states 465 and sets it against what goes."""
    return neg.i > head.i and any(
        c.dep_ in ("appos", "conj", "npadvmod") and c.i > neg.i for c in head.children
    )


def _read_by_rules(text: str, a: int, b: int, language: str, negation_is_value: bool = False) -> Reading:
    if language == "de":
        x, y = _clause_of(text, a)
        for m in _GERMAN_TENTATIVE.finditer(text):
            negation = re.fullmatch(r"(?i)nicht|kein\w*|nie", m.group(0))
            if negation and negation_is_value:
                continue
            if not negation or x <= m.start() < y:  # a negation counts in the value's own clause
                return Reading(Assertion.TENTATIVE, m.group(0))
        if wished := _GERMAN_WISH.search(text[x:y]):
            return Reading(Assertion.WISH, wished.group(0))
        return STATED
    x, y = _clause_of(text, a)
    if hedge := _ENGLISH_TENTATIVE.search(text[x:y]):
        return Reading(Assertion.TENTATIVE, hedge.group(0))
    if wished := _ENGLISH_WISH.search(text[x:y]):
        return Reading(Assertion.WISH, wished.group(0))
    return STATED


def _had_done(t: Token) -> bool:
    """ "We'd agreed the budget at 400,000": "'d" before a past participle is "had"; "we'd have
    agreed" (with "have") is "would"."""
    return t.tag_ == "VBN" and not any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in t.children)
