"""Commitments: who owes what to whom by when, each the quote of the raw words that says it, and the
sentences of later notes that say something was delivered ("the deck went out", "Markus sent the
dump"), which mark a commitment done (memory/consolidate/commitment_store.py stores and matches them).

An English sentence is read from spaCy's parse (memory/text/fact_parse.py). A commitment is a
predicate of the future or of obligation:
- "will"/"'ll"/"shall" + verb ("he'll send me the full list"), "going to" + verb, "said/promised/
  told X I'd" + verb (a reported promise; a bare "would" is hypothetical), "owe" ("I owe Oren the
  scorecard"), "promise" with an object ("I've promised Fiona a summary", "promised to send"), and
  "need to / have to / got to" + a verb of handing something over, said with its recipient, and
  the present progressive of handing over with a recipient and a date, an arrangement ("I'm
  sending Fenella the outline after Easter, the 31st");
- with an agent (who: "I"/"we" are the user, "me"/"us"; he/she/him/her are the nearest person
  named before), a thing (what: the direct object; "it" is the object named before it in the
  sentence), an optional recipient (to whom: the dative or "to X") and an optional due date;
- a will/going-to commitment needs a recipient or a due date ("they'll just email parents for now"
  promises nothing to anyone) unless it is said as an undertaking ("I've said I'll draft the bid
  section"), and a verb that hands over or makes something (not "be", "see", "meet", "start" ...);
  a common noun as the agent needs a recipient ("the client will send us ...", not "the app will
  send reminders");
- in an action list ("Actions, send Tobias the revised plan by Friday, ..."), each imperative verb
  is the user's.
Not commitments: questions, conditions ("if ..."), hedges ("maybe", "probably", "I think I'll"),
negations, wishes ("he'd like to") and "do that" (an action named before, not a thing).
Deliveries (what marks one done): a past verb of handing over ("I sent Oren the scorecard", "the
draft was sent"), a thing arriving ("the list came in", "the draft went to Oren", "came back"), or
received from someone; German "ist endlich da", "habe ... geschickt". None when negated ("still
hasn't sent").

A German sentence has no parse: rules read "ich schicke / Markus liefert / er schickt ... bis",
"werde/wird ... schicken", "soll ... liefern", "muss ... schicken" (with a recipient) and "schuldet";
the present tense counts only with a due date ("ich schicke Jana die Folien bis Montag"); "hat
Veronika versprochen, dass ..." / "hat uns zugesagt, ..." is a promise to that person.

The due date is the date of the commitment's clause, resolved against when the note was spoken
(memory/text/dates.py `fact_dates`: "by Friday the 26th", "end of the month", "by next Tuesday",
"Ende nächster Woche", "Mitte Oktober"; dateparser reads the rest after "by"/"bis"); a period means
its last day (a week its Friday, "mid-" the 15th, "start of"/"Anfang" its first day).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from typing import Literal

from memory.consolidate.commitment_detector import CommitmentDetector, shipped_detector
from memory.consolidate.commitment_english import EnglishSentence
from memory.consolidate.commitment_text import ME, US, WHAT_WORDS, Context, Due, Found
from memory.text.doc import Doc, Sentence
from memory.text.said_values import Entity

__all__ = ["Found", "find_commitments"]

# German rules (no parse) ---------------------------------------------------------------------------------
_DE_VERB_STEMS = (
    r"(?:zu|nach|weiter|rüber|vorbei|zurück|ab|raus)?(?:schick|send|liefer|bring|reich|leit|mail|"
    r"übermittel|übergeb|besorg|erstell|schreib)"
)
_DE_FINITE = re.compile(rf"\b(?P<v>{_DE_VERB_STEMS}(?:e|t|et|en|st|n)|gibt|gebe|geben)\b", re.I)
_DE_INFINITIVE = re.compile(rf"\b(?P<v>{_DE_VERB_STEMS}(?:en|n)|geben)\b", re.I)
_DE_FUTURE = re.compile(r"\b(?P<aux>werde|wird|werden|wirst|soll|sollen|sollst|muss|müssen|musst)\b", re.I)
_DE_OWE = re.compile(r"\b(?P<v>schulde|schuldet|schulden)\b", re.I)
_DE_PRONOUNS = {"ich": ME, "wir": US, "mir": ME, "mich": ME, "uns": US}
_DE_THIRD = frozenset({"er", "sie", "ihm", "ihr"})
_DE_ARTICLE = re.compile(
    r"(?:den|die|das|dem|der|des|ein|eine|einen|einem|einer|mein\w*|unser\w*|sein\w*|ihr\w*|dies\w*)\b", re.I
)
_DE_NEGATION = re.compile(r"\b(?:nicht|kein\w*|nie|niemals)\b", re.I)
_DE_HEDGE = re.compile(
    r"\b(?:würde\w*|könnte\w*|sollte\w*|müsste\w*|vielleicht|wahrscheinlich|vermutlich|eventuell|"
    r"hoffentlich|ich\s+glaube|ich\s+denke|wenn|falls|sofern|ob)\b",
    re.I,
)
_DE_STILL = re.compile(r"\b(?:immer\s+noch|noch\s+immer|noch)\b", re.I)
_DE_ELABORATION = re.compile(r"^\s*(?:also|bis|spätestens|und\s+zwar|sprich|d\.\s?h\.)\b", re.I)
_NAME = r"[A-ZÄÖÜ][\wäöüß-]+"  # capitalised (German nouns too: a name is one without an article)
_TITLE = r"(?:(?:Frau|Herrn?|Dr\.?|Doktor)\s+)"  # "Frau Berger", "von Herrn Krause"
# "Der Datenabzug von Markus ist endlich da", "die Folien sind raus"
_DE_ARRIVED = re.compile(
    rf"(?P<what>\b(?i:der|die|das|den|unser\w*|mein\w*)\s+{_NAME}(?:\s+(?:von|vom)\s+{_TITLE}?(?P<from>{_NAME}))?)"
    r"\s+(?:ist|sind|kam|kamen)\s+(?:\w+\s+){0,3}?"
    r"(?:da|angekommen|eingetroffen|gekommen|raus|rausgegangen|zurück|eingegangen)\b"
)
# "ich habe Ilse die Vorlage geschickt", "wir haben den Vertrag bekommen"
_DE_SENT = re.compile(
    rf"\b(?P<who>(?i:ich|wir|er|sie)|{_NAME})\s+(?:habe|hat|haben|hatte|hatten)\s+(?P<rest>.{{3,120}}?)\s+"
    r"(?P<v>geschickt|verschickt|zugeschickt|geliefert|gesendet|übergeben|abgegeben|eingereicht|"
    r"weitergeleitet|übermittelt|bekommen|erhalten)\b"
)
_DE_RECIPIENT = re.compile(
    rf"\s+(?:(?P<pronoun>(?i:mir|uns|ihm|ihr|ihnen))\b|(?P<title>{_TITLE})?(?P<w>{_NAME})"
    rf"(?=\s+(?i:{_DE_ARTICLE.pattern}|bis|noch|spätestens|morgen|heute))|(?P<np>(?i:dem|der)\s+{_NAME})"
    rf"(?=\s+(?i:{_DE_ARTICLE.pattern})))"
)  # "liefert uns", "schicke Jana die Folien", "Frau Berger das Angebot", "dem Kunden den Bericht"
_DE_TO = re.compile(rf"\ban\s+(?P<w>{_NAME})")
# "Ich hab Veronika versprochen, dass der Antrag spätestens am 10. Dezember draußen ist", "Markus hat
# uns zugesagt, die Daten bis Freitag zu schicken": a promise to someone of what the clause says
_DE_PROMISED = re.compile(
    rf"\b(?P<who>(?i:ich|wir|er|sie)|{_NAME})\s+(?i:hab|habe|hat|haben|hatte|hatten)\s+"
    rf"(?P<to>(?i:mir|uns|ihm|ihr|ihnen)|{_TITLE}?{_NAME})\s+(?:\w+\s+){{0,2}}?"
    r"(?i:versprochen|zugesagt)\s*,\s*(?P<rest>.+)"
)
_DE_SUBJECT_BEFORE = re.compile(rf"(?:^|\b(?i:und|dann|also|so)\s+)(?P<title>{_TITLE})?(?P<w>[\w-]+)\s+$")
_DE_SUBJECT_AFTER = re.compile(r"\s+(?P<w>ich|wir|er|sie)\b", re.I)
_DE_THING_END = re.compile(r"\s+(?:bis|spätestens|am|ab|noch|bald|morgen|heute)\b", re.I)
_CLAUSE = re.compile(r"\s*[,;:–—]\s*")


def find_commitments(
    doc: Doc,
    entities: Sequence[Entity],
    *,
    people: Iterable[str] = (),
    not_people: Iterable[str] = (),
    detector: CommitmentDetector | Literal["shipped"] | None = "shipped",
) -> list[Found]:
    """The recording's commitments and deliveries, in order. `people`: names of people the library
    knows ("daniel okoro"), so that "Daniel" is someone "he" can stand for; `not_people`: words that
    never name a person (the projects' names: "Norrvik" is a client, whatever a tagger says);
    `detector`: the learned second reader (memory/consolidate/commitment_detector.py; None: the
    rules alone)."""
    context = Context(
        doc, entities, people, not_people, shipped_detector() if detector == "shipped" else detector
    )
    found: list[Found] = []
    for sentence in doc.sentences:
        found += _sentence(context, sentence)
    return found


def _sentence(context: Context, sentence: Sentence) -> list[Found]:
    ps = context.parsed.sentence(sentence)
    dues = context.dues(sentence, ps.language)
    if sentence.text.rstrip(" \"'”’)").endswith("?"):
        return []  # a question promises nothing
    if ps.tokens is None:
        return _German(context, sentence, dues).read()
    return EnglishSentence(context, ps, dues).read()


class _German:
    """Rules over one German sentence (no parse), clause by clause."""

    def __init__(self, context: Context, sentence: Sentence, dues: list[Due]) -> None:
        self.context, self.sentence, self.dues = context, sentence, dues
        self.text = sentence.text
        self.clause_at = 0  # where the clause being read starts in the sentence

    def at(self, i: int) -> int:
        """Doc offset of position `i` of the clause being read."""
        return self.sentence.start + self.clause_at + i

    def clauses(self) -> list[tuple[int, int]]:
        """(start, end) of each comma clause; "…, also bis zum dritten September" (an elaboration)
        belongs to the clause before it."""
        bounds, at = [], 0
        for m in _CLAUSE.finditer(self.text):
            if m.start() > at:
                bounds.append((at, m.start()))
            at = m.end()
        if at < len(self.text):
            bounds.append((at, len(self.text.rstrip(".!… "))))
        merged: list[tuple[int, int]] = []
        for a, b in bounds:
            if merged and _DE_ELABORATION.match(self.text[a:b]):
                merged[-1] = (merged[-1][0], b)
            else:
                merged.append((a, b))
        return merged

    def read(self) -> list[Found]:
        if _DE_HEDGE.search(self.text):
            return []
        out: list[Found] = []
        if (promised := self.promised()) is not None:
            return [promised]
        for a, b in self.clauses():
            found = self.commitment(a, b) or self.delivery(a, b)
            if found is not None:
                out.append(found)
        return out

    def commitment(self, a: int, b: int) -> Found | None:
        clause, self.clause_at = self.text[a:b], a
        if _DE_NEGATION.search(clause):
            return None
        aux = _DE_FUTURE.search(clause)
        verb = _DE_OWE.search(clause) or (_DE_INFINITIVE.search(clause, aux.end()) if aux else None)
        finite = aux or verb
        if finite is None:
            verb = finite = _DE_FINITE.search(clause)
        if verb is None or finite is None:
            return None
        who = self.subject(clause, finite.start("v") if finite is verb else finite.start("aux"), finite.end())
        if who is None:
            return None
        rest_start = finite.end()
        if who[1] > finite.end():  # "bis Montag schicke ich ...": the subject after the verb
            rest_start = who[1]
        to_whom, what_start = self.recipient(clause, rest_start)
        due = next((d for d in self.dues if a <= d.start < b), None)
        what = self.thing(clause, *self._thing_bounds(clause, what_start, verb.start("v"), due, a))
        if not what:
            return None
        must = aux is not None and aux.group("aux").lower().startswith(("muss", "müss"))
        if (aux is None and not _DE_OWE.search(clause) and due is None) or (must and to_whom is None):
            return None  # the present tense is only a promise with a date; "muss" only with a recipient
        start, end = self.span(a, b)
        still = bool(_DE_STILL.search(clause)) and _DE_OWE.search(clause) is not None
        return Found(
            "commitment", start, end, who[0], what, to_whom, due.text if due else None,
            due.date if due else None, "de", still,
        )  # fmt: skip

    def promised(self) -> Found | None:
        """ "Ich hab Veronika versprochen, dass der Antrag ... draußen ist": who promised whom, the
        thing the promised clause names, and its date."""
        self.clause_at = 0
        m = _DE_PROMISED.search(self.text)
        if m is None or _DE_NEGATION.search(self.text[: m.start("rest")]):
            return None
        who = self.party(m.group("who"), self.at(m.start("who")))
        to = m.group("to").split()[-1]
        to_whom = self.party(to, self.at(m.end("to") - len(to)))
        due = next((d for d in self.dues if d.start >= m.start("rest")), None)
        what = self.thing(self.text, m.start("rest"), len(self.text))
        if who is None or to_whom is None or not what:
            return None
        start, end = self.span(m.start(), len(self.text))
        return Found(
            "commitment", start, end, who, what, to_whom, due.text if due else None,
            due.date if due else None, "de",
        )  # fmt: skip

    @staticmethod
    def _thing_bounds(clause: str, start: int, verb: int, due: Due | None, a: int) -> tuple[int, int]:
        """Where the thing may be: after the recipient, before an infinitive at the end ("soll ... die
        Zahlen liefern") and the deadline; a deadline said first ("uns bis Mittwoch die Zahlen") is
        stepped over."""
        end = verb if verb > start else len(clause)
        if due is not None and due.start - a >= start:
            if clause[start : due.start - a].strip():
                end = min(end, due.start - a)
            else:
                start = due.end - a
        return start, end

    def subject(self, clause: str, verb_start: int, verb_end: int) -> tuple[str, int] | None:
        """(who, where it ends) for the word before the verb, or right after it (inversion)."""
        before = _DE_SUBJECT_BEFORE.search(clause[:verb_start])
        after = _DE_SUBJECT_AFTER.match(clause[verb_end:])
        for m, offset in ((before, 0), (after, verb_end)):
            if m is None:
                continue
            word = m.group("w")
            party = self.party(word, self.at(offset + m.start("w")))
            if party is not None and m.groupdict().get("title"):
                party = _titled(m.group("title"), word)
            if party is not None:
                return party, offset + m.end("w")
        return None

    def party(self, word: str, at: int) -> str | None:
        lowered = word.lower()
        if lowered in _DE_PRONOUNS:
            return _DE_PRONOUNS[lowered]
        if lowered in _DE_THIRD:
            return self.context.person_before(at) or lowered
        if word[:1].isupper() and not _DE_ARTICLE.fullmatch(word):
            return self.context.person_at(at, at + len(word)) or (word if word[1:].islower() else None)
        return None

    def recipient(self, clause: str, at: int) -> tuple[str | None, int]:
        """ "schicke Jana die Folien", "liefert uns den Datenabzug": (to whom, where the thing starts)."""
        m = _DE_RECIPIENT.match(clause, at)
        if m is not None and m.group("np"):
            return m.group("np"), m.end()  # "dem Kunden"
        if m is not None and m.group("pronoun"):
            return self.party(m.group("pronoun"), self.at(m.start("pronoun"))), m.end()
        if m is not None and not _DE_ARTICLE.fullmatch(m.group("w")):
            party = self.party(m.group("w"), self.at(m.start("w")))
            if party is not None and m.group("title"):
                party = _titled(m.group("title"), m.group("w"))
            if party is not None:
                return party, m.end()
        m = _DE_TO.search(clause, at)
        if m is not None:
            return self.party(m.group("w"), self.at(m.start("w"))), at
        return None, at

    def thing(self, clause: str, at: int, stop: int) -> str:
        """From the first article after `at` up to the deadline (or `stop`)."""
        m = re.compile(rf"\b{_DE_ARTICLE.pattern}", re.I).search(clause, at)
        if m is None or m.start() >= stop:
            return ""
        words = _DE_THING_END.split(clause[m.start() : stop])[0]
        return " ".join(words.split()[:WHAT_WORDS]).strip(" ,;:")

    def span(self, a: int, b: int) -> tuple[int, int]:
        piece = self.text[a:b]
        lead = len(piece) - len(piece.lstrip())
        return self.sentence.start + a + lead, self.sentence.start + a + len(piece.rstrip(" .,;"))

    def delivery(self, a: int, b: int) -> Found | None:
        clause, self.clause_at = self.text[a:b], a
        if _DE_NEGATION.search(clause):
            return None
        start, end = self.span(a, b)
        if m := _DE_ARRIVED.search(clause):
            who = m.group("from") or ""
            return Found("delivery", start, end, who, m.group("what"), None, language="de")
        if m := _DE_SENT.search(clause):
            who = self.party(m.group("who"), self.at(m.start("who"))) or m.group("who")
            to_whom, at = self.recipient(clause, m.start("rest") - 1)
            what = self.thing(clause, at, m.start("v"))
            if m.group("v").lower() in ("bekommen", "erhalten"):
                who, to_whom = (to_whom or ""), who
            return Found("delivery", start, end, who, what, to_whom, language="de") if what else None
        return None


def _titled(title: str, name: str) -> str:
    """ "Herrn Krause" (dative) → "Herr Krause"."""
    return f"{re.sub(r'(?i)^herrn$', 'Herr', title.strip())} {name}"
