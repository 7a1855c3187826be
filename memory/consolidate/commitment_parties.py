"""Who owes, what, and to whom in an English sentence, read from spaCy's parse: the subject that
is the one who owes (the nearest before the verb; the one the parse stranded on a second clause),
the party a word names (a pronoun, a person the note named, a reporter), and the thing and its
recipient among the verb's objects, however the small parser hangs them. What makes a clause a
commitment or a delivery is memory/consolidate/commitment_english.py.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from memory.consolidate.commitment_spans import Predicate, SentenceSpans, children
from memory.consolidate.commitment_text import (
    GROUP,
    ME,
    PERSON_PRONOUNS,
    REPORTING,
    THIRD_PERSON,
    TRANSFER,
    US,
)

if TYPE_CHECKING:
    from spacy.tokens import Token


# "have a chat / a word / a look": an act, not a thing handed over
LIGHT_NOUNS = frozenset(
    {"chat", "word", "talk", "look", "go", "think", "call", "conversation", "meeting", "chance"}
)


# Names that are no one a thing can be for: "the budget for March", "the forecast for Q3"
_NOT_WHOM = frozenset({"DATE", "TIME", "ORDINAL", "CARDINAL", "MONEY", "PERCENT", "QUANTITY", "GPE", "LOC"})


def handover(v: Token) -> tuple[Token, Token] | None:
    """(whom, what) "have" hands over: "to X"; "for X" when X is a person (a name or him / her / them);
    "with X" too when a deadline is said with it ("have the report with Fergal before the bank
    holiday", not "have lunch with Bev"); "in X's hands". The thing is the verb's object, or the
    subject of a small clause under it ("have the board paper ready for her"), which the small
    parser also makes of a compound it misreads as a verb ("a cloud spend summary": "spend").
    None when "have" hands nothing over ("have a chat with Bev", "have the budget for the hospital")."""
    if v.lemma_.lower() != "have":
        return None
    things, holders = children(v, "dobj"), [v]
    if not things:
        for clause in children(v, "ccomp"):
            subject = next((s for s in children(clause, "nsubj") if s.pos_ == "NOUN"), None)
            if subject is not None and not children(clause, "aux", "auxpass"):
                things, holders = [*children(clause, "dobj"), subject], [v, clause]
                break
    if not things or any(t.lemma_.lower() in LIGHT_NOUNS or not _noun_like(t) for t in things):
        return None  # "have a chat with", "have something for them": no thing handed over
    deadline = any(p.lower_ in ("by", "before") for h in holders for p in children(h, "prep"))
    # the parse hangs the phrase from the verb or from the thing ("the report to him")
    for p in (p for h in [*holders, *things] for p in children(h, "prep")):
        whom = next(iter(children(p, "pobj")), None)
        if whom is None:
            continue
        person = whom.pos_ == "PROPN" or whom.lower_ in _HANDED_TO_PRONOUNS
        if p.lower_ == "to" or (p.lower_ == "for" and person) or (p.lower_ == "with" and person and deadline):
            return whom, things[0]
        if p.lower_ == "in" and whom.lemma_.lower() == "hand":
            owner = next((c for c in whom.children if c.dep_ == "poss"), None)
            return (owner, things[0]) if owner is not None else None
    return None


_HANDED_TO_PRONOUNS = frozenset({"him", "her", "them"})


def opens_unsaid(owner: Token) -> bool:
    """ "Need to send Leopold the updated Gantt chart", "Got to get the findings over to Ines": a note
    to self that leaves out "I" (the verb of needing opens its sentence and has no subject)."""
    if children(owner, "nsubj", "nsubjpass", "expl", "poss"):
        return False
    return (owner.dep_ == "ROOT" or owner.lower_ == "gon") and _first_said(owner)


def gonna_before(v: Token) -> Token | None:
    """The "gon" of "Rashid's gonna send ..." when the small model read it as a noun: it reads
    "Rashid is gonna" right, but "Rashid's gonna" as a possessive ("Rashid's gon"), with "send"
    hanging from it or above it. spaCy's tokenizer splits only "gonna" into "gon" + "na"."""
    doc = v.doc
    if v.pos_ != "VERB" or v.i < 2 or doc[v.i - 1].lower_ != "na" or doc[v.i - 2].lower_ != "gon":
        return None
    gon = doc[v.i - 2]
    if gon.pos_ == "VERB":
        return None
    # "Rashid's gon": the possessive is who; "Gonna send Thaddeus the roadmap": a note to self
    return gon if any(c.dep_ == "poss" for c in gon.children) or _first_said(gon) else None


def _first_said(t: Token) -> bool:
    """The first word of its sentence, after interjections and "and"/"so"."""
    first = next((w for w in t.sent if not w.is_punct and w.pos_ not in ("INTJ", "CCONJ")), t)
    return first.i == t.i


def _noun_like(t: Token) -> bool:
    """A noun, or a word after an article the small parser tagged a verb ("the site survey")."""
    return t.pos_ in ("NOUN", "PROPN") or bool(children(t, "det"))


def received_from(v: Token, thing: Token | None) -> Token | None:
    """Whom a thing is got from ("get the deck from Tomasz"): getting it is receiving it."""
    holders = [v, *([thing] if thing is not None else [])]
    return next(
        (o for h in holders for p in children(h, "prep") if p.lower_ == "from" for o in children(p, "pobj")),
        None,
    )


ME_WORDS = frozenset({"me", "us"})


def on_whom(be: Token) -> Token | None:
    """Whose job it is, said of "be": "It's on me to ...", "that one's on us", "the shortlist is down
    to me", "it's my job to ...", "... is my responsibility" (the word "me", "us", "my" or "our")."""
    downs = [d for d in be.children if d.dep_ == "advmod" and d.lower_ == "down"]
    on, down = _speaker_under([be], "on"), _speaker_under(downs, "to")
    mine = next(
        (
            c
            for a in children(be, "attr")
            if a.lemma_.lower() in JOB_NOUNS
            for c in a.children
            if c.dep_ == "poss" and c.lower_ in ("my", "our")
        ),
        None,
    )
    return on or down or mine


JOB_NOUNS = frozenset({"job", "responsibility", "task"})


def _speaker_under(heads: list[Token], preposition: str) -> Token | None:
    """ "me" or "us" as the object of `preposition` under one of `heads` ("on me", "down to us")."""
    return next(
        (
            o
            for h in heads
            for p in children(h, "prep")
            if p.lower_ == preposition
            for o in children(p, "pobj")
            if o.lower_ in ME_WORDS
        ),
        None,
    )


def whose(word: Token) -> str:
    return ME if word.lower_ in ("me", "my") else US


class EnglishParties(SentenceSpans):
    """The parties and the thing of a parsed English sentence's predicates."""

    def agent(self, p: Predicate) -> Token | None:
        subjects = (
            nearest_first(children(p.owner, "nsubj"), p.owner)
            or children(p.owner, "poss")
            * (p.owner.lower_ == "gon")  # "Rashid's gonna" read as "Rashid's gon"
            or _stranded_subject(p.owner)
            or children(p.owner.head, "nsubj") * (p.owner.dep_ == "conj")
        )
        if not subjects:
            return None
        s = subjects[0]
        word = s.lower_
        if s.pos_ == "PRON" and word not in PERSON_PRONOUNS and word not in THIRD_PERSON | GROUP:
            return None  # "whoever", "which", "it", "you"
        return s

    def _named(self, t: Token) -> bool:
        """A person or a name (capitalised, or a person the note names), not a common noun."""
        at = self.at(t)
        named = self.context.person_at(at, at + len(t.text)) is not None
        return t.pos_ in ("PRON", "PROPN") or t.is_title or named

    def party(self, t: Token) -> str:
        word = t.lower_
        if word in PERSON_PRONOUNS:
            return PERSON_PRONOUNS[word]
        at = self.at(t)
        if word in THIRD_PERSON:
            reporter = self._reporter(t)
            if reporter is not None:
                return reporter
            return self.context.person_before(at) or word
        if t.pos_ == "PROPN":
            named = self.context.person_at(at, at + len(t.text))
            if named:
                return named
            words = [c for c in t.children if c.dep_ == "compound" and c.pos_ == "PROPN"] + [t]
            return " ".join(w.text for w in sorted(words, key=lambda w: w.i))
        return self.text_of(list(t.subtree))

    def _reporter(self, pronoun: Token) -> str | None:
        """ "Priya says she'll send me ...": the pronoun is the one who says it."""
        verb = pronoun.head
        if pronoun.dep_ != "nsubj" or verb.dep_ != "ccomp" or verb.head.lemma_.lower() not in REPORTING:
            return None
        subject = next(iter(children(verb.head, "nsubj")), None)
        if subject is None or subject.i == pronoun.i:
            return None
        if subject.lower_ in PERSON_PRONOUNS:
            # "I've told Niamh she'll have the matrix from me": "she" is not the speaker, it is whom
            # the speaker told
            told = next(iter(children(verb.head, "dobj", "dative")), None)
            return self.party(told) if told is not None and told.pos_ == "PROPN" else None
        return self.party(subject) if subject.lower_ not in THIRD_PERSON or subject.i < pronoun.i else None

    def objects(self, p: Predicate) -> tuple[Token | None, Token | None]:
        """(recipient, thing) of the predicate's verb."""
        v = p.verb
        recipient = next(iter(children(v, "dative")), None)
        if recipient is not None and recipient.pos_ == "ADP":  # "send the deck to Jana": "to" is the dative
            recipient = next(iter(children(recipient, "pobj")), None)
        things = children(v, "dobj")
        if not things and p.kind == "promise" and (promised := self._promised_thing(v)) is not None:
            things = [promised]
        if not things and recipient is None and v.lemma_.lower() in TRANSFER:
            # "I'll get Lorna a weighted scoring matrix": the small parser reads "Lorna a ... matrix"
            # as a clause of its own (the noun a ccomp, the person its subject)
            for noun in children(v, "ccomp"):
                whom = children(noun, "nsubj")
                if noun.pos_ == "NOUN" and whom and (self._personal(whom[0]) or whom[0].pos_ == "PROPN"):
                    recipient, things = whom[0], [noun]
                    break
                if noun.pos_ == "NOUN" and not children(noun, "aux", "auxpass"):
                    things = [noun]  # "get the audit findings over to Ines": "audit" read as its subject
                    break
        if (cleft := self._cleft_thing(v)) is not None:
            # "What I owe Odile is a revised budget sheet": the thing is what "what" stands for
            things = [cleft, *(t for t in things if t.lower_ != "what")]
            if len(things) > 1 and recipient is None:
                recipient, things = things[1], [cleft]
        if recipient is None and (handed := handover(v)) is not None:
            recipient, things = handed[0], [handed[1]]  # "have the report with Fergal", "in Bev's hands"
        if recipient is None:
            for prep in children(v, "prep") + [c for t in things for c in children(t, "prep")]:
                if prep.lower_ == "to" or (prep.lower_ == "with" and v.lemma_.lower() == "share"):
                    pobj = next(iter(children(prep, "pobj")), None)
                    if pobj is not None and (self._addressee(pobj) or v.lemma_.lower() in TRANSFER):
                        recipient = pobj
                        break
                if prep.lower_ == "for" and p.kind != "must":  # "redraft the budget narrative for Tamsin"
                    pobj = next(iter(children(prep, "pobj")), None)
                    if pobj is not None and self._for_whom(p, pobj):
                        recipient = pobj
                        break
        if len(things) > 1 and recipient is None:  # "send Jana Novak the deck", "send the auditors the
            recipient, things = things[0], things[1:]  # statements": of two objects, the first is whom
        thing = things[0] if things else None
        if thing is not None and recipient is None and self._personal(thing):
            second = [
                c
                for c in v.children
                if c.dep_ in ("npadvmod", "oprd", "attr") and c.pos_ == "NOUN" and not c.ent_type_
            ]
            if second:
                recipient, thing = thing, second[0]
        if thing is not None and self._personal(thing) and p.kind != "owe":
            return recipient, None  # "I'll chase him tomorrow": a person is no thing to deliver
        if thing is not None and thing.lower_ in ("which", "that") and v.dep_ == "relcl":
            thing = v.head  # "a custom template, which they'll build"
        return recipient, thing

    def _for_whom(self, p: Predicate, pobj: Token) -> bool:
        """ "for X" names whom the thing is for: a person, or "me"/"us" when someone else does it
        ("Tess is going to dig out the volumes for me"); the speaker's "I'll book a room for us" is
        their own errand."""
        if pobj.lower_ not in PERSON_PRONOUNS:  # a person, or a client by name ("for Ezekiel", "for Acme")
            return self._personal(pobj) or (
                pobj.pos_ == "PROPN" and pobj.is_alpha and pobj.ent_type_ not in _NOT_WHOM
            )
        subject = next(iter(children(p.owner, "nsubj") or children(p.verb, "nsubj")), None)
        return subject is not None and subject.lower_ not in PERSON_PRONOUNS and self._named(subject)

    def _cleft_thing(self, v: Token) -> Token | None:
        """The noun a pseudo-cleft says its "what" is ("what I owe Odile *is* a revised budget
        sheet"): the verb's clause is the subject of "be", and the noun is that be's attribute."""
        if (
            v.dep_ != "csubj"
            or v.head.lemma_ != "be"
            or not any(t.lower_ == "what" for t in children(v, "dobj"))
        ):
            return None
        return next((t for t in children(v.head, "attr") if t.pos_ in ("NOUN", "PROPN")), None)

    def _promised_thing(self, v: Token) -> Token | None:
        """ "I promised Bram a briefing pack, key messages, the budget and the top questions donors
        ask": the small parser reads "a briefing pack ... donors ask" as a clause, the pack its
        subject. A promise to someone with no object of its own whose clause has no auxiliary (not
        "promised Bram the pack would be ready") promised that subject."""
        if children(v, "dobj") or not any(self._addressee(d) for d in children(v, "dative")):
            return None
        for clause in children(v, "ccomp"):
            if children(clause, "aux", "auxpass"):
                continue
            subject = next(iter(children(clause, "nsubj")), None)
            if subject is not None and subject.pos_ == "NOUN" and not self._personal(subject):
                return subject
        return None


def nearest_first(subjects: list[Token], verb: Token) -> list[Token]:
    """A verb's subjects, the one said nearest before it first: in "Actions, I've promised Gareth
    ..." and "Quick one on Corvane, Fenella sent over the pack" the parser gives the heading as a
    second subject."""
    return sorted(subjects, key=lambda s: (s.i > verb.i, -s.i if s.i < verb.i else s.i))


def _stranded_subject(verb: Token) -> list[Token]:
    """The subject of a second clause the parse hung on the first clause's last noun: in "I'll send
    Jana the deck by Monday and Markus will send me the data", "Markus" is read as a conjunct of
    "Monday", and "will send" has no subject of its own, so it would take the first clause's "I".
    A name or pronoun said right before the clause's auxiliaries, coordinated with something else,
    is its subject."""
    if verb.dep_ != "conj":
        return []
    first = min(
        [verb, *(c for c in verb.children if c.dep_ in ("aux", "neg") and c.i < verb.i)], key=lambda t: t.i
    )
    if first.i == 0:
        return []
    before = first.doc[first.i - 1]
    if before.pos_ in ("PROPN", "PRON") and before.dep_ == "conj" and before.head.i != verb.i:
        return [before]
    return []
