"""Commitments and deliveries in an English sentence, read from spaCy's parse (the method is described
in memory/consolidate/commitments.py): which clauses promise, owe or hand something over. Who owes,
what and to whom are read in memory/consolidate/commitment_parties.py; owing said without the owing
party's verb of handing over ("Dana's waiting on my cost model", "the shortlist is on me"), and what
blocks a promise, in memory/consolidate/commitment_owed.py.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

from memory.consolidate.commitment_learned import LearnedReading
from memory.consolidate.commitment_owed import is_modal
from memory.consolidate.commitment_parties import (
    LIGHT_NOUNS,
    gonna_before,
    handover,
    nearest_first,
    on_whom,
    opens_unsaid,
    received_from,
    whose,
)
from memory.consolidate.commitment_spans import Predicate, children
from memory.consolidate.commitment_text import (
    ACTIONS,
    ARRIVAL_PARTICLES,
    ARRIVED,
    CALENDAR,
    DEADLINE_WORDS,
    DELIVERED,
    HEDGES,
    ME,
    NOT_DELIVERABLE,
    PERSON_PRONOUNS,
    PROMISES,
    RECEIVED,
    REPORTING,
    THING_PRONOUNS,
    TRANSFER,
    US,
    WILL,
    WOULD,
    Found,
)

if TYPE_CHECKING:
    from spacy.tokens import Token


def _aux_lemmas(t: Token) -> set[str]:
    return {c.lemma_.lower() for c in t.children if c.dep_ in ("aux", "auxpass")}


def _let_me(v: Token) -> bool:
    """ "Let me get you the numbers": the speaker's offer ("let me" or "let us", said first)."""
    subject = next(iter(children(v, "nsubj")), None)
    return subject is not None and subject.lower_ in ("me", "us") and v.head.i < subject.i < v.i


def _handed_over(v: Token) -> bool:
    """ "I'll have the report to him by Friday", "I'll have a cloud spend summary for Marisol", "I need
    to have the cost model in Bev's hands", "... the report with Fergal before the bank holiday":
    "have" with a thing and someone it goes to."""
    return handover(v) is not None


class EnglishSentence(LearnedReading):
    """The commitments and deliveries of one parsed English sentence."""

    def read(self) -> list[Found]:
        out: list[Found] = []
        for t in self.tokens:
            if t.pos_ not in ("VERB", "AUX"):
                continue
            predicate = self.predicate(t)
            if predicate is not None and (found := self.commitment(predicate)) is not None:
                out.append(found)
            elif (delivery := self.delivery(t)) is not None:
                out.append(delivery)
            elif (awaited := self.awaited(t)) is not None:
                out.append(awaited)
            elif (other := self.said_otherwise(t)) is not None:
                out.append(other)
        if not out and (learned := self.learned()) is not None:
            out.append(learned)  # said in a way the rules do not read
        return _one_per_promise(self._sentence_deadline(out))

    def _sentence_deadline(self, found: list[Found]) -> list[Found]:
        """A commitment whose own clause says no date takes the sentence's one deadline that no
        other commitment of the sentence has ("Tomasz owes me the site plan, he said by the end of
        May"; "the plan has to be in by Friday the 28th, and that's on me, I said I'd write it")."""
        used = {f.due_text for f in found if f.due_text}
        free = [d for d in self.dues if d.text.split()[0].lower() in DEADLINE_WORDS and d.text not in used]
        undated = [f for f in found if f.kind == "commitment" and f.due_text is None]
        if len(free) != 1 or len(undated) != 1:
            return found
        due = free[0]
        return [replace(f, due_text=due.text, due_date=due.date) if f is undated[0] else f for f in found]

    # --- what makes a predicate a commitment ----------------------------------------------------------
    def predicate(self, v: Token) -> Predicate | None:
        lemma = v.lemma_.lower()
        carrier = v
        if v.dep_ == "conj" and not children(v, "nsubj", "nsubjpass", "aux"):
            carrier = v.head  # "I'll draft it and send it to Jana": the second verb shares "I'll"
        head = v.head if v.dep_ in ("xcomp", "ccomp") else None
        if lemma == "owe" and v.pos_ == "VERB":
            return Predicate(v, v, "owe")
        if (gonna := gonna_before(v)) is not None:
            return Predicate(v, gonna, "going")
        if (
            lemma in PROMISES
            and v.pos_ == "VERB"
            and any(not self._personal(o) for o in children(v, "dobj"))
            and not any(
                c.dep_ == "xcomp" or children(c, "aux", "auxpass") for c in children(v, "ccomp", "xcomp")
            )
        ):
            # "I've promised Fiona a summary" (not "promised Tobias I'll", "promised to"); a clause
            # without an auxiliary is the small parser's reading of the thing's words ("... the top
            # questions donors ask")
            return Predicate(v, v, "promise")
        if lemma in PROMISES and v.pos_ == "VERB" and self._promised_thing(v) is not None:
            return Predicate(v, v, "promise")  # the same, with the thing misread as a clause's subject
        if self.actions and self._imperative(v):
            return Predicate(v, v, "action")
        if is_modal(carrier, WILL):
            return Predicate(v, carrier, "will")
        if head is not None and head.lemma_.lower() == "let" and head.tag_ == "VB" and _let_me(v):
            return Predicate(v, v, "let")  # "let me dig out the baseline data for Aurelio": an offer
        if head is not None and v.dep_ == "xcomp" and children(v, "aux"):
            above = head.lemma_.lower()
            if above == "go" and head.tag_ == "VBG":
                return Predicate(v, head, "going")
            if above in PROMISES:
                return Predicate(v, head, "promise")
            if above in ("need", "have", "get") and (lemma in TRANSFER or _handed_over(v)):
                return Predicate(v, head, "must")  # "I need to get …", "I need to have X with Fergal"
            if above == "be" and lemma in TRANSFER and on_whom(head) is not None:
                return Predicate(v, head, "on")  # "it's on me to get the data dictionary to Marcus"
        if (
            head is not None
            and is_modal(v, WOULD)
            and head.lemma_.lower() in REPORTING
            and head.tag_ in ("VBD", "VBN")
            and not (v.tag_ == "VBN" and any(c.dep_ == "aux" and c.lemma_ == "have" for c in v.children))
        ):  # not "he said he'd have sent it already": what would have been, not a promise
            return Predicate(v, v, "would")  # "I said I'd get it to her by Friday" (also parsed as xcomp)
        if self._arranged(v):
            return Predicate(v, v, "arranged")  # "I'm sending Fenella the outline after Easter, the 31st"
        return None

    def _arranged(self, v: Token) -> bool:
        """The present progressive of handing something over, said with whom it goes to: an
        arrangement for the future when the clause also says when ("I'm sending Fenella the
        programme outline after Easter, the 31st"); without a date it is what is happening now."""
        return (
            v.tag_ == "VBG"
            and v.lemma_.lower() in TRANSFER
            and any(c.dep_ == "aux" and c.lemma_ == "be" and c.tag_ in ("VBP", "VBZ") for c in v.children)
            and bool(children(v, "dative") or any(p.lower_ == "to" for p in children(v, "prep")))
        )

    def _imperative(self, v: Token) -> bool:
        """A verb of an action list: no subject of its own but the list's head word, no auxiliary."""
        subjects = children(v, "nsubj", "nsubjpass")
        if children(v, "aux", "auxpass") or any(not ACTIONS.match(s.text) for s in subjects):
            return False
        if v.dep_ == "ROOT" or (v.dep_ == "conj" and self._imperative(v.head)):
            return v.tag_ in ("VB", "VBP", "VBD") and v.lemma_.lower() not in NOT_DELIVERABLE
        return False

    def _reported(self, t: Token) -> bool:
        """Said as an undertaking: "I've said I'll draft the section", "I told Jana I'd send it"."""
        head = t.head
        return t.dep_ == "ccomp" and head.lemma_.lower() in REPORTING and head.tag_ in ("VBD", "VBN")

    def commitment(self, p: Predicate) -> Found | None:
        lemma = p.verb.lemma_.lower()
        promiser = self._promised_by(p.owner)
        promised_presence = p.kind == "will" and lemma == "be" and promiser is not None  # "I'll be on site"
        told = self._told_they_would_have(p)
        if (
            p.kind in ("will", "going", "would", "let")
            and lemma in NOT_DELIVERABLE
            and not promised_presence
            and not _handed_over(p.verb)
            and told is None
        ):
            return None
        if self.blocked(p):
            return None
        agent = on_whom(p.owner) if p.kind == "on" else self.agent(p) if p.kind != "action" else None
        to_self = p.kind in ("must", "going") and agent is None and opens_unsaid(p.owner)
        if agent is None and p.kind != "action" and not to_self:
            return None
        who = (
            whose(agent)
            if p.kind == "on" and agent is not None
            else self.party(agent)
            if agent is not None
            else ME
        )
        recipient, thing = self.objects(p)
        if recipient is None and promiser is not None:
            recipient = next((o for o in children(promiser, "dative", "dobj") if self._personal(o)), None)
        if recipient is None and p.kind == "would" and thing is not None:
            # "they told us they'd send the contract": whom it was told to is whom it goes to
            recipient = next((o for o in children(p.verb.head, "dative", "dobj") if self._personal(o)), None)
        to_whom = self.party(recipient) if recipient is not None else None
        giver = received_from(p.verb, thing) if lemma in ("get", "have") else None
        if giver is not None and lemma == "have" and not (self._personal(giver) or giver.pos_ == "PROPN"):
            giver = None  # "she'll have the figures from the audit": a source, not someone who owes
        if told is not None:  # "I told Moira she'd have a plan": the teller owes whom they told
            who, to_whom = self.party(told[0]), self.party(told[1])
        if giver is not None and agent is not None:  # "she'd get the deck from Tomasz": Tomasz owes her
            who, to_whom = self.party(giver), self.party(agent)
        if to_whom is not None and to_whom == who:
            return None  # "I told Jana she'd get the deck from Tomasz": nobody owes themselves
        undertaken = (
            p.kind in ("owe", "promise", "on")
            or promiser is not None
            or self._reported(p.owner)
            or told is not None
        )
        if lemma == "get" and to_whom is None and not undertaken:
            return None  # "we'll get a demo next week": getting is receiving unless it goes to someone
        if thing is not None:
            if lemma == "do" and thing.lower_ in THING_PRONOUNS:
                return None  # "I'll do that on Friday": an action named before, not a thing
            what = self.thing(thing)
        elif promiser is not None:
            skip = {t.i for t in children(p.verb, "nsubj", "aux")}
            words = [t for t in self._clause(p.verb, skip=skip) if t.i >= p.verb.i]
            what = self.text_of(self._until_stop(words, p.verb))  # "be on site at the new shop all day"
        else:
            return None
        first, last = self.quote_range(p, agent)
        if thing is not None and thing.i > last:  # a pseudo-cleft's thing, said after "is"
            last = max([t.i for t in self._until_stop(list(thing.subtree), thing)] + [last])
        if p.kind == "promise":  # the words of the thing the small parser read as a clause
            for c in children(p.verb, "ccomp"):
                if not children(c, "aux", "auxpass"):
                    last = max([t.i for t in c.subtree if not t.is_punct] + [last])
        due = self.due_in(first, last)
        if due is None:
            # "set those up and do them with me by the end of April": a deadline said after a
            # second verb that shares the first one's subject is the first one's too
            for verb in children(p.verb, "conj"):
                if verb.pos_ == "VERB" and not children(verb, "nsubj", "nsubjpass"):
                    end = max([t.i for t in self._clause(verb) if not t.is_punct] + [last])
                    if (due := self.due_in(first, end)) is not None:
                        last = end
                        break
        if not undertaken and to_whom is None and due is None:
            return None  # "they'll just email parents for now": nothing owed to anyone by any time
        if (
            not undertaken
            and to_whom is None
            and who in (ME, US)
            and lemma not in TRANSFER
            and thing is not None
            and thing.lower_ in THING_PRONOUNS
        ):
            # "I'll clean it up on Wednesday": the speaker's own work on something, owed to nobody
            # said; "I'll send it over by Friday" still hands it to someone the note knows. (Every
            # one of the speaker's commitments in the seven keyed sets names whom it is owed to;
            # dropping all that name nobody also dropped one on held-out I.)
            return None
        if p.kind == "arranged" and (due is None or to_whom is None):
            return None  # "I'm sending her the deck now": happening, not promised
        if agent is not None and not self._named(agent) and to_whom is None:
            return None  # "the app will send reminders on Monday"; "the client will send us ..." is one
        if p.kind == "must" and to_whom is None:
            return None
        if p.kind == "let" and (
            recipient is None or (not self._personal(recipient) and recipient.pos_ != "PROPN")
        ):
            return None  # "let me get that right": an offer is to someone
        start, end = self.at(self.tokens[first]), self.at(self.tokens[last]) + len(self.tokens[last].text)
        still = any(c.lower_ == "still" for t in (p.verb, p.owner) for c in t.children)
        return Found(
            "commitment", start, end, who, what, to_whom, due.text if due else None,
            due.date if due else None, "en", still,
        )  # fmt: skip

    def _told_they_would_have(self, p: Predicate) -> tuple[Token, Token] | None:
        """(teller, receiver) of "I told Moira she'd have a plan from me by Friday", "I've said
        Hamish will have an options paper before vintage": someone else's "will/would have" a thing,
        in what the speaker told or said, is the speaker's promise to them."""
        v = p.verb
        if v.lemma_.lower() != "have" or p.kind not in ("will", "would") or v.dep_ != "ccomp":
            return None
        report = v.head
        if report.lemma_.lower() not in REPORTING or report.tag_ not in ("VBD", "VBN"):
            return None
        teller = next(iter(children(report, "nsubj")), None)
        receiver = next(iter(children(v, "nsubj")), None)
        things = [t for t in children(v, "dobj") if t.pos_ in ("NOUN", "PROPN") or t.lower_ in THING_PRONOUNS]
        if teller is None or receiver is None or not things or teller.lower_ not in ("i", "we"):
            return None
        if receiver.lower_ in PERSON_PRONOUNS or (not self._personal(receiver) and receiver.pos_ != "PROPN"):
            return None
        if any(t.lemma_.lower() in LIGHT_NOUNS for t in things):
            return None  # "I said Hamish would have a tough time with the board"
        # a thing handed over has a when or a from ("by Friday", "Monday", "from me")
        if not any(t.ent_type_ in CALENDAR or t.lower_ in ("by", "before", "from") for t in v.subtree):
            return None
        return teller, receiver

    def _promised_by(self, t: Token) -> Token | None:
        """The verb of promising this clause hangs from ("I've promised Tobias I'll be on site")."""
        while t.dep_ in ("ccomp", "xcomp") and t.head.i != t.i:
            t = t.head
            if t.lemma_.lower() in PROMISES or (t.lemma_.lower() in REPORTING and children(t, "dative")):
                return t
        return None

    # --- deliveries -------------------------------------------------------------------------------------
    def delivery(self, v: Token) -> Found | None:
        """ "I sent Oren the scorecard", "the playbook draft went to Oren", "the dump came in"."""
        lemma = v.lemma_.lower()
        auxes = _aux_lemmas(v)
        past = v.tag_ == "VBD" or (v.tag_ == "VBN" and auxes & {"have", "be", "would"})
        if not past or auxes & {"will", "shall"} or any(c.dep_ == "neg" for c in v.children):
            return None
        if "have" in auxes and any(c.dep_ == "aux" and c.tag_ == "MD" for c in v.children):
            return None  # "he'd have sent it already": what would have been ("I'd sent it" is "had")
        if any(c.dep_ == "advmod" and c.lemma_.lower() in HEDGES | {"not", "never"} for c in v.children):
            return None
        preps = {c.lower_: c for c in children(v, "prep")}
        particles = {c.lower_ for c in v.children if c.dep_ in ("prt", "advmod")}
        particles |= {w for w, c in preps.items() if not children(c, "pobj")}  # "came in last week"
        amounts = [c for c in v.subtree if c.dep_ == "pobj" and c.like_num and c.ent_type_ not in CALENDAR]
        if "at" in preps or amounts:
            return None  # "it came in at about 1.2 million": a cost, not a delivery
        recipient = next(iter(children(v, "dative")), None)
        to = preps.get("to")
        if recipient is None and to is not None:
            recipient = next(iter(children(to, "pobj")), None)
        subject = next(iter(nearest_first(children(v, "nsubj", "nsubjpass"), v)), None)
        if lemma in DELIVERED and "auxpass" not in {c.dep_ for c in v.children}:
            thing = next(iter(children(v, "dobj")), None)
            if thing is None and v.dep_ == "relcl" and v.head.pos_ == "NOUN":
                thing = v.head  # "Fenella took the outline I sent on the 31st": what was sent
            if thing is None or subject is None or self._personal(thing):
                return None
            who = self.party(subject)
        elif lemma in DELIVERED or (lemma in ARRIVED and (particles & ARRIVAL_PARTICLES or to is not None)):
            thing = subject  # "the draft was sent", "the list came in", "the deck went out"
            if thing is not None and thing.lower_ in ("that", "which") and v.dep_ == "relcl":
                thing = v.head  # "the draft that went to Oren"
            if thing is None or thing.pos_ not in ("NOUN", "PROPN", "PRON") or self._personal(thing):
                return None
            owner = next((c for c in thing.children if c.dep_ == "poss" and c.pos_ == "PROPN"), None)
            source = preps.get("from") or preps.get("by")
            giver = next(iter(children(source, "pobj", "agent")), None) if source is not None else None
            who = self.party(owner) if owner is not None else (self.party(giver) if giver is not None else "")
        elif lemma in RECEIVED and "from" in preps and subject is not None:
            thing = next(iter(children(v, "dobj")), None)
            giver = next(iter(children(preps["from"], "pobj")), None)
            if thing is None or giver is None:
                return None
            who, recipient = self.party(giver), subject
        else:
            return None
        first = min([subject.left_edge.i] if subject is not None else [v.i])
        clause = self._clause(v)
        last = max([t.i for t in clause if not t.is_punct] or [v.i])
        start = self.at(self.tokens[first])
        end = self.at(self.tokens[last]) + len(self.tokens[last].text)
        if thing.lower_ in THING_PRONOUNS:  # "... the agreement ..., after I'd sent it twice": all of it
            start, end = self.sentence.start, self.sentence.start + len(self.sentence.text.rstrip(" .!…"))
        to_whom = self.party(recipient) if recipient is not None else None
        if v.dep_ == "relcl" and thing.i == v.head.i:  # named before its relative clause: the words before it
            what = self.text_of([w for w in self._phrase(thing) if w.i < v.left_edge.i])
        else:
            what = self.thing(thing)
        return Found("delivery", start, end, who, what, to_whom, language="en")


def _one_per_promise(found: list[Found]) -> list[Found]:
    """ "I'll write the data flow section and get it to Orla by Friday": the two verbs read as two
    commitments of the same thing by the same day are one, to Orla, quoted from the first verb."""
    out: list[Found] = []
    for f in found:
        same = next(
            (
                o
                for o in out
                if f.kind == o.kind == "commitment"
                and (f.who, f.what, f.due_date) == (o.who, o.what, o.due_date)
                and None in (f.to_whom, o.to_whom)
            ),
            None,
        )
        if same is None:
            out.append(f)
            continue
        kept = f if same.to_whom is None else same
        out[out.index(same)] = replace(kept, start=min(f.start, same.start), end=max(f.end, same.end))
    return out
