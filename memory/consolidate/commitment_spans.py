"""Where a commitment's words are in a parsed English sentence (memory/consolidate/commitment_english.py
reads what they say): the thing owed as its noun phrase (up to a deadline, a recipient or another
clause; "it" as the object named before), the verb's own clause and the quote it makes, the due
date inside it, and who a word names ("to Imogen", "her").
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from memory.consolidate.commitment_text import (
    ACTIONS,
    DEADLINE_WORDS,
    MODIFIERS,
    PERSON_PRONOUNS,
    REPORTING,
    SEPARATE_CLAUSES,
    THING_PRONOUNS,
    THIRD_PERSON,
    WHAT_WORDS,
    Context,
    Due,
)
from memory.text.fact_parse import ParsedSentence

if TYPE_CHECKING:
    from spacy.tokens import Token


def children(t: Token, *deps: str) -> list[Token]:
    return [c for c in t.children if c.dep_ in deps]


@dataclass
class Predicate:
    verb: Token  # the verb whose object is the thing
    owner: Token  # the verb that carries the subject (the same, or "need"/"going"/"promised" above)
    kind: str  # will | would | going | owe | promise | must | on | action | arranged


class SentenceSpans:
    """One parsed English sentence and where a commitment's words are in it."""

    def __init__(self, context: Context, ps: ParsedSentence, dues: list[Due]) -> None:
        self.context, self.ps, self.dues = context, ps, dues
        self.sentence = ps.sentence
        assert ps.tokens is not None
        self.tokens = ps.tokens
        self.actions = bool(ACTIONS.match(self.sentence.text))  # "Actions, send Tobias the plan by Friday"

    def at(self, t: Token) -> int:
        return self.sentence.start + t.idx

    def _addressee(self, t: Token) -> bool:
        """Whom something is sent "to": a person, or any name ("to Imogen", "to Tessera")."""
        return t.pos_ == "PROPN" or self._personal(t)

    def _personal(self, t: Token) -> bool:
        word = t.lower_
        if word in PERSON_PRONOUNS or word in THIRD_PERSON:
            return True
        at = self.at(t)
        return t.pos_ == "PROPN" and (
            t.ent_type_ == "PERSON" or self.context.person_at(at, at + len(t.text)) is not None
        )

    def thing(self, t: Token) -> str:
        """What is owed: the object's noun phrase; for "it", the object named before it, else the
        verb's phrase ("confirm it in writing")."""
        if t.lower_ in THING_PRONOUNS:
            antecedent = self._antecedent(t)
            if antecedent is not None:
                return antecedent
            verb = t.head
            return self.text_of(self._until_stop([w for w in self._clause(verb) if w.i >= verb.i], verb))
        return self.text_of(self._phrase(t))

    def _phrase(self, t: Token) -> list[Token]:
        """The noun phrase of `t`, up to a deadline, a date, a comma or a clause of its own."""
        before = [w for w in t.subtree if w.i < t.i and (w.dep_ in MODIFIERS or w.head.i != t.i)]
        words = before + self._until_stop([w for w in t.subtree if w.i >= t.i], t)
        return words[: WHAT_WORDS + len(before)]

    def _until_stop(self, words: list[Token], first: Token) -> list[Token]:
        """`words` up to a deadline ("by ..."), a date, a recipient ("to Jana"), a comma or a clause."""
        out: list[Token] = []
        for w in words:
            if w.i > first.i and self._stops(w):
                break
            out.append(w)
        return out

    def _in_due(self, w: Token) -> bool:
        return any(d.start <= w.idx < d.end for d in self.dues)

    def _stops(self, w: Token) -> bool:
        if w.dep_ == "prep" and w.lower_ in DEADLINE_WORDS:
            return True
        if w.dep_ == "prep" and any(self._in_due(o) for o in children(w, "pobj")):
            return True  # "on Friday the 27th"
        if w.dep_ == "prep" and w.lower_ == "to" and any(map(self._addressee, children(w, "pobj"))):
            return True
        if (
            w.dep_ == "prep"
            and w.lower_ in ("with", "for", "from")
            and any(o.pos_ == "PROPN" or o.lower_ in ("me", "us") for o in children(w, "pobj"))
        ):
            return True  # "the report with Fergal", "a summary for Marisol", "the deck from Tomasz": who
        if w.dep_ == "prt":
            return True  # "get the findings over to Ines": the verb's particle, read into the thing
        if (
            w.dep_ == "prep"
            and w.lower_ == "in"
            and any(o.lemma_.lower() == "hand" for o in children(w, "pobj"))
        ):
            return True  # "the cost model in Bev's hands"
        return (
            self._in_due(w)
            or w.text in (",", ";", ":", "—", "–")
            or (w.dep_ in SEPARATE_CLAUSES | {"acl"} and w.pos_ in ("VERB", "AUX"))
        )

    def _antecedent(self, pronoun: Token) -> str | None:
        """ "wants to see the agreement ..., and I said I'd get it to her": the object named before,
        in this sentence or, for "them", "these" and "those", the last plural object of the sentence
        before ("Lorna wants reference calls done ... Carys is going to set those up")."""
        before = [
            t
            for t in self.tokens
            if t.i < pronoun.i and t.dep_ in ("dobj", "nsubjpass") and t.pos_ in ("NOUN", "PROPN")
            and not self._personal(t)
        ]  # fmt: skip
        if before:
            return self.text_of(self._phrase(before[-1]))
        if pronoun.lower_ not in ("them", "these", "those") or self.sentence.number == 0:
            return None
        previous = self.context.parsed.sentence(self.context.doc.sentences[self.sentence.number - 1])
        if previous.tokens is None:
            return None
        plural = [t for t in previous.tokens if t.dep_ in ("dobj", "nsubjpass") and t.tag_ in ("NNS", "NNPS")]
        if not plural:
            return None
        words = [
            w
            for w in plural[-1].subtree
            if w.i <= plural[-1].i and (w.dep_ in MODIFIERS or w.i == plural[-1].i)
        ]
        return " ".join(w.text for w in words if w.dep_ != "punct").strip() or None

    # --- where the quote is, and its due date -----------------------------------------------------------
    def _clause(self, v: Token, skip: set[int] | None = None) -> list[Token]:
        """`v`'s own clause: its subtree without the clauses hanging from it."""
        out = {v.i}
        for c in v.children:
            if (c.dep_ in SEPARATE_CLAUSES and c.pos_ in ("VERB", "AUX")) or c.dep_ in ("cc", "mark"):
                continue
            if c.dep_ == "punct" and c.i > v.i and c.text in (",", ";", "—", "–", "-"):
                continue
            out |= {t.i for t in c.subtree}
        ordered = sorted(i for i in out if skip is None or i not in skip)
        return [self.tokens[i] for i in ordered]

    def quote_range(self, p: Predicate, agent: Token | None) -> tuple[int, int]:
        heading = {t.i for t in children(p.verb, "nsubj")} if agent is None else None  # "Actions, ..."
        clause = self._clause(p.verb, skip=heading)
        first = min(agent.left_edge.i if agent is not None else p.verb.i, clause[0].i)
        reporter = p.owner.head if p.owner.dep_ in ("ccomp", "xcomp") else None
        if reporter is not None and reporter.lemma_.lower() in REPORTING:
            subject = next(iter(children(reporter, "nsubj")), None)
            if subject is not None and subject.i < first:
                first = subject.left_edge.i  # "Priya says she'll ...", "I said I'd ..."
        last = max([t.i for t in clause if not t.is_punct] or [p.verb.i])
        while first < last and self.tokens[first].dep_ in ("cc", "punct", "intj", "advmod", "discourse"):
            first += 1
        return first, last

    def due_in(self, first: int, last: int) -> Due | None:
        a, b = self.tokens[first].idx, self.tokens[last].idx + len(self.tokens[last].text)
        inside = [d for d in self.dues if a <= d.start < b]
        deadlines = [d for d in inside if d.text.split()[0].lower() in DEADLINE_WORDS]
        return next(iter(deadlines or inside), None)

    def text_of(self, words: list[Token]) -> str:
        if not words:
            return ""
        a, b = words[0].idx, words[-1].idx + len(words[-1].text)
        return self.sentence.text[a:b].strip(" ,;:")
