"""Questions across projects answered from what consolidation connected: the thing two projects share.

"Have I come across Helga Voss on more than one project?", "Tessera has a new head of
implementation: does that affect my other projects?", "Any scheduling conflicts on 10 September?":
the words that answer are in two projects at once, and consolidation has already found them
(memory/consolidate/connections.py: the same person, organisation, product or regulation, the same
day while being somewhere), each side with its quote and segments. A passage search ranks all
projects together and quotes the best-covering sentence, so such a question was answered from one
side only.

A connection answers a question asked across projects (memory/answer/across.py decides that) when
- the question names the thing it shares ("Helga Voss", "NIS2"): its names, read by spaCy;
- or one side's own words speak to the question as a relevant passage must (the gate's share of the
  question's words, `Gate.min_support`, and every name the question says, around that side);
- or it is a calendar clash on a day or month the question names.
A question across projects that names no shared thing but the kind of thing shared ("Is anybody
working with more than one of my clients?", "a supplier problem at one client that could hit
another?", "competing for the same money?", "do the rules I ran into elsewhere apply?") is
answered by the connections of that kind: a person, an organisation or product, a fund or grant, a
regulation (spaCy's lemmas of the question; `asked_kinds`; "who" alone, a person or an organisation).
Those of the kind come first even when the question's words found others ("does anyone turn up at
more than one of my clients?" is answered by the people two projects share, not by the labour-hire
firm whose side says "when they turn up").
A question about the speaker's own calendar clashing ("any scheduling conflicts in June?", "have I
double-booked myself?": memory/answer/across.py `asks_about_clashes`) is answered by calendar
clashes only: on the days or months it names, else still to come when it looks ahead ("coming
up"), else any.
Dismissed connections never answer; both sides must have been said by the time asked, in projects
asked about. Each side is quoted (stated, cited to its own segments), the reason the two meet is
the connection's own reading (inferred, cited to both).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from memory.answer.across import asks_about_clashes
from memory.answer.answers import Citation, Claim
from memory.consolidate.connection_store import Connection, Side, list_connections
from memory.search.asked_dates import CalendarMention, calendar_mentions, looks_ahead, same_days
from memory.store.store import Store
from memory.text import nlp
from memory.text.quotes import ClaimKind
from memory.text.relevance import QuestionTerms, coverage, said_stems, stems

MAX_CONNECTIONS = 3


def _speaks_to(terms: QuestionTerms, side: Side, min_support: float) -> bool:
    said = said_stems(" ".join([side.quote, side.project.replace("-", " "), side.title]))
    return coverage(terms, said).coverage >= min_support and terms.names - terms.descriptive <= said


def matching_connections(
    store: Store,
    terms: QuestionTerms,
    *,
    min_support: float,
    project_ids: Collection[int] | None = None,
    until: str | None = None,
) -> list[Connection]:
    """The connections that answer the question (see the module's docstring), strongest first."""
    asked_days = calendar_mentions(terms.raw)
    clashes = asks_about_clashes(terms.raw)
    kinds = asked_kinds(terms.raw)
    found, by_kind = [], []
    for c in list_connections(store):
        sides = (c.a, c.b)
        if project_ids is not None and any(s.project_id not in project_ids for s in sides):
            continue
        if until is not None and any(s.spoken_at > until for s in sides):
            continue
        if clashes:
            if c.kind == "calendar_clash" and _on_asked_days(c, asked_days, terms.raw, until):
                found.append(c)
            continue
        names = set(terms.names) & stems(c.shared)
        day = c.kind == "calendar_clash" and any(
            same_days(asked, shared) for asked in asked_days for shared in calendar_mentions(c.shared)
        )
        if names or day or any(_speaks_to(terms, s, min_support) for s in sides):
            found.append(c)
        elif kinds and _is_of(c, kinds):
            by_kind.append(c)
    # A question that says the kind of thing shared ("which supplier …", "anybody …") is answered by
    # connections of that kind first, whatever other connections its words found.
    of_kind = [c for c in found if _is_of(c, kinds)] + by_kind if kinds else []
    return (of_kind or found)[:MAX_CONNECTIONS]


# The words a question says the kind of shared thing with (lemmas), and what each kind takes.
_ASKED_KIND_WORDS = {
    "person": frozenset({"anybody", "anyone", "somebody", "someone", "person", "people", "who"}),
    "organisation": frozenset({"supplier", "vendor", "contractor", "provider", "firm", "company", "supply"}),
    "fund": frozenset({"grant", "fund", "funder", "funding", "money", "programme", "program", "foundation"}),
    "regulation": frozenset({"rule", "regulation", "law", "directive", "requirement", "compliance"}),
}
_MEETING = frozenset({"know", "meet"})
_KINDS_OF = {
    "person": frozenset({"person"}),
    "organisation": frozenset({"organisation", "same_product", "same_work", "name"}),
    "fund": frozenset({"organisation", "name", "same_work"}),
    "regulation": frozenset({"same_regulation", "name"}),
}
_FUND_STEMS = frozenset(stems("fund funds grant grants foundation programme trust"))
_RULE_STEMS = frozenset(stems("regulation directive act law rule code"))


def asked_kinds(question: str) -> set[str]:
    """The kinds of shared thing a question across projects asks about by kind, not by name."""
    if nlp.language_of(question) == "de":
        return set()
    doc = nlp.parse(question)
    lemmas = {t.lemma_.lower() for t in doc} | {t.lower_ for t in doc}
    kinds = {kind for kind, words in _ASKED_KIND_WORDS.items() if words & lemmas}
    if kinds == {"person"} and not (_ASKED_KIND_WORDS["person"] - {"who"}) & lemmas:
        kinds.add("organisation")  # "who is installing …?": a firm answers "who" as a person does
    # "Do I know the stage manager from another job?": knowing or meeting someone asks for a person
    # (not "nobody knows how to merge them")
    if any(
        t.lemma_ in _MEETING and any(c.dep_ == "dobj" and c.pos_ in ("NOUN", "PROPN") for c in t.children)
        for t in doc
    ):
        kinds.add("person")
    return kinds


def _is_of(c: Connection, kinds: set[str]) -> bool:
    said = stems(c.shared)
    for kind in kinds:
        if c.kind not in _KINDS_OF[kind]:
            continue
        if kind == "fund" and not said & _FUND_STEMS:
            continue
        if kind == "regulation" and c.kind == "name" and not said & _RULE_STEMS:
            continue
        return True
    return False


def _on_asked_days(c: Connection, asked: Sequence[CalendarMention], question: str, until: str | None) -> bool:
    """Whether a clash falls on a day or month the question names (by month and day, and year
    where said), or, naming none, is still to come when the question looks ahead."""
    days = [(d.year, d.month, d.day) for d in c.days] or calendar_mentions(c.shared)
    if asked:
        return any(same_days(a, (y, m, d)) for a in asked for y, m, d in days)
    if looks_ahead(question) and until is not None and c.days:
        return max(c.days).isoformat() >= until[:10]
    return True


def connection_claims(connections: Sequence[Connection]) -> list[Claim]:
    """Each connection's two quotes, stated and cited, then why they meet (inferred, cited to both)."""
    claims: list[Claim] = []
    seen: set[tuple[int, ...]] = set()
    for c in connections:
        for side in (c.a, c.b):
            key = tuple(side.segment_ids)
            if key not in seen:
                seen.add(key)
                claims.append(Claim(side.quote, ClaimKind.STATED, [Citation.of(side)], "connection"))
        claims.append(
            Claim(c.rationale, ClaimKind.INFERRED, [Citation.of(c.a), Citation.of(c.b)], "connection")
        )
    return claims
