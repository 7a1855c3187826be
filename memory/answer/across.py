"""Questions asked across projects ("which other client…", "have I solved this before?") and the
passages that answer them, one per project.

A consultant's notes are filed by client, and the questions that matter most often join two of
them: the same person met on two engagements, a problem solved at one client and now at another.
Ranking all projects together lets the best project take every place, so such a question is
answered from one project only. Here:

- `asks_across_projects` reads the question's grammar (spaCy's parse): a word for an engagement
  (project, client, customer…) that is quantified beyond the one at hand ("other", "another",
  "more than one", "any of my", "both", or counted as two or more: "two clients at once"), or
  the speaker's own past experience asked in the perfect ("have I … before / ever / elsewhere"),
  or spanned by a preposition ("across my projects", "between clients"), or the speaker's own
  calendar clashing (`asks_about_clashes`: "any scheduling conflicts in June?", "have I
  double-booked myself?": one person's diary holds every project).
  It looks at roles in the sentence, not at phrasings: tests/unit/test_across.py checks it on
  phrasings that are in no development set.
- `passages_across` (after the relevance gate): a question that spans projects names things that
  live in different projects, so a name is looked for in every project the passages come from, not
  only the passage's own; and when the relevant passages all come from one project, the best
  passage of another project becomes relevant when it says one of the question's names itself, or
  consolidation connected it to a relevant passage (the thing the two projects share).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

from memory.answer.context import ContextPassage
from memory.search.asked_dates import calendar_mentions
from memory.search.connected import links_from_recordings
from memory.store.store import Store
from memory.text import nlp
from memory.text.numbers import find_quantities
from memory.text.relevance import QuestionTerms, said_stems

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

# What a consultant's work is filed under (the nouns a question quantifies to reach other projects).
_ENGAGEMENT_TEXT = """
    project client customer engagement account company firm organisation organization job assignment
    mandate contract"""
ENGAGEMENT_NOUNS = frozenset(_ENGAGEMENT_TEXT.split())
# Determiners and adjectives that reach beyond the engagement at hand.
_BEYOND_TEXT = "other another different several multiple both all every each various"
BEYOND = frozenset(_BEYOND_TEXT.split())
# Prepositions that span several engagements ("across my projects", "between clients").
SPANNING = frozenset({"across", "between", "among", "amongst"})
# Words that point at the speaker's past work when asked in the perfect ("have I … before?").
_PAST_WORK_TEXT = "before ever previously elsewhere already"
PAST_WORK = frozenset(_PAST_WORK_TEXT.split())
# "anywhere else", "elsewhere", "where else does she turn up": beyond the place at hand
ANYWHERE_ELSE = re.compile(r"\b(?:(?:any|some|no)?where\s+else|elsewhere)\b", re.I)
_GERMAN_ACROSS = re.compile(
    r"\b(?:anderen?|mehreren|beiden|allen)\s+(?:projekte?n?|kunden|kundinnen|mandanten|mandaten|firmen)\b|"
    r"\b(?:schon\s+(?:mal|einmal)|vorher|früher|woanders|anderswo)\b",
    re.I,
)


def asks_across_projects(question: str) -> bool:
    """Whether the question reaches beyond one project (see the module's docstring)."""
    text = " ".join(question.split())
    if not text:
        return False
    if asks_about_clashes(text):
        return True
    if nlp.language_of(text) == "de":
        return bool(_GERMAN_ACROSS.search(text))
    if ANYWHERE_ELSE.search(text):
        return True
    doc = nlp.parse(text)
    for token in doc:
        if token.pos_ in ("NOUN", "PROPN") and token.lemma_.lower() in ENGAGEMENT_NOUNS:
            modifiers = {c.lower_ for c in token.children}
            if modifiers & BEYOND or "more" in {c.lower_ for c in token.subtree}:
                return True  # "another project", "more than one client", "both clients"
            if token.tag_ in ("NNS", "NNPS") and _counted_beyond_one(token):
                return True  # "two clients at once", "three of my projects"
            if "one" in modifiers and _another_stands_for_it(doc, token):
                return True  # "a problem at one client that could hit another"
            if token.tag_ in ("NNS", "NNPS") and token.dep_ == "pobj" and token.head.lower_ in SPANNING:
                return True  # "across my projects", "between clients"
            # "any of my clients", "which of my projects": a quantifier over the speaker's own
            if token.tag_ in ("NNS", "NNPS") and "my" in modifiers and token.head.lower_ in ("of", "my"):
                return True
            if token.tag_ in ("NNS", "NNPS") and "my" in modifiers and token.dep_ == "pobj":
                head = token.head.head if token.head.lower_ == "of" else None
                if head is not None and head.lower_ in ("any", "which", "all", "some", "none", "one"):
                    return True
    return _asks_past_work(doc)


def _counted_beyond_one(noun: Token) -> bool:
    """Engagements counted as two or more ("two clients", "three projects"): text2num reads the number."""
    for c in noun.children:
        if c.dep_ == "nummod":
            found = find_quantities(" ".join(t.text for t in c.subtree))
            if found and found[0].value >= 2:
                return True
    return False


# Words of things happening at once. A clash of a calendar, not of interests or of people: the
# question must also speak of time (a day or month, a word of the diary) unless it says "double".
_CLASH_LEMMAS = frozenset({"conflict", "clash", "overlap", "collide", "collision", "coincide"})
_CALENDAR_WORDS = frozenset(
    {
        "diary", "calendar", "schedule", "scheduling", "booking", "booked", "book", "appointment",
        "meeting", "day", "date", "week", "month", "time", "slot",
    }
)  # fmt: skip
_GERMAN_CLASH = re.compile(
    r"\b(?:termin(?:konflikt|überschneidung|kollision)\w*|überschneid\w*|kollidier\w*|doppelt\s+(?:gebucht|belegt|verplant))",
    re.I,
)


def asks_about_clashes(question: str) -> bool:
    """Whether the question asks if the speaker's own calendar clashes: "Do I have any scheduling
    conflicts coming up in June?", "Have I double-booked myself?", "Am I due in two places at
    once?", "Anything clashing in my diary on the 19th?" (spaCy's lemmas; not "a conflict of
    interest", not "does Oren clash with Per")."""
    text = " ".join(question.split())
    if not text:
        return False
    if _GERMAN_CLASH.search(text):  # German words only: read in any question, as short ones may
        return True  # not be recognised as German
    if nlp.language_of(text) == "de":
        return False
    doc = nlp.parse(text)
    words = [t.lower_ for t in doc]
    for t in doc:
        if t.lower_ == "double" and any(
            x.lower_.startswith("book") and x.dep_ != "compound" for x in doc[t.i + 1 : t.i + 3]
        ):
            return True  # "double-booked", "double booking" (not "the double booking bug")
        if t.lemma_.lower() == "place" and t.tag_ == "NNS" and any(c.lower_ == "two" for c in t.children):
            return True  # "in two places at once"
    calendar = bool(calendar_mentions(text)) or any(e.label_ in ("DATE", "TIME") for e in doc.ents)
    calendar = calendar or bool(_CALENDAR_WORDS & set(words))
    for t in doc:
        if t.lemma_.lower() not in _CLASH_LEMMAS:
            continue
        of = [c for c in t.children if c.dep_ == "prep" and c.lower_ == "of"]
        if any(o.lower_ == "interest" for p in of for o in p.children):
            continue  # a conflict of interest
        if any(c.dep_ == "prep" and c.lower_ == "with" for c in t.children) and not calendar:
            continue  # one person clashing with another
        if calendar:
            return True
    return False


def _another_stands_for_it(doc: Doc, noun: Token) -> bool:
    """ "… at one client that could hit another (one)", "… at one customer affect the other": a
    word of "other" that stands for a second one of the noun (it heads its own phrase, or is
    "one" itself), after it."""
    for t in doc[noun.i + 1 :]:
        if t.lower_ in ("another", "other") and t.dep_ not in ("det", "amod"):
            return True  # "hit another", "affect the other"
        if (
            t.lower_ == "one"
            and t.pos_ == "NOUN"
            and any(c.lower_ in ("another", "other") for c in t.children)
        ):
            return True  # "hit another one"
    return False


def _asks_past_work(doc: Doc) -> bool:
    """ "Have I … before?", "Did I ever …": the speaker's own earlier work, anywhere."""
    tokens = list(doc)
    subjects_i = any(t.lower_ == "i" and t.dep_ in ("nsubj", "nsubjpass") for t in tokens)
    perfect = any(t.lemma_ == "have" and t.dep_ == "aux" for t in tokens)
    return subjects_i and perfect and any(t.lower_ in PAST_WORK for t in tokens)


def passages_across(
    store: Store,
    passages: Sequence[ContextPassage],
    terms: QuestionTerms,
    *,
    max_rank: int,
) -> list[ContextPassage]:
    """After the gate, for a question asked across projects: a project's best passage among the
    first `max_rank` becomes relevant when it says one of the question's names in its own words,
    or consolidation connected it to a relevant passage, provided that the answer then speaks
    from two projects or more (one project alone does not answer a question about several).
    Returns the passages it made relevant."""
    top = [p for p in passages if p.rank < max_rank and p.segments]
    linked = _linked_segments(store, [p for p in top if p.relevant])
    asked = set(terms.names - terms.descriptive)  # a name that describes ("Dutch") joins nothing
    candidates: dict[int, ContextPassage] = {}
    for p in sorted(top, key=lambda p: (-p.support.coverage, p.rank)):
        if p.relevant or p.project_id in candidates:
            continue
        if asked & said_stems(p.text) or linked & set(p.segment_ids):
            candidates[p.project_id] = p
    held = {p.project_id for p in top if p.relevant}
    if len(held | set(candidates)) < 2:
        return []
    made = [p for project, p in candidates.items() if project not in held]
    for p in made:
        p.relevant = True
    return made


def _linked_segments(store: Store, relevant: Sequence[ContextPassage]) -> set[int]:
    """Segments of other notes that consolidation connected to a segment of these passages."""
    held = {s for p in relevant for s in p.segment_ids}
    links = links_from_recordings(store, list({p.recording_id for p in relevant}))
    return {link.to_segment for link in links if link.segment_id in held}


def one_per_project(passages: Sequence[ContextPassage]) -> list[ContextPassage]:
    """Passages reordered so each project's best comes before any project's second."""
    seen: set[int] = set()
    first: list[ContextPassage] = []
    rest: list[ContextPassage] = []
    for p in passages:
        (rest if p.project_id in seen else first).append(p)
        seen.add(p.project_id)
    return first + rest
