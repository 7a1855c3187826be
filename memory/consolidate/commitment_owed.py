"""Commitments said without a verb of handing over whose subject owes, and what keeps a clause
from promising at all; the rest of an English sentence's commitments are read in
memory/consolidate/commitment_english.py, which builds on this class.

- what someone waits on, expects or will have from whoever's it is ("Dana's waiting on my revised
  cost model", "Nadia's expecting a draft policy from me");
- the passive of handing over in the future with whom it is by, "due to X from Y", whose job the
  thing is ("the shortlist is on me"), and a reply that brings a thing ("get back to me with");
- `blocked`: negated, hedged, conditional, tentative or a wish.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory.consolidate.commitment_parties import (
    ME_WORDS,
    EnglishParties,
    nearest_first,
    on_whom,
    whose,
)
from memory.consolidate.commitment_spans import Predicate, children
from memory.consolidate.commitment_text import (
    CONDITIONS,
    HEDGES,
    ME,
    REPORTING,
    TENTATIVE,
    TENTATIVE_MODALS,
    TRANSFER,
    US,
    WILL,
    Found,
)

if TYPE_CHECKING:
    from spacy.tokens import Token


def had_done(t: Token) -> bool:
    """ "I'd promised Cormac the survey results": "'d" before a past participle is "had", not "would"."""
    return (
        t.tag_ == "VBN"
        and any(c.dep_ == "aux" and c.lower_ in ("'d", "’d") for c in t.children)
        and not any(c.dep_ == "aux" and c.lemma_.lower() == "have" for c in t.children)  # "he'd have sent"
    )


def is_modal(t: Token, words: frozenset[str]) -> bool:
    return any(c.dep_ == "aux" and c.tag_ == "MD" and c.lower_ in words for c in t.children)


class OwedOtherwise(EnglishParties):
    """Owing said other than by the owing party's verb of handing over, and what blocks a promise."""

    def awaited(self, v: Token) -> Found | None:
        """ "Dana's waiting on my revised cost model", "we're still waiting for Priya's access logs",
        "Nadia's expecting a draft policy from me first thing Monday", "she'll have the scoring
        matrix from me EOD Thursday": what someone waits for, expects or will have from whoever's it
        is is owed to them. Not "waiting on the invoice" (from nobody said), nor "waiting for the
        board" (a person, not a thing), nor "the board expects a decision" (from nobody)."""
        lemma = v.lemma_.lower()
        if lemma == "wait" and v.tag_ in ("VBG", "VBZ", "VBP", "VBD"):
            thing = next(
                (o for p in children(v, "prep") if p.lower_ in ("on", "for") for o in children(p, "pobj")),
                None,
            )
        elif (lemma == "expect" and v.tag_ in ("VBG", "VBZ", "VBP")) or (
            lemma == "have" and is_modal(v, WILL)
        ):
            # not "needs" or "wants" X from someone: "Barry needs the file layout from their payroll
            # team" is a dependency, "she wants one person on site from the group" a wish
            thing = next(iter(children(v, "dobj")), None)
        else:
            return None
        waiter = next(iter(nearest_first(children(v, "nsubj"), v)), None)
        if waiter is None or thing is None or thing.pos_ not in ("NOUN", "PROPN") or self._personal(thing):
            return None
        owner = next((c for c in thing.children if c.dep_ == "poss"), None) if lemma == "wait" else None
        if owner is None:  # "waiting on the figures from Priya", "expecting a draft from me"
            back = [
                c for c in v.children if c.dep_ == "advmod" and c.lower_ == "back"
            ]  # "needs it back from me"
            owner = next(
                (
                    o
                    for h in (v, thing, *back)
                    for p in children(h, "prep")
                    if p.lower_ == "from"
                    for o in children(p, "pobj")
                ),
                None,
            )
        if owner is None or owner.lower_ in ("their", "his", "her", "its", "your"):
            return None  # "waiting on their sign-off": whose is not said
        who = (
            ME if owner.lower_ in ("my", "me") else US if owner.lower_ in ("our", "us") else self.party(owner)
        )
        to_whom = self.party(waiter)
        if who == to_whom:
            return None
        given = {t.i for p in children(thing, "prep") if p.lower_ == "from" for t in p.subtree}
        words = [t for t in self._phrase(thing) if t.i != owner.i and t.dep_ != "case" and t.i not in given]
        first = waiter.left_edge.i
        last = max([t.i for t in self._clause(v) if not t.is_punct] or [v.i])
        due = self.due_in(first, last)
        start, end = self.at(self.tokens[first]), self.at(self.tokens[last]) + len(self.tokens[last].text)
        still = any(c.lower_ == "still" for c in v.children)
        return Found(
            "commitment", start, end, who, self.text_of(words), to_whom, due.text if due else None,
            due.date if due else None, "en", still,
        )  # fmt: skip

    def said_otherwise(self, v: Token) -> Found | None:
        """Commitments whose owing party is not the subject of a verb of handing over: the passive of
        handing over, in the future, with whom it is by ("the figures will be sent over to Marguerite
        by me"); "due to" someone "from" someone ("the market sizing is due to Rohan from me on the
        3rd"); whose job the thing is ("the vendor shortlist is on me", "pulling together the summary
        for Rashida is down to me"); and a reply that brings a thing ("Mateus is going to get back to
        me with the licence count", "she'll come back to us with a decision", "I will revert to Mr
        Venkataraman with the estimates", "he'll call me back with the headcount")."""
        lemma = v.lemma_.lower()
        future = is_modal(v, WILL) or (
            v.dep_ == "xcomp" and v.head.lemma_.lower() == "go" and v.head.tag_ == "VBG"
        )
        owner = v.head if v.dep_ == "xcomp" and not is_modal(v, WILL) else v
        near = [
            v,
            *(
                c
                for c in v.children
                if c.dep_ in ("prt", "advmod") and c.lower_ in ("back", "over", "across")
            ),
        ]

        def pobj(heads: list[Token], word: str) -> Token | None:
            return next(
                (o for h in heads for p in h.children if p.lower_ == word for o in children(p, "pobj")), None
            )

        if lemma in TRANSFER and v.tag_ == "VBN" and children(v, "auxpass") and future:
            thing, giver, whom = (
                next(iter(children(v, "nsubjpass")), None),
                pobj(near, "by"),
                pobj(near, "to"),
            )
        elif lemma == "be" and (due := next((c for c in children(v, "acomp") if c.lower_ == "due"), None)):
            thing, giver, whom = (
                next(iter(children(v, "nsubj")), None),
                pobj([due], "from"),
                pobj([due], "to"),
            )
        elif lemma == "be" and (job := on_whom(v)) is not None and not children(v, "xcomp"):
            # "the vendor shortlist is on me", "pulling together the summary for Rashida is down to
            # me", "getting Osvaldo a firm number is my responsibility": the thing, or what is to
            # be done to it, is the subject of "be"
            doing = next((c for c in children(v, "csubj") if c.pos_ == "VERB"), None)
            thing = next(iter(children(doing, "dobj") if doing is not None else []), None) or next(
                iter(children(v, "nsubj")), None
            )
            giver = job
            whom = next(iter(children(doing, "dative")), None) if doing is not None else None
            if whom is None and thing is not None:
                whom = next(
                    (
                        o
                        for p in children(thing, "prep")
                        if p.lower_ == "for"
                        for o in children(p, "pobj")
                        if o.pos_ == "PROPN"
                    ),
                    None,
                )
        elif future and (
            (lemma in ("get", "come", "call") and len(near) > 1 and near[1].lower_ == "back")
            or lemma == "revert"
        ):
            thing = pobj([v], "with")
            giver = next(iter(nearest_first(children(owner, "nsubj"), owner)), None)
            whom = pobj(near, "to") or next((o for o in children(v, "dobj") if o.pos_ == "PRON"), None)
        else:
            return None
        if thing is None or giver is None or thing.pos_ not in ("NOUN", "PROPN") or self._personal(thing):
            return None
        if self.blocked(Predicate(v, owner, "will")):
            return None
        who = whose(giver) if giver.lower_ in ("my", "our") else self.party(giver)
        to_whom = self.party(whom) if whom is not None else None
        if who == to_whom or not (self._named(giver) or giver.lower_ in ("me", "us", "i", "we", "my", "our")):
            return None
        first = min([t.i for t in self._clause(owner) if not t.is_punct] or [v.i])
        last = max([t.i for t in self._clause(owner) if not t.is_punct] or [v.i])
        due_said = self.due_in(first, last)
        if (
            lemma == "be"
            and to_whom is None
            and self.due_in(0, len(self.tokens) - 1) is None
            and giver.lower_ in ME_WORDS | {"my", "our"}
        ):
            return None  # "the decision is on me now": whose it is, owed to nobody by any time
        start, end = self.at(self.tokens[first]), self.at(self.tokens[last]) + len(self.tokens[last].text)
        return Found(
            "commitment", start, end, who, self.thing(thing), to_whom,
            due_said.text if due_said else None, due_said.date if due_said else None, "en", False,
        )  # fmt: skip

    def blocked(self, p: Predicate) -> bool:
        """Negated, hedged, conditional, tentative or a wish: not a commitment."""
        for t in {p.verb, p.owner}:
            for c in t.children:
                if c.dep_ == "neg" or (c.dep_ == "advmod" and c.lemma_.lower() in HEDGES):
                    return True
                if c.dep_ == "advcl" and any(m.lower_ in CONDITIONS for m in children(c, "mark")):
                    return True
                if c.dep_ == "advmod" and c.lower_ == "long" and children(c, "advcl"):
                    return True  # "as long as …", "so long as …": a condition
            if is_modal(t, TENTATIVE_MODALS) and not had_done(t):
                return True
        t = p.owner
        while t.head.i != t.i:
            if any(m.lower_ in CONDITIONS for m in children(t, "mark")):
                return True
            if t.dep_ not in ("ccomp", "xcomp", "conj"):
                break
            t = t.head
            if t.lemma_.lower() in TENTATIVE or (t.lemma_.lower() == "would" and p.kind != "would"):
                return True
            if (
                any(c.dep_ == "neg" for c in t.children)
                and t.lemma_.lower() in REPORTING
                and not _left_open(t, p)
            ):
                return True
        return False


def _left_open(report: Token, p: Predicate) -> bool:
    """ "Tess is going to dig out the volumes for me, she didn't say when": a report said after the
    promise that leaves its time or manner open ("when", "how") does not take the promise back, as
    "she didn't say she'd send it" does."""
    return p.owner.i < report.i and any(c.tag_ == "WRB" for c in report.children)
