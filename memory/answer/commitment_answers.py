"""Questions about commitments are answered from what consolidation found: who owes what to whom.

"What do I owe Jana?", "Who on the Norrvik side owes me something?", "Wann sollte Markus den
Datenabzug liefern?": the words that answer are the promise itself ("I'll send Jana the revised
slides by Monday") and, when a later note said so, the words that it was done ("The playbook draft
went to Oren on the 2nd"). Those are consolidation's commitments (memory/consolidate/commitments.py,
commitment_store.py), each with its quote and segments; a passage search finds the question's words
instead ("Markus still owes us the data dump" for "What do I owe Jana?").

A question is about commitments when spaCy reads a word of owing or promising in it (owe, promise,
commitment, commit, due, overdue; "due" and "supposed to" only between the user and someone, not
said of a thing: "When was the bid due?" asks a date; German, which has no spaCy pipeline here, by
its word forms). Who owes whom is read from the parse ("do *I* owe", "owes *me*"); the names it
says pick the parties or the projects. When no commitment matches, the question is answered from
passages as any other.
Every stated line is a quote of the raw words, cited. The inferred line under it is consolidation's
reading of them: who owes whom (the quote often says "he'll send me the list", and the person is
in the note's parse, not the sentence) and the due day.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from datetime import date
from typing import TYPE_CHECKING

from memory.answer.answers import Citation, Claim
from memory.consolidate.commitment_store import Commitment, list_commitments
from memory.consolidate.commitment_text import GROUP, MINE, THIRD_PERSON, TRANSFER
from memory.store.store import Store
from memory.text.nlp import language_of, parse
from memory.text.quotes import ClaimKind
from memory.text.relevance import question_names, stem

if TYPE_CHECKING:
    from spacy.tokens import Doc, Token

MAX_COMMITMENTS = 5

_OWING_LEMMAS = frozenset({"owe", "promise", "commitment", "commit", "due", "overdue"})
_GERMAN_OWING = re.compile(
    r"\b(?:schulde\w*|versprochen|versprach\w*|zugesagt|zusage\w*|f[äa]llig\w*|liefer\w*|geliefert)\b", re.I
)
_EXPECTED = frozenset({"suppose", "mean"})  # "supposed to", "meant to": what someone is to do
_SPEAKER = frozenset({"i", "we", "ich", "wir"})
_SPEAKER_OBJECT = frozenset({"me", "us", "mir", "uns", "mich"})
_MY = frozenset({"my", "our", "meine", "meinen", "unsere"})
_NAME_WORD = re.compile(r"[A-ZÄÖÜ][\wäöüß-]+")
# A party said only as a pronoun names no one the reader could not see in the quote already.
_PRONOUNS = THIRD_PERSON | GROUP | {"it", "er", "sie", "es", "ihm", "ihr", "ihnen"}


@dataclass(frozen=True)
class CommitmentQuestion:
    """What a question about commitments asks: whose (None: either way) and about which names."""

    mine: bool | None  # True: what the user owes; False: what the user is owed
    names: frozenset[str]  # stems of the names it says (people or projects)
    # Names of more than one word ("Orla Brannock"): one of its words said is the name said (a
    # promise says "Orla"). Stems of each; the names above hold them too.
    phrases: tuple[frozenset[str], ...] = ()
    # "Has Priya sent the floor plans?": a question about a delivery that asks no promise is about
    # one only when a promise's thing shares a word with the thing asked (stems); empty: any thing.
    thing: frozenset[str] = frozenset()
    # It asks whether a promise was kept ("Did Anjali get me the profiles when she said she would?"):
    # answered from a promise only when a later note said it was done; else from the passages.
    delivered: bool = False


def commitment_question(question: str) -> CommitmentQuestion | None:
    """The question read as one about commitments, or None when it is not one."""
    if language_of(question) == "de":
        return _german_question(question)
    doc = parse(question)
    owing = [t for t in doc if t.lemma_.lower() in _OWING_LEMMAS and not _said_of_a_thing(t)]
    # "What's Tomasz supposed to be sending me?", "What was Dev meant to send me?": the thing to be
    # done is owed (not "When was the meeting supposed to be?": no deed, a time).
    for t in doc:
        if t.lemma_.lower() in _EXPECTED and t.tag_ in ("VBN", "VBD") and not _said_of_a_thing(t):
            deeds = [
                c for c in t.children if c.dep_ == "xcomp" and c.pos_ == "VERB" and c.lemma_.lower() != "be"
            ]
            owing += [t, *deeds] if deeds else []
    thing: frozenset[str] = frozenset()
    delivered = False
    if not owing and (asked := _asked_delivery(doc)) is not None:
        # "Did Stefan ever send the energy figures?", "Did Anjali get me the profiles when she said
        # she would?": whether something promised was handed over
        verb, thing = asked
        owing.append(verb)
        delivered = True
    waiting = [
        t for t in doc if t.lemma_.lower() == "wait" and any(c.lower_ in ("on", "for") for c in t.children)
    ]
    mine: bool | None = None
    # Waiting is a commitment only between the user and someone: "What is the festival waiting
    # for?" asks about a licence as readily as a promise.
    waited: bool | None = None
    for word in owing:
        for child in word.children:
            lower = child.lower_
            if child.dep_ in ("nsubj", "nsubjpass") and lower in _SPEAKER:
                mine = True
            elif child.dep_ in ("dative", "dobj", "iobj", "pobj") and lower in _SPEAKER_OBJECT:
                mine = False
            elif child.dep_ == "poss" and lower in _MY:
                mine = True
    for word in waiting:  # who waits is owed: "What am I still waiting on?", "Who's waiting on me?"
        for child in word.children:
            if child.dep_ == "nsubj" and child.lower_ in _SPEAKER:
                waited = False
            elif child.dep_ in ("prep", "prt") and any(
                g.dep_ == "pobj" and g.lower_ in _SPEAKER_OBJECT for g in child.children
            ):
                waited = True
    if not owing and waited is None:
        return None
    mine = waited if waited is not None else mine
    # The names it says, read as the relevance gate reads a question's names.
    names = frozenset(question_names(question))
    return CommitmentQuestion(mine, names, _name_phrases(doc, names), thing, delivered)


_OWED_ONLY_BY_A_PARTY = frozenset({"due", "overdue", "suppose", "mean"})
_NO_PARTY = frozenset({"it", "this", "that", "they"})


def _said_of_a_thing(word: Token) -> bool:
    """Whether an owing word is said of a thing, not between parties: "owe" and "promise" are always between
    parties; "due", "supposed to" and "meant to" are too when the speaker is in the question ("what's
    due from me?") or their subject is someone ("When is Tomasz supposed to send it?", "Is anything
    overdue?"). Said of a thing ("When was the Greyfell bid due?", "when was the consultation
    supposed to kick off?") they ask for that thing's date, which the notes say as they say any
    other: the question is not one about the user's commitments. A common noun as the subject counts
    as a thing even when it names a party ("When is the contractor supposed to finish the roof?"):
    the obligation is not the user's, and the notes answer it as well. (Answering it from a promise
    that names the thing was measured and not kept: docs/benchmarks.md.)"""
    if word.lemma_.lower() not in _OWED_ONLY_BY_A_PARTY:
        return False
    if any(t.lower_ in _SPEAKER | _SPEAKER_OBJECT | _MY for t in word.doc):
        return False
    holders = [word, word.head] if word.dep_ in ("acomp", "amod", "attr") else [word]
    subjects = [c for h in holders for c in h.children if c.dep_ in ("nsubj", "nsubjpass")]
    if word.dep_ in ("amod", "acl"):  # "anything overdue", "the consultation supposed to start"
        subjects.append(word.head)
    if any(s.pos_ == "PROPN" or (s.pos_ == "PRON" and s.lower_ not in _NO_PARTY) for s in subjects):
        return False
    return any(s.pos_ == "NOUN" for s in subjects)


def _asked_delivery(doc: Doc) -> tuple[Token, frozenset[str]] | None:
    """A yes/no question whether someone handed something over ("Did Stefan ever send the energy
    figures?"): its verb and the stems of the thing asked about."""
    first = next((t for t in doc if not t.is_punct), None)
    if first is None or first.lower_ not in ("did", "has", "have", "had"):
        return None
    verb = first.head
    if verb.lemma_.lower() not in TRANSFER or verb.dep_ != "ROOT":
        return None
    # the thing: the object, or the subject of what it was got done ("get the tender published")
    things = [c for c in verb.children if c.dep_ == "dobj"] + [
        s for c in verb.children if c.dep_ == "ccomp" for s in c.children if s.dep_ in ("nsubj", "nsubjpass")
    ]
    words = {stem(w.lower_) for t in things for w in t.subtree if w.pos_ in ("NOUN", "PROPN")}
    return (verb, frozenset(words)) if words else None


def _name_phrases(doc: Doc, names: frozenset[str]) -> tuple[frozenset[str], ...]:
    """The question's names of more than one word, as stems: runs of proper nouns."""
    phrases, run = [], []
    for t in [*doc, None]:
        if t is not None and t.pos_ == "PROPN" and stem(t.lower_) in names:
            run.append(stem(t.lower_))
            continue
        if len(run) > 1:
            phrases.append(frozenset(run))
        run = []
    return tuple(phrases)


def _german_question(question: str) -> CommitmentQuestion | None:
    if not _GERMAN_OWING.search(question):
        return None
    words = {w.lower() for w in re.findall(r"[\wäöüß]+", question)}
    mine = False if words & _SPEAKER_OBJECT else (True if words & _SPEAKER else None)
    # No German pipeline: capitalised words after the first stand in for names (nouns too; a noun
    # is matched against the thing owed), stemmed as German, as the parties' words are too.
    names = {stem(m.group(0).lower(), "de") for m in _NAME_WORD.finditer(question) if m.start() > 0}
    return CommitmentQuestion(mine, frozenset(names))


def _party_stems(party: str | None) -> set[str]:
    if not party:
        return set()
    return {stem(w.lower()) for w in re.findall(r"[\wäöüß]+", party) if len(w) > 1} | {
        stem(w.lower(), "de") for w in re.findall(r"[\wäöüß]+", party) if len(w) > 1
    }


def _project_stems(project: str) -> set[str]:
    return {stem(w) for w in re.split(r"[\s_-]+", project.lower()) if len(w) > 2}


def matching_commitments(
    store: Store,
    asked: CommitmentQuestion,
    *,
    project_ids: Collection[int] | None = None,
    until: str | None = None,
) -> list[Commitment]:
    """The commitments the question asks about, said by `until`, by due date.

    The question's names must each be said in a commitment it keeps: a party (the one who owes or
    the one owed), its project, or the thing owed (a German noun, "den Datenabzug"); a question with
    no name keeps every commitment of its side."""
    found = []
    for c in list_commitments(store):
        if project_ids is not None and c.project_id not in project_ids:
            continue
        if until is not None and c.spoken_at > until:
            continue
        if asked.mine is not None and c.mine != asked.mine:
            continue
        said = (
            _party_stems(c.who) | _party_stems(c.to_whom) | _project_stems(c.project) | _party_stems(c.what)
        )
        # a person's name of two words is said when a party says one of them ("Orla" for "Orla
        # Brannock"); not by the project's name ("Ilse Kranich" is not said by Kranich's project)
        parties = _party_stems(c.who) | _party_stems(c.to_whom)
        said |= {w for phrase in asked.phrases if phrase & parties for w in phrase}
        if not asked.names <= said:
            continue
        if asked.thing and not asked.thing & _party_stems(c.what):
            continue
        if asked.delivered and not (c.done and (until is None or (c.done_spoken_at or "") <= until)):
            continue
        found.append(c)
    return found[:MAX_COMMITMENTS]


def due_reading(c: Commitment, today: date) -> str | None:
    """The due day as consolidation resolved it against the day the promise was said, and whether a
    later note said it was done by `today` ("due Monday 29 June 2026 · overdue, no note since says
    it was done"); None when no day was said."""
    if c.due_date is None:
        return None
    day = date.fromisoformat(c.due_date)
    due = f"due {day.strftime('%A')} {day.day} {day.strftime('%B %Y')}"
    if c.done_on(today):
        return f"{due} · said done on {c.done_spoken_at[:10] if c.done_spoken_at else ''}"
    if c.overdue(today):
        return f"{due} · overdue: no note since says it was done"
    return f"{due} · open"


def parties_reading(c: Commitment) -> str | None:
    """Who owes whom, as consolidation read it from the note ("Daniel Okoro owes you", "you owe
    Jana"); None when neither side is named (a pronoun, or not said)."""

    def named(party: str | None) -> str | None:
        return party if party and party.lower() not in _PRONOUNS else None

    owed = "you" if c.to_whom in MINE else named(c.to_whom)
    if c.mine:
        return f"you owe {owed}" if owed and owed != "you" else None
    debtor = named(c.who)
    if debtor is None:
        return None
    return f"{debtor} owes {owed}" if owed else f"{debtor} owes it"


def commitment_claims(commitments: Sequence[Commitment], *, today: date) -> list[Claim]:
    """Each commitment's words, stated and cited; who owes whom and its due day, as read by
    consolidation (inferred: a reading of the words, cited to them); then the words that said it
    was done, when they were said by `today`."""
    claims: list[Claim] = []
    for c in commitments:
        cite = Citation.of(c)
        claims.append(Claim(c.quote, ClaimKind.STATED, [cite], "commitment"))
        readings = [r for r in (parties_reading(c), due_reading(c, today)) if r is not None]
        if readings:
            claims.append(Claim(" · ".join(readings), ClaimKind.INFERRED, [cite], "commitment"))
        if (
            c.done_on(today)
            and c.done_quote
            and c.done_recording_id is not None
            and c.done_segment_ids
            and c.done_start is not None
            and c.done_end is not None
            and c.done_spoken_at is not None
        ):
            done = Citation(
                0,
                c.done_project or c.project,
                c.done_recording_id,
                c.done_spoken_at,
                c.done_start,
                c.done_end,
                tuple(c.done_segment_ids),
                c.done_quote,
            )
            claims.append(Claim(c.done_quote, ClaimKind.STATED, [done], "commitment"))
    return claims
